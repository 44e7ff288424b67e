// SPDX-License-Identifier: MIT
// The compact census engine's forward pass (compiled per CPU tier: compact_common.hpp): level k-1
// built from level k a work item (a run of residues) at a time: expand, scan, compact (each
// worker's scratch is compact_engine.hpp's Worker), and the keeping of levels for the
// solution-path passes.
//
// Large because the forward pass is one idea: its three hot loops (scan, compact, sort_out) each
// come in the scalar, AVX2 and AVX-512 forms the tiers compile.
//
// Tried and lost, each measured on the English census: scattering every child into per-range
// buffers (one read of each parent, but 24 bytes per edge written and read back, and the
// buffers of a whole level do not fit 256 MB); a weighting whose deltas are small, so that a
// window of parent ranges could stay cached across consecutive work items (the window held about
// half of each large level); sub-tables per range filled from a partitioned buffer (slower than
// one table); 2-slot and 3-slot buckets holding keys and values in one line (more probing);
// branch-free inserts (a store per insert made the memory-dependence predictor serialise them,
// 40% slower).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "compact_common.hpp"
#include "compact_engine.hpp"
#include "compact_levels.hpp"
#include "compact_memory.hpp"
#include "compact_tables.hpp"
#include "engine.hpp"
#include "pegsol/census.hpp"
#include "simd_x86.hpp"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace pegsol::census_detail {
namespace {

template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline void Engine<Tier, Kernel>::forward(CensusResult& r) {
  if (o_.resume) {
    resume<C, kCounts>(r);
    return;
  }
  Level<C> cur(pool_, mem_);
  {
    Segment<C> s;
    const u64 x = kern_.canon(start_);
    Bump kb, vb;
    kb.begin(cur.keys, true);
    vb.begin(cur.values, true);
    s.lo = 0;
    s.hi = kResidues;
    s.n = 1;
    s.off = kb.alloc<u32>(kResidues + 1);
    const u32 res = residue(x);
    for (u32 q = 0; q <= kResidues; ++q) s.off[q] = q > res ? 1 : 0;
    s.key = kb.alloc<u64>(1);
    s.key[0] = x;
    alignas(64) u64 in[8] = {x, x, x, x, x, x, x, x};
    u32 orbit[8], moves[8];
    kern_.describe8(in, orbit, moves);
    CensusLevel& lv = r.levels[static_cast<std::size_t>(k0_)];
    lv.reachable_raw = orbit[0];
    lv.reachable_sym = 1;
    if constexpr (kCounts != kKeys) {
      s.count = vb.alloc<C>(1);
      s.count[0] = 1;
      if constexpr (kCounts == kChance) {
        s.share = vb.alloc<double>(1);
        s.share[0] = moves[0] ? 1.0 / moves[0] : 1.0;
      }
      paths_out_ = moves[0];
      count_or_ = 1;
      if (!moves[0]) lv.games = 1;
      add_count(r.games, lv.games);
    }
    cur.seg.push_back(s);
  }
  run_levels<C, kCounts>(r, cur, k0_, true);
}

// Expands level k (its figures done when `fresh` is false) and every level below it.
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline void Engine<Tier, Kernel>::run_levels(CensusResult& r, Level<C>& cur, int k, bool fresh) {
  for (;; --k, fresh = true) {
    mem_.set_level(k);
    if (fresh) at_level<C, kCounts>(r, cur, k);
    if (k == 1 || cur.size() == 0 || met_) break;
    if (fresh && !o_.checkpoint_dir.empty()) save<C, kCounts>(r, cur, k);
    if constexpr (kCounts != kKeys && std::is_same_v<C, u64>) {
      if (counts_may_pass()) {  // level k-1's counts may pass 2^64: 128-bit counts from here
        Level<u128> wide = widen(cur);
        run_levels<u128, kCounts>(r, wide, k, false);
        return;
      }
    }
    Level<C> next = expand<C, kCounts>(r, cur, k);
    keep_or_release(cur, k);
    cur = std::move(next);
    shed<C>(nullptr, true);
  }
  keep_or_release(cur, k);
}

// What a finished level k gives before it is expanded: the goal's count, the one-peg figures,
// the solution-path counts of the complement trick.
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline void Engine<Tier, Kernel>::at_level(CensusResult& r, const Level<C>& cur, int k) {
  if constexpr (kCounts != kKeys) {
    if (k == goal_pegs_ && p_.goal.kind == Goal::Kind::Position && k > 1) {
      const u64 c = kern_.canon(goal_);
      find(cur, c, [&](const Segment<C>& s, std::size_t i) {
        alignas(64) u64 in[8] = {c, c, c, c, c, c, c, c};
        u32 orbit[8], moves[8];
        kern_.describe8(in, orbit, moves);
        r.solutions = static_cast<Count>(s.count[i]) / orbit[0];
        if constexpr (kCounts == kChance)
          r.p_goal = s.share[i] * std::max<u32>(moves[0], 1) / orbit[0];
      });
    }
  }
  if (k == 1) singles<C, kCounts>(r, cur);
  if (kCounts != kKeys && o_.on_path && complementary_ && 2 * k <= n_ && k >= goal_pegs_ &&
      joined_ != k)
    complement_join(r, cur, k);
  if (meet_ && 2 * k == n_) complement_join(r, cur, k);  // an even board's one middle level
}

// Whether a count of the level below the current one may reach 2^count_bits_. Each is a sum of
// the counts of (parent, jump) pairs, and a pair is told by the jump and its child's image: at
// most |group| x jumps terms, each no more than the level's largest count (below 2^w, w the bit
// width of the counts' OR). The paths leaving the level bound every next count too.
template <class Tier, class Kernel>
inline bool Engine<Tier, Kernel>::counts_may_pass() const {
  const int w = std::bit_width(count_or_);
  const u128 largest = w >= 64 ? ~u64{0} : (u64{1} << w) - 1;
  const u128 terms = static_cast<u128>(kern_.group_size()) * b_.jumps().size();
  const u128 bound = std::min(paths_out_, largest * terms);
  return count_bits_ == 0 || bound >> count_bits_ != 0;
}

// Whether level k will be stored for a solution-path pass, so that its compaction packs its
// keys (the complement join of level n-k with level k as it is expanded needs no store).
template <class Tier, class Kernel>
inline bool Engine<Tier, Kernel>::will_keep(int k) const {
  if (!o_.counts || !o_.on_path) return false;
  if (complementary_) return 2 * k > n_ && n_ - k >= goal_pegs_ && 2 * k != n_ + 1;
  return k >= goal_pegs_;
}

// Keeps level k's keys when a solution-path pass will need them; releases the rest.
template <class Tier, class Kernel>
template <class C>
inline void Engine<Tier, Kernel>::keep_or_release(Level<C>& lv, int k) {
  bool keep = false;
  if (o_.counts && o_.on_path) {
    if (complementary_)
      keep = 2 * k > n_ && n_ - k >= goal_pegs_ && joined_ != n_ - k;
    else
      keep = k >= goal_pegs_;
  }
  lv.values.clear();
  if (!keep) {
    lv.seg.clear();
    lv.keys.clear();
    lv.kept.clear();
    return;
  }
  // Kept with packed keys (5 bytes instead of 8 on the English board), usually packed by the
  // compaction already.
  Level<u64> s(pool_, mem_);
  if (lv.packed_ready) {
    for (const Segment<C>& seg : lv.seg) {
      Segment<u64> t = seg.template runs<u64>();
      t.packed = seg.packed_copy;
      s.seg.push_back(t);
    }
    s.keys = std::move(lv.kept);
    lv.seg.clear();
    lv.keys.clear();
    stored_[k] = std::move(s);
    return;
  }
  Bump b;
  b.begin(s.keys, lv.size() < kSmallLevel);
  const std::size_t w = static_cast<std::size_t>(kern_.packed_bytes());
  for (const Segment<C>& seg : lv.seg) {
    Segment<u64> t = seg.template runs<u64>();
    t.off = b.alloc<u32>(seg.hi - seg.lo + 1);
    std::copy(seg.off, seg.off + (seg.hi - seg.lo + 1), t.off);
    t.packed = b.alloc<std::uint8_t>(seg.n * w + 8);
    pack_keys(seg.key, seg.n, t.packed);
    s.seg.push_back(t);
  }
  lv.seg.clear();
  lv.keys.clear();
  stored_[k] = std::move(s);
}

template <class Tier, class Kernel>
inline Level<u128> Engine<Tier, Kernel>::widen(Level<u64>& cur) {
  Level<u128> w(pool_, mem_);
  w.seg.resize(cur.seg.size());
  // Copied on every worker, each into arrays of its own (serially, this took 2 ms of the English
  // census; and a worker spilling drops what it has written).
  std::atomic<std::size_t> next{0};
  const bool small = cur.size() < kSmallLevel;
  team_.run(cur.size() < 4096 ? 1 : workers_, [&](int) {
    Bump vb;
    vb.begin(w.values, small);
    for (std::size_t i; (i = next.fetch_add(1)) < w.seg.size();) {
      const Segment<u64>& s = cur.seg[i];
      Segment<u128> t = s.runs<u128>();
      t.key = s.key;
      t.packed_copy = s.packed_copy;
      t.count = vb.alloc<u128>(s.n);
      std::copy(s.count, s.count + s.n, t.count);
      if (s.share) {
        t.share = vb.alloc<double>(s.n);
        std::copy(s.share, s.share + s.n, t.share);
      }
      w.seg[i] = t;
      if (pool_.spilled()) {
        vb.shed();
        shed(&cur, false);
      }
    }
  });
  w.keys = std::move(cur.keys);
  w.kept = std::move(cur.kept);
  w.packed_ready = cur.packed_ready;
  cur.seg.clear();
  cur.values.clear();
  return w;
}

// One peg left: counts and chances by hole, and the one-peg goals' solutions.
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline void Engine<Tier, Kernel>::singles(CensusResult& r, const Level<C>& cur) {
  for (const Segment<C>& s : cur.seg)
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::vector<u64> im(static_cast<std::size_t>(kern_.group_size()));
      kern_.images(s.key[i], im.data());
      std::sort(im.begin(), im.end());
      const auto orbit = static_cast<u32>(std::unique(im.begin(), im.end()) - im.begin());
      for (u32 q = 0; q < orbit; ++q) {
        const auto h = static_cast<std::size_t>(kern_.hole_at(std::countr_zero(im[q])));
        if constexpr (kCounts != kKeys) {
          r.solutions_by_hole[h] = static_cast<Count>(s.count[i]) / orbit;
          if constexpr (kCounts == kChance) r.p_by_hole[h] = s.share[i] / orbit;
        } else {
          r.solutions_by_hole[h] = 1;
        }
      }
      if constexpr (kCounts == kChance) r.p_one_peg += s.share[i];
    }
  if constexpr (kCounts == kKeys) return;
  goal_figures(r);
}

