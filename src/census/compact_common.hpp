// SPDX-License-Identifier: MIT
// The compact census engine's words and constants (internal to src/census).
//
// The engine's headers (compact_*.hpp but compact_memory.hpp) are compiled once per CPU tier, as
// kernels_grid.hpp is: a tier's source (compact_portable.cpp, compact_avx2.cpp,
// compact_avx512.cpp) includes compact_tier.hpp, which includes them inside that tier's target
// region, and instantiates them on the tier's traits. Their contents sit in an unnamed namespace,
// so that nothing of one tier's copy is shared with another's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "residues.hpp"

namespace pegsol::census_detail {
namespace {

using u64 = std::uint64_t;
using u32 = std::uint32_t;
using u128 = unsigned __int128;

// kResidueBits, kResidues, kResidueMask: residues.hpp (shared with the MPI census).
// Children gathered before they are canonicalised and inserted (and a margin for one vector).
constexpr std::size_t kBatch = 1024;
// What each stored position carries: its key alone (a table pass), its path count, or its path
// count and the random player's chance of passing through its orbit. Zero means keys alone, so
// `if constexpr (kCounts != kKeys)` reads as "when counting".
enum Carry : int { kKeys = 0, kPaths = 1, kChance = 2 };
// Positions a work item aims at: its table (at most 80% full) then fits the 1 MiB second-level
// cache of the machines this was measured on. 16,000 with 24-byte slots (key, count, chance);
// 24,000 with 16-byte slots (key, count): 4% faster than 16,000 on the English census without
// chances, and 32,000 the same as 24,000.
template <Carry kCounts>
constexpr double kItemPositions = kCounts == kPaths ? 24000 : 16000;
// Levels expected to hold fewer positions than this take their arrays from the heap.
constexpr double kSmallLevel = 200000;

}  // namespace
}  // namespace pegsol::census_detail
