// SPDX-License-Identifier: MIT
/// @file
/// The front-end layer every front end shares (the pegsol command, a server, bindings): problems
/// named as text, the names of algorithms and methods with their validity rules, the bounded
/// read of a user's file, the "did you mean" of a misspelt name. No JSON here (that is
/// pegsol/json.hpp, target pegsol::json).
#pragma once

#include <cstddef>
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

/// A problem as a user types it. Errors name the field (InputError::field(): "board", "lattice",
/// "start", "end", "goal"), and a file by its name, line and column.
struct PEGSOL_API ProblemSpec {
  /// Catalogue spec ("english", "triangle:5") or `@FILE` with a drawn board; empty: english.
  std::string board;
  /// "square", "square8" or "triangular": overrides the board's lattice; empty: the board's own.
  std::string lattice;
  /// A hole name (the single vacancy), a 0/1 string with one character per hole (the JSON's
  /// "start"), or `@FILE` with a drawn position or a saved game (docs/game-format.md), continued
  /// from its current position with its goal; empty: the board's default (or the drawn board's
  /// pegs).
  std::string start;
  /// A hole name (one peg there) or "any"; empty: the default problem's goal when the start is the
  /// default too, otherwise "any".
  std::string end;
  /// `@FILE` with a whole target position (a drawing); excludes `end`.
  std::string goal;
};

// A problem spec from JSON text (spec_from_json) is pegsol/json.hpp's, in target pegsol::json.

/// The problem `spec` names, with the defaults above.
/// @throws InputError naming the option, file, line and column at fault.
PEGSOL_API Problem build_problem(const ProblemSpec& spec);

/// The board `spec` names (spec.board and spec.lattice only).
/// @throws InputError naming the option at fault.
PEGSOL_API BoardPtr build_board(const ProblemSpec& spec);

/// The name of a: "auto", "dfs", "beam" or "beam-report".
PEGSOL_API std::string_view algorithm_name(Algorithm a);
/// The value named `name`; nullopt for any other string.
PEGSOL_API std::optional<Algorithm> parse_algorithm(std::string_view name);
/// Every name, in the enumeration's order (for option validators and help texts).
PEGSOL_API const std::vector<std::string>& algorithm_names();

/// The name of m: "auto", "sweep" or "meet".
PEGSOL_API std::string_view beam_method_name(BeamMethod m);
/// The value named `name`; nullopt for any other string.
PEGSOL_API std::optional<BeamMethod> parse_beam_method(std::string_view name);
/// Every name, in the enumeration's order (for option validators and help texts).
PEGSOL_API const std::vector<std::string>& beam_method_names();

/// The name of d: "forward" or "backward".
PEGSOL_API std::string_view direction_name(Direction d);
/// The value named `name`; nullopt for any other string.
PEGSOL_API std::optional<Direction> parse_direction(std::string_view name);
/// Every name, in the enumeration's order (for option validators and help texts).
PEGSOL_API const std::vector<std::string>& direction_names();

/// The name of m: "auto" or "passes".
PEGSOL_API std::string_view table_method_name(TableMethod m);
/// The value named `name`; nullopt for any other string.
PEGSOL_API std::optional<TableMethod> parse_table_method(std::string_view name);
/// Every name, in the enumeration's order (for option validators and help texts).
PEGSOL_API const std::vector<std::string>& table_method_names();

/// Checks that the options go together.
/// @throws InputError when they do not, naming the field: a beam
/// method other than auto with an algorithm other than beam and auto ("SolveOptions::beam_method"),
/// a capacity with the DFS ("SolveOptions::capacity"), the backward direction with a beam search
/// ("SolveOptions::direction").
PEGSOL_API void check_solve_options(const SolveOptions& o);

/// The most bytes read_file() takes by default: drawings and games are far smaller (a board has at
/// most 1,024 holes).
inline constexpr std::size_t kMaxInputBytes = std::size_t{16} << 20;

/// Reads the whole of a file given by the user: a regular file, a device, a pipe or a FIFO, never
/// more than max_bytes + 1 bytes whatever it is.
/// @throws InputError when the file cannot be opened or read, is a directory, or holds more than
/// max_bytes; the message starts with `what` (the option and the file, `--board @b.txt`; when
/// empty, "file 'PATH'").
PEGSOL_API std::string read_file(const std::string& path, std::string_view what = {},
                                 std::size_t max_bytes = kMaxInputBytes);

/// The name in `names` closest to `word` by edit distance (insertions, deletions, substitutions
/// and swaps of neighbours), when it is close enough to be a typing slip (at most 1 edit for
/// words of up to 4 characters, 2 up to 8, 3 beyond); nullopt otherwise. For "did you mean".
PEGSOL_API std::optional<std::string> closest_name(std::string_view word,
                                                   const std::vector<std::string>& names);

}  // namespace pegsol
