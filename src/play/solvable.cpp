// SPDX-License-Identifier: MIT
// "Is this position still solvable?" and hints (include/pegsol/play.hpp): solve() with a time
// limit, every solution replayed; the answers that need no search (settled.hpp) first.
#include <utility>

#include "../core/checks.hpp"
#include "pegsol/error.hpp"
#include "pegsol/play.hpp"
#include "pegsol/solve.hpp"
#include "settled.hpp"

namespace pegsol {

std::string_view solvability_name(Solvability s) {
  switch (s) {
    case Solvability::Solvable:
      return "solvable";
    case Solvability::NotSolvable:
      return "not solvable";
    case Solvability::Unknown:
      return "unknown";
  }
  return "?";
}

SolvabilityAnswer is_solvable(const Position& p, const Goal& goal, double time_limit_seconds) {
  checks::seconds(time_limit_seconds, "time_limit_seconds");
  Control c;
  c.set_time_limit(time_limit_seconds);
  SolveOptions o;
  o.control = &c;
  return is_solvable(p, goal, o);
}

SolvabilityAnswer is_solvable(const Position& p, const Goal& goal, const SolveOptions& options) {
  Problem problem{p.board_ptr(), p.pegs(), goal};
  check_problem(problem);
  if (auto settled = play_detail::settled_without_search(problem, p)) return *settled;
  SolvabilityAnswer a;
  SolveResult r = solve(problem, options);
  a.nodes = r.nodes;
  a.seconds = r.seconds;
  a.reason = r.reason;
  switch (r.status) {
    case Status::Solved: {
      Position q = p;
      for (const Jump& j : r.moves) q.apply(j);  // an illegal jump would be a solver bug
      if (!goal_reached(problem, q.pegs()))
        throw InternalError("is_solvable: the solver's solution does not reach the goal");
      a.verdict = Solvability::Solvable;
      a.solution = std::move(r.moves);
      a.reason.clear();
      break;
    }
    case Status::Impossible:
      a.verdict = Solvability::NotSolvable;
      break;
    case Status::Unknown:
      a.verdict = Solvability::Unknown;
      break;
  }
  return a;
}

Hint hint(const Position& p, const Goal& goal, double time_limit_seconds) {
  checks::seconds(time_limit_seconds, "time_limit_seconds");
  Control c;
  c.set_time_limit(time_limit_seconds);
  SolveOptions o;
  o.control = &c;
  return hint(p, goal, o);
}

Hint hint(const Position& p, const Goal& goal, const SolveOptions& options) {
  Hint h;
  h.answer = is_solvable(p, goal, options);
  if (h.answer.verdict == Solvability::Solvable && !h.answer.solution.empty())
    h.move = group_moves(h.answer.solution).front();
  return h;
}

}  // namespace pegsol
