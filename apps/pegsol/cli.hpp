// Shared pieces of the pegsol command: human-readable output, bench. Problems, names and JSON
// come from the library's front-end layer (pegsol/spec.hpp, pegsol/json.hpp).
#pragma once

#include <string>

#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::cli {

// Human-readable solution: moves in notation, then the positions drawn. `colour` adds ANSI colour.
std::string format_solution(const Problem& p, const SolveResult& r, bool colour, int columns,
                            bool draw);

// True when stdout is a terminal and NO_COLOR is unset.
bool want_colour();
int terminal_columns();

// `pegsol boards`: the catalogue with hole, jump and symmetry counts.
int print_boards(bool json);
// `pegsol show`: a board drawn with its hole names.
int print_show(const ProblemSpec& a, bool json);

// `pegsol bench`: fixed problems, nodes and times, a signature line. Returns the exit status.
int run_bench(int repeats, bool json);
// `pegsol bench --beam`: the beam searches on fixed large-board problems with fixed seeds;
// pairs, positions, times and a signature line (total positions).
int run_beam_bench(int repeats, bool json);

}  // namespace pegsol::cli
