// SPDX-License-Identifier: MIT
// Fewest moves on the command line: `pegsol fewest`, `pegsol solve --minimize moves` and
// `pegsol table --minimize moves` (docs/fewest.md).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "pegsol/control.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/problem.hpp"

namespace pegsol::cli {

// The fewest-moves search's own options, shared by `fewest`, `solve --minimize moves` and
// `table --minimize moves`.
struct FewestFlags {
  std::size_t beam = FewestOptions{}.beam;  // --fewest-beam: the first beam's positions a level
  bool no_bound = false;                    // --no-bound: one pass storing every position
  bool no_pagodas = false;                  // --no-pagodas: no tight or pruning pagodas
  // Registers --fewest-beam, --no-bound and --no-pagodas on `cmd` (`note` ends their help, e.g.
  // "with --minimize moves"; `pagoda_help`, when given, is --no-pagodas' whole help instead).
  void add(CLI::App* cmd, const std::string& note, const std::string& pagoda_help = "");
  // Throws InputError when one was given on `cmd` but the command does not minimize moves
  // (--no-pagodas too unless `pagodas_elsewhere`: the command uses it otherwise as well).
  void check(const CLI::App* cmd, bool minimizing, bool pagodas_elsewhere = false) const;
};

// The options of runs past one process and past memory, shared by `fewest` and `solve --minimize
// moves`: --checkpoint, --resume, --checkpoint-seconds, --spill-dir, --spill-limit and
// --known-solution.
struct LongRunFlags {
  std::string checkpoint_dir, resume_dir;  // --checkpoint, --resume
  std::string spill_dir;                   // --spill-dir
  double checkpoint_seconds = 300;         // --checkpoint-seconds
  double spill_mb = 0;                     // --spill-limit
  std::string known_file;                  // --known-solution
  // Registers them on `cmd` (`note` ends their help, e.g. "; with --minimize moves").
  void add(CLI::App* cmd, const std::string& note);
  // Throws InputError when one was given on `cmd` but the command does not minimize moves.
  void check(const CLI::App* cmd, bool minimizing) const;
  // Sets o's checkpoint and spill fields, making the --checkpoint directory (InputError when it
  // cannot be made), and o.known_solution from the --known-solution file read on board `b`.
  void apply(FewestOptions& o, const Board& b) const;
  // `e` naming the --known-solution file when it is about FewestOptions::known_solution.
  InputError known_error(const InputError& e) const;
};

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
