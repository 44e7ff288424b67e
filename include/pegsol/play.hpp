// SPDX-License-Identifier: MIT
/// @file
/// Play: a position on a board, its legal jumps, moves as chains of jumps, games with undo and
/// redo, their text format (docs/game-format.md), and "is this still solvable?" and hints.
///
/// Nothing here searches by itself: is_solvable and hint call pegsol::solve() with a time limit, so
/// "not solvable" comes only from a proof or a completed search, and every solution is replayed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"

namespace pegsol {

/// A move: a chain of jumps by one peg, each jump starting where the previous one landed.
struct PEGSOL_API Move {
  std::vector<Jump> jumps;  ///< in order; each starts where the one before landed

  /// The hole the moving peg starts from.
  /// @throws InputError (field "jumps") for an empty move.
  int from() const { return non_empty().front().from; }
  /// The hole the moving peg ends on.
  /// @throws InputError (field "jumps") for an empty move.
  int to() const { return non_empty().back().to; }
  /// Same jumps in the same order.
  bool operator==(const Move&) const = default;

 private:
  const std::vector<Jump>& non_empty() const {
    if (jumps.empty()) throw InputError("jumps", "a move needs at least one jump");
    return jumps;
  }
};

/// A position: the pegs on a board. Copies are cheap enough for play (a shared board and a
/// HoleSet); searches use their own bit layouts.
class PEGSOL_API Position {
 public:
  /// The position `pegs` on `board`.
  /// @throws InputError for a null board (field "board") or when the sizes differ ("pegs").
  Position(BoardPtr board, HoleSet pegs);

  /// Reads a position of `board` from its 0/1 string (the `start` of solve's JSON: one character
  /// per hole in reading order) or from a drawing (docs/board-format.md). `source` names the text
  /// in error messages.
  /// @throws InputError naming what is wrong and where.
  static Position parse(BoardPtr board, std::string_view text,
                        std::string_view source = "position");

  /// The board the position lies on.
  const Board& board() const { return *board_; }
  /// The shared board, for building problems and other positions on it.
  const BoardPtr& board_ptr() const { return board_; }
  /// The pegs, by hole in reading order.
  const HoleSet& pegs() const { return pegs_; }
  /// The number of pegs on the board.
  int peg_count() const { return pegs_.count(); }
  /// True when `hole` holds a peg (hole must be on the board).
  bool is_peg(int hole) const { return pegs_.test(hole); }

  /// Every legal jump, in the board's jump order (board().jumps()).
  std::vector<Jump> legal_jumps() const;
  /// True when `j` is a jump of this board with pegs on its from- and over-holes and an empty
  /// to-hole.
  bool is_legal(const Jump& j) const;
  /// True when every jump of `m` is legal in turn and the jumps form one chain.
  bool is_legal(const Move& m) const;
  /// Makes the jump.
  /// @throws InputError naming the jump and why it is illegal.
  void apply(const Jump& j);
  /// Makes the move's jumps in turn.
  /// @throws InputError naming the step and why (the position is unchanged then).
  void apply(const Move& m);
  /// Takes back `j`, the exact inverse of apply(j).
  /// @throws InputError unless `j` is a jump of the board whose to-hole holds a peg and whose from-
  /// and over-holes are empty.
  void undo(const Jump& j);
  /// Takes back the move's jumps, last first.
  /// @throws InputError as undo(Jump), or when the jumps do not form one chain (the position is
  /// unchanged then).
  void undo(const Move& m);
  /// True when no jump is legal.
  bool stuck() const;
  /// The game is over: the same as stuck().
  bool over() const { return stuck(); }

  /// The 0/1 string of the pegs in reading order, as solve's JSON prints `start`.
  std::string to_string() const { return pegs_.to_bits(); }
  /// The same pegs on boards of the same shape (Board::same_shape), whichever board objects hold
  /// them: a game read back compares equal to the one written.
  bool operator==(const Position& o) const {
    return pegs_ == o.pegs_ && (board_ == o.board_ || board_->same_shape(*o.board_));
  }

 private:
  /// Why `j` cannot be played (empty when it can).
  std::string why_illegal(const Jump& j) const;
  /// Why `j` cannot be taken back (empty when it can).
  std::string why_not_undoable(const Jump& j) const;

