// The JSON of every result, the same for every front end (the pegsol command's --json, a server,
// bindings). Target pegsol::json, built when nlohmann-json is found; the values compose, so a
// front end can wrap them (a request id, a stream of solutions) without parsing text.
// Key order: nlohmann::json objects keep their keys sorted, as dump() prints them.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "pegsol/census.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/spec.hpp"

namespace pegsol {

// A solve: {"board", "holes", "start" (0/1 per hole), "status", "reason", "moves" ([from, over,
// to] hole indices), "notation", "final", "stats" {"nodes", "seconds", "width"}, and for a beam
// search "pairs", "expanded", "capacity", "attempts", "method"}.
nlohmann::json solve_json(const Problem& p, const SolveResult& r);

// A fewest-moves solve: solve_json of its solution and "minimize" {"moves" (null when none was
// found), "lower_bound", "proven", "chains" ([[from, over, to], ...] per move), "notation" (one
// chain per move, "f3-d3-d5")}.
nlohmann::json fewest_json(const Problem& p, const FewestResult& r);

// `pegsol fewest`: the board's fewest moves over its single-vacancy-to-one-peg problems:
// {"board", "fewest" (null when none), "proven", "start", "end" (hole names, null when none),
// "start_index", "end_index", "status", "reason", "moves", "notation", "minimize" (as
// fewest_json), "stats" {"positions", "seconds"}, "stop"}.
nlohmann::json fewest_board_json(const Board& b, const FewestBoardResult& r);

// `pegsol table --minimize moves`: {"board", "names", "matrix" (matrix[start][end]: fewest moves,
// -1 when impossible, null when not settled), "fewest", "proven", "start", "end", "complete",
// "stop", "positions", "seconds"}.
nlohmann::json fewest_table_json(const Board& b, const FewestTable& t);

// A census: the problem, the levels (most pegs first), the totals, the solution counts (decimal
// strings: they outgrow 64 bits), the random player's chances (null when not computed), "stats".
nlohmann::json census_json(const Problem& p, const CensusResult& r);

// A solvability table of board b run with `method`: "names", "matrix" (1, 0, or null for an open
// pair), "certificates", "finals", "complete", "open", "stopped", counts, "seconds", "peak_bytes".
nlohmann::json table_json(const Board& b, const SolvabilityTable& t, TableMethod method);

// One solution (or game) as enumerate_solutions gives it: {"moves", "notation"}.
nlohmann::json solution_json(const Board& b, const std::vector<Jump>& moves);

// A board: {"board", "lattice", "holes", "jumps", "symmetries", "class_invariants", "peg_types",
// "bit_width", "names"}.
nlohmann::json board_json(const Board& b);

// The catalogue: {"version", "kernels" {"cpu", "census", "cap"}, "boards": [board_json without
// "names", with "description" and "default_problem"]}. Throws InputError for a bad
// PEGSOL_KERNELS.
nlohmann::json catalogue_json();

// `pegsol bench --json` (and --beam, --census): {"cases": [one object per row], "signature"}.
nlohmann::json bench_json(const std::vector<SolveBenchRow>& rows, std::uint64_t signature);
nlohmann::json bench_json(const std::vector<BeamBenchRow>& rows, std::uint64_t signature);
nlohmann::json bench_json(const std::vector<CensusBenchRow>& rows, std::uint64_t signature);

}  // namespace pegsol
