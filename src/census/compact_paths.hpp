// SPDX-License-Identifier: MIT
// The compact census engine's solution paths (compiled per CPU tier: compact_common.hpp), by the
// complement join (self-complementary problems) or the backward pass (any other), and their
// export as CensusResult::paths.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "compact_common.hpp"
#include "compact_engine.hpp"
#include "compact_levels.hpp"
#include "compact_memory.hpp"
#include "compact_tables.hpp"
#include "pegsol/census.hpp"
#include "skeleton.hpp"

namespace pegsol::census_detail {
namespace {

// Self-complementary problems (the goal is the start's complement, as in the central game): a
// position x of level k lies on a solution path exactly when the complement of x is reachable
// (reversed and complemented, a path from x to the goal is one from the start to the
// complement). So level k's solution-path positions are those whose complement lies in the
// stored level n-k, and their complements are level n-k's: both figures at once. The
// complement's residue is total - residue(x), so each residue of level k meets one residue of
// level n-k, joined through a small set.
template <class Tier, class Kernel>
template <class C>
inline void Engine<Tier, Kernel>::complement_join(CensusResult& r, const Level<C>& cur, int k) {
  const Level<u64>* other = nullptr;
  Level<u64> self;
  if (2 * k == n_) {
    other = nullptr;
  } else {
    auto it = stored_.find(n_ - k);
    if (it == stored_.end()) return;
    other = &it->second;
  }
  std::vector<const Segment<C>*> segs;
  for (const auto& s : cur.seg) segs.push_back(&s);
  std::vector<Tally> tally(static_cast<std::size_t>(workers_));
  std::vector<std::vector<u64>> found(static_cast<std::size_t>(workers_));
  const bool collect = meet_ || want_paths(r);
  std::atomic<std::size_t> cursor{0};
  team_.run(cur.size() < 4096 ? 1 : workers_, [&](int t) {
    KeySet set;
    Tally& my = tally[static_cast<std::size_t>(t)];
    alignas(64) u64 q[8];
    alignas(64) u32 orbit[8];
    for (;;) {
      const std::size_t si = cursor.fetch_add(1);
      if (si >= segs.size()) break;
      const Segment<C>& s = *segs[si];
      shed(&cur, false);
      for (u32 res = s.lo; res < s.hi; ++res) {
        const std::size_t i0 = s.off[res - s.lo], i1 = s.off[res - s.lo + 1];
        if (i0 == i1) continue;
        const u32 cres = (total_weight_ - res) & kResidueMask;
        std::size_t count = 0;
        auto each = [&](auto&& f) {
          auto body = [&](const auto& seg, std::size_t a, std::size_t b) {
            for (std::size_t i = a; i < b; ++i) f(key_at(seg, i));
          };
          if (other)
            other->for_range(cres, cres + 1, body);
          else
            cur.for_range(cres, cres + 1, body);
        };
        each([&](u64) { ++count; });
        if (count == 0) continue;
        set.reset(count);
        each([&](u64 x) { set.insert_new(x); });
        for (std::size_t i = i0; i < i1; i += 8) {
          const std::size_t e = std::min<std::size_t>(8, i1 - i);
          for (std::size_t u = 0; u < 8; ++u) q[u] = s.key[i + (u < e ? u : 0)];
          kern_.twist8(q, q, orbit);  // the twisted complement's orbit is the position's size
          for (std::size_t u = 0; u < e; ++u) {
            const bool hit = set.template contains<Tier>(q[u]);
            my.sym += hit;
            my.raw += hit ? orbit[u] : 0;
            if (collect && hit && !(meet_ && !found[static_cast<std::size_t>(t)].empty()))
              found[static_cast<std::size_t>(t)].push_back(s.key[i + u]);  // meet: one witness
          }
        }
      }
    }
  });
  u64 raw = 0, sym = 0;
  for (const Tally& x : tally) {
    raw += x.raw;
    sym += x.sym;
  }
  join_figures(r, k, raw, sym);
  if (meet_) {
    const u64* witness = nullptr;
    for (const auto& f : found)
      if (!witness && !f.empty()) witness = &f.front();
    meet_figures(r, sym, witness);
  } else if (collect) {
    std::vector<u64>& mine = paths_[static_cast<std::size_t>(k)];
    for (auto& f : found) mine.insert(mine.end(), f.begin(), f.end());
    std::sort(mine.begin(), mine.end());
    if (2 * k != n_) {
      std::vector<u64>& theirs = paths_[static_cast<std::size_t>(n_ - k)];
      alignas(64) u64 q[8];
      u32 orbit[8];
      for (std::size_t i = 0; i < mine.size(); i += 8) {
        const std::size_t e = std::min<std::size_t>(8, mine.size() - i);
        for (std::size_t u = 0; u < 8; ++u) q[u] = mine[i + (u < e ? u : 0)];
        kern_.twist8(q, q, orbit);
        theirs.insert(theirs.end(), q, q + e);
      }
      std::sort(theirs.begin(), theirs.end());
    }
  }
  if (other) stored_.erase(n_ - k);
}

// Level k's solution-path figures from the complement join, and level n-k's (the same).
template <class Tier, class Kernel>
inline void Engine<Tier, Kernel>::join_figures(CensusResult& r, int k, u64 raw, u64 sym) {
  r.levels[static_cast<std::size_t>(k)].on_path_raw = raw;
  r.levels[static_cast<std::size_t>(k)].on_path_sym = sym;
  r.levels[static_cast<std::size_t>(n_ - k)].on_path_raw = raw;
  r.levels[static_cast<std::size_t>(n_ - k)].on_path_sym = sym;
  path_raw_ += 2 * k == n_ ? raw : 2 * raw;
}

// The middle join's answer (CensusOptions::meet): sym solution-path positions in the lower middle
// level, one of them `witness` (a key; null when there are none).
template <class Tier, class Kernel>
inline void Engine<Tier, Kernel>::meet_figures(CensusResult& r, u64 sym, const u64* witness) {
  met_ = true;
  r.met = true;
  r.meet_reaches_goal = sym > 0;
  if (sym > 0 && p_.goal.kind == Goal::Kind::Hole)
    r.solutions_by_hole[static_cast<std::size_t>(p_.goal.hole)] = 1;
  if (!witness) return;
  HoleSet x(n_);
  for (int h = 0; h < n_; ++h)
    if (*witness & kern_.bit(h)) x.set(h);
  r.meet_witness = x;
}

// The complement join for the work item [lo, hi) of the level being built, whose positions
// are in the worker's table: the other level's positions of the complementary residues,
// twisted and complemented, looked up there.
template <class Tier, class Kernel>
template <class C, Carry kCounts, class L>
inline void Engine<Tier, Kernel>::join_item(Worker<C, kCounts>& w, const L& other, u32 lo, u32 hi,
                                            Tally& my, bool collect) const {
  std::vector<u64>& q = w.join_keys;
  q.clear();
  auto body = [&](const auto& seg, std::size_t i0, std::size_t i1) {
    for (std::size_t i = i0; i < i1; ++i) q.push_back(key_at(seg, i));
  };
  const u32 a = (total_weight_ - (hi - 1)) & kResidueMask, len = hi - lo;
  other.for_range(a, std::min(a + len, kResidues), body);
  if (a + len > kResidues) other.for_range(0, a + len - kResidues, body);
  const std::size_t m = q.size();
  if (m == 0) return;
  for (std::size_t i = m; i % 8; ++i) q.push_back(q[0]);
  alignas(64) u64 z[8];
  alignas(64) u32 orbit[8];
  for (std::size_t i = 0; i < m; i += 8) {
    kern_.twist8(q.data() + i, z, orbit);  // the twisted complement's orbit is the position's
    const std::size_t e = std::min<std::size_t>(8, m - i);
    for (std::size_t u = 0; u < e; ++u) {
      const bool hit = w.table.template contains<Tier>(z[u]);
      my.join_sym += hit;
      my.join_raw += hit ? orbit[u] : 0;
      if (collect && hit && !(meet_ && !w.join_mine.empty())) {  // meet: one witness
        w.join_mine.push_back(z[u]);
        w.join_theirs.push_back(q[i + u]);
      }
    }
  }
}

// Whether the solution-path sets should be kept for the reordering count: only while they
// stay within its limit.
template <class Tier, class Kernel>
inline bool Engine<Tier, Kernel>::want_paths(const CensusResult&) const {
  return CensusAccess::keep_paths(o_) || (o_.distinct && path_raw_ <= o_.distinct_max_positions);
}

// Any other problem: from the goal positions upward, each level's solution-path positions are
// the stored level's positions with a child on a solution path. A run of residues of level k
// at a time (the stored level's segments), like the forward pass: the parents of the level
// below's solution-path positions (their complements' jumps, undone) can only come from
// residues shifted by the jump classes' deltas; they go into a set, and the stored positions
// found in it are the run's solution-path positions.
template <class Tier, class Kernel>
inline void Engine<Tier, Kernel>::backward(CensusResult& r) {
  if (goal_pegs_ > k0_) return;
  auto it = stored_.find(goal_pegs_);
  if (it == stored_.end()) return;
  Level<u64> below(pool_, mem_);
  {
    Bump b;
    b.begin(below.keys, true);
    for (const Segment<u64>& s : it->second.seg) {
      Segment<u64> t;
      t.lo = s.lo;
      t.hi = s.hi;
      t.off = b.alloc<u32>(s.hi - s.lo + 1);
      t.key = b.alloc<u64>(s.n + 1);
      const u64 goal = kern_.canon(goal_);
      for (u32 res = s.lo; res < s.hi; ++res) {
        t.off[res - s.lo] = static_cast<u32>(t.n);
        for (std::size_t i = s.off[res - s.lo]; i < s.off[res - s.lo + 1]; ++i) {
          const u64 x = key_at(s, i);
          if (p_.goal.kind == Goal::Kind::Any || x == goal) t.key[t.n++] = x;
        }
      }
      t.off[s.hi - s.lo] = static_cast<u32>(t.n);
      below.seg.push_back(t);
    }
  }
  stored_.erase(goal_pegs_);
  record_path_level(r, below, goal_pegs_);
  for (int k = goal_pegs_ + 1; k <= k0_ && below.size() > 0; ++k) {
    mem_.set_level(k);
    check_cancel();
    auto up_it = stored_.find(k);
    if (up_it == stored_.end()) break;
    const Level<u64>& up = up_it->second;
    Level<u64> next(pool_, mem_);
    next.seg.resize(up.seg.size());
    std::atomic<std::size_t> cursor{0};
    const bool small = up.size() < kSmallLevel;
    report("backward", k, positions_, 1000 * static_cast<u64>(k0_ - 1 + k - 1 - goal_pegs_));
    team_.run(up.size() < 4096 ? 1 : workers_, [&](int) {
      KeySet cand;
      Bump b;
      b.begin(next.keys, small);
      alignas(64) u64 batch[kBatch + 64];
      std::size_t nb = 0;
      auto flush = [&] {
        canon_batch(batch, nb);
        for (std::size_t q = 0; q < nb; ++q) cand.insert(batch[q]);
        nb = 0;
      };
      for (;;) {
        const std::size_t si = cursor.fetch_add(1);
        if (si >= up.seg.size()) break;
        check_cancel();
        const Segment<u64>& s = up.seg[si];
        Segment<u64>& out = next.seg[si];
        out.lo = s.lo;
        out.hi = s.hi;
        out.off = b.alloc<u32>(s.hi - s.lo + 1);
        out.key = b.alloc<u64>(s.n + 1);
        cand.reset(s.n);
        for (const Spec& sp : specs_) {
          const u32 lo = (s.lo + sp.delta) & kResidueMask, len = s.hi - s.lo;
          auto gather = [&](const Segment<u64>& bs, std::size_t i0, std::size_t i1) {
            for (std::size_t i = i0; i < i1; ++i) {
              const u64 x = bs.key[i];
              for (int j = 0; j < sp.n; ++j) {
                const std::size_t u = static_cast<std::size_t>(j);
                // Undone: x holds the jump's landing peg and neither of the holes it left.
                if ((x & sp.need[u]) == (sp.need[u] ^ sp.have[u])) batch[nb++] = x ^ sp.flip[u];
              }
              if (nb >= kBatch) flush();
            }
          };
          below.for_range(lo, std::min(lo + len, kResidues), gather);
          if (lo + len > kResidues) below.for_range(0, lo + len - kResidues, gather);
        }
        flush();
        for (u32 res = s.lo; res < s.hi; ++res) {
          out.off[res - s.lo] = static_cast<u32>(out.n);
          for (std::size_t i = s.off[res - s.lo]; i < s.off[res - s.lo + 1]; ++i) {
            const u64 x = key_at(s, i);
            if (cand.template contains<Tier>(x)) out.key[out.n++] = x;
          }
        }
        out.off[s.hi - s.lo] = static_cast<u32>(out.n);
        if (pool_.spilled()) {
          b.shed();
          shed(&below, false);
        }
      }
    });
    stored_.erase(k);
    shed<u64>(nullptr, true);
    record_path_level(r, next, k);
    below = std::move(next);
  }
  stored_.clear();
}

// Level k's solution-path figures from its positions (and the positions themselves, sorted,
// while the reordering count may still run).
template <class Tier, class Kernel>
inline void Engine<Tier, Kernel>::record_path_level(CensusResult& r, const Level<u64>& lv, int k) {
  CensusLevel& figures = r.levels[static_cast<std::size_t>(k)];
  figures.on_path_sym = lv.size();
  figures.on_path_raw = 0;
  alignas(64) u64 in[8];
  u32 orbit[8], moves[8];
  for (const Segment<u64>& s : lv.seg)
    for (std::size_t i = 0; i < s.n; i += 8) {
      const std::size_t e = std::min<std::size_t>(8, s.n - i);
      for (std::size_t u = 0; u < 8; ++u) in[u] = s.key[i + (u < e ? u : 0)];
      kern_.describe8(in, orbit, moves);
      for (std::size_t u = 0; u < e; ++u) figures.on_path_raw += orbit[u];
    }
  path_raw_ += figures.on_path_raw;
  if (want_paths(r)) {
    std::vector<u64>& keys = paths_[static_cast<std::size_t>(k)];
    for (const Segment<u64>& s : lv.seg) keys.insert(keys.end(), s.key, s.key + s.n);
    // The reordering count searches them; kept for CensusResult::paths alone, export_paths
    // sorts them in their layout form.
    if (o_.distinct) std::sort(keys.begin(), keys.end());
  }
}

// Sorts v by least significant digit, 11 bits a pass, as many passes as its largest value needs:
// linear in the largest levels' size, where std::sort was a visible share of a large census.
inline void radix_sort(std::vector<u64>& v) {
  if (v.size() < 4096) {
    std::sort(v.begin(), v.end());
    return;
  }
  constexpr int kDigit = 11;
  constexpr std::size_t kBuckets = std::size_t{1} << kDigit;
  u64 all = 0;
  for (u64 x : v) all |= x;
  std::vector<u64> tmp(v.size());
  for (int shift = 0; shift < static_cast<int>(std::bit_width(all)); shift += kDigit) {
    std::vector<std::size_t> at(kBuckets + 1, 0);
    for (u64 x : v) ++at[((x >> shift) & (kBuckets - 1)) + 1];
    for (std::size_t b = 1; b <= kBuckets; ++b) at[b] += at[b - 1];
    for (u64 x : v) tmp[at[(x >> shift) & (kBuckets - 1)]++] = x;
    v.swap(tmp);
  }
}

// The kept solution-path levels (census_detail::KeptPaths) from the kept keys: layout bits, each
// the least of its orbit under the census group by Geometry::canonical (the kernels' canonical
// form orders keys, not layouts).
template <class Tier, class Kernel>
inline void Engine<Tier, Kernel>::export_paths(CensusResult& r) {
  std::array<int, 64> key_to_layout{};
  for (int h = 0; h < n_; ++h)
    key_to_layout[static_cast<std::size_t>(std::countr_zero(kern_.bit(h)))] = layout(b_).bit(h);
  auto kept = std::make_shared<KeptPaths>();
  kept->symmetries = syms_;
  kept->levels.assign(paths_.size(), {});
  for (std::size_t k = 0; k < paths_.size(); ++k) {
    std::vector<std::uint64_t>& out = kept->levels[k];
    out.reserve(paths_[k].size());
    for (u64 key : paths_[k]) {
      Pos x;
      for (u64 m = key; m; m &= m - 1)
        x.set(key_to_layout[static_cast<std::size_t>(std::countr_zero(m))]);
      out.push_back(g_.canonical(x, syms_).w[0]);
    }
    // No reordering count to come: the keys go as their layouts come.
    if (!o_.distinct) std::vector<u64>().swap(paths_[k]);
    radix_sort(out);
  }
  CensusAccess::set_paths(r, std::move(kept));
}

}  // namespace
}  // namespace pegsol::census_detail
