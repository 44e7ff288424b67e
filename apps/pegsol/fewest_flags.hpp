// SPDX-License-Identifier: MIT
// The fewest-moves search's options on the command line, registered once for `pegsol` (fewest,
// solve --minimize moves, table --minimize moves) and `pegsol-mpi` (fewest, solve).
#pragma once

#include <cstddef>
#include <string>

#include <CLI/CLI.hpp>

#include "pegsol/board.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"

namespace pegsol::cli {

// Who runs the search the options set: one process, or the ranks of an MPI job (their help says
// which rank keeps the state and reads the known solution).
enum class Runner { Process, Ranks };

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
  // Sets o's beam, bound and pagoda fields from them.
  void apply(FewestOptions& o) const;
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
  // Registers them on `cmd` (`note` ends their help, e.g. "; with --minimize moves"; the help
  // of --checkpoint-seconds speaks of --split when `cmd` has it already).
  void add(CLI::App* cmd, const std::string& note, Runner runner = Runner::Process);
  // Registers --known-solution alone (its help speaks of --resume when `cmd` has it).
  void add_known(CLI::App* cmd, const std::string& note, Runner runner = Runner::Process);
  // Throws InputError when one was given on `cmd` but the command does not minimize moves.
  void check(const CLI::App* cmd, bool minimizing) const;
  // Sets o's checkpoint and spill fields, making the --checkpoint directory (InputError when it
  // cannot be made), and o.known_solution from the --known-solution file read on board `b`.
  void apply(FewestOptions& o, const Board& b) const;
  // Sets o's checkpoint and spill fields alone: no file read, no directory made.
  void apply_paths(FewestOptions& o) const;
  // `e` naming the --known-solution file when it is about FewestOptions::known_solution.
  InputError known_error(const InputError& e) const;
};

}  // namespace pegsol::cli
