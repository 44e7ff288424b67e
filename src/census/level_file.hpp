// SPDX-License-Identifier: MIT
// A census level in a checkpoint file (level_store.hpp's Level): the compact engine's checkpoint
// writes its levels with these (compact_checkpoint.hpp), and an MPI rank can (docs/mpi.md, "One
// census engine", step 3). Plain code, outside the CPU tiers: the key packing is the caller's.
//
//   u64 segments, then for a live level (not a stored one) bool packed_ready, then per segment:
//   u32 lo | u32 hi | u64 n | u32 off[hi - lo + 1] | n keys, key_bytes each (packed) |
//   C count[n] (counting, live levels only) | double share[n] (chances, live levels only)
//
// The segments run in residue order; the compact engine's tile the residues [0, 2^16), and its
// reader refuses anything else (LevelFileShape::tiled); an MPI rank's cover its own residues that
// hold positions, with gaps.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "checkpoint.hpp"
#include "compact_memory.hpp"
#include "level_store.hpp"
#include "pegsol/error.hpp"
#include "residues.hpp"

namespace pegsol::census_detail {

// What a level's file holds besides its offsets: its keys' packed width, and for a live level
// whether it carries counts and shares.
struct LevelFileShape {
  std::size_t key_bytes = 8;
  bool counts = false;
  bool shares = false;
  // Whether the segments tile the residues [0, 2^16) (else they only follow each other).
  bool tiled = true;
  // Whether the reader takes the arrays from the heap (Bump's small levels), not the pool.
  bool heap = false;
  // Keys packed or unpacked at a time (a buffer of this many keys).
  static constexpr std::size_t kKeyBlock = std::size_t{1} << 16;
};

// Writes lv to f. A stored level (`stored`) writes its packed keys as they are; a live one its
// packed copy when packed_ready, else its keys through pack(keys, m, out), which packs m keys
// into key_bytes each at out (8 bytes to spare). after_segment() runs after each written
// segment holding positions.
template <class C, class Pack, class After>
void write_level(FileWriter& f, const Level<C>& lv, bool stored, const LevelFileShape& shape,
                 Pack&& pack, After&& after_segment) {
  const std::size_t w = shape.key_bytes;
  constexpr std::size_t kBlock = LevelFileShape::kKeyBlock;
  std::size_t most = 0;  // keys packed at a time: a block, or the largest segment if smaller
  if (!stored && !lv.packed_ready)
    for (const Segment<C>& s : lv.seg) most = std::max(most, std::min(kBlock, s.n));
  std::vector<std::uint8_t> block(most * w + 8);
  f.put(static_cast<std::uint64_t>(lv.seg.size()));
  if (!stored) f.put(lv.packed_ready);
  for (const Segment<C>& s : lv.seg) {
    f.put(s.lo);
    f.put(s.hi);
    f.put(static_cast<std::uint64_t>(s.n));
    f.write(s.off, (s.hi - s.lo + 1) * sizeof(std::uint32_t));
    if (s.n == 0) continue;
    if (stored) {
      f.write(s.packed, s.n * w);
    } else {
      if (lv.packed_ready) {
        f.write(s.packed_copy, s.n * w);
      } else {
        for (std::size_t i = 0; i < s.n; i += kBlock) {
          const std::size_t m = std::min(kBlock, s.n - i);
          pack(s.key + i, m, block.data());
          f.write(block.data(), m * w);
        }
      }
      if (shape.counts) f.write(s.count, s.n * sizeof(C));
      if (shape.shares) f.write(s.share, s.n * sizeof(double));
    }
    after_segment();
  }
}

// Reads a level written by write_level from f into lv, its arrays from lv's pool as the forward
// pass's are (a live level's offsets with its packed copy when packed_ready, where the forward
// pass keeps them). unpack(in, m, out) unpacks m keys; after_segment() runs after each segment.
// Throws CensusError naming f's file when it does not hold such a level.
template <class C, class Unpack, class After>
void read_level(FileReader& f, Level<C>& lv, bool stored, const LevelFileShape& shape,
                Unpack&& unpack, After&& after_segment) {
  const std::size_t w = shape.key_bytes;
  constexpr std::size_t kBlock = LevelFileShape::kKeyBlock;
  // Keys unpacked at a time: a block, or the level's positions if fewer (the payload bounds them).
  const std::size_t most = stored ? 0 : std::min(kBlock, f.size() / std::max<std::size_t>(w, 1));
  std::vector<std::uint8_t> block(most * w + 8);
  auto not_a_level = [&] {
    return CensusError("checkpoint: " + f.name() + " is not a census level");
  };
  const std::uint64_t segs = f.get<std::uint64_t>();
  if (!stored) lv.packed_ready = f.get<bool>();
  if (segs > kResidues) throw not_a_level();
  Bump kb, vb, pb;
  kb.begin(lv.keys, shape.heap);
  vb.begin(lv.values, shape.heap);
  pb.begin(lv.kept, shape.heap);
  std::uint32_t expect = 0;
  for (std::uint64_t i = 0; i < segs; ++i) {
    Segment<C> s;
    s.lo = f.get<std::uint32_t>();
    s.hi = f.get<std::uint32_t>();
    s.n = f.get<std::uint64_t>();
    if ((shape.tiled ? s.lo != expect : s.lo < expect) || s.hi <= s.lo || s.hi > kResidues ||
        s.n > (std::uint64_t{1} << 40))
      throw not_a_level();
    expect = s.hi;
    Bump& ob = !stored && lv.packed_ready ? pb : kb;
    s.off = ob.template alloc<std::uint32_t>(s.hi - s.lo + 1);
    f.read(s.off, (s.hi - s.lo + 1) * sizeof(std::uint32_t));
    if (s.off[0] != 0 || s.off[s.hi - s.lo] != s.n) throw not_a_level();
    if (stored) {
      s.packed = kb.template alloc<std::uint8_t>(s.n * w + 8);
      f.read(s.packed, s.n * w);
    } else if (s.n > 0) {
      s.key = kb.template alloc<std::uint64_t>(s.n);
      if (lv.packed_ready) {
        s.packed_copy = pb.template alloc<std::uint8_t>(s.n * w + 8);
        f.read(s.packed_copy, s.n * w);
        unpack(s.packed_copy, s.n, s.key);
      } else {
        for (std::size_t j = 0; j < s.n; j += kBlock) {
          const std::size_t m = std::min(kBlock, s.n - j);
          f.read(block.data(), m * w);
          unpack(block.data(), m, s.key + j);
        }
      }
      if (shape.counts) {
        s.count = vb.template alloc<C>(s.n);
        f.read(s.count, s.n * sizeof(C));
      }
      if (shape.shares) {
        s.share = vb.template alloc<double>(s.n);
        f.read(s.share, s.n * sizeof(double));
      }
    }
    lv.seg.push_back(s);
    after_segment();
  }
  if (shape.tiled && expect != kResidues) throw not_a_level();
}

}  // namespace pegsol::census_detail
