// Shared pieces of the pegsol command: problem options, output, bench.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"

namespace pegsol::cli {

// The options that name a problem, as typed.
struct ProblemArgs {
  std::string board;    // catalogue spec or @FILE; empty: english
  std::string lattice;  // optional override
  std::string start;    // hole name or @FILE; empty: the board's default
  std::string end;      // hole name or "any"; empty: the board's default
  std::string goal;     // @FILE
};

// Builds the problem; throws InputError naming the offending option.
Problem build_problem(const ProblemArgs& a);

// Human-readable solution: moves in notation, then the positions drawn. `colour` adds ANSI colour.
std::string format_solution(const Problem& p, const SolveResult& r, bool colour, int columns,
                            bool draw);

// The --json object of a solve.
nlohmann::json solution_json(const Problem& p, const SolveResult& r);

// True when stdout is a terminal and NO_COLOR is unset.
bool want_colour();
int terminal_columns();

// `pegsol boards`: the catalogue with hole, jump and symmetry counts.
int print_boards(bool json);
// `pegsol show`: a board drawn with its hole names.
int print_show(const ProblemArgs& a, bool json);

// `pegsol bench`: fixed problems, nodes and times, a signature line. Returns the exit status.
int run_bench(int repeats, bool json);
// `pegsol bench --beam`: the beam searches on fixed large-board problems with fixed seeds;
// pairs, positions, times and a signature line (total positions).
int run_beam_bench(int repeats, bool json);

}  // namespace pegsol::cli
