// SPDX-License-Identifier: MIT
// The census subcommands of the pegsol command: count, table, solutions.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "census_flags.hpp"
#include "cli.hpp"
#include "fewest_cmd.hpp"
#include "pegsol/census.hpp"
#include "pegsol/control.hpp"

namespace pegsol::cli {

// Registers `count`, `table` and `solutions` on the app; after parsing, run() executes the one
// the user chose under `control` (with the command's --time-limit and --memory-limit added) and
// returns its exit status (nullopt when none of them was chosen).
class CensusCommands {
 public:
  explicit CensusCommands(CLI::App& app);
  std::optional<int> run(const Control& control);

 private:
  int count(const Control& control);
  int table(const Control& control);
  int solutions(const Control& control);
  // --checkpoint / --resume into o (making the checkpoint directory); the error, if any.
  std::optional<std::string> checkpoint_options(CensusOptions& o) const;

  CLI::App* count_ = nullptr;
  CLI::App* table_ = nullptr;
  CLI::App* solutions_ = nullptr;
  ProblemSpec args_;
  bool json_ = false;
  double memory_mb_ = 0;
  std::string spill_dir_, checkpoint_dir_, resume_dir_;
  double time_limit_ = 0;
  int threads_ = 0;
  CountFlags count_flags_;
  std::uint64_t limit_ = 0;
  bool distinct_ = false, games_ = false, solutions_json_ = false;
  bool no_level_checkpoints_ = false;
  std::string table_method_ = "auto";
  std::string minimize_;
  FewestFlags fewest_flags_;
  double search_seconds_ = TableOptions{}.search_seconds;
};

}  // namespace pegsol::cli