// The workers of one count type, kept from level to level with their tables and scratch (new
// ones each level cost a fifth of the English census in the kernel zeroing fresh pages).
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline auto Engine<Tier, Kernel>::workers_for()
    -> std::vector<std::unique_ptr<Worker<C, kCounts>>>& {
  if constexpr (kCounts == kKeys)
    return sets_workers_;
  else if constexpr (std::is_same_v<C, u64>)
    return std::get<kCounts - 1>(narrow_workers_);
  else
    return std::get<kCounts - 1>(wide_workers_);
}

// e[i] += n * z[i] for i < len (a separate function, so that it vectorises).
template <class Tier, class Kernel>
inline void Engine<Tier, Kernel>::add_scaled(u64* __restrict e, const u32* __restrict z,
                                             std::size_t len, u64 n) {
  for (std::size_t i = 0; i < len; ++i) e[i] += n * z[i];
}

// Builds level k-1 from level k (whose figures are already in r).
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline Level<C> Engine<Tier, Kernel>::expand(CensusResult& r, Level<C>& par, int k) {
  // Work items: runs of residues expected to hold about kItemPositions positions each. The
  // estimate of residue r: for each class, its jumps times the parents of residue r - delta.
  const double per_est = ratio_;  // positions per unit of estimate, from the last level
  u64 jumps = 0;
  for (const Spec& sp : specs_) jumps += sp.n;
  const u64 total_est = static_cast<u64>(par.size()) * jumps;
  const u64 target = std::max<u64>(4, static_cast<u64>(kItemPositions<kCounts> / per_est));
  struct Item {
    u32 lo, hi;
    u64 est;
  };
  std::vector<Item> items;
  if (total_est < target / 4) {
    items.push_back({0, kResidues, total_est});  // what the loop below makes of it, sooner
  } else {
    // A sum of shifted copies of the parents' sizes, in integers so that it vectorises (with
    // a loop over the parents' residues in doubles, this took half a millisecond a level,
    // between the parallel parts).
    std::vector<u32>& size = est_size_;
    std::vector<u64>& est = est_;
    size.assign(kResidues, 0);
    est.assign(kResidues, 0);
    for (const Segment<C>& sg : par.seg)
      for (u32 r = sg.lo; r < sg.hi; ++r) size[r] = sg.off[r - sg.lo + 1] - sg.off[r - sg.lo];
    for (const Spec& sp : specs_) {
      const std::size_t d = sp.delta & kResidueMask;
      add_scaled(est.data() + d, size.data(), kResidues - d, sp.n);
      add_scaled(est.data(), size.data() + (kResidues - d), d, sp.n);
    }
    // The last tenth in items a quarter the size: the workers, taking items in order, then
    // finish the level within a small item of each other.
    const u64 tail = total_est - total_est / 10;
    u32 lo = 0;
    u64 acc = 0, done = 0;
    for (u32 c = 0; c < kResidues; ++c) {
      acc += est[c];
      done += est[c];
      if (acc >= (done > tail ? target / 4 : target) || c + 1 == kResidues) {
        items.push_back({lo, c + 1, acc});
        lo = c + 1;
        acc = 0;
      }
    }
  }
  const std::size_t total = par.size();
  const int nw = total < 4096 ? 1 : workers_;
  Level<C> next(pool_, mem_);
  next.seg.resize(items.size());
  std::vector<Tally> tally(static_cast<std::size_t>(nw));
  std::atomic<std::size_t> cursor{0};
  std::atomic<bool> failed{false};
  std::atomic<u64> made{0};
  auto& workers = workers_for<C, kCounts>();
  while (workers.size() < static_cast<std::size_t>(nw))
    workers.push_back(std::make_unique<Worker<C, kCounts>>(mem_));
  // The complement join of level k-1 (see complement_join), item by item against the item's
  // table while it is warm: the other level is the one being expanded or a stored one.
  const int kn = k - 1, ko = n_ - kn;
  const Level<u64>* join_stored = nullptr;
  bool join = false;
  if (meet_ && ko == k) {
    join = true;  // an odd board's two middle levels: the parents and the level being built
  } else if (kCounts != kKeys && o_.on_path && complementary_ && 2 * kn < n_ && kn >= goal_pegs_) {
    if (ko == k) {
      join = true;
    } else if (auto it = stored_.find(ko); it != stored_.end()) {
      join = true;
      join_stored = &it->second;
    }
  }
  const bool collect = join && (meet_ || want_paths(r));
  // The middle join of an odd board needs the lower middle level only while each item's table is
  // there: it is joined item by item and never stored (the pass stops after it).
  const bool discard = join && meet_;
  const bool pack = will_keep(kn);
  next.packed_ready = pack;
  for (int t = 0; t < nw; ++t) {
    workers[static_cast<std::size_t>(t)]->join_mine.clear();
    workers[static_cast<std::size_t>(t)]->join_theirs.clear();
  }
  std::atomic<std::size_t> finished{0};
  const u64 done0 = 1000 * static_cast<u64>(k0_ - k);
  team_.run(nw, [&](int t) {
    Worker<C, kCounts>* w = workers[static_cast<std::size_t>(t)].get();
    Tally& my = tally[static_cast<std::size_t>(t)];
    const bool small = static_cast<double>(total_est) * per_est < kSmallLevel;
    w->key_bump.begin(next.keys, small);
    w->value_bump.begin(next.values, small);
    w->kept_bump.begin(next.kept, small);
    try {
      for (;;) {
        const std::size_t it = cursor.fetch_add(1);
        if (it >= items.size() || failed.load(std::memory_order_relaxed)) break;
        check_cancel();
        const Item& item = items[it];
        Segment<C>& out = next.seg[it];
        out.lo = item.lo;
        out.hi = item.hi;
        if (item.est == 0) {
          out.off = (pack ? w->kept_bump : w->key_bump).template alloc<u32>(item.hi - item.lo + 1);
          std::fill(out.off, out.off + (item.hi - item.lo + 1), 0u);
          continue;
        }
        w->table.reset(static_cast<std::size_t>(static_cast<double>(item.est) * per_est * 1.3) +
                       16);
        for (const Spec& sp : specs_) {
          const u32 lo = (item.lo - sp.delta) & kResidueMask, len = item.hi - item.lo;
          auto scan_part = [&](const Segment<C>& s, std::size_t i0, std::size_t i1) {
            scan<C, kCounts>(*w, sp, s, i0, i1);
          };
          par.for_range(lo, std::min(lo + len, kResidues), scan_part);
          if (lo + len > kResidues) par.for_range(0, lo + len - kResidues, scan_part);
        }
        compact<C, kCounts>(*w, out, my, pack, discard);
        if (join) {
          if (join_stored)
            join_item(*w, *join_stored, item.lo, item.hi, my, collect);
          else
            join_item(*w, par, item.lo, item.hi, my, collect);
        }
        if (pool_.spilled()) {
          w->key_bump.shed();
          w->value_bump.shed();
          w->kept_bump.shed();
          shed(&par, false);
        }
        made.fetch_add(out.size(), std::memory_order_relaxed);
        const std::size_t fin = finished.fetch_add(1, std::memory_order_relaxed) + 1;
        if (t == 0)
          report("forward", k - 1, positions_ + made.load(std::memory_order_relaxed),
                 done0 + 1000 * fin / items.size());
      }
    } catch (...) {
      failed.store(true);
      throw;
    }
  });
  CensusLevel& lv = r.levels[static_cast<std::size_t>(k - 1)];
  u128 paths = 0;
  u64 join_raw = 0, join_sym = 0, count_or = 0, tabled = 0;
  for (const Tally& x : tally) {
    count_or |= x.count_or;
    tabled += x.tabled;
    lv.reachable_raw += x.raw;
    lv.reachable_sym += x.sym;
    if (join) {
      join_raw += x.join_raw;
      join_sym += x.join_sym;
    }
    if constexpr (kCounts != kKeys) {
      add_count(lv.games, x.games);
      if (x.paths_overflow || __builtin_add_overflow(paths, x.paths, &paths))
        throw CensusError("a path count exceeded 2^128 (about 3.4e38); the census cannot count it");
    }
  }
  if constexpr (kCounts != kKeys) {
    add_count(r.games, lv.games);
    paths_out_ = paths;
    count_or_ = count_or;
    // The widening's bound, held to (tests lower count_bits_ so that a count would pass it).
    if (std::is_same_v<C, u64> && count_bits_ < 64 && count_or >> count_bits_)
      throw CensusError("a count of level " + std::to_string(k - 1) + " reached 2^" +
                        std::to_string(count_bits_) + " before the counts widened");
  }
  if (join && meet_) {
    join_figures(r, kn, join_raw, join_sym);
    const u64* witness = nullptr;
    for (int t = 0; t < nw && !witness; ++t)
      if (const auto& w = *workers[static_cast<std::size_t>(t)]; !w.join_mine.empty())
        witness = &w.join_mine.front();
    meet_figures(r, join_sym, witness);
  } else if (join) {
    join_figures(r, kn, join_raw, join_sym);
    if (collect) {
      std::vector<u64>& mine = paths_[static_cast<std::size_t>(kn)];
      std::vector<u64>& theirs = paths_[static_cast<std::size_t>(ko)];
      for (int t = 0; t < nw; ++t) {
        const auto& w = *workers[static_cast<std::size_t>(t)];
        mine.insert(mine.end(), w.join_mine.begin(), w.join_mine.end());
        theirs.insert(theirs.end(), w.join_theirs.begin(), w.join_theirs.end());
      }
      std::sort(mine.begin(), mine.end());
      std::sort(theirs.begin(), theirs.end());
    }
    if (join_stored) stored_.erase(ko);
    joined_ = kn;
  }
  if (total_est > 0) ratio_ = static_cast<double>(tabled) / static_cast<double>(total_est);
  if (ratio_ <= 0) ratio_ = 0.1;
  positions_ += lv.reachable_sym;
  return next;
}

