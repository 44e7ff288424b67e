// SPDX-License-Identifier: MIT
// A game analysed move by move: a player who always takes the first legal move plays the board's
// default problem to the end; the analyzer names the first losing move, then says of each position
// whether the goal can still be reached and in how many ways.
// Usage: pegsol_example_analysis [BOARD [--no-lookup]] (default triangle:5; --no-lookup: searches
// and counts instead of the census look-ups). Exit status 0 when every verdict is decided and the
// first mistake is the move after which the verdicts turn to "not solvable".
#include <cstddef>
#include <iostream>
#include <string>

#include "pegsol/analysis.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/play.hpp"
#include "pegsol/problem.hpp"

int main(int argc, char** argv) {
  const pegsol::Problem problem =
      pegsol::default_problem(pegsol::make_board(argc > 1 ? argv[1] : "triangle:5"));
  const pegsol::Board& board = *problem.board;
  std::cout << pegsol::describe(problem) << '\n';

  // The game: the first legal move each time, until none is left.
  pegsol::Game game(problem);
  while (!game.finished()) game.play(pegsol::legal_moves(game.position()).front());

  // One analyzer per board and goal; it keeps what it learns for the next call. first_mistake
  // builds the census look-ups of the game's start (its solution paths) unless told not to; every
  // later question about a position of the game is then a look-up.
  const pegsol::Analyzer analyzer(problem.board, problem.goal);
  pegsol::AnalysisOptions options;
  options.lookup = !(argc > 2 && std::string(argv[2]) == "--no-lookup");
  const pegsol::Mistake mistake = analyzer.first_mistake(game, options);
  if (mistake.move)
    std::cout << "first mistake: move " << *mistake.move + 1 << ", "
              << pegsol::move_chain_text(board, game.moves()[*mistake.move]) << ": "
              << mistake.explanation.text << '\n';
  else
    std::cout << "no mistake: " << pegsol::solvability_name(mistake.now) << '\n';
  std::cout << "(" << mistake.seconds << " s)\n";

  // Each position of the game, from the start. analyze() needs the start to use the look-ups.
  options.start = problem.start;
  bool decided = mistake.now != pegsol::Solvability::Unknown;
  std::size_t first_lost = 0;  // the first position that cannot reach the goal (0: none)
  pegsol::Position position(problem.board, problem.start);
  for (std::size_t i = 0; i <= game.cursor(); ++i) {
    const pegsol::Analysis a = analyzer.analyze(position, options);
    std::cout << i << ' '
              << (i == 0 ? "start" : pegsol::move_chain_text(board, game.moves()[i - 1])) << ": "
              << pegsol::solvability_name(a.goal.verdict);
    if (a.counted) std::cout << ", " << pegsol::count_text(a.ways_goal) << " ways left";
    std::cout << '\n';
    decided = decided && a.goal.verdict != pegsol::Solvability::Unknown;
    if (a.goal.verdict == pegsol::Solvability::NotSolvable && first_lost == 0) first_lost = i;
    if (i < game.cursor()) position.apply(game.moves()[i]);
  }
  const bool agree = mistake.move ? first_lost == *mistake.move + 1 : first_lost == 0;
  return decided && agree ? 0 : 1;
}
