// SPDX-License-Identifier: MIT
/// @file
/// The JSON of every result, the same for every front end (the pegsol command's --json, a server,
/// bindings). Target pegsol::json, built when nlohmann-json is found; the values compose, so a
/// front end can wrap them (a request id, a stream of solutions) without parsing text.
/// Key order: nlohmann::json objects keep their keys sorted, as dump() prints them.
///
/// The contract every command's JSON follows (docs/json.md, schema docs/json-schema.json):
/// exactly one object per run; "status" says the outcome, "stop" the stop reason ("finished",
/// "time", "memory", "cancelled", "signal"), "reason" the why in words, "stats" {"seconds", ...}
/// the figures; counts that outgrow 2^53 (solutions, games) are decimal strings.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "pegsol/analysis.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/json_export.h"
#include "pegsol/path_index.hpp"
#include "pegsol/play.hpp"
#include "pegsol/presets.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/spec.hpp"
#include "pegsol/table.hpp"

namespace pegsol {

/// A failure instead of a result: {"status": "error", "error": {"kind", "message"}}, where kind is
/// "input" (bad input, exit 2), "internal" or "output" (exit 3).
PEGSOL_JSON_API nlohmann::json error_json(std::string_view kind, std::string_view message);

/// One line of JSON text; bytes of user input that are not UTF-8 (a file name, a hole name) are
/// replaced by U+FFFD instead of throwing. Every front end prints JSON through this.
PEGSOL_JSON_API std::string dump_json(const nlohmann::json& j);

/// A problem spec from a JSON object in text, as a server accepts it: the command-line option names
/// as keys, every value a string, e.g. {"board": "triangle:5", "start": "4", "end": "1"} (keys
/// "board", "lattice", "start", "end", "goal"; a missing key is the default). Files (@...) are
/// refused: a request names no local file.
/// @throws InputError naming what is wrong and where (the parser's byte offset, the key).
PEGSOL_JSON_API ProblemSpec spec_from_json(std::string_view json_text);

/// The same from a parsed JSON object.
PEGSOL_JSON_API ProblemSpec spec_from_json_value(const nlohmann::json& j);

/// A solution on `board` from a file's text, in a form pegsol writes or reads: the JSON of
/// `pegsol solve --json` or `pegsol fewest --json` (its "moves", [from, over, to] hole indices;
/// its "board", when given, must be the board's name), a saved game (docs/game-format.md: its
/// played moves; its board must have this board's holes), or a move list as `pegsol solve
/// --moves` reads it, the moves optionally numbered ("1. d6-d4  2. f5-d5" or "1.d6-d4"). The
/// jumps are not checked against a problem here (FewestOptions::known_solution is, when searched).
/// @throws InputError starting with `source` (a file's name), naming what is wrong and where.
PEGSOL_JSON_API std::vector<Jump> solution_from_text(const Board& board, std::string_view text,
                                                     std::string_view source);

/// A front end's name for a library field ("Control::memory_budget": the command's
/// "--memory-limit", the JSON API's "job_memory"), or "" to keep the library's (rename_fields(),
/// pegsol/error.hpp). The functions taking it name fields in the prose of a result ("reason",
/// notes) and in "stop_limit" through it; without it, in the library's words.
using FieldNames = std::function<std::string(std::string_view field)>;

/// A solve: {"board", "holes", "start" (0/1 per hole), "status" (solved, impossible, unknown),
/// "stop", "reason", "moves" ([from, over, to] hole indices), "notation", "final", "stats"
/// {"nodes", "seconds", "width"}, and for a beam search "pairs", "expanded", "capacity",
/// "attempts", "method" and, when the memory budget clamped the capacity, "clamped_from"}.
PEGSOL_JSON_API nlohmann::json solve_json(const Problem& p, const SolveResult& r,
                                          const FieldNames& names = {});

/// A game finished keeping the player's moves (pegsol solve --moves): solve_json of the whole game
/// from the start (the kept jumps first), with "kept_moves", the number of kept jumps.
PEGSOL_JSON_API nlohmann::json finish_json(const Problem& p, const FinishResult& f);

/// A fewest-moves solve: solve_json of its solution and "minimize" {"moves" (null when none was
/// found), "lower_bound", "proven", "chains" ([[from, over, to], ...] per move), "notation" (one
/// chain per move, "f3-d3-d5")}.
PEGSOL_JSON_API nlohmann::json fewest_json(const Problem& p, const FewestResult& r);

/// A game finished with the fewest moves from where it stands (pegsol solve --moves ... --minimize
/// moves): solve_json of the whole game from the start (the kept jumps first, "kept_moves" of
/// them) and "minimize" as fewest_json's for the part after them, with "from" (the position
/// after the kept moves, as a 0/1 string).
PEGSOL_JSON_API nlohmann::json fewest_finish_json(const Problem& p, const FewestFinish& f);

/// `pegsol fewest`: the board's fewest moves over its single-vacancy-to-one-peg problems:
/// {"board", "fewest" (null when none), "proven", "start", "end" (hole names, null when none),
/// "start_index", "end_index", "status", "reason", "moves", "notation", "minimize" (as
/// fewest_json), "stats" {"positions", "seconds"}, "stop"}.
PEGSOL_JSON_API nlohmann::json fewest_board_json(const Board& b, const FewestBoardResult& r);

/// `pegsol table --minimize moves`: {"board", "names", "matrix" (matrix[start][end]: fewest moves,
/// -1 when impossible, null when not settled), "fewest", "proven", "start", "end", "status"
/// (complete, stopped), "stop", "reason", "complete", "stats" {"positions", "seconds"}}.
PEGSOL_JSON_API nlohmann::json fewest_table_json(const Board& b, const FewestTable& t);

/// A census: the problem, "status" (complete, stopped), "stop", "reason", the levels (most pegs
/// first), the totals, the solution counts (decimal strings), the random player's chances (null
/// when not computed), "stats" {"seconds", "peak_bytes", "threads", "width"}, and "stop_limit":
/// for a memory stop at a limit, {"field" (the limit's field, named by `names`), "bytes" (the
/// limit; 0 when it is not a size, as a full spill directory)}, else null.
PEGSOL_JSON_API nlohmann::json census_json(const Problem& p, const CensusResult& r,
                                           const FieldNames& names = {});

/// Why a census stopped, as census_json's "reason" says it: "stopped (memory): " and the stop
/// note (fields named by `names`, its closing period dropped), then "; the figures cover the
/// levels completed" (or "; no level was completed"); "" for a census that finished.
PEGSOL_JSON_API std::string census_stop_reason(const CensusResult& r, const FieldNames& names = {});

/// A solvability table of board b run with `method`: "status" (complete, stopped), "stop",
/// "reason", "names", "matrix" (1, 0, or null for an open pair), "certificates", "finals",
/// "complete", "open", counts, "stats" {"seconds", "peak_bytes", "spill_peak_bytes"}.
PEGSOL_JSON_API nlohmann::json table_json(const Board& b, const SolvabilityTable& t,
                                          TableMethod method, const FieldNames& names = {});

/// One solution (or game) as enumerate_solutions gives it: {"moves", "notation"}.
PEGSOL_JSON_API nlohmann::json solution_json(const Board& b, const std::vector<Jump>& moves);

/// `pegsol solutions --json`: one object written in three pieces so that the solutions stream
/// without being held: head() (the problem), then item() per solution (the elements of
/// "solutions"), then tail() (outcome and figures). Together: {"board", "holes", "start", "goal",
/// "kind" (solutions, distinct, games), "limit", "solutions": [solution_json...], "count",
/// "status" (complete, limit, impossible, stopped), "stop", "reason", "stats" {"seconds"}}.
class PEGSOL_JSON_API SolutionsJson {
 public:
  /// Keeps its own copy of p (a temporary may be passed).
  /// @throws InputError as check_problem.
  SolutionsJson(const Problem& p, const EnumerateOptions& o);
  /// The object's text up to the opening of the "solutions" array.
  std::string head() const;
  /// One element of "solutions", led by a comma after the first.
  std::string item(const std::vector<Jump>& moves);
  /// The rest of the object: outcome and figures of the enumeration `r`, which took `seconds`.
  std::string tail(const EnumerateResult& r, double seconds) const;
  /// The outcome as tail() names it.
  std::string status(const EnumerateResult& r) const;

