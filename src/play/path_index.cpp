// SPDX-License-Identifier: MIT
// Solution-path indexes (include/pegsol/path_index.hpp): built from a census keeping its solution
// paths and a backward pass over them for the ways and end holes, and answered from their levels
// (path_index_impl.hpp). The cache that builds them is path_index_cache.cpp.
#include "pegsol/path_index.hpp"

#ifdef __GLIBC__
#include <malloc.h>  // malloc_trim
#endif

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <stdexcept>

#include "../census/access.hpp"
#include "../core/checks.hpp"
#include "../core/control_access.hpp"
#include "../core/geometry.hpp"
#include "../core/hash.hpp"
#include "../core/layout.hpp"
#include "../core/pool.hpp"
#include "../core/probe.hpp"
#include "../core/symmetry.hpp"
#include "path_index_impl.hpp"
#include "pegsol/error.hpp"

namespace pegsol {

namespace {

using path_index_detail::u32;
using path_index_detail::u64;

constexpr std::size_t kChunk = 2048;  // positions of one work item of the backward pass
constexpr std::size_t kBatch = 32;    // positions whose children are looked up together

// The end-hole masks' numbers: an open-addressing table (the masks are few, and each position
// of a level looks its mask up in turn).
class MaskTable {
 public:
  // The number of `mask` in `masks`, appended when new.
  u32 id(u64 mask, std::vector<u64>& masks) {
    if (2 * (masks.size() + 1) > slots_.size()) grow(masks);
    u32& s = slots_[probe_slot(slots_.data(), slots_.size() - 1, hash(mask), vacant,
                               [&](u32 k) { return masks[k] == mask; })];
    if (s == kFree) {
      s = static_cast<u32>(masks.size());
      masks.push_back(mask);
    }
    return s;
  }

