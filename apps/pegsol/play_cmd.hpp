// SPDX-License-Identifier: MIT
// `pegsol play`: the terminal game, a thin front over the play API (pegsol/play.hpp) and the
// position analysis (pegsol/analysis.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "pegsol/control.hpp"
#include "pegsol/play.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::cli {

// Registers `play` on the app; after parsing, run() plays the game on stdin/stdout when the user
// chose it and returns its exit status (nullopt otherwise).
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
  double memo_mb_ = kPlayMemoMegabytes;
};

}  // namespace pegsol::cli