// Children of parents [i0, i1) of segment s through the jumps of class sp, into the table.
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline void Engine<Tier, Kernel>::scan(Worker<C, kCounts>& w, const Spec& sp, const Segment<C>& s,
                                       std::size_t i0, std::size_t i1) const {
  const u64* keys = s.key;
  u64* ck = w.child;
  u32* cp = w.parent;
  std::size_t nc = 0;
  // Counts and shares go into the batch beside the children (the vector paths with 64-bit
  // counts) or are gathered by parent index at the flush.
  constexpr bool direct = Tier::avx2 && kCounts != kKeys && std::is_same_v<C, u64>;
  auto flush = [&] {
    if (nc == 0) return;
    canon_batch(ck, nc);
    if constexpr (kCounts != kKeys) {
      if (!direct) {
        for (std::size_t q = 0; q < nc; ++q) {
          w.count[q] = s.count[cp[q]];
          if constexpr (kCounts == kChance) w.share[q] = s.share[cp[q]];
        }
      }
    }
    w.table.template add<Tier>(ck, nc, w.count, w.share);
    nc = 0;
  };
#if defined(__x86_64__)
  if constexpr (Tier::avx512) {
    // One bit shuffle per selector tests every jump of the class in all eight lanes.
    alignas(64) u64 flips[8] = {};
    for (int j = 0; j < sp.n; ++j) flips[j] = sp.flip[static_cast<std::size_t>(j)];
    const __m512i sel1 = _mm512_set1_epi64(static_cast<long long>(sp.pegs1));
    const __m512i sel2 = _mm512_set1_epi64(static_cast<long long>(sp.pegs2));
    const __m512i sel3 = _mm512_set1_epi64(static_cast<long long>(sp.hole));
    const __m512i flipv = _mm512_load_si512(flips);
    const __m512i seven = _mm512_set1_epi64(7);
    alignas(64) std::uint8_t iota_bytes[64];
    for (int b = 0; b < 64; ++b) iota_bytes[b] = static_cast<std::uint8_t>(b);
    const __m512i iota = _mm512_load_si512(iota_bytes);
    for (std::size_t i = i0; i < i1; i += 8) {
      __builtin_prefetch(keys + i + 256);
      if constexpr (kCounts != kKeys) {
        __builtin_prefetch(s.count + i + 256);
        if constexpr (kCounts == kChance) __builtin_prefetch(s.share + i + 256);
      }
      const __mmask8 valid = i1 - i >= 8 ? 0xFF : static_cast<__mmask8>((1u << (i1 - i)) - 1);
      const __m512i x = _mm512_maskz_loadu_epi64(valid, keys + i);
      // Bit 8 * lane + j: jump j is legal in lane (lanes past the end hold no pegs).
      const __mmask64 legal = _kandn_mask64(_mm512_bitshuffle_epi64_mask(x, sel3),
                                            _kand_mask64(_mm512_bitshuffle_epi64_mask(x, sel1),
                                                         _mm512_bitshuffle_epi64_mask(x, sel2)));
      // The legal (lane, jump) pairs in order, as bytes 8 * lane + jump, eight at a time: the
      // children are the lanes' positions (one permute) with the jumps' holes flipped (another).
      // (A loop over each lane's lowest jump, as many rounds as the busiest lane has jumps,
      // mispredicted its exit about once a vector.)
      const u64 pairs = _cvtmask64_u64(legal);
      const int count = std::popcount(pairs);
      if (count == 0) continue;
      alignas(64) std::uint8_t code[64];
      _mm512_store_si512(code, _mm512_maskz_compress_epi8(legal, iota));
      __m512i pcv = _mm512_setzero_si512(), psv = _mm512_setzero_si512();
      if constexpr (direct) {
        pcv = _mm512_maskz_loadu_epi64(valid, s.count + i);
        if constexpr (kCounts == kChance) psv = _mm512_maskz_loadu_epi64(valid, s.share + i);
      }
      for (int at = 0; at < count; at += 8) {
        const __m512i c = _mm512_maskz_cvtepu8_epi64(
            0xFF, _mm_loadl_epi64(reinterpret_cast<const __m128i*>(code + at)));
        const __m512i lanes = vsrli(c, 3);
        const __m512i jumps = _mm512_and_si512(c, seven);
        _mm512_storeu_si512(
            ck + nc, _mm512_xor_si512(_mm512_mask_permutexvar_epi64(x, 0xFF, lanes, x),
                                      _mm512_mask_permutexvar_epi64(flipv, 0xFF, jumps, flipv)));
        if constexpr (direct) {
          _mm512_storeu_si512(w.count + nc, _mm512_mask_permutexvar_epi64(pcv, 0xFF, lanes, pcv));
          if constexpr (kCounts == kChance)
            _mm512_storeu_si512(w.share + nc, _mm512_mask_permutexvar_epi64(psv, 0xFF, lanes, psv));
        } else {
          _mm256_storeu_si256(
              reinterpret_cast<__m256i*>(cp + nc),
              _mm512_mask_cvtepi64_epi32(
                  _mm256_setzero_si256(), 0xFF,
                  _mm512_add_epi64(lanes, _mm512_set1_epi64(static_cast<long long>(i)))));
        }
        nc += static_cast<std::size_t>(std::min(8, count - at));
      }
      if (nc >= kBatch) flush();
    }
    flush();
    return;
  } else if constexpr (Tier::avx2) {
    // Four parents a vector, the class's jumps one at a time: a jump's legal lanes are packed
    // to the front by a permutation looked up from its legality bits, and the children written
    // with their counts and chances (64-bit counts) or their parents' indices (128-bit counts,
    // gathered at the flush), and kept by advancing the batch by their number.
    // (Lanes past the end hold no pegs: no jump is legal there.)
    __m256i need[8], have[8], flip[8];
    for (int j = 0; j < sp.n; ++j) {
      need[j] = _mm256_set1_epi64x(static_cast<long long>(sp.need[static_cast<std::size_t>(j)]));
      have[j] = _mm256_set1_epi64x(static_cast<long long>(sp.have[static_cast<std::size_t>(j)]));
      flip[j] = _mm256_set1_epi64x(static_cast<long long>(sp.flip[static_cast<std::size_t>(j)]));
    }
    // Eight parents an iteration, as two vectors: each jump's masks and flip loaded once for
    // both. (At most 64 children an iteration: the batch's margin holds them.)
    auto run = [&]<int kJumps>() {
      const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
      for (std::size_t i = i0; i < i1; i += 8) {
        __builtin_prefetch(keys + i + 256);
        if constexpr (kCounts != kKeys) {
          __builtin_prefetch(s.count + i + 256);
          if constexpr (kCounts == kChance) __builtin_prefetch(s.share + i + 256);
        }
        // Whole vectors load plainly; the last, partial ones masked (their other lanes zero:
        // no pegs, so no legal jump).
        const std::size_t left = i1 - i;
        auto load = [&](const void* p, std::size_t h) {
          if (left >= h + 4) return _mm256_loadu_si256(static_cast<const __m256i*>(p) + h / 4);
          const long long n = static_cast<long long>(left > h ? left - h : 0);
          return _mm256_maskload_epi64(static_cast<const long long*>(p) + h,
                                       _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), lane));
        };
        __m256i x[2], pc[2] = {}, ps[2] = {}, parents[2];
        for (std::size_t h = 0; h < 2; ++h) {
          x[h] = load(keys + i, 4 * h);
          if constexpr (direct) {
            pc[h] = load(s.count + i, 4 * h);
            if constexpr (kCounts == kChance) ps[h] = load(s.share + i, 4 * h);
          }
          parents[h] = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(i + 4 * h)),
                                        _mm256_setr_epi32(0, 1, 2, 3, 0, 0, 0, 0));
        }
        for (int j = 0; j < kJumps; ++j) {
          const __m256i nd = need[j], hv = have[j], fl = flip[j];
          for (std::size_t h = 0; h < 2; ++h) {
            const unsigned m = legal4(x[h], nd, hv);
            const __m256i perm = pack4(m);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(ck + nc),
                                _mm256_permutevar8x32_epi32(_mm256_xor_si256(x[h], fl), perm));
            if constexpr (direct) {
              _mm256_storeu_si256(reinterpret_cast<__m256i*>(w.count + nc),
                                  _mm256_permutevar8x32_epi32(pc[h], perm));
              if constexpr (kCounts == kChance)
                _mm256_storeu_si256(reinterpret_cast<__m256i*>(w.share + nc),
                                    _mm256_permutevar8x32_epi32(ps[h], perm));
            } else if constexpr (kCounts != kKeys) {
              _mm_storeu_si128(
                  reinterpret_cast<__m128i*>(cp + nc),
                  _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(parents[h], pack4_32(m))));
            }
            nc += static_cast<std::size_t>(std::popcount(m));
          }
        }
        if (nc >= kBatch) flush();
      }
    };
    // As many jumps as the class has (a class padded to four or eight jumps cost the padding's
    // tests and stores on every vector).
    [&]<int... kN>(std::integer_sequence<int, kN...>) {
      (void)((sp.n == kN + 1 && (run.template operator()<kN + 1>(), true)) || ...);
    }
    (std::make_integer_sequence<int, 8>{});
    flush();
    return;
  }
