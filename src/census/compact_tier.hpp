// SPDX-License-Identifier: MIT
// The compact census engine for one CPU tier: every board whose layout fits 64 bits.
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
// The engine is one class, Engine (compact_engine.hpp), templated on the tier's traits and the
// kernel and compiled whole in each tier's translation unit (compact_portable.cpp,
// compact_avx2.cpp, compact_avx512.cpp include this file once each), so that the hot loops inline
// as one piece. A tier's traits are a struct of its own (in its source):
//
//   struct Avx2Tier {
//     static constexpr bool avx512 = false, avx2 = true, bmi2 = true;  // instructions it may use
//     using Grid = Avx2GridKernel;                                      // its grid kernel
//   };
//
// (avx512 implies avx2 and bmi2), and the components choose their vector forms with
// `if constexpr` on them. What stays a preprocessor test is what the compiler needs: the target
// region (a pragma), and `#if defined(__x86_64__)` around the intrinsics, which other
// architectures lack. Everything here sits in an unnamed namespace: the tiers' translation units
// never share one (CMakeLists.txt keeps them out of unity builds), so no tier's copy of a function
// can stand in for another's at link time. Its components, each a header of its own:
//
//   compact_common.hpp      the words and constants
//   compact_levels.hpp      the jump classes (a level's storage by residue is level_store.hpp,
//                           and its checkpoint file level_file.hpp, outside the tiers and
//                           included above: the MPI census shares them)
//   compact_tables.hpp      the hash tables (work items' tables, key sets)
//   compact_engine.hpp      class Engine: its run, keys, residues, the state of its passes
//   compact_forward.hpp     the forward pass: expand, scan, compact
//   compact_paths.hpp       the solution paths: complement join, backward pass, export
//   compact_distinct.hpp    the count up to reordering of independent jumps
//   compact_checkpoint.hpp  checkpoint and resume of the forward pass (its levels' files through
//                           level_file.hpp)
//
// What the forward pass tried and lost is at the top of compact_forward.hpp.
//
// A tier's source: PEGSOL_CENSUS_TARGET (target.hpp's instruction-set string; none for the
// baseline), then this file, then its kernel header and traits in a target region of its own.
#pragma once

// What the components include from outside the tier, first: the standard library's templates
// and the shared headers stay baseline (only what the target region below defines is compiled for
// the tier's instruction set). simd_x86.hpp's helpers carry their own instruction sets.
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../core/hash.hpp"
#include "checkpoint.hpp"
#include "compact_memory.hpp"
#include "engine.hpp"
#include "kernels.hpp"
#include "level_file.hpp"
#include "level_store.hpp"
#include "memory.hpp"
#include "paths.hpp"
#include "pegsol/board.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"
#include "reach.hpp"
#include "residues.hpp"
#include "simd_x86.hpp"
#include "skeleton.hpp"
#include "target.hpp"
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

// Everything below is compiled for the includer's instruction set (PEGSOL_CENSUS_TARGET, or the
// baseline when it is not defined).
#ifdef PEGSOL_CENSUS_TARGET
PEGSOL_TARGET_BEGIN(PEGSOL_CENSUS_TARGET)
#endif
#include "kernels_grid.hpp"

#include "compact_common.hpp"
#include "compact_levels.hpp"
#include "compact_tables.hpp"

#include "compact_distinct.hpp"
#include "compact_engine.hpp"
#include "compact_forward.hpp"
#include "compact_paths.hpp"

#include "compact_checkpoint.hpp"

namespace pegsol::census_detail {
namespace {

// The census on tier Tier: on its grid kernel where the board fits one, else on the table kernel.
template <class Tier>
CensusResult compact_census_tier(const Problem& p, const CensusOptions& o,
                                 const std::vector<int>& syms, int twist, int count_bits) {
  static_assert(!Tier::avx512 || (Tier::avx2 && Tier::bmi2), "avx512 implies avx2 and bmi2");
  const Board& b = *p.board;
  const int t = std::max(twist, 0);
  using Grid = typename Tier::Grid;
  if (auto grid = Grid::make(b, syms, t))
    return Engine<Tier, Grid>(p, o, std::move(*grid), syms, twist).run(count_bits);
  return Engine<Tier, TableKernel>(p, o, TableKernel(b, syms, t), syms, twist).run(count_bits);
}

}  // namespace
}  // namespace pegsol::census_detail

#ifdef PEGSOL_CENSUS_TARGET
PEGSOL_TARGET_END
#endif
