// SPDX-License-Identifier: MIT
// Shared pieces of the pegsol command: exit statuses, option checks, errors, human-readable
// output. Problems, names and JSON come from the library's front-end layer (pegsol/spec.hpp,
// pegsol/json.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "pegsol/error.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::cli {

// Exit statuses (README, `pegsol --help`). A signal N stops a command with 128 + N after the
// partial result; a closed pipe (EPIPE) ends it quietly with 141, as SIGPIPE would.
enum Exit : int {
  kSolved = 0,      // solved, or the computation completed
  kImpossible = 1,  // proven impossible: no solution exists (a proof or a completed search)
  kBadInput = 2,    // bad input: options, boards, files
  kInternal = 3,    // internal error, or output that could not be written
  kStopped = 4,     // stopped before the answer: time or memory limit, an incomplete search
};
// The exit statuses as `--help` prints them.
std::string exit_status_help();
// The exit status of a search's answer: solved, proven impossible, or stopped (unknown).
int exit_status(Status s);

// Option checks with messages that name the range as people write it.
// Seconds: a number >= 0 (0: no limit; huge values: no limit); NaN and negatives are bad input, and
// so is a positive number too small for a double (1e-999), which would read as 0.
CLI::Validator seconds_check();
// A number > 0 (megabytes, seconds per search); NaN and 1e-999 are bad input.
CLI::Validator positive_check();
// A whole number from lo to hi, checked as text (no wrap-around of "-1" or of values past 2^64).
CLI::Validator whole_number_check(std::uint64_t lo, std::uint64_t hi);
// The most worker threads an option accepts: four per core.
std::uint64_t max_threads();
// A parse error's message, with "did you mean" for a mistyped subcommand or option.
std::string parse_error_text(const CLI::App& app, const CLI::ParseError& e);
// The search memo of `pegsol play`'s analyzer and of `bench --play`'s, per verdict: larger than
// the library's default (kAnalyzerMemoBytes, what a server keeps for each of its analyzers), as a
// terminal game keeps one analyzer (docs/play.md measures what it settles).
inline constexpr double kPlayMemoMegabytes = 256;
// Megabytes to bytes, at least 1 for any positive amount; values past what any machine holds are
// no limit (16 TiB).
std::size_t megabytes(double mb);
// Creates --checkpoint's directory (and its parents); the input error's message when that fails.
std::optional<std::string> create_checkpoint_dir(const std::string& dir);

// Reports a failure on stderr and, under --json, as one error object on stdout (pegsol/json.hpp);
// returns the status for `kind` ("input": 2, "internal" and "output": 3).
int report_error(std::string_view kind, const std::string& message, bool json);
// The library's bad input in the command's words: its field as the option ("start": "--start",
// "CensusOptions::threads": "--threads"), with the command's hints.
std::string input_error_text(const InputError& e);
// The command's option for a library field: a problem spec's key ("start": "--start"), or an
// options struct's field ("CensusOptions::threads": "--threads"), the control's budget
// ("Control::memory_budget": "--memory-limit"); empty for a field no
// option sets. The JSON of results names fields through it (pegsol::FieldNames).
std::string option_for(std::string_view field);
// The library's words for options in a text (a stop note) as the command's options.
std::string option_words(std::string text);
// Flushes stdout. Returns rc, or kInternal after a failed write (said on stderr), or 141 quietly
// when the reader went away (EPIPE).
int finish_output(int rc);
// True once a write to stdout failed; streaming commands stop at once then.
bool output_failed();
// Records a write error found elsewhere (an exception from fmt::print) for finish_output().
void note_write_error(int err);

// Human-readable solution: moves in notation, then the positions drawn. `colour` adds ANSI colour.
std::string format_solution(const Problem& p, const SolveResult& r, bool colour, int columns,
                            bool draw);

// `pegsol solve --svg FILE`: writes the picture of `moves` from p.start (pegsol/svg.hpp): the
// start, then the position after each move. Throws InputError when the file cannot be written.
void write_solution_svg(const std::string& path, const Problem& p, const std::vector<Jump>& moves);

// True when stdout is a terminal and NO_COLOR is unset.
bool want_colour();
int terminal_columns();

// `pegsol boards`: the catalogue with hole, jump and symmetry counts.
int print_boards(bool json);
// `pegsol show`: a board drawn with its hole names.
int print_show(const ProblemSpec& a, bool json);

}  // namespace pegsol::cli