#endif
  // Every jump's child is written and kept when legal (the batch has a margin past kBatch): a
  // branch on each jump's legality mispredicted about half the time.
  for (std::size_t i = i0; i < i1; ++i) {
    const u64 x = keys[i];
    for (int j = 0; j < sp.n; ++j) {
      ck[nc] = x ^ sp.flip[static_cast<std::size_t>(j)];
      cp[nc] = static_cast<u32>(i);
      nc += (x & sp.need[static_cast<std::size_t>(j)]) == sp.have[static_cast<std::size_t>(j)];
    }
    if (nc >= kBatch) flush();
  }
  flush();
}

// Writes the work item's table into segment `out`, sorted by residue, with the level's figures;
// with `discard`, the figures alone (out stays empty).
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline void Engine<Tier, Kernel>::compact(Worker<C, kCounts>& w, Segment<C>& out, Tally& my,
                                          bool pack, bool discard) const {
  std::size_t m = w.table.size();
  my.tabled += m;
  w.scratch_key.vec().resize(m + 8);
  w.scratch_res.vec().resize(m + 8);
  if constexpr (kCounts != kKeys) w.scratch_count.vec().resize(m + 8);
  if constexpr (kCounts == kChance) w.scratch_share.vec().resize(m + 8);
  u64* K = w.scratch_key.vec().data();
  u32* R = w.scratch_res.vec().data();
  C* Cn = kCounts != kKeys ? w.scratch_count.vec().data() : nullptr;
  double* S = kCounts == kChance ? w.scratch_share.vec().data() : nullptr;
  constexpr bool vec_values = kCounts != kKeys && std::is_same_v<C, u64>;
  if constexpr (Tier::avx512 && vec_values)
    compact_values_avx512(w, m, K, R, Cn, S, my);
  else if constexpr (Tier::avx2 && vec_values)
    compact_values_avx2(w, m, K, R, Cn, S, my);
  else
    m = compact_scalar(w, m, K, R, Cn, S, my);
  if (discard) {
    const u32 len = out.hi - out.lo;
    out.off = w.key_bump.template alloc<u32>(len + 1);
    std::fill(out.off, out.off + len + 1, 0u);
    my.sym += m;
    return;
  }
  sort_out(w, out, my, pack, m, K, R, Cn, S);
}

