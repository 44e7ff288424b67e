// SPDX-License-Identifier: MIT
// `pegsol play`: the terminal game, a thin front over the play API (pegsol/play.hpp) and the
// position analysis (pegsol/analysis.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pegsol/control.hpp"
#include "pegsol/play.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::cli {

// Registers `play` on the app; after parsing, run() plays the game on stdin/stdout when the user
// chose it and returns its exit status (nullopt otherwise).
// `pegsol solve --moves "d2-d4 ..."`: plays the moves (chains of jumps, optionally numbered
// "3.d2-d4"), solves the rest keeping them, prints the kept moves then the found ones (or JSON).
// Returns the exit status (0 solved, 1 not).
int run_finish(const Problem& p, const std::string& moves, const SolveOptions& options, bool json,
               bool draw, const std::string& svg_path);

// The moves of `pegsol solve --moves "d2-d4 ..."`: chains of jumps, optionally numbered "3.d2-d4",
// separated by spaces or commas. Throws InputError naming the move ("--moves: move 2: ...").
std::vector<Move> parse_kept_moves(const Board& b, const std::string& moves);

// `pegsol solve --svg FILE`: writes the picture of `moves` from p.start (pegsol/svg.hpp): the
// start, then the position after each move. Throws InputError when the file cannot be written.
void write_solution_svg(const std::string& path, const Problem& p, const std::vector<Jump>& moves);

class PlayCommand {
 public:
  explicit PlayCommand(CLI::App& app);
  std::optional<int> run(const Control& control);

 private:
  CLI::App* cmd_ = nullptr;
  ProblemSpec args_;
  std::string game_file_;
  std::string preset_;
  double think_ = 2;
  bool no_analysis_ = false;
};

}  // namespace pegsol::cli
