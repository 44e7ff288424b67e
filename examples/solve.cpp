// SPDX-License-Identifier: MIT
// Solves the English central game (d4 vacant, one peg left on d4), prints the moves and checks
// them by replaying them from the start. Exit status 0 when the solution replays to the goal.
#include <iostream>

#include "pegsol/catalogue.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"

int main() {
  const pegsol::Problem problem = pegsol::default_problem(pegsol::make_board("english"));
  std::cout << pegsol::describe(problem) << '\n';

  const pegsol::SolveResult result = pegsol::solve(problem);
  if (result.status != pegsol::Status::Solved) {
    std::cerr << pegsol::status_name(result.status) << ": " << result.reason << '\n';
    return 1;
  }
  std::cout << "moves:";
  for (const pegsol::Jump& jump : result.moves)
    std::cout << ' ' << pegsol::move_text(*problem.board, jump);
  std::cout << '\n';

  // An independent check: every jump legal in turn, and the goal reached at the end.
  const pegsol::Replay check = pegsol::replay(*problem.board, problem.start, result.moves);
  if (!check.ok || !pegsol::goal_reached(problem, check.final)) {
    std::cerr << "the solution does not replay: " << check.error << '\n';
    return 1;
  }
  std::cout << "solved in " << result.moves.size() << " moves (" << result.nodes
            << " positions searched), replay ok\n";
  return 0;
}
