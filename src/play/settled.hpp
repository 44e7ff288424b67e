// SPDX-License-Identifier: MIT
// The answers to "can this position still reach the goal?" that need no search, shared by
// is_solvable() and the analysis.
#pragma once

#include <optional>

#include "pegsol/play.hpp"

namespace pegsol::play_detail {

// Solvable when `pegs` already reach the problem's goal, NotSolvable when no peg is left;
// nullopt when a search (or a proof) has to say.
inline std::optional<SolvabilityAnswer> settled_without_search(const Problem& problem,
                                                               const HoleSet& pegs) {
  SolvabilityAnswer a;
  if (goal_reached(problem, pegs)) {
    a.verdict = Solvability::Solvable;
    return a;
  }
  if (pegs.count() == 0) {
    a.verdict = Solvability::NotSolvable;
    a.reason = "there are no pegs on the board";
    return a;
  }
  return std::nullopt;
}

}  // namespace pegsol::play_detail
