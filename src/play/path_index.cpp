// SPDX-License-Identifier: MIT
// Solution-path indexes (include/pegsol/path_index.hpp): a census keeping its solution paths, a
// backward pass over them for the ways and end holes, and a cache that builds them in a
// background thread (or in the caller's) and says how far they are.
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
#include "pegsol/error.hpp"

namespace pegsol {

namespace census_detail {
std::size_t default_memory_limit();  // the census's own default (src/census/memory.cpp)
}  // namespace census_detail

// Named, not anonymous: PathIndex::Impl (external linkage) holds Counts (gcc's
// -Wsubobject-linkage in unity builds).
namespace path_index_detail {

using u64 = std::uint64_t;
using u32 = std::uint32_t;

// Exact counts of one level: 64-bit words, and the high words apart when a count needs them.
struct Counts {
  std::vector<u64> lo;
  std::vector<u64> hi;  // empty when every count fits 64 bits
  Count at(std::size_t i) const {
    return hi.empty() ? Count{lo[i]} : (static_cast<Count>(hi[i]) << 64 | lo[i]);
  }
  void assign(const std::vector<Count>& c) {
    lo.resize(c.size());
    bool wide = false;
    for (std::size_t i = 0; i < c.size(); ++i) {
      lo[i] = static_cast<u64>(c[i]);
      wide |= (c[i] >> 64) != 0;
    }
    hi.clear();
    if (wide) {
      hi.resize(c.size());
      for (std::size_t i = 0; i < c.size(); ++i) hi[i] = static_cast<u64>(c[i] >> 64);
    }
    lo.shrink_to_fit();
    hi.shrink_to_fit();
  }
  std::size_t bytes() const { return (lo.capacity() + hi.capacity()) * sizeof(u64); }
};

}  // namespace path_index_detail

namespace {

using path_index_detail::Counts;
using path_index_detail::u32;
using path_index_detail::u64;

constexpr std::size_t kMaxSlots = 256;  // problems the cache remembers (built or failed)
constexpr std::size_t kChunk = 2048;    // positions of one work item of the backward pass
constexpr std::size_t kBatch = 32;      // positions whose children are looked up together
// Share of a build's time the census takes (the rest is the backward pass): a progress estimate.
constexpr double kCensusShare = 0.8;
// A level's directory has about a bucket per two keys: a search reads a bucket and a line or two.
constexpr int kDirSlack = 1;

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

// The board's tables and the levels. Level k holds the census's solution-path positions with k
// pegs, one per orbit under the census group: canonical layouts (the least image read as a 64-bit
// integer), sorted; a directory over their high bits narrows each binary search to a bucket.
// Beside each key: its ways to the census's target (and to the goal, when the census is towards
// one peg anywhere and the goal is a hole), and for one peg anywhere the holes the last peg can
// end on, as an index into a table of layout masks (of the canonical position: another member of
// the orbit ends on the masks' images).
struct PathIndex::Impl {
  explicit Impl(const Board& b) : geo(b) {}

  struct Level {
    std::vector<u64> keys;
    std::vector<u32> dir;  // bucket (key >> shift) holds keys [dir[b], dir[b + 1])
    int shift = 64;
    Counts ways;            // to the census's target
    Counts goal;            // to the goal hole (combined only)
    std::vector<u32> ends;  // into end_masks (census towards one peg anywhere)