#if defined(__x86_64__)
// compact()'s first passes with 64-bit counts, eight slots at a time: the occupied slots'
// keys, counts and chances packed in table order (one pass over the table's lines), then
// residues, orbits, jumps, shares and the level's figures.
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline void Engine<Tier, Kernel>::compact_values_avx512(Worker<C, kCounts>& w, std::size_t m,
                                                        u64* K, u32* R, u64* Cn, double* S,
                                                        Tally& my) const {
  const auto& tab = w.table;
  const std::size_t cap = tab.capacity();
  // count, chance, count, ... (or counts alone)
  const auto* V = reinterpret_cast<const u64*>(tab.values());
  const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
  const __m512i odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
  std::size_t n = 0;
  for (std::size_t b = 0; b < cap; b += 8) {
    const __m512i x = _mm512_load_si512(tab.keys() + b);
    const __mmask8 occ = _mm512_test_epi64_mask(x, x);
    if (!occ) continue;
    _mm512_storeu_si512(K + n, _mm512_maskz_compress_epi64(occ, x));
    if constexpr (kCounts == kChance) {
      const __m512i v0 = _mm512_load_si512(V + 2 * b), v1 = _mm512_load_si512(V + 2 * b + 8);
      _mm512_storeu_si512(
          Cn + n, _mm512_maskz_compress_epi64(occ, _mm512_permutex2var_epi64(v0, even, v1)));
      _mm512_storeu_si512(S + n,
                          _mm512_maskz_compress_epi64(occ, _mm512_permutex2var_epi64(v0, odd, v1)));
    } else {
      _mm512_storeu_si512(Cn + n, _mm512_maskz_compress_epi64(occ, _mm512_load_si512(V + b)));
    }
    n += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(occ)));
  }
  for (std::size_t q = m; q < m + 8; ++q) {
    K[q] = m ? K[0] : 0;
    Cn[q] = 0;
    if constexpr (kCounts == kChance) S[q] = 0;
  }
  // Games (counts of dead ends) and paths (count x jumps) summed in 32-bit halves in 64-bit
  // lanes, folded into 128 bits every 4096 rounds (a half times a jump count stays below 2^42).
  const __m512i low32 = _mm512_set1_epi64(0xFFFFFFFFll);
  __m512i raw = _mm512_setzero_si512(), g_lo = raw, g_hi = raw, p_lo = raw, p_hi = raw;
  auto fold = [&] {
    const u128 g = static_cast<u128>(hsum(g_lo)) + (static_cast<u128>(hsum(g_hi)) << 32);
    const u128 p = static_cast<u128>(hsum(p_lo)) + (static_cast<u128>(hsum(p_hi)) << 32);
    my.games += g;
    if (__builtin_add_overflow(my.paths, p, &my.paths)) my.paths_overflow = true;
    g_lo = g_hi = p_lo = p_hi = _mm512_setzero_si512();
  };
  alignas(64) u32 o8[8], m8[8];
  std::size_t rounds = 0;
  for (std::size_t i = 0; i < m; i += 8) {
    residue8(K + i, R + i);
    kern_.describe8(K + i, o8, m8);
    const __mmask8 in = m - i >= 8 ? 0xFF : static_cast<__mmask8>((1u << (m - i)) - 1);
    const __m512i o =
        _mm512_maskz_cvtepu32_epi64(0xFF, _mm256_load_si256(reinterpret_cast<__m256i*>(o8)));
    const __m512i mv =
        _mm512_maskz_cvtepu32_epi64(0xFF, _mm256_load_si256(reinterpret_cast<__m256i*>(m8)));
    raw = _mm512_mask_add_epi64(raw, in, raw, o);
    const __mmask8 dead = _mm512_mask_testn_epi64_mask(in, mv, mv), live = in & ~dead;
    const __m512i c = _mm512_loadu_si512(Cn + i), hi = vsrli(c, 32);
    g_lo = _mm512_mask_add_epi64(g_lo, dead, g_lo, _mm512_and_si512(c, low32));
    g_hi = _mm512_mask_add_epi64(g_hi, dead, g_hi, hi);
    p_lo = _mm512_mask_add_epi64(p_lo, live, p_lo, _mm512_mask_mul_epu32(c, 0xFF, c, mv));
    p_hi = _mm512_mask_add_epi64(p_hi, live, p_hi, _mm512_mask_mul_epu32(hi, 0xFF, hi, mv));
    if constexpr (kCounts == kChance) {
      const __m512d ch = _mm512_loadu_pd(S + i);
      _mm512_storeu_pd(S + i, _mm512_mask_div_pd(ch, live, ch, _mm512_cvtepu64_pd(mv)));
    }
    if (++rounds == 4096) {
      fold();
      rounds = 0;
    }
  }
  fold();
  my.raw += hsum(raw);
}

