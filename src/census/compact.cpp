// SPDX-License-Identifier: MIT
// The compact census engine's entry: the census group and the complement twist of a problem, then
// the engine compiled for the best instruction set this CPU has (compact_tier.hpp, compiled once
// per tier by compact_portable.cpp, compact_avx2.cpp and compact_avx512.cpp).
#include <algorithm>
#include <vector>

#include "../core/symmetry.hpp"
#include "engine.hpp"
#include "pegsol/census.hpp"
#include "pegsol/version.hpp"

namespace pegsol::census_detail {

// The complement trick's twist: the inverse of a board symmetry t with t(start) = complement of
// the goal and t(goal) = complement of the start, or -1 (goals "anywhere" have none). Reversed
// and complemented, a path from x to the goal is a path from t(start) to the complement of x, so
// x is on a solution path exactly when t^-1(complement of x) is reachable; and conjugation by t
// keeps the census group, so that test is the same for x's whole orbit.
int complement_twist(const Board& b, const Problem& p) {
  if (p.goal.kind == Goal::Kind::Any) return -1;
  HoleSet goal = p.goal.kind == Goal::Kind::Position ? p.goal.position : HoleSet(b.size());
  if (p.goal.kind == Goal::Kind::Hole) goal.set(p.goal.hole);
  const HoleSet not_start = p.start.complement(), not_goal = goal.complement();
  const auto& syms = b.symmetries();
  auto image = [&](const std::vector<int>& perm, const HoleSet& x) {
    HoleSet y(b.size());
    for (int h : x.members()) y.set(perm[static_cast<std::size_t>(h)]);
    return y;
  };
  for (std::size_t t = 0; t < syms.size(); ++t) {
    if (image(syms[t], p.start) != not_goal || image(syms[t], goal) != not_start) continue;
    for (std::size_t u = 0; u < syms.size(); ++u) {  // its inverse
      bool inverse = true;
      for (int h = 0; h < b.size() && inverse; ++h)
        inverse = syms[u][static_cast<std::size_t>(syms[t][static_cast<std::size_t>(h)])] == h;
      if (inverse) return static_cast<int>(u);
    }
  }
  return -1;
}

CensusResult compact_census(const Problem& p, const CensusOptions& o, int count_bits) {
  const Board& b = *p.board;
  const std::vector<int> syms = problem_symmetries(b, p, o.symmetry);
  const int twist = complement_twist(b, p);
  // Asked on every architecture, so that a bad PEGSOL_KERNELS is an error everywhere.
  [[maybe_unused]] const Isa isa =
      o.engine == CensusEngine::CompactPortable ? Isa::Portable : kernel_info().census;
#if defined(__x86_64__) && !defined(PEGSOL_PORTABLE_ONLY)
  if (isa == Isa::Avx512) return compact_census_avx512(p, o, syms, twist, count_bits);
  if (isa == Isa::Avx2) return compact_census_avx2(p, o, syms, twist, count_bits);
#endif
  return compact_census_portable(p, o, syms, twist, count_bits);
}

}  // namespace pegsol::census_detail
