// SPDX-License-Identifier: MIT
// Fewest moves on the command line: `pegsol fewest`, `pegsol solve --minimize moves` and
// `pegsol table --minimize moves` (docs/fewest.md).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "fewest_flags.hpp"
#include "pegsol/control.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/problem.hpp"

namespace pegsol::cli {

// Registers `fewest`; after parsing, run() executes it under `control` (with the command's
// --time-limit and --memory-limit added) and returns its exit status (nullopt when not chosen).
class FewestCommand {
 public:
  explicit FewestCommand(CLI::App& app);
  std::optional<int> run(const Control& control);

 private:
  CLI::App* cmd_ = nullptr;
  FewestFlags flags_;
  LongRunFlags runs_;
  std::string board_, lattice_;
  bool split_ = false;  // --split
  bool json_ = false;
  double time_limit_ = 0, memory_mb_ = 0;
};

// `pegsol solve --minimize moves`: the fewest-moves solution of `p`, printed as moves numbered
// one per chain (or JSON). With `kept` (--moves), those are played first and the fewest moves
// are those from the position they leave (fewest_finish). `runs` adds checkpoints and the spill.
// Returns the exit status: 0 solved, 1 impossible or stopped.
int solve_fewest(const Problem& p, const std::vector<Move>& kept, const Control& control,
                 const FewestFlags& flags, const LongRunFlags& runs, bool json, int columns,
                 const std::string& svg_path = {});

// `pegsol table --minimize moves`: every single vacancy's fewest moves to every last hole.
int table_fewest(const BoardPtr& board, const Control& control, const FewestFlags& flags, bool json,
                 int columns);

}  // namespace pegsol::cli