 private:
  static constexpr u32 kFree = ~u32{0};
  static bool vacant(u32 s) { return s == kFree; }
  static u64 hash(u64 x) { return golden_hash(x, 20); }
  void grow(const std::vector<u64>& masks) {
    std::size_t size = 64;
    while (size < 4 * (masks.size() + 1)) size *= 2;
    slots_.assign(size, kFree);
    for (u32 k = 0; k < masks.size(); ++k)
      slots_[probe_empty(slots_.data(), size - 1, hash(masks[k]), vacant)] = k;
  }
  std::vector<u32> slots_;
};

void add_ways(Count& a, Count b) {
  if (b > ~Count{0} - a) throw CensusError("path index: a count of ways overflows 128 bits");
  a += b;
}

}  // namespace

namespace {

// The solution-path census of p and what it answers: towards one peg anywhere when the goal is
// Any or, with `one_peg`, a hole that the symmetries fixing the start all fix.
Problem census_problem(const Problem& p, bool one_peg) {
  if (p.goal.kind == Goal::Kind::Any) return p;
  if (one_peg && p.goal.kind == Goal::Kind::Hole) {
    const Problem any{p.board, p.start, Goal{}};
    const auto& all = p.board->symmetries();
    bool fixed = true;
    for (int s : problem_symmetries(*p.board, any))
      fixed &=
          all[static_cast<std::size_t>(s)][static_cast<std::size_t>(p.goal.hole)] == p.goal.hole;
    if (fixed) return any;
  }
  return p;
}

std::string stop_text(StopReason r, const std::string& note) {
  return "the census stopped (" + std::string(stop_reason_name(r)) + ")" +
         (note.empty() ? "" : ": " + note);
}

}  // namespace

std::string problem_key(const Problem& p) {
  check_problem(p);
  const Board& b = *p.board;
  std::string k = b.name() + '|' + std::to_string(static_cast<int>(b.lattice())) + '|';
  for (int h = 0; h < b.size(); ++h) {
    const Coord c = b.coord(h);
    k += std::to_string(c.r) + ',' + std::to_string(c.c) + ';';
  }
  k += '|';
  for (const Coord& d : b.directions()) k += std::to_string(d.r) + ',' + std::to_string(d.c) + ';';
  k += '|' + p.start.to_bits() + '|' + std::to_string(static_cast<int>(p.goal.kind)) + ',' +
       std::to_string(p.goal.hole);
  if (p.goal.kind == Goal::Kind::Position) k += ',' + p.goal.position.to_bits();
  return k;
}

bool PathIndex::answers_one_peg(const Problem& p, bool one_peg) {
  check_problem(p);
  return census_problem(p, one_peg).goal.kind == Goal::Kind::Any;
}

PathIndex::PathIndex(const Problem& p, std::size_t memory, const Control* control, int threads)
    : PathIndex(p, Options{memory, control, threads, true}) {}

PathIndex::PathIndex(const Problem& p, const Options& o) : problem_(p) {
  check_problem(p);
  checks::threads(o.threads, "PathIndex::Options::threads");
  if (p.board->width() != 64)
    throw InputError("a solution-path index needs a board whose layout fits 64 bits; " +
                     p.board->name() + " needs " + std::to_string(p.board->width()));
  impl_ = std::make_unique<Impl>(*p.board);
  Impl& m = *impl_;
  const Problem cp = census_problem(p, o.one_peg);
  m.to_any = cp.goal.kind == Goal::Kind::Any;
  m.combined = m.to_any && p.goal.kind == Goal::Kind::Hole;
  m.base = goal_pegs(cp);
  if (m.combined) m.goal_bit = u64{1} << layout(*p.board).bit(p.goal.hole);
  // The census runs under a child control holding this index's own memory budget.
  Control budget(o.control);
  budget.set_memory_budget(o.memory);
  CensusOptions co;
  CensusAccess::set_keep_paths(co, true);
  co.distinct = false;
  co.random_player = false;
  co.threads = o.threads;
  co.control = &budget;
  try {
    CensusResult r = census(cp, co);
    census_seconds_ = r.seconds;
    census_peak_ = r.peak_bytes;
    // The budget that stops it is this index's own (PathIndex::Options::memory), or the caller's
    // control's when smaller.
    const bool own = o.control == nullptr || o.control->memory_budget() == 0 ||
                     (o.memory != 0 && o.memory <= o.control->memory_budget());
    const std::shared_ptr<census_detail::KeptPaths> kept = CensusAccess::take_paths(r);
    if (r.stop != StopReason::None)
      failed_ = stop_text(r.stop, rename_fields(r.stop_note, [&](std::string_view f) {
                            return f == "Control::memory_budget" && own
                                       ? std::string("PathIndex::Options::memory")
                                       : std::string();
                          }));
    else if (!kept)
      failed_ = "the census kept no solution paths";
    if (failed_.empty()) {
      std::vector<std::vector<std::uint64_t>>& levels = kept->levels;
      m.syms = std::move(kept->symmetries);
      m.levels.resize(levels.size());
      for (std::size_t k = 0; k < levels.size(); ++k) {
        m.levels[k].keys = std::move(levels[k]);
        m.levels[k].keys.shrink_to_fit();
        kept_ += m.levels[k].keys.size();
      }
    }
  } catch (const std::exception& e) {
    failed_ = e.what();
  }
#ifdef __GLIBC__
  malloc_trim(0);  // the census's tables go back to the system
#endif
  if (!failed_.empty()) return;

  // The backward pass: from the target's level up, each position's ways are the sum of its
  // children's on the paths (a child off the paths has none), its end holes their union.
  const auto t0 = std::chrono::steady_clock::now();
  const Board& b = *p.board;
  const auto& all = b.symmetries();
  m.inv.assign(all.size(), 0);
  for (std::size_t s = 0; s < all.size(); ++s)
    for (std::size_t t = 0; t < all.size(); ++t)
      if (all[t][static_cast<std::size_t>(all[s][0])] == 0) {
        bool id = true;
        for (int h = 0; h < b.size() && id; ++h)
          id = all[t][static_cast<std::size_t>(all[s][static_cast<std::size_t>(h)])] == h;
        if (id) m.inv[s] = static_cast<int>(t);
      }
  const std::size_t ns = m.syms.size();
  // Images of every jump's mask under each group element: a child's images are its parent's
  // XOR these (symmetries permute holes, so they commute with XOR).
  std::vector<u64> flips(b.jumps().size() * ns);
  for (std::size_t j = 0; j < b.jumps().size(); ++j)
    for (std::size_t q = 0; q < ns; ++q)
      flips[j * ns + q] = m.image(m.syms[q], m.geo.jump_mask(static_cast<int>(j)).w[0]);
  std::uint64_t total = 0;
  for (const auto& lv : m.levels) total += lv.keys.size();
  std::uint64_t done = 0;
  MaskTable mask_ids;
  try {
    WorkerPool pool(o.threads);
    const int workers = pool.size();
    for (std::size_t k = 0; k < m.levels.size(); ++k) {
      Impl::Level& lv = m.levels[k];
      if (lv.keys.empty()) continue;
      lv.index();
      const std::size_t n = lv.keys.size();
      std::vector<Count> ways(n, 0), goal(m.combined ? n : 0, 0);
      std::vector<u64> ends(m.to_any ? n : 0, 0);
      if (static_cast<int>(k) <= m.base) {
        // The target's level: each kept position is the target (one way), or for a combined
        // index one peg whose hole is the goal's (the group fixes the goal hole).
        for (std::size_t i = 0; i < n; ++i) {
          ways[i] = 1;
          if (m.to_any) ends[i] = lv.keys[i];
          if (m.combined) goal[i] = lv.keys[i] == m.goal_bit ? 1 : 0;
        }
      } else {
        const Impl::Level& below = m.levels[k - 1];
        const std::size_t chunks = (n + kChunk - 1) / kChunk;
        pool.parallel_for(workers, chunks, [&](std::size_t c, int) {
          if (o.control) o.control->throw_if_stopped();
          // A batch of positions at a time: their children's canonical keys first, then each
          // key's bucket and bucket middle prefetched, then the searches (memory-bound).
          struct Edge {
            u64 key;
            u32 lo, len;
            std::uint16_t parent, q;
          };
          std::vector<Edge> edges;
          edges.reserve(kBatch * b.jumps().size());
          u64 img[64];
          Count w[kBatch], g[kBatch];
          u64 e[kBatch];
          const std::size_t i1 = std::min(n, (c + 1) * kChunk);
          for (std::size_t b0 = c * kChunk; b0 < i1; b0 += kBatch) {
            const std::size_t b1 = std::min(i1, b0 + kBatch);
            edges.clear();
            for (std::size_t i = b0; i < b1; ++i) {
              Bits<64> x;
              x.w[0] = lv.keys[i];
              for (std::size_t q = 0; q < ns; ++q) img[q] = q ? m.image(m.syms[q], x.w[0]) : x.w[0];
              m.geo.for_each_jump(x, [&](int j) {
                const u64* f = &flips[static_cast<std::size_t>(j) * ns];
                u64 best = img[0] ^ f[0];
                std::size_t bq = 0;
                for (std::size_t q = 1; q < ns; ++q)
                  if ((img[q] ^ f[q]) < best) {
                    best = img[q] ^ f[q];
                    bq = q;
                  }
                edges.push_back({best, 0, 0, static_cast<std::uint16_t>(i - b0),
                                 static_cast<std::uint16_t>(bq)});
                below.prefetch_bucket(best);
              });
            }
            for (Edge& ed : edges) {
              below.bucket(ed.key, ed.lo, ed.len);
              if (ed.len) __builtin_prefetch(below.keys.data() + ed.lo + ed.len / 2);
            }
            for (std::size_t i = 0; i < b1 - b0; ++i) {
              w[i] = g[i] = 0;
              e[i] = 0;
            }
            for (const Edge& ed : edges) {
              const long at = below.search(ed.key, ed.lo, ed.len);
              if (at < 0) continue;
              const auto ci = static_cast<std::size_t>(at);
              add_ways(w[ed.parent], below.ways.at(ci));
              if (m.combined) add_ways(g[ed.parent], below.goal.at(ci));
              if (m.to_any) {
                const u64 ce = m.end_masks[below.ends[ci]];
                e[ed.parent] |=
                    ed.q ? m.image(m.inv[static_cast<std::size_t>(m.syms[ed.q])], ce) : ce;
              }
            }
            for (std::size_t i = b0; i < b1; ++i) {
              ways[i] = w[i - b0];
              if (m.combined) goal[i] = g[i - b0];
              if (m.to_any) ends[i] = e[i - b0];
            }
          }
        });
      }
      lv.ways.assign(ways);
      if (m.combined) lv.goal.assign(goal);
      if (m.to_any) {
        lv.ends.resize(n);
        for (std::size_t i = 0; i < n; ++i) lv.ends[i] = mask_ids.id(ends[i], m.end_masks);
      }
      if (m.combined) {
        for (const Count& g : goal) positions_ += g > 0;
      } else {
        positions_ += n;
      }
      done += n;
      if (o.control) {
        ProgressReport pr;
        pr.phase = "ways";
        pr.level = static_cast<int>(k);
        pr.done = done;
        pr.total = total;
        pr.positions = done;
        o.control->report(pr);
      }
    }
  } catch (const Stopped& s) {
    failed_ = "the count of the ways along the paths stopped (" +
              std::string(stop_reason_name(s.reason)) + ")";
  } catch (const std::exception& e) {
    failed_ = e.what();
  }
  ways_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!failed_.empty()) {
    m.levels.clear();
    return;
  }
  if (o.memory && bytes() > o.memory)
    failed_ = "the look-ups would hold " + std::to_string(bytes() >> 20) +
              " MiB, over their memory limit of " + std::to_string(o.memory >> 20) + " MiB";
}

