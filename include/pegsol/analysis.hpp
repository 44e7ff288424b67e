// SPDX-License-Identifier: MIT
/// @file
/// Analysis of a position for a player: can it still be solved (to one peg anywhere, to the goal),
/// and if not why; how many ways remain and on which holes the last peg can still end; a hint;
/// and for a game, the first move after which no solution remained ("where did I go wrong").
///
/// Every answer is computed: the census look-ups of a game's start (path_index.hpp) answer every
/// question exactly once built; otherwise a count walks every jump sequence from the position
/// (memoised), a "not solvable" carries a proof (position class, peg types, pagoda) or a completed
/// search, a solution is replayed. Work is bounded by the options' time and memory; what the bound
/// cut short is said (Solvability::Unknown, `counted` false with a note). Each verdict comes with
/// the engine's reason and an explanation in plain words for a player.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/play.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {

class PathIndexCache;

/// Bytes of table an Analyzer(board, goal) keeps for each of its two depth-first searches' memos
/// (towards the goal, towards one peg anywhere): the failed positions they proved, across calls.
inline constexpr std::size_t kAnalyzerMemoBytes = std::size_t{64} << 20;

/// What an Analyzer call computes, and within which bounds.
struct PEGSOL_API AnalysisOptions {
  /// Deadline, cancel for one call (analyze or first_mistake); may be null. With time_limit,
  /// both apply.
  const Control* control = nullptr;
  double time_limit = 2;  ///< seconds for one call; 0: no limit
  /// Count the ways left and the end holes when the board fits 64 bits and the positions
  /// reachable from here stay within count_positions (the memo's bound, about 40 bytes each).
  /// (The census look-ups give them whenever they answer, asked or not.)
  bool count = true;
  std::size_t count_positions = 2'000'000;  ///< the count's bound, in positions
  double count_seconds = 0.5;               ///< at most this much of the call goes to the count
  /// Positions of a first, short depth-first search (0: none), tried before the count and the
  /// search to the end; most positions of a game are settled there in milliseconds.
  std::uint64_t quick_nodes = 20'000;
  /// Then a beam search for this long (0: none): it finds solutions fast where they are many,
  /// and never answers "not solvable".
  double beam_seconds = 0.2;
  /// analyze(): count even when a search settled the verdict, for the ways and the end holes
  /// (false: the count only decides what the short searches could not, as solvable() does).
  bool ways = true;
  bool hint = true;  ///< fill Analysis::hint
  /// Fill the explanations in plain words (a pagoda proof costs a small linear program).
  bool explain = true;
  /// The start the position was reached from by legal jumps (a game's start). With it, on boards
  /// of up to 64 bits, the census of (start, goal) keeping its solution paths answers by a few
  /// look-ups (path_index.hpp): a position reachable from the start can reach the goal exactly
  /// when it lies on a solution path, and the paths carry the ways left and the end holes; likewise
  /// towards one peg anywhere (one census answers both for a goal hole the start's symmetries fix).
  /// The indexes come from `paths` (shared, built in its background: until built the searches
  /// answer) or else from the analyzer's own, built in the call within lookup_memory and
  /// lookup_seconds: the call's cancel and pause reach that build, its deadline does not (the
  /// look-ups serve the calls after it). A shared cache without a background thread
  /// (PathIndexCache::Options::background false) builds in the call likewise, within its own
  /// bounds. A census that stops (but for a cancel) is not tried again. A start the position was
  /// not reached from gives wrong answers.
  std::optional<HoleSet> start;
  bool lookup = true;               ///< use the census look-ups when `start` is given
  PathIndexCache* paths = nullptr;  ///< shared look-ups (may be null: the analyzer's own)
  std::size_t lookup_memory = std::size_t{512} << 20;  ///< bytes: the own census's memory limit
  double lookup_seconds = 10;                          ///< the census's time limit
};

/// A verdict in plain words for a player, beside the engine's reason (SolvabilityAnswer::reason):
/// "no sequence of jumps from here ends with one peg on d4 (pegsol checked every one)", or the
/// position class, peg types or pagoda proof explained.
struct PEGSOL_API Explanation {
  std::string text;  ///< the words (empty when there is nothing to explain)
  /// The holes the proof is about, for a page to mark: a position class's or a peg type's holes,
  /// a pagoda function's weighted holes. nullopt when the explanation concerns no holes.
  std::optional<std::vector<int>> holes;
};