    // The bucket of c: keys [lo, lo + len) (every key when there is no directory).
    void bucket(u64 c, u32& lo, u32& len) const {
      if (dir.empty()) {
        lo = 0;
        len = static_cast<u32>(keys.size());
        return;
      }
      const u64 b = c >> shift;
      if (b + 1 >= dir.size()) {
        lo = len = 0;
        return;
      }
      lo = dir[b];
      len = dir[b + 1] - lo;
    }
    void prefetch_bucket(u64 c) const {
      if (!dir.empty() && (c >> shift) + 1 < dir.size()) __builtin_prefetch(&dir[c >> shift]);
    }
    // The index of c among keys [lo, lo + len), or -1: a branch-free lower bound.
    long search(u64 c, u32 lo, u32 len) const {
      if (len == 0) return -1;
      const u64* base = keys.data() + lo;
      while (len > 1) {
        const u32 half = len / 2;
        base += static_cast<std::size_t>(base[half - 1] < c) * half;
        len -= half;
      }
      return *base == c ? static_cast<long>(base - keys.data()) : -1;
    }
    long find(u64 c) const {
      u32 lo = 0, len = 0;
      bucket(c, lo, len);
      return search(c, lo, len);
    }
    void index() {
      dir.clear();
      if (keys.size() < 256) return;
      const int top = std::bit_width(keys.back());
      const int d =
          std::min(24, std::max(1, static_cast<int>(std::bit_width(keys.size())) - kDirSlack));
      shift = std::max(0, top - d);
      const std::size_t buckets = static_cast<std::size_t>((keys.back() >> shift) + 1);
      dir.assign(buckets + 1, 0);
      for (u64 k : keys) ++dir[static_cast<std::size_t>(k >> shift) + 1];
      for (std::size_t b = 1; b < dir.size(); ++b) dir[b] += dir[b - 1];
    }
    std::size_t bytes() const {
      return keys.capacity() * sizeof(u64) + dir.capacity() * sizeof(u32) + ways.bytes() +
             goal.bytes() + ends.capacity() * sizeof(u32);
    }
  };

  Geometry<64> geo;
  std::vector<int> syms;  // the census group: indices into the board's symmetries, 0 first
  std::vector<int> inv;   // inverse of each board symmetry
  std::vector<Level> levels;
  std::vector<u64> end_masks;
  bool to_any = false;    // the census is towards one peg anywhere
  bool combined = false;  // ... and the problem's goal is a hole it answers too (Level::goal)
  int base = 1;           // pegs at the census's target
  u64 goal_bit = 0;       // combined: the goal hole's layout bit