 private:
  Problem p_;
  EnumerateOptions o_;
  bool first_ = true;
};
/// A control's progress report (pegsol/control.hpp): {"done", "total", "fraction", "seconds",
/// "eta_seconds", "phase", "positions", "memory_bytes", "level"}.
PEGSOL_JSON_API nlohmann::json progress_json(const ProgressReport& r);

/// A fewest-moves search's progress (a report with ProgressReport::fewest): progress_json's fields
/// (done, total, fraction, eta_seconds and memory_bytes 0, level -1: the search's size is not
/// known ahead; phase "fewest") and the bounds closing, "lower_bound" and "best_found" (-1: none
/// yet), and "shortening" (the passes ran out of memory and the best solution is being
/// shortened). A report without the fewest group gives the bounds' defaults (0, -1, false).
PEGSOL_JSON_API nlohmann::json fewest_progress_json(const ProgressReport& r);

/// A position's analysis (pegsol/analysis.hpp): {"position" (0/1 per hole), "pegs", "goal" and
/// "one_peg" (each {"verdict": "solvable" | "not solvable" | "unknown", "reason" (the engine's
/// words), "explanation" (plain words for a player), "proof_holes" (indices of the holes the proof
/// is about, or null), "solution" (move chains), "nodes", "seconds"}), "hint" (a move chain or
/// null), "hint_moves" ([from, over, to] per jump), "hint_to_goal", "counted", "exact" (every
/// figure from the census look-ups), "ways_goal" and "ways_one_peg" (decimal strings, null when
/// not counted), "end_holes" (names) and "end_hole_indices" (null when not counted), "count_note",
/// "lookup_note", "positions", "seconds"}.
PEGSOL_JSON_API nlohmann::json analysis_json(const Position& p, const Analysis& a,
                                             const FieldNames& names = {});

/// "Where did I go wrong" for `game`: {"now" (verdict of the current position), "start_lost",
/// "move" (index in the game's moves, or null), "move_notation" (its chain, or null), "rewind_to",
/// "reason", "explanation" (plain words), "proof_holes" (indices, or null), "note", "seconds"}.
PEGSOL_JSON_API nlohmann::json mistake_json(const Game& game, const Mistake& m);

/// How far a game's census look-ups are (PathIndexCache::status; POST /api/lookups): {"state"
/// ("none", "queued", "building", "ready", "failed"), "phase", "level", "fraction", "seconds",
/// "bytes", "why", "censuses"}.
PEGSOL_JSON_API nlohmann::json lookup_status_json(const LookupStatus& s,
                                                  const FieldNames& names = {});

/// A board: {"board", "lattice", "holes", "jumps", "symmetries", "class_invariants", "peg_types",
/// "bit_width", "names"}.
PEGSOL_JSON_API nlohmann::json board_json(const Board& b);

/// A board's geometry for drawing and playing it: board_json and "coords" ([row, column] lattice
/// coordinates per hole, docs/board-format.md), "jump_list" ([from, over, to] per jump) and
/// "default" {"start" (0/1 per hole), "end" (a hole name or "any")} when the board has a default
/// problem (null otherwise).
PEGSOL_JSON_API nlohmann::json geometry_json(const Board& b);

/// A "still solvable?" answer: {"verdict" ("solvable", "not solvable", "unknown"), "reason",
/// "moves", "notation" (the solution found, as in solve_json), "nodes", "seconds"}.
PEGSOL_JSON_API nlohmann::json solvability_json(const Board& b, const SolvabilityAnswer& a);

/// A hint: solvability_json of its answer with "move": {"jumps" ([from, over, to]), "notation"
/// (the chain, "4-1-6")} or null.
PEGSOL_JSON_API nlohmann::json hint_json(const Board& b, const Hint& h);

/// A game: {"board", "holes", "start", "goal" ({"kind": "hole"|"any"|"position", "hole" (name),
/// "position" (0/1)}), "moves" (chains, played ones), "undone" (chains), "position" (0/1 after the
/// played moves), "pegs", "finished", "won", "text" (the game file, docs/game-format.md)}.
PEGSOL_JSON_API nlohmann::json game_json(const Game& g);

/// The catalogue: {"version", "kernels" {"cpu", "census", "cap"}, "boards": [board_json without
/// "names", with "description" and "default_problem"]}.
/// @throws InputError for a bad PEGSOL_KERNELS.
PEGSOL_JSON_API nlohmann::json catalogue_json();

/// The presets, easiest first: {"presets": [{"name", "title", "description", "board", "start"
/// (0/1 per hole), "end", "difficulty" (1..5), "difficulty_name", "pegs"}]}.
PEGSOL_JSON_API nlohmann::json presets_json();

}  // namespace pegsol
