// SPDX-License-Identifier: MIT
/// @file
/// Problem: a board, a start position and a goal. The input of every search.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/holeset.hpp"

namespace pegsol {

/// What a problem asks to end with.
struct PEGSOL_API Goal {
  /// The kinds of goal.
  enum class Kind {
    Hole,      ///< One peg, on `hole`.
    Any,       ///< One peg, anywhere.
    Position,  ///< Exactly `position`.
  };
  Kind kind = Kind::Any;  ///< Which goal this is.
  int hole = -1;          ///< Kind::Hole only: the hole of the last peg.
  HoleSet position;       ///< Kind::Position only: the final position.
};

/// A board, a start position and a goal: the input of every search.
struct PEGSOL_API Problem {
  BoardPtr board;  ///< Shared and immutable; never null in a checked problem.
  HoleSet start;   ///< The start position, of the board's size.
  Goal goal;       ///< Where the game must end.
};

/// Checks a problem as every entry point taking one does.
/// @throws InputError (field "board", "start", "goal.hole" or "goal.position") unless `p` has a
/// board, a start of the board's size and a goal on the board.
PEGSOL_API void check_problem(const Problem& p);
/// Checks that a goal fits a board.
/// @throws InputError (field "goal.hole" or "goal.position") unless `goal` fits `board`.
PEGSOL_API void check_goal(const Board& board, const Goal& goal);
/// Checks that a position is one of the board's.
/// @throws InputError naming `field` unless `pegs` has the board's number of holes.
PEGSOL_API void check_position(const Board& board, const HoleSet& pegs, std::string_view field);
/// Checks that a hole is one of the board's.
/// @throws InputError naming `field` unless `hole` is a hole of `board` (0 .. size - 1).
PEGSOL_API void check_hole(const Board& board, int hole, std::string_view field);
/// Checks that a jump's holes are the board's.
/// @throws InputError naming `field` unless the three holes of `j` are holes of `board`.
PEGSOL_API void check_jump(const Board& board, const Jump& j, std::string_view field);

/// The catalogue's default problem for a board (English d4 -> d4, triangles 1 -> anywhere, ...).
/// @throws InputError for a null board (field "board") or one without a default (drawn boards).
PEGSOL_API Problem default_problem(BoardPtr board);

/// The number of pegs the goal leaves.
/// @throws InputError as check_problem().
PEGSOL_API int goal_pegs(const Problem& p);

/// Whether `pegs` satisfies the goal.
/// @throws InputError as check_problem(), or (field "pegs") when `pegs` is not a position of the
/// board.
PEGSOL_API bool goal_reached(const Problem& p, const HoleSet& pegs);

/// A position with every hole filled but one.
/// @throws InputError (field "hole") unless `hole` is a hole of the board.
PEGSOL_API HoleSet single_vacancy(const Board& board, int hole);

/// The problem in one line: "english: vacancy d4 -> one peg at d4".
/// @throws InputError as check_problem().
PEGSOL_API std::string describe(const Problem& p);

/// The start and goal of `p` searched backward: the complement trick. A forward jump on the
/// complemented board is a backward jump on the original. Only for goals that are positions or a
/// single hole.
/// @throws InputError (field "goal.kind") for Goal::Kind::Any, which has no single complemented
/// start, and as check_problem().
PEGSOL_API Problem complement_problem(const Problem& p);

/// The outcome of replay().
struct PEGSOL_API Replay {
  bool ok = false;    ///< Every jump was legal in turn.
  HoleSet final;      ///< The position after the last jump (else before the illegal one).
  std::string error;  ///< Otherwise: the first illegal move and why.
};
/// Checks a move list independently of any search: every jump legal in turn. Returns the final
/// position, or an error message naming the first illegal move (a start of another board's size
/// included); never throws.
PEGSOL_API Replay replay(const Board& board, const HoleSet& start, const std::vector<Jump>& moves);

}  // namespace pegsol