  u64 image(int s, u64 x) const {
    Bits<64> b;
    b.w[0] = x;
    return geo.apply(s, b).w[0];
  }
  // The least image of x under the group, and the symmetry (a board index) giving it.
  u64 canonical(u64 x, int& sym) const {
    u64 best = x;
    sym = 0;
    for (int s : syms)
      if (s != 0) {
        const u64 q = image(s, x);
        if (q < best) {
          best = q;
          sym = s;
        }
      }
    return best;
  }
  struct Found {
    const Level* level = nullptr;
    std::size_t i = 0;
    int sym = 0;  // maps the position asked about to its level's key
  };
  std::optional<Found> locate(u64 x) const {
    const auto k = static_cast<std::size_t>(std::popcount(x));
    if (k >= levels.size()) return std::nullopt;
    Found f;
    const u64 c = canonical(x, f.sym);
    const long i = levels[k].find(c);
    if (i < 0) return std::nullopt;
    f.level = &levels[k];
    f.i = static_cast<std::size_t>(i);
    return f;
  }
  Count ways(const Found& f, PathTarget t) const {
    if (t == PathTarget::Goal && combined) return f.level->goal.at(f.i);
    return f.level->ways.at(f.i);
  }
};

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

const char* lookup_state_name(LookupStatus::State s) {
  switch (s) {
    case LookupStatus::State::None:
      return "none";
    case LookupStatus::State::Queued:
      return "queued";
    case LookupStatus::State::Building:
      return "building";
    case LookupStatus::State::Ready:
      return "ready";
    case LookupStatus::State::Failed:
      return "failed";
  }
  return "none";
}

// One problem's entry: its index once built, or why it could not be, and while it is being
// built how far it is.
struct PathIndexCache::Slot {
  Problem problem;
  std::string key;
  enum class State { Queued, Building, Built, Failed } state = State::Queued;
  std::shared_ptr<const PathIndex> index;
  std::string failed;
  std::uint64_t used = 0;  // tick of the last get()
  // While building (under the cache's mutex): the phase, level and fraction last reported.
  std::string phase;
  int level = -1;
  double fraction = 0;
  Control::Clock::time_point started{};
};

PathIndexCache::PathIndexCache(Options o) : opt_(o) {
  checks::seconds(opt_.build_seconds, "PathIndexCache::Options::build_seconds");
  checks::threads(opt_.build_threads, "PathIndexCache::Options::build_threads");
  if (opt_.build_memory == 0)
    opt_.build_memory = std::clamp(census_detail::default_memory_limit() / 4,
                                   std::size_t{512} << 20, std::size_t{4} << 30);
  if (opt_.background) worker_ = std::thread([this] { run(); });
}

PathIndexCache::~PathIndexCache() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cancel_ = true;
  changed_.notify_all();
  if (worker_.joinable()) worker_.join();
}

std::shared_ptr<PathIndexCache::Slot> PathIndexCache::slot_for(const Problem& p) {
  std::string key = problem_key(p);
  auto it = slots_.find(key);
  if (it != slots_.end()) {
    it->second->used = ++tick_;
    return it->second;
  }
  if (slots_.size() >= kMaxSlots) {
    // The least recent entry that no build holds goes (a failure is then tried again).
    auto oldest = slots_.end();
    for (auto i = slots_.begin(); i != slots_.end(); ++i)
      if ((i->second->state == Slot::State::Built || i->second->state == Slot::State::Failed) &&
          (oldest == slots_.end() || i->second->used < oldest->second->used))
        oldest = i;
    if (oldest != slots_.end()) slots_.erase(oldest);
  }
  auto s = std::make_shared<Slot>();
  s->problem = p;
  s->key = key;
  s->used = ++tick_;
  slots_.emplace(std::move(key), s);
  return s;
}

namespace {
std::string note_of(const std::string& failed) {
  return "no census look-up: " + failed;
}
constexpr const char* kTooWide = "the board's layout is wider than 64 bits";

// The indexes a game of p needs: p's own, and one peg anywhere's when p's does not answer it.
std::vector<Problem> needed(const Problem& p) {
  std::vector<Problem> out{p};
  if (!PathIndex::answers_one_peg(p)) out.push_back(Problem{p.board, p.start, Goal{}});
  return out;
}
}  // namespace

std::shared_ptr<const PathIndex> PathIndexCache::get(const Problem& p, std::string* note) {
  if (p.board->width() != 64) {
    if (note) *note = note_of(kTooWide);
    return nullptr;
  }
  if (!opt_.background) return wait(p, note);
  std::lock_guard lock(mutex_);
  return get_locked(p, note);
}

std::shared_ptr<const PathIndex> PathIndexCache::get_locked(const Problem& p, std::string* note) {
  const bool known = slots_.count(problem_key(p)) != 0;
  if (!known && queue_.size() >= opt_.max_queued) {
    if (note) *note = note_of("other look-ups are being built");
    return nullptr;
  }
  std::shared_ptr<Slot> s = slot_for(p);
  switch (s->state) {
    case Slot::State::Built:
      return s->index;
    case Slot::State::Failed:
      if (note) *note = note_of(s->failed);
      return nullptr;
    case Slot::State::Building:
      if (note) *note = note_of("being built");
      return nullptr;
    case Slot::State::Queued:
      if (!known) {
        queue_.push_back(s);
        changed_.notify_all();
      }
      if (note) *note = note_of("queued to be built");
      return nullptr;
  }
  return nullptr;
}

std::shared_ptr<const PathIndex> PathIndexCache::wait(const Problem& p, std::string* note,
                                                      const Control* control) {
  if (p.board->width() != 64) {
    if (note) *note = note_of(kTooWide);
    return nullptr;
  }
  std::unique_lock lock(mutex_);
  std::shared_ptr<Slot> s = slot_for(p);
  if (s->state == Slot::State::Queued) {
    // Built here: taken off the queue so that the worker does not build it too.
    queue_.erase(std::remove(queue_.begin(), queue_.end(), s), queue_.end());
    s->state = Slot::State::Building;
    s->started = Control::Clock::now();
    lock.unlock();
    build(*s, control);
    lock.lock();
    changed_.notify_all();
  }
  changed_.wait(lock, [&] {
    return stopping_ || s->state == Slot::State::Built || s->state == Slot::State::Failed;
  });
  if (s->state == Slot::State::Built) return s->index;
  if (note) *note = note_of(s->state == Slot::State::Failed ? s->failed : "the cache stopped");
  return nullptr;
}

std::shared_ptr<const PathIndex> PathIndexCache::await(const Problem& p, const Control& control,
                                                       std::string* note) {
  std::unique_lock lock(mutex_);
  auto it = slots_.find(problem_key(p));
  if (it == slots_.end()) return nullptr;
  std::shared_ptr<Slot> s = it->second;
  auto pending = [&] {
    return !stopping_ && (s->state == Slot::State::Queued || s->state == Slot::State::Building);
  };
  if (s->state == Slot::State::Queued && std::find(queue_.begin(), queue_.end(), s) == queue_.end())
    return nullptr;  // known but not queued (the queue was full): nothing to wait for
  while (pending() && !control.should_stop())
    changed_.wait_for(lock, std::chrono::milliseconds(20));
  if (s->state == Slot::State::Built) {
    s->used = ++tick_;
    return s->index;
  }
  if (note) *note = note_of(s->state == Slot::State::Failed ? s->failed : "being built");
  return nullptr;
}

void PathIndexCache::build(Slot& s, const Control* caller) {
  std::shared_ptr<PathIndex> index;
  std::string failed;
  bool forget = false;  // the caller stopped it: not a failure to remember
  {
    // Stopped by the caller's control (when given), the cache's destructor, or the cache's time.
    Control c(caller);
    c.watch(&cancel_);
    c.set_time_limit(opt_.build_seconds);
    // Progress: the census's reports, then the pass's, as a fraction of the whole build.
    c.set_progress(
        [&](const ProgressReport& r) {
          double f = kCensusShare;
          if (r.phase == "ways")
            f = kCensusShare + (1 - kCensusShare) * r.fraction;
          else if (r.phase != "done")
            f = kCensusShare * r.fraction;
          double now = 0;
          {
            std::lock_guard lock(mutex_);
            s.phase = std::string(r.phase == "done" ? "ways" : r.phase);
            s.level = r.level;
            s.fraction = std::max(s.fraction, std::min(1.0, f));
            now = s.fraction;
          }
          if (caller && ControlAccess::wants_progress(*caller)) {
            ProgressReport out = r;
            out.fraction = now;
            out.done = static_cast<std::uint64_t>(now * 1000);
            out.total = 1000;
            caller->report(out);
          }
        },
        0.1);
    try {
      PathIndex::Options po;
      po.memory = opt_.build_memory;
      po.control = &c;
      po.threads = opt_.build_threads;
      index = std::make_shared<PathIndex>(s.problem, po);
      if (!index->ok()) failed = index->failed();
    } catch (const std::exception& e) {
      failed = e.what();
    }
    forget = !failed.empty() && caller && caller->should_stop();
  }
  std::lock_guard lock(mutex_);
  if (forget) {
    s.failed = "stopped by its caller";
    s.state = Slot::State::Failed;
    slots_.erase(s.key);  // the caller holds the slot
  } else if (failed.empty()) {
    s.index = std::move(index);
    s.state = Slot::State::Built;
    trim();
  } else {
    s.failed = std::move(failed);
    s.state = Slot::State::Failed;
  }
}

void PathIndexCache::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    std::shared_ptr<Slot> s = queue_.front();
    queue_.pop_front();
    if (s->state != Slot::State::Queued) continue;
    s->state = Slot::State::Building;
    s->started = Control::Clock::now();
    lock.unlock();
    build(*s, nullptr);
    lock.lock();
    changed_.notify_all();
  }
}

