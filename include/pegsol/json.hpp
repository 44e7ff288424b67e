// The JSON of every result, the same for every front end (the pegsol command's --json, a server,
// bindings). Target pegsol::json, built when nlohmann-json is found; the values compose, so a
// front end can wrap them (a request id, a stream of solutions) without parsing text.
// Key order: nlohmann::json objects keep their keys sorted, as dump() prints them.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "pegsol/analysis.hpp"
#include "pegsol/census.hpp"
#include "pegsol/play.hpp"
#include "pegsol/presets.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/spec.hpp"

namespace pegsol {

// A solve: {"board", "holes", "start" (0/1 per hole), "status", "reason", "moves" ([from, over,
// to] hole indices), "notation", "final", "stats" {"nodes", "seconds", "width"}, and for a beam
// search "pairs", "expanded", "capacity", "attempts", "method"}.
nlohmann::json solve_json(const Problem& p, const SolveResult& r);

// A game finished keeping the player's moves (pegsol solve --moves): solve_json of the whole game
// from the start (the kept jumps first), with "kept_moves", the number of kept jumps.
nlohmann::json finish_json(const Problem& p, const FinishResult& f);

// A census: the problem, the levels (most pegs first), the totals, the solution counts (decimal
// strings: they outgrow 64 bits), the random player's chances (null when not computed), "stats".
nlohmann::json census_json(const Problem& p, const CensusResult& r);

// A solvability table of board b run with `method`: "names", "matrix" (1, 0, or null for an open
// pair), "certificates", "finals", "complete", "open", "stopped", counts, "seconds", "peak_bytes".
nlohmann::json table_json(const Board& b, const SolvabilityTable& t, TableMethod method);

// One solution (or game) as enumerate_solutions gives it: {"moves", "notation"}.
nlohmann::json solution_json(const Board& b, const std::vector<Jump>& moves);

// A position's analysis (pegsol/analysis.hpp): {"position" (0/1 per hole), "pegs", "goal" and
// "one_peg" (each {"verdict": "solvable" | "not solvable" | "unknown", "reason", "solution" (move
// chains), "nodes", "seconds"}), "hint" (a move chain or null), "hint_moves" ([from, over, to] per
// jump), "hint_to_goal", "counted", "ways_goal" and "ways_one_peg" (decimal strings, null when not
// counted), "end_holes" (names) and "end_hole_indices" (null when not counted), "count_note",
// "positions", "seconds"}.
nlohmann::json analysis_json(const Position& p, const Analysis& a);

// "Where did I go wrong" for `game`: {"now" (verdict of the current position), "start_lost",
// "move" (index in the game's moves, or null), "move_notation" (its chain, or null), "rewind_to",
// "reason", "note", "seconds"}.
nlohmann::json mistake_json(const Game& game, const Mistake& m);

// A board: {"board", "lattice", "holes", "jumps", "symmetries", "class_invariants", "peg_types",
// "bit_width", "names"}.
nlohmann::json board_json(const Board& b);

// A board's geometry for drawing and playing it: board_json and "coords" ([row, column] lattice
// coordinates per hole, docs/board-format.md), "jump_list" ([from, over, to] per jump) and
// "default" {"start" (0/1 per hole), "end" (a hole name or "any")} when the board has a default
// problem (null otherwise).
nlohmann::json geometry_json(const Board& b);

// A "still solvable?" answer: {"verdict" ("solvable", "not solvable", "unknown"), "reason",
// "moves", "notation" (the solution found, as in solve_json), "nodes", "seconds"}.
nlohmann::json solvability_json(const Board& b, const SolvabilityAnswer& a);

// A hint: solvability_json of its answer with "move": {"jumps" ([from, over, to]), "notation"
// (the chain, "4-1-6")} or null.
nlohmann::json hint_json(const Board& b, const Hint& h);

// A game: {"board", "holes", "start", "goal" ({"kind": "hole"|"any"|"position", "hole" (name),
// "position" (0/1)}), "moves" (chains, played ones), "undone" (chains), "position" (0/1 after the
// played moves), "pegs", "finished", "won", "text" (the game file, docs/game-format.md)}.
nlohmann::json game_json(const Game& g);

// The catalogue: {"version", "kernels" {"cpu", "census", "cap"}, "boards": [board_json without
// "names", with "description" and "default_problem"]}. Throws InputError for a bad
// PEGSOL_KERNELS.
nlohmann::json catalogue_json();

// The presets, easiest first: {"presets": [{"name", "title", "description", "board", "start"
// (0/1 per hole), "end", "difficulty" (1..5), "difficulty_name", "pegs"}]}.
nlohmann::json presets_json();

// `pegsol bench --json` (and --beam, --census): {"cases": [one object per row], "signature"}.
nlohmann::json bench_json(const std::vector<SolveBenchRow>& rows, std::uint64_t signature);
nlohmann::json bench_json(const std::vector<BeamBenchRow>& rows, std::uint64_t signature);
nlohmann::json bench_json(const std::vector<CensusBenchRow>& rows, std::uint64_t signature);

}  // namespace pegsol