/// What analyze() found about one position.
struct PEGSOL_API Analysis {
  /// To one peg anywhere, and to the analyzer's goal (the same answer when the goal is Any).
  /// Solvable answers carry a replayed solution; NotSolvable ones the proof in `reason`.
  SolvabilityAnswer one_peg;
  SolvabilityAnswer goal;           ///< to the analyzer's goal
  Explanation one_peg_explanation;  ///< the verdicts in plain words
  Explanation goal_explanation;     ///< the goal's verdict in plain words
  /// The next move of a solution to the goal (to one peg when the goal cannot be reached but one
  /// peg can); nullopt when neither is solvable, or the position already is the goal.
  std::optional<Move> hint;
  bool hint_to_goal = false;  ///< the hint leads to the goal (false: to one peg anywhere)
  /// Exact counts, when `counted`: jump sequences from here to the goal and to one peg anywhere,
  /// and the holes a single last peg can still end on.
  bool counted = false;
  Count ways_goal = 0;          ///< jump sequences from here to the goal
  Count ways_one_peg = 0;       ///< jump sequences from here to one peg anywhere
  HoleSet end_holes;            ///< the holes a single last peg can end on
  std::string count_note;       ///< why not counted (empty when counted)
  std::string lookup_note;      ///< how the census look-up answered, or why it did not
  bool exact = false;           ///< both verdicts and the counts came from the census look-ups
  std::uint64_t positions = 0;  ///< distinct positions the count holds for this position's subtree
  double seconds = 0;           ///< the call's time
};

/// "Where did I go wrong": the first played move after which the goal could no longer be reached.
struct PEGSOL_API Mistake {
  /// Solvability of the game's current position (after the played moves).
  Solvability now = Solvability::Unknown;
  /// The start itself cannot reach the goal (then `move` is empty and `reason` says why).
  bool start_lost = false;
  /// Index in Game::moves() of the first move after which no solution remained; empty when the
  /// game is not lost, the start was lost, or a bounded search could not decide.
  std::optional<std::size_t> move;
  /// Rewind here (the number of moves to keep: Game's cursor before `move`) to stand on the last
  /// position that could still reach the goal.
  std::size_t rewind_to = 0;
  std::string reason;       ///< why the position after `move` (or the start) cannot reach the goal
  Explanation explanation;  ///< the same in plain words (empty text when there is no reason)
  std::string note;         ///< for Unknown: which position the bound left undecided, and why
  double seconds = 0;       ///< the call's time
};

/// Analyses positions of one board towards one goal, keeping what it learnt (the count's memo,
/// positions known to lie on a solution) for later calls. Thread-safe; calls share one lock.
class PEGSOL_API Analyzer {
 public:
  /// An analyzer of positions on `board` towards `goal`.
  /// @throws InputError for a null board (field "board") or a goal that does not fit it
  /// ("goal.hole", "goal.position").
  Analyzer(BoardPtr board, Goal goal);
  /// The same, with at most `memo_bytes` of table for each verdict's search memo (two in all),
  /// instead of kAnalyzerMemoBytes. The tables grow as the searches fill them, so a large bound
  /// costs memory only where long searches run; a larger memo settles more of the hard (mostly
  /// lost) positions along a game (docs/play.md). At least a few slots are kept whatever the bound.
  /// @throws InputError as Analyzer(board, goal).
  Analyzer(BoardPtr board, Goal goal, std::size_t memo_bytes);
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  /// The board it analyses positions of.
  const Board& board() const;
  /// The goal it analyses them towards.
  const Goal& goal() const;
  /// The bound of each verdict's search memo, in bytes.
  std::size_t memo_bytes() const;

  /// Everything about `p`.
  /// @throws InputError for a position on another board (field "p"), a start of another size
  /// ("AnalysisOptions::start"), a negative or NaN time option ("AnalysisOptions::time_limit",
  /// count_seconds, beam_seconds, lookup_seconds).
  Analysis analyze(const Position& p, const AnalysisOptions& options = {}) const;
  /// Solvability of `p` to the goal alone (the count, when cheap, else a search).
  SolvabilityAnswer solvable(const Position& p, const AnalysisOptions& options = {}) const;
  /// The first losing move of `game`'s played moves (the game's board and goal must be this
  /// analyzer's: InputError, field "game", otherwise). Solvability only drops along a game, so a
  /// binary search over the positions finds it with about log2(moves) questions.
  Mistake first_mistake(const Game& game, const AnalysisOptions& options = {}) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The verdict `a` about `p` towards `goal` in plain words, with the holes its proof is about; a
/// "not solvable" from a search or a look-up is explained by the position class, the peg types or a
/// pagoda function when one of them proves it, else as the exhaustive check it was. `ways`: the
/// jump sequences left, when known (said for a solvable verdict).
/// @throws InputError when the goal does not fit the board ("goal.hole", "goal.position").
PEGSOL_API Explanation explain(const Position& p, const Goal& goal, const SolvabilityAnswer& a,
                               std::optional<Count> ways = std::nullopt);

/// A game finished by the engine, keeping the player's moves (the seed program's protected moves).
struct PEGSOL_API FinishResult {
  /// On the original problem: status and reason of the search from the kept moves' position;
  /// moves are the kept jumps then the found ones (replayed from the start), final where they end.
  SolveResult result;
  std::size_t kept_jumps = 0;  ///< the first kept_jumps of result.moves are the player's
};

/// Plays `kept` from p.start, then solves the rest with `options`.
/// @throws InputError naming the first kept move that is illegal ("move 3 (d2-d4): ...").
PEGSOL_API FinishResult finish_game(const Problem& p, const std::vector<Move>& kept,
                                    const SolveOptions& options = {});

}  // namespace pegsol
