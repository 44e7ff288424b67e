// SPDX-License-Identifier: MIT
// A census level's storage by residue, in the pool's memory (compact_memory.hpp): the compact
// engine's levels, and (issue 45, docs/mpi.md) an MPI rank's over its residue range. Plain code,
// outside the CPU tiers (compact_common.hpp): one copy for every tier and for the MPI census.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "compact_memory.hpp"
#include "residues.hpp"

namespace pegsol::census_detail {

// A run of residues [lo, hi) of one level: the positions sorted by residue (off[r - lo] is the
// first of residue r), with their path counts and shares when counting. A stored level (kept for
// the solution-path pass) holds its keys only.
template <class C>
struct Segment {
  std::uint32_t lo = 0, hi = 0;
  std::size_t n = 0;
  std::uint32_t* off = nullptr;  // hi - lo + 1 entries
  std::uint64_t* key = nullptr;  // canonical keys
  C* count = nullptr;            // orbit path counts (counting only)
  double* share = nullptr;       // the orbit's chance over its number of jumps (the chance if none)
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
  void for_range(std::uint32_t lo, std::uint32_t hi, F&& f) const {
    if (lo >= hi) return;
    auto it = std::upper_bound(seg.begin(), seg.end(), lo,
                               [](std::uint32_t r, const Segment<C>& s) { return r < s.hi; });
    for (; it != seg.end() && it->lo < hi; ++it) {
      const std::uint32_t a = std::max(lo, it->lo), b = std::min(hi, it->hi);
      const std::size_t i0 = it->off[a - it->lo], i1 = it->off[b - it->lo];
      if (i0 < i1) f(*it, i0, i1);
    }
  }
  void sizes(std::vector<std::uint32_t>& out) const {
    out.assign(kResidues, 0);
    for (const auto& s : seg)
      for (std::uint32_t r = s.lo; r < s.hi; ++r) out[r] = s.off[r - s.lo + 1] - s.off[r - s.lo];
  }
};

}  // namespace pegsol::census_detail
