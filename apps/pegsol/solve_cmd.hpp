// SPDX-License-Identifier: MIT
// `pegsol solve` (and `pegsol` alone): a first solution or a proof, the fewest moves with
// --minimize moves, a game finished from kept moves with --moves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "fewest_cmd.hpp"
#include "pegsol/control.hpp"
#include "pegsol/play.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::cli {

// Registers `solve` on the app; after parsing, run() solves the problem it names (the default
// problem when no subcommand was chosen) under `control` and returns the exit status.
class SolveCommand {
 public:
  explicit SolveCommand(CLI::App& app);
  int run(const Control& control);

 private:
  CLI::App* cmd_ = nullptr;
  ProblemSpec args_;
  std::string preset_;
  std::string direction_ = "forward";
  std::string algorithm_ = "auto";
  std::string beam_method_ = "auto";
  std::string minimize_;
  std::string svg_path_;
  std::string keep_moves_;
  double time_limit_ = 0;
  double memory_mb_ = 1024;
  std::size_t capacity_ = 0;
  std::uint64_t seed_ = 1;
  bool json_ = false, no_draw_ = false;
  FewestFlags fewest_flags_;
  LongRunFlags fewest_runs_;
};

}  // namespace pegsol::cli
