// SPDX-License-Identifier: MIT
// The answers to "can this position still reach the goal?" that need no search, shared by
// is_solvable() and the analysis.
#pragma once

#include <optional>

#include "pegsol/play.hpp"

namespace pegsol::play_detail {

// Solvable when p already reaches the problem's goal, NotSolvable when no peg or no jump is
// left; nullopt when a search (or a proof) has to say.
inline std::optional<SolvabilityAnswer> settled_without_search(const Problem& problem,
                                                               const Position& p) {
  SolvabilityAnswer a;
  const HoleSet& pegs = p.pegs();
  if (goal_reached(problem, pegs)) {
    a.verdict = Solvability::Solvable;
    return a;
  }
  if (pegs.count() == 0) {
    a.verdict = Solvability::NotSolvable;
    a.reason = "there are no pegs on the board";
    return a;
  }
  if (p.stuck()) {
    a.verdict = Solvability::NotSolvable;
    a.reason = "no jump is left";
    return a;
  }
  return std::nullopt;
}

}  // namespace pegsol::play_detail
