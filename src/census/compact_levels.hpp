// SPDX-License-Identifier: MIT
// The compact census engine's levels: a level's storage, sorted by residue, and the jump classes
// a scan tests (compiled per CPU tier: compact_common.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "compact_common.hpp"
#include "compact_memory.hpp"

namespace pegsol::census_detail {
namespace {

// A run of residues [lo, hi) of one level: the positions sorted by residue (off[r - lo] is the
// first of residue r), with their path counts and shares when counting. A stored level (kept for
// the solution-path pass) holds its keys only.
template <class C>
struct Segment {
  u32 lo = 0, hi = 0;
  std::size_t n = 0;
  u32* off = nullptr;       // hi - lo + 1 entries
  u64* key = nullptr;       // canonical keys
  C* count = nullptr;       // orbit path counts (counting only)
  double* share = nullptr;  // the orbit's chance over its number of jumps (the chance if none)
  // A stored level's keys instead, packed: n dense bits each, in the fewest whole bytes.
  std::uint8_t* packed = nullptr;
  // A live level that will be stored: its keys packed already (written by the compaction).
  std::uint8_t* packed_copy = nullptr;
  std::size_t size() const { return n; }
  // A segment of another count type over the same residues and offsets, holding nothing yet.
  template <class D>
  Segment<D> runs() const {
    Segment<D> t;
    t.lo = lo;
    t.hi = hi;
    t.n = n;
    t.off = off;
    return t;
  }
};

template <class C>
struct Level {
  Level() = default;
  Level(Pool& p, Memory& m) : keys(p, m), values(p, m), kept(p, m) {}
  std::vector<Segment<C>> seg;
  Store keys, values;  // the chunks of the offsets and keys, and of the counts and shares
  Store kept;          // when packed_ready: the offsets and packed keys, which outlive the rest
  bool packed_ready = false;
  // Drops the level's spilled pages from the process's memory (a finished level only).
  void shed() const {
    keys.shed();
    values.shed();
    kept.shed();
  }
  std::size_t size() const {
    std::size_t n = 0;
    for (const auto& s : seg) n += s.size();
    return n;
  }
  // Calls f(segment, first, end) for the positions of residues [lo, hi) (lo <= hi <= 2^16).
  template <class F>
  void for_range(u32 lo, u32 hi, F&& f) const {
    if (lo >= hi) return;
    auto it = std::upper_bound(seg.begin(), seg.end(), lo,
                               [](u32 r, const Segment<C>& s) { return r < s.hi; });
    for (; it != seg.end() && it->lo < hi; ++it) {
      const u32 a = std::max(lo, it->lo), b = std::min(hi, it->hi);
      const std::size_t i0 = it->off[a - it->lo], i1 = it->off[b - it->lo];
      if (i0 < i1) f(*it, i0, i1);
    }
  }
  void sizes(std::vector<u32>& out) const {
    out.assign(kResidues, 0);
    for (const auto& s : seg)
      for (u32 r = s.lo; r < s.hi; ++r) out[r] = s.off[r - s.lo + 1] - s.off[r - s.lo];
  }
};

// One jump class (at most 8 jumps sharing a delta): what a scan over parents tests.
struct Spec {
  u32 delta = 0;
  int n = 0;
  std::array<u64, 8> need{}, have{}, flip{};
  // Byte j: the key bits of jump j's two pegs and of its empty hole (unused bytes ask for bit 0
  // both set and clear: never legal), for the vector scan's bit shuffles.
  u64 pegs1 = 0, pegs2 = 0, hole = 0;
};

}  // namespace
}  // namespace pegsol::census_detail