void PathIndexCache::trim() {
  for (;;) {
    std::size_t total = 0;
    std::shared_ptr<Slot> oldest;
    for (auto& [key, s] : slots_) {
      if (s->state != Slot::State::Built) continue;
      total += s->index->bytes();
      if (!oldest || s->used < oldest->used) oldest = s;
    }
    if (total <= opt_.keep_bytes || !oldest) return;
    // The least recent goes (callers holding it keep their copy); the newest always stays.
    std::size_t built = 0;
    for (auto& [key, s] : slots_) built += s->state == Slot::State::Built;
    if (built <= 1) return;
    slots_.erase(oldest->key);
  }
}

std::size_t PathIndexCache::bytes() const {
  std::lock_guard lock(mutex_);
  std::size_t total = 0;
  for (const auto& [key, s] : slots_)
    if (s->state == Slot::State::Built) total += s->index->bytes();
  return total;
}

LookupStatus PathIndexCache::slot_status(const Problem& p) const {
  LookupStatus st;
  if (p.board->width() != 64) {
    st.why = kTooWide;
    return st;
  }
  auto it = slots_.find(problem_key(p));
  if (it == slots_.end()) return st;
  const Slot& s = *it->second;
  switch (s.state) {
    case Slot::State::Queued:
      if (std::find(queue_.begin(), queue_.end(), it->second) != queue_.end())
        st.state = LookupStatus::State::Queued;
      break;
    case Slot::State::Building:
      st.state = LookupStatus::State::Building;
      st.phase = s.phase.empty() ? "forward" : s.phase;
      st.level = s.level;
      st.fraction = s.fraction;
      st.seconds = std::chrono::duration<double>(Control::Clock::now() - s.started).count();
      break;
    case Slot::State::Built:
      st.state = LookupStatus::State::Ready;
      st.fraction = 1;
      st.seconds = s.index->seconds();
      st.bytes = s.index->bytes();
      break;
    case Slot::State::Failed:
      st.state = LookupStatus::State::Failed;
      st.why = s.failed;
      break;
  }
  return st;
}

