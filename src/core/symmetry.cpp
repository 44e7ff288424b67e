// SPDX-License-Identifier: MIT
// The symmetry and goal helpers of src/core/symmetry.hpp.
#include "symmetry.hpp"

#include <cstddef>

#include "pegsol/invariants.hpp"

namespace pegsol {

namespace {

// True when perm, a symmetry of board b, maps set onto itself.
bool invariant(const Board& b, const std::vector<int>& perm, const HoleSet& set) {
  for (int h = 0; h < b.size(); ++h)
    if (set.test(h) != set.test(perm[static_cast<std::size_t>(h)])) return false;
  return true;
}

}  // namespace

std::vector<int> problem_symmetries(const Board& b, const Problem& p, bool use_symmetry) {
  std::vector<int> out{0};
  if (!use_symmetry) return out;
  const auto& syms = b.symmetries();
  for (std::size_t s = 1; s < syms.size(); ++s) {
    const std::vector<int>& perm = syms[s];
    if (!invariant(b, perm, p.start)) continue;
    bool keeps_goal = true;
    switch (p.goal.kind) {
      case Goal::Kind::Hole:
        keeps_goal = perm[static_cast<std::size_t>(p.goal.hole)] == p.goal.hole;
        break;
      case Goal::Kind::Position:
        keeps_goal = invariant(b, perm, p.goal.position);
        break;
      case Goal::Kind::Any:
        break;
    }
    if (keeps_goal) out.push_back(static_cast<int>(s));
  }
  return out;
}

std::vector<int> final_holes(const Board& b, const HoleSet& start) {
  std::vector<const std::vector<int>*> fixing;
  for (const auto& perm : b.symmetries())
    if (invariant(b, perm, start)) fixing.push_back(&perm);
  std::vector<bool> done(static_cast<std::size_t>(b.size()), false);
  std::vector<int> out;
  for (int h : admissible_finals(b, start).members()) {
    if (done[static_cast<std::size_t>(h)]) continue;
    for (const auto* perm : fixing)
      done[static_cast<std::size_t>((*perm)[static_cast<std::size_t>(h)])] = true;
    out.push_back(h);
  }
  return out;
}

}  // namespace pegsol