// compact()'s first passes with 64-bit counts, four slots a vector (AVX2): the occupied slots'
// keys, counts and chances packed in table order by looked-up permutations, then residues,
// orbits, jumps, shares and the level's figures, as the AVX-512 form above does them.
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline void Engine<Tier, Kernel>::compact_values_avx2(Worker<C, kCounts>& w, std::size_t m, u64* K,
                                                      u32* R, u64* Cn, double* S, Tally& my) const {
  const auto& tab = w.table;
  const std::size_t cap = tab.capacity();
  // count, chance, count, ... (or counts alone)
  const auto* V = reinterpret_cast<const u64*>(tab.values());
  const __m256i zero = _mm256_setzero_si256();
  std::size_t n = 0;
  for (std::size_t b = 0; b < cap; b += 4) {
    const __m256i x = _mm256_load_si256(reinterpret_cast<const __m256i*>(tab.keys() + b));
    const unsigned occ = ~static_cast<unsigned>(
                             _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(x, zero)))) &
                         0xFu;
    if (!occ) continue;
    const __m256i perm = pack4(occ);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(K + n), _mm256_permutevar8x32_epi32(x, perm));
    if constexpr (kCounts == kChance) {
      // c0 s0 c1 s1 | c2 s2 c3 s3  ->  c0 c1 c2 c3 and s0 s1 s2 s3
      const __m256i v0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(V + 2 * b)),
                    v1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(V + 2 * b + 4));
      const __m256i c = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(v0, v1), 0xD8);
      const __m256i sh = _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(v0, v1), 0xD8);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(Cn + n), _mm256_permutevar8x32_epi32(c, perm));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(S + n), _mm256_permutevar8x32_epi32(sh, perm));
    } else {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(Cn + n),
                          _mm256_permutevar8x32_epi32(
                              _mm256_load_si256(reinterpret_cast<const __m256i*>(V + b)), perm));
    }
    n += static_cast<std::size_t>(std::popcount(occ));
  }
  for (std::size_t q = m; q < m + 8; ++q) {
    K[q] = m ? K[0] : 0;
    Cn[q] = 0;
    if constexpr (kCounts == kChance) S[q] = 0;
  }
  // Games (counts of dead ends) and paths (count x jumps) summed in 32-bit halves in 64-bit
  // lanes, folded into 128 bits every 4096 rounds (a half times a jump count stays below 2^42).
  // A dead end has no jumps, so its paths product is zero without a mask; lanes past the end
  // have zero counts.
  const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFFll);
  __m256i g_lo = zero, g_hi = zero, p_lo = zero, p_hi = zero;
  auto fold = [&] {
    const u128 g = static_cast<u128>(hsum(g_lo)) + (static_cast<u128>(hsum(g_hi)) << 32);
    const u128 p = static_cast<u128>(hsum(p_lo)) + (static_cast<u128>(hsum(p_hi)) << 32);
    my.games += g;
    if (__builtin_add_overflow(my.paths, p, &my.paths)) my.paths_overflow = true;
    g_lo = g_hi = p_lo = p_hi = zero;
  };
  u64 raw = 0;
  alignas(64) u32 o8[8], m8[8];
  std::size_t rounds = 0;
  for (std::size_t i = 0; i < m; i += 8) {
    residue8(K + i, R + i);
    kern_.describe8(K + i, o8, m8);
    const std::size_t e = std::min<std::size_t>(8, m - i);
    for (std::size_t u = 0; u < e; ++u) raw += o8[u];
    for (int h = 0; h < 8; h += 4) {
      const __m128i m4 = _mm_load_si128(reinterpret_cast<const __m128i*>(m8 + h));
      const __m256i mv = _mm256_cvtepu32_epi64(m4);
      const __m256i dead = _mm256_cmpeq_epi64(mv, zero);
      const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(Cn + i + h));
      const __m256i hi = _mm256_srli_epi64(c, 32);
      g_lo = _mm256_add_epi64(g_lo, _mm256_and_si256(dead, _mm256_and_si256(c, low32)));
      g_hi = _mm256_add_epi64(g_hi, _mm256_and_si256(dead, hi));
      p_lo = _mm256_add_epi64(p_lo, _mm256_mul_epu32(c, mv));
      p_hi = _mm256_add_epi64(p_hi, _mm256_mul_epu32(hi, mv));
      if constexpr (kCounts == kChance) {
        // The chance over the jumps; a dead end keeps its chance (divided by one).
        const __m256d ch = _mm256_loadu_pd(S + i + h);
        _mm256_storeu_pd(
            S + i + h, _mm256_div_pd(ch, _mm256_cvtepi32_pd(_mm_max_epu32(m4, _mm_set1_epi32(1)))));
      }
    }
    if (++rounds == 4096) {
      fold();
      rounds = 0;
    }
  }
  fold();
  my.raw += raw;
}
#endif

