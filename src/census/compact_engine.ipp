// SPDX-License-Identifier: MIT
// The compact census engine: every board whose layout fits 64 bits.
//
// Level k (the positions with k pegs, in canonical form under the census group) is split by a
// residue, a linear function of the pegs that the census group leaves unchanged:
//
//      residue(x) = sum over the pegs h of x of w[h]  (mod 2^16),   w constant on each orbit
//
// so a jump changes the residue by a constant of its own, delta(j) = w[to] - w[from] - w[over]:
// the children of residue r through jump j all have residue r + delta(j). A level is stored
// sorted by residue, and level k-1 is built a range of residues [a, b) at a time (a work item):
// its positions come only from the parents in [a - delta, b - delta) for each jump class (the
// jumps sharing a delta; 12 on the English board). Each work item fills one hash table sized to
// stay in the worker's cache, then writes its positions out sorted by residue. No position is
// ever sent anywhere but to the table of its own residue range, so a work item needs no locks
// and no buffers beyond one batch of children, and the same split can put residue ranges on other
// machines.
//
// The engine is one class, Engine, built on the census skeleton (context.hpp: the problem, the
// group, control, memory, threads, progress and the run's result) and compiled whole in each
// tier's translation unit (so the hot loops inline as one piece), its parts in files of their own:
//
//   compact_levels.ipp    a level's storage by residue, the jump classes
//   compact_tables.ipp    the hash tables (work items' tables, key sets)
//   compact_context.ipp   class Engine: its run, keys, residues, the state of its passes
//   compact_forward.ipp   the forward pass: expand, scan, compact, workers
//   compact_paths.ipp     the solution paths: complement join, backward pass, export
//   compact_distinct.ipp  the count up to reordering of independent jumps
//
// What the forward pass tried and lost is at the top of compact_forward.ipp.
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../core/hash.hpp"
#include "checkpoint.hpp"
#include "compact_memory.hpp"
#include "context.hpp"
#include "engine.hpp"
#include "kernels.hpp"
#include "paths.hpp"
#include "pegsol/census.hpp"
#include "reach.hpp"
#include "target.hpp"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

// Everything below is compiled for the includer's instruction set (PEGSOL_CENSUS_TARGET, or the
// baseline when it is empty) in a namespace of its own, so that nothing of it is shared with the
// other instruction sets' copies; the standard library's templates, included above, stay baseline.
#ifdef PEGSOL_CENSUS_TARGET
PEGSOL_TARGET_BEGIN(PEGSOL_CENSUS_TARGET)
#endif
#include "kernels_grid.hpp"
#if PEGSOL_AVX512
#include "kernels_avx512.hpp"
#elif PEGSOL_AVX2
#include "kernels_avx2.hpp"
#endif

namespace pegsol::census_detail::PEGSOL_CENSUS_ISA {
namespace {

using u64 = std::uint64_t;
using u32 = std::uint32_t;
using u128 = unsigned __int128;

constexpr int kResidueBits = 16;
constexpr u32 kResidues = u32{1} << kResidueBits;
constexpr u32 kResidueMask = kResidues - 1;
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

#include "compact_levels.ipp"
#include "compact_tables.ipp"

#include "compact_context.ipp"
#include "compact_distinct.ipp"
#include "compact_forward.ipp"
#include "compact_paths.ipp"

// After the class and the passes it runs on from a checkpoint.
#include "compact_checkpoint.ipp"

template <class Kernel, bool kVec>
CensusResult run(const Problem& p, const CensusOptions& o, Kernel kernel, std::vector<int> syms,
                 int twist, int count_bits) {
  return Engine<Kernel, kVec>(p, o, std::move(kernel), std::move(syms), twist).run(count_bits);
}

}  // namespace

CensusResult compact_census_isa(const Problem& p, const CensusOptions& o,
                                const std::vector<int>& syms, int twist, int count_bits) {
  const Board& b = *p.board;
  const int t = std::max(twist, 0);
#if PEGSOL_AVX512
  if (auto grid = GridKernel::make(b, syms, t))
    return run<GridKernel, true>(p, o, std::move(*grid), syms, twist, count_bits);
  return run<TableKernel, true>(p, o, TableKernel(b, syms, t), syms, twist, count_bits);
#elif PEGSOL_AVX2
  if (auto grid = Avx2GridKernel::make(b, syms, t))
    return run<Avx2GridKernel, false>(p, o, std::move(*grid), syms, twist, count_bits);
  return run<TableKernel, false>(p, o, TableKernel(b, syms, t), syms, twist, count_bits);
#else
  if (auto grid = ScalarGridKernel::make(b, syms, t))
    return run<ScalarGridKernel, false>(p, o, std::move(*grid), syms, twist, count_bits);
  return run<TableKernel, false>(p, o, TableKernel(b, syms, t), syms, twist, count_bits);
#endif
}

}  // namespace pegsol::census_detail::PEGSOL_CENSUS_ISA

#ifdef PEGSOL_CENSUS_TARGET
PEGSOL_TARGET_END
#endif