PathIndex::~PathIndex() = default;

bool PathIndex::answers(PathTarget t) const {
  return ok() && (t == PathTarget::Goal || impl_->to_any);
}

bool PathIndex::on_path(const HoleSet& pegs, PathTarget t) const {
  check_position(*problem_.board, pegs, "pegs");
  if (!answers(t)) return false;
  auto f = impl_->locate(impl_->geo.to_bits(pegs).w[0]);
  return f && impl_->ways(*f, t) > 0;
}

Count PathIndex::ways(const HoleSet& pegs, PathTarget t) const {
  check_position(*problem_.board, pegs, "pegs");
  if (!answers(t)) throw InputError("t", "the index does not answer towards this target");
  auto f = impl_->locate(impl_->geo.to_bits(pegs).w[0]);
  return f ? impl_->ways(*f, t) : 0;
}

HoleSet PathIndex::end_holes(const HoleSet& pegs) const {
  check_position(*problem_.board, pegs, "pegs");
  if (!answers(PathTarget::OnePeg))
    throw InputError("pegs", "the index does not answer towards one peg anywhere");
  const Impl& m = *impl_;
  auto f = m.locate(m.geo.to_bits(pegs).w[0]);
  HoleSet out(problem_.board->size());
  if (!f) return out;
  const u64 mask = m.end_masks[f->level->ends[f->i]];
  Bits<64> x;
  x.w[0] = f->sym ? m.image(m.inv[static_cast<std::size_t>(f->sym)], mask) : mask;
  return m.geo.to_holes(x);
}

