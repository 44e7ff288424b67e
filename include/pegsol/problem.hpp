// SPDX-License-Identifier: MIT
// Problem: a board, a start position and a goal. The input of every search.
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

struct PEGSOL_API Goal {
  enum class Kind {
    Hole,      // one peg, on `hole`
    Any,       // one peg, anywhere
    Position,  // exactly `position`
  };
  Kind kind = Kind::Any;
  int hole = -1;
  HoleSet position;  // Kind::Position only
};

struct PEGSOL_API Problem {
  BoardPtr board;
  HoleSet start;
  Goal goal;
};

// Throws InputError (field "board", "start", "goal.hole" or "goal.position") unless p has a
// board, a start of the board's size and a goal on the board. Every entry point taking a Problem
// checks it so.
PEGSOL_API void check_problem(const Problem& p);
// Throws InputError (field "goal.hole" or "goal.position") unless `goal` fits `board`.
PEGSOL_API void check_goal(const Board& board, const Goal& goal);
// Throws InputError naming `field` unless `pegs` has the board's number of holes.
PEGSOL_API void check_position(const Board& board, const HoleSet& pegs, std::string_view field);
// Throws InputError naming `field` unless `hole` is a hole of `board` (0 .. size - 1).
PEGSOL_API void check_hole(const Board& board, int hole, std::string_view field);
// Throws InputError naming `field` unless the three holes of `j` are holes of `board`.
PEGSOL_API void check_jump(const Board& board, const Jump& j, std::string_view field);

// The catalogue's default problem for a board (English d4 -> d4, triangles 1 -> anywhere, ...).
// Throws InputError for a null board (field "board") or one without a default (drawn boards).
PEGSOL_API Problem default_problem(BoardPtr board);

// Number of pegs the goal leaves. Throws InputError as check_problem.
PEGSOL_API int goal_pegs(const Problem& p);

// True when `pegs` satisfies the goal. Throws InputError as check_problem, or (field "pegs")
// when `pegs` is not a position of the board.
PEGSOL_API bool goal_reached(const Problem& p, const HoleSet& pegs);

// A position with every hole filled but one. Throws InputError (field "hole") unless `hole` is
// a hole of the board.
PEGSOL_API HoleSet single_vacancy(const Board& board, int hole);

// One line: "english: vacancy d4 -> one peg at d4". Throws InputError as check_problem.
PEGSOL_API std::string describe(const Problem& p);

// The start/goal of `p` searched backward: the complement trick. A forward jump on the
// complemented board is a backward jump on the original. Only for goals that are positions or a
// single hole: throws InputError (field "goal.kind") for Kind::Any, which has no single
// complemented start, and as check_problem.
PEGSOL_API Problem complement_problem(const Problem& p);

// Checks a move list independently of any search: every jump legal in turn. Returns the final
// position, or an error message naming the first illegal move (a start of another board's size
// included); never throws.
struct PEGSOL_API Replay {
  bool ok = false;
  HoleSet final;
  std::string error;
};
PEGSOL_API Replay replay(const Board& board, const HoleSet& start, const std::vector<Jump>& moves);

}  // namespace pegsol