  BoardPtr board_;
  HoleSet pegs_;
};

/// "f3-d3-d5" (square lattices) or "4-1-6" (triangular): the hole names the peg visits.
PEGSOL_API std::string move_chain_text(const Board& board, const Move& m);
/// Reads a chain of hole names joined by '-' into the move it names; every step must be a jump of
/// the board.
/// @throws InputError naming the text and the wrong step.
PEGSOL_API Move parse_move_chain(const Board& board, std::string_view text);
/// Reads a move list: moves as parse_move_chain() reads them, separated by spaces, tabs, line ends
/// or commas, each one optionally numbered as the command prints them ("1.d2-d4 2.f3-d3-d5").
/// @throws InputError naming the move's place in the list and what is wrong with it
/// ("move 2: move 'zz': no hole named 'zz' on board English").
PEGSOL_API std::vector<Move> parse_move_list(const Board& board, std::string_view text);
/// Every legal move of `p`: each legal jump and each longer chain the same peg can continue with,
/// shortest first within a chain, chains grouped by their first jump in jump order.
PEGSOL_API std::vector<Move> legal_moves(const Position& p);
/// The jumps of a list of moves, one after another.
PEGSOL_API std::vector<Jump> flatten(const std::vector<Move>& moves);
/// Groups a jump list into moves: consecutive jumps by the same peg form one move.
PEGSOL_API std::vector<Move> group_moves(const std::vector<Jump>& jumps);

/// A game: a problem (board, start, goal) and the moves played, with a cursor for undo and redo.
/// Moves before the cursor are played; moves after it were undone and can be redone.
class PEGSOL_API Game {
 public:
  /// A new game of `problem`.
  /// @throws InputError when its start or goal does not fit the board.
  explicit Game(Problem problem);

  /// Reads a game file (docs/game-format.md). `source` names the text in errors, which give the
  /// line and column ("game.txt:7:3: ...").
  /// @throws InputError naming what is wrong and where.
  static Game parse(std::string_view text, std::string_view source = "game");
  /// The game in the text format; parse(to_text()) gives the same game and the same text.
  std::string to_text() const;

  /// The board, the start and the goal.
  const Problem& problem() const { return problem_; }
  /// Every move, played and undone; the first cursor() of them are played.
  const std::vector<Move>& moves() const { return moves_; }
  /// The number of moves played (the rest of moves() were undone).
  std::size_t cursor() const { return cursor_; }
  /// The played moves only.
  std::vector<Move> played() const;
  /// The position after the played moves.
  const Position& position() const { return position_; }

  /// Plays `m` and forgets the undone moves.
  /// @throws InputError when it is illegal (the game is unchanged then).
  void play(const Move& m);
  /// Takes back the last played move; false when none is played.
  bool undo();
  /// Plays the next undone move again; false when none is left.
  bool redo();
  /// A move has been played, so undo() would take one back.
  bool can_undo() const { return cursor_ > 0; }
  /// A move has been undone, so redo() would play one again.
  bool can_redo() const { return cursor_ < moves_.size(); }
  /// No legal jump is left.
  bool finished() const { return position_.stuck(); }
  /// The current position reaches the problem's goal.
  bool won() const { return goal_reached(problem_, position_.pegs()); }

 private:
  Problem problem_;
  std::vector<Move> moves_;
  std::size_t cursor_ = 0;
  Position position_;
};

/// A game of `p` with `moves` played from its start.
/// @throws InputError naming the first illegal move ("move 3 (d2-d4): ...").
PEGSOL_API Game game_after(const Problem& p, const std::vector<Move>& moves);

/// True when `text` is a game file (its first line that is neither blank nor a comment is
/// "pegsol game") rather than a drawing.
PEGSOL_API bool is_game_text(std::string_view text);

/// A verdict about a position: can it still reach the goal?
enum class Solvability {
  Solvable,     ///< a solution was found (and replayed)
  NotSolvable,  ///< a proof, or a completed search, says no
  Unknown       ///< the search stopped before either
};
/// "solvable", "not solvable" or "unknown".
PEGSOL_API std::string_view solvability_name(Solvability s);

/// The answer to "can this position still reach the goal?".
struct PEGSOL_API SolvabilityAnswer {
  Solvability verdict = Solvability::Unknown;  ///< the answer
  /// NotSolvable: the proof (a position class, peg types, a pagoda function) or the completed
  /// search; Unknown: why the search stopped. Empty when solvable.
  std::string reason;
  std::vector<Jump>
      solution;             ///< Solvable: replayed from the position and checked to reach the goal
  std::uint64_t nodes = 0;  ///< positions searched
  double seconds = 0;       ///< search time
};

/// Whether `p` can still reach `goal`, searching for at most `time_limit_seconds` (0: no limit).
/// Unknown when the time runs out: never "not solvable" without a proof or a completed search.
/// @throws InputError when the goal does not fit the board, or for a negative or NaN
/// time_limit_seconds.
PEGSOL_API SolvabilityAnswer is_solvable(const Position& p, const Goal& goal,
                                         double time_limit_seconds);
/// The same with the search's options (its control: time limit, cancellation, memory).
PEGSOL_API SolvabilityAnswer is_solvable(const Position& p, const Goal& goal,
                                         const SolveOptions& options);

/// A hint: the first move of a solution, or why there is none.
struct PEGSOL_API Hint {
  SolvabilityAnswer answer;  ///< whether the position can still reach the goal, and how
  /// Solvable: the solution's first move (its leading jumps by one peg); nullopt when the
  /// position already is the goal, or when not solvable or unknown.
  std::optional<Move> move;
};

/// A hint for reaching `goal` from `p`, searching for at most `time_limit_seconds` (0: no limit).
/// @throws InputError as is_solvable.
PEGSOL_API Hint hint(const Position& p, const Goal& goal, double time_limit_seconds);
/// The same with the search's options.
PEGSOL_API Hint hint(const Position& p, const Goal& goal, const SolveOptions& options);

}  // namespace pegsol