LookupStatus PathIndexCache::status(const Problem& p) const {
  std::lock_guard lock(mutex_);
  const std::vector<Problem> ps = needed(p);
  LookupStatus out;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    LookupStatus st = slot_status(ps[i]);
    if (i == 0) {
      out = st;
      continue;
    }
    // The less advanced state leads (a failure first), the fractions average, the rest adds up.
    auto rank = [](LookupStatus::State s) {
      switch (s) {
        case LookupStatus::State::Failed:
          return 0;
        case LookupStatus::State::None:
          return 1;
        case LookupStatus::State::Queued:
          return 2;
        case LookupStatus::State::Building:
          return 3;
        case LookupStatus::State::Ready:
          return 4;
      }
      return 1;
    };
    const double fraction = (out.fraction + st.fraction) / 2;
    const std::size_t bytes = out.bytes + st.bytes;
    const double seconds = out.seconds + st.seconds;
    if (rank(st.state) < rank(out.state) ||
        (st.state == LookupStatus::State::Building && out.state != LookupStatus::State::Building))
      out = st;
    out.fraction = fraction;
    out.bytes = bytes;
    out.seconds = seconds;
  }
  out.censuses = static_cast<int>(ps.size());
  return out;
}

LookupStatus PathIndexCache::start(const Problem& p, const Control* control) {
  if (p.board->width() == 64) {
    for (const Problem& q : needed(p)) {
      if (opt_.background) {
        std::lock_guard lock(mutex_);
        get_locked(q, nullptr);
        continue;
      }
      std::unique_lock lock(mutex_);
      std::shared_ptr<Slot> s = slot_for(q);
      if (s->state != Slot::State::Queued) continue;  // built, failed, or being built elsewhere
      s->state = Slot::State::Building;
      s->started = Control::Clock::now();
      s->fraction = 0;
      lock.unlock();
      build(*s, control);
      lock.lock();
      changed_.notify_all();
      if (control && control->should_stop()) break;
    }
  }
  return status(p);
}

}  // namespace pegsol