std::vector<Jump> PathIndex::solution_from(const HoleSet& pegs, PathTarget t) const {
  if (!on_path(pegs, t))
    throw InputError("pegs", "the position is not on a solution path of the index");
  const Impl& m = *impl_;
  std::vector<Jump> moves;
  Bits<64> x = m.geo.to_bits(pegs);
  const Problem target{problem_.board, pegs, t == PathTarget::Goal ? problem_.goal : Goal{}};
  HoleSet at = pegs;
  while (!goal_reached(target, at)) {
    int next = -1;
    m.geo.for_each_jump(x, [&](int j) {
      if (next >= 0) return;
      auto f = m.locate((x ^ m.geo.jump_mask(j)).w[0]);
      if (f && m.ways(*f, t) > 0) next = j;
    });
    if (next < 0) throw InternalError("path index: the solution paths lost their way");
    const Jump& j = problem_.board->jumps()[static_cast<std::size_t>(next)];
    moves.push_back(j);
    at.set(j.from, false);
    at.set(j.over, false);
    at.set(j.to);
    x ^= m.geo.jump_mask(next);
  }
  return moves;
}

std::size_t PathIndex::bytes() const {
  std::size_t n = sizeof(*this) + sizeof(Impl);
  if (impl_) {
    for (const auto& l : impl_->levels) n += l.bytes();
    n += impl_->end_masks.capacity() * sizeof(u64);
  }
  return n;
}

}  // namespace pegsol