// compact()'s first passes, a slot at a time where the vectors do not serve; returns how many
// positions the pagoda filter keeps of the table's m (all without the filter).
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline std::size_t Engine<Tier, Kernel>::compact_scalar(Worker<C, kCounts>& w, std::size_t m,
                                                        u64* K, u32* R, C* Cn, double* S,
                                                        Tally& my) const {
  const auto& tab = w.table;
  const std::size_t cap = tab.capacity();
  // Pass 1: the occupied slots' keys and slot numbers, packed.
  w.scratch_slot.vec().resize(m + 8);
  u32* I = w.scratch_slot.vec().data();
  std::size_t n = 0;
  for (std::size_t b = 0; b < cap; b += 8) {
    const u64* kb = tab.keys() + b;
#if defined(__x86_64__)
    if constexpr (Tier::avx512) {
      const __m512i x = _mm512_load_si512(kb);
      const __mmask8 occ = _mm512_test_epi64_mask(x, x);
      _mm512_storeu_si512(K + n, _mm512_maskz_compress_epi64(occ, x));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(I + n),
                          _mm256_maskz_compress_epi32(
                              occ, _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(b)),
                                                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))));
      n += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(occ)));
      continue;
    } else if constexpr (Tier::avx2) {
      // Four slots a vector: the occupied ones packed by looked-up permutations.
      for (int h = 0; h < 8; h += 4) {
        const __m256i x = _mm256_load_si256(reinterpret_cast<const __m256i*>(kb + h));
        const unsigned occ = ~static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(
                                 _mm256_cmpeq_epi64(x, _mm256_setzero_si256())))) &
                             0xFu;
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(K + n),
                            _mm256_permutevar8x32_epi32(x, pack4(occ)));
        const __m256i slot = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(b) + h),
                                              _mm256_setr_epi32(0, 1, 2, 3, 0, 0, 0, 0));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(I + n),
                         _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(slot, pack4_32(occ))));
        n += static_cast<std::size_t>(std::popcount(occ));
      }
      continue;
    }
