// SPDX-License-Identifier: MIT
// The problem options of the commands (problem_options.hpp).
#include "problem_options.hpp"

namespace pegsol::cli {

void add_board_options(CLI::App* cmd, std::string& board, std::string& lattice) {
  cmd->add_option("--board,-b", board, "Catalogue board (english, triangle:5, ...) or @FILE");
  cmd->add_option("--lattice", lattice, "square, square8 (diagonal jumps) or triangular");
}

void add_problem_options(CLI::App* cmd, ProblemSpec& spec, ProblemParts parts) {
  add_board_options(cmd, spec.board, spec.lattice);
  if (parts == ProblemParts::Board) return;
  cmd->add_option("--start,-s", spec.start,
                  "Vacant hole (d4, 1), a 0/1 string (the JSON's start), or @FILE with a start "
                  "position or a saved game (docs/game-format.md)");
  cmd->add_option("--end,-e", spec.end, "Hole of the last peg, or 'any'");
  cmd->add_option("--goal,-g", spec.goal, "@FILE with a whole target position");
}

}  // namespace pegsol::cli
