// SPDX-License-Identifier: MIT
// The problem options of every command of `pegsol` and `pegsol-mpi` (--board, --lattice, --start,
// --end, --goal), registered in one place so that they read the same everywhere.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "pegsol/spec.hpp"

namespace pegsol::cli {

// What a command reads of a problem: its board alone, or the whole problem.
enum class ProblemParts { Board, Whole };

// Registers --board/-b and --lattice on `cmd`, into `spec` (`board`, `lattice`), and with Whole
// also --start/-s, --end/-e and --goal/-g.
void add_problem_options(CLI::App* cmd, ProblemSpec& spec,
                         ProblemParts parts = ProblemParts::Whole);
// The same for a command that keeps the board's spec and lattice in strings of its own.
void add_board_options(CLI::App* cmd, std::string& board, std::string& lattice);

}  // namespace pegsol::cli