#endif
    for (u32 l = 0; l < 8; ++l) {
      K[n] = kb[l];
      I[n] = static_cast<u32>(b) + l;
      n += kb[l] != 0;
    }
  }
  // The pagoda filter (sets alone), once per position: tested on each child before its insert,
  // it took twice the time of the unfiltered pass on triangle:7 (about eight children a position).
  if constexpr (kCounts == kKeys)
    if (reach_.active()) m = reach_.filter(K, m);
  for (std::size_t q = m; q < m + 8; ++q) K[q] = m ? K[0] : 0;
  // Pass 2, eight positions at a time: residues, orbits, jumps; shares (the chance over the
  // jumps, the chance itself for a dead end); the level's figures.
  u64 raw = 0;
  alignas(64) u32 o8[8], m8[8];
  for (std::size_t i = 0; i < m; i += 8) {
    residue8(K + i, R + i);
    kern_.describe8(K + i, o8, m8);
    const std::size_t e = std::min<std::size_t>(8, m - i);
    for (std::size_t u = 0; u < e; ++u) raw += o8[u];
    if constexpr (kCounts != kKeys) {
      for (std::size_t u = 0; u < e; ++u) {
        const auto& v = tab.values()[I[i + u]];
        const u32 mv = m8[u];
        Cn[i + u] = v.count;
        if constexpr (kCounts == kChance) S[i + u] = mv ? v.chance / mv : v.chance;
        if (!mv) {
          my.games += static_cast<u128>(v.count);
        } else if constexpr (std::is_same_v<C, u64>) {
          // A 64-bit count times a 32-bit jump count fits in 128 bits: one multiply.
          if (__builtin_add_overflow(my.paths, static_cast<u128>(v.count) * mv, &my.paths))
            my.paths_overflow = true;
        } else {
          u128 prod;
          if (__builtin_mul_overflow(static_cast<u128>(v.count), static_cast<u128>(mv), &prod) ||
              __builtin_add_overflow(my.paths, prod, &my.paths))
            my.paths_overflow = true;
        }
      }
    }
  }
  my.raw += raw;
  return m;
}

// compact()'s last pass: the positions by residue into the segment (a counting sort), and
// packed for storing when `pack`.
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline void Engine<Tier, Kernel>::sort_out(Worker<C, kCounts>& w, Segment<C>& out, Tally& my,
                                           bool pack, std::size_t m, const u64* K, const u32* R,
                                           const C* Cn, const double* S) const {
  const u32 len = out.hi - out.lo;
  out.n = m;
  out.off = (pack ? w.kept_bump : w.key_bump).template alloc<u32>(len + 1);
  u32* off = out.off;
  std::fill(off, off + len + 1, 0u);
  for (std::size_t i = 0; i < m; ++i) ++off[((R[i] - out.lo) & kResidueMask) + 1];
  for (u32 c = 0; c < len; ++c) off[c + 1] += off[c];
  out.key = w.key_bump.template alloc<u64>(m);
  if constexpr (kCounts != kKeys) {
    out.count = w.value_bump.template alloc<C>(m);
    if constexpr (kCounts == kChance) out.share = w.value_bump.template alloc<double>(m);
  }
  w.at.assign(off, off + len);
  u32* at = w.at.data();
  u64* ok = out.key;
  u64 count_or = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const u32 p = at[(R[i] - out.lo) & kResidueMask]++;
    ok[p] = K[i];
    if constexpr (kCounts != kKeys) {
      out.count[p] = Cn[i];
      if constexpr (std::is_same_v<C, u64>) count_or |= Cn[i];
      if constexpr (kCounts == kChance) out.share[p] = S[i];
    }
  }
  my.count_or |= count_or;
  if (pack) {
    const std::size_t wb = static_cast<std::size_t>(kern_.packed_bytes());
    out.packed_copy = w.kept_bump.template alloc<std::uint8_t>(m * wb + 8);
    pack_keys(ok, m, out.packed_copy);
  }
  my.sym += m;
}

}  // namespace
}  // namespace pegsol::census_detail
