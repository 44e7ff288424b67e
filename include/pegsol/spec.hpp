// SPDX-License-Identifier: MIT
// The front-end layer every front end shares (the pegsol command, a server, bindings): problems
// named as text, the names of algorithms and methods with their validity rules, and the bench's
// fixed problems. No JSON here (that is pegsol/json.hpp, target pegsol::json).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/census.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"

namespace pegsol {

// A problem as a user types it. Errors name the field by its command-line option (--board,
// --lattice, --start, --end, --goal), and a file by its name, line and column.
struct PEGSOL_API ProblemSpec {
  // Catalogue spec ("english", "triangle:5") or @FILE with a drawn board; empty: english.
  std::string board;
  // "square", "square8" or "triangular": overrides the board's lattice; empty: the board's own.
  std::string lattice;
  // A hole name (the single vacancy), a 0/1 string with one character per hole (the JSON's
  // "start"), or @FILE with a drawn position or a saved game (docs/game-format.md), continued from
  // its current position with its goal; empty: the board's default (or the drawn board's pegs).
  std::string start;
  // A hole name (one peg there) or "any"; empty: the default problem's goal when the start is the
  // default too, otherwise "any".
  std::string end;
  // @FILE with a whole target position (a drawing); excludes `end`.
  std::string goal;
};

// A problem spec from JSON text (spec_from_json) is pegsol/json.hpp's, in target pegsol::json.

// The problem `spec` names, with the defaults above. Throws InputError naming the option, file,
// line and column at fault.
PEGSOL_API Problem build_problem(const ProblemSpec& spec);

// The board `spec` names (spec.board and spec.lattice only). Throws InputError.
PEGSOL_API BoardPtr build_board(const ProblemSpec& spec);

// Names of Algorithm values: "auto", "dfs", "beam", "beam-report", in this order.
// The name of a.
PEGSOL_API std::string_view algorithm_name(Algorithm a);
// The value named `name`; nullopt for any other string.
PEGSOL_API std::optional<Algorithm> parse_algorithm(std::string_view name);
// Every name, in the order above (for option validators and help texts).
PEGSOL_API const std::vector<std::string>& algorithm_names();

// Names of BeamMethod values: "auto", "sweep", "meet", in this order.
// The name of m.
PEGSOL_API std::string_view beam_method_name(BeamMethod m);
// The value named `name`; nullopt for any other string.
PEGSOL_API std::optional<BeamMethod> parse_beam_method(std::string_view name);
// Every name, in the order above (for option validators and help texts).
PEGSOL_API const std::vector<std::string>& beam_method_names();

// Names of Direction values: "forward", "backward".
// The name of d.
PEGSOL_API std::string_view direction_name(Direction d);
// The value named `name`; nullopt for any other string.
PEGSOL_API std::optional<Direction> parse_direction(std::string_view name);
// Every name, in the order above (for option validators and help texts).
PEGSOL_API const std::vector<std::string>& direction_names();

// Names of TableMethod values: "auto", "passes".
// The name of m.
PEGSOL_API std::string_view table_method_name(TableMethod m);
// The value named `name`; nullopt for any other string.
PEGSOL_API std::optional<TableMethod> parse_table_method(std::string_view name);
// Every name, in the order above (for option validators and help texts).
PEGSOL_API const std::vector<std::string>& table_method_names();

// Throws InputError when the options combine what does not go together, naming the field: a beam
// method other than auto with an algorithm other than beam and auto ("SolveOptions::beam_method"),
// a capacity with the DFS ("SolveOptions::capacity"), the backward direction with a beam search
// ("SolveOptions::direction").
PEGSOL_API void check_solve_options(const SolveOptions& o);

// `pegsol bench`: a named group of problems solved one after another with SolveOptions{} but a
// 60 s time limit; nodes add up into the signature.
struct PEGSOL_API SolveBenchCase {
  std::string name;
  std::vector<Problem> problems;
};
// The solve bench's cases, in the order `pegsol bench` runs them.
PEGSOL_API std::vector<SolveBenchCase> solve_bench_cases();
// A solve bench case's figures: instances solved, nodes of one round, median seconds per round.
struct PEGSOL_API SolveBenchRow {
  std::string name;
  std::size_t instances = 0;
  int solved = 0;
  std::uint64_t nodes = 0;
  double median_seconds = 0;
};

// `pegsol bench --beam`: one problem and the options of its beam search (fixed seeds, so the
// positions searched, summed into the signature, change only with the search).
struct PEGSOL_API BeamBenchCase {
  std::string name;
  Problem problem;
  SolveOptions options;
};
// The beam bench's cases, in the order `pegsol bench --beam` runs them.
PEGSOL_API std::vector<BeamBenchCase> beam_bench_cases();
// A beam bench case's figures: the last run's status, pairs, capacity and positions, the median.
struct PEGSOL_API BeamBenchRow {
  std::string name;
  Status status = Status::Unknown;
  std::uint64_t pairs = 0;
  std::size_t capacity = 0;
  std::uint64_t positions = 0;
  double median_seconds = 0;
};

// `pegsol bench --census`: one problem and what its census computes (threads left at 0); the
// signature sums reachable and on-path positions.
struct PEGSOL_API CensusBenchCase {
  std::string name;
  Problem problem;
  CensusOptions options;
};
// The census bench's cases, in the order `pegsol bench --census` runs them.
PEGSOL_API std::vector<CensusBenchCase> census_bench_cases();
// A census bench case's figures: the last run's counts, peak bytes and threads, the median.
struct PEGSOL_API CensusBenchRow {
  std::string name;
  std::uint64_t reachable = 0, on_solution_path = 0;
  Count solutions = 0;
  double median_seconds = 0;
  std::size_t peak_bytes = 0;
  int threads = 0;
};

}  // namespace pegsol
