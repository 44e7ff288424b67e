// SPDX-License-Identifier: MIT
// Problem: a board, a start position and a goal. The input of every search.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/catalogue.hpp"
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

// The catalogue's default problem for a board (English d4 -> d4, triangles 1 -> anywhere, ...).
// Throws InputError for a board without one (drawn boards).
PEGSOL_API Problem default_problem(BoardPtr board);

// Number of pegs the goal leaves.
PEGSOL_API int goal_pegs(const Problem& p);

// True when `pegs` satisfies the goal.
PEGSOL_API bool goal_reached(const Problem& p, const HoleSet& pegs);

// A position with every hole filled but one.
PEGSOL_API HoleSet single_vacancy(const Board& board, int hole);

// One line: "english: vacancy d4 -> one peg at d4".
PEGSOL_API std::string describe(const Problem& p);

// The start/goal of `p` searched backward: the complement trick. A forward jump on the
// complemented board is a backward jump on the original. Only for goals that are positions or a
// single hole; Kind::Any has no single complemented start.
PEGSOL_API Problem complement_problem(const Problem& p);

// Checks a move list independently of any search: every jump legal in turn. Returns the final
// position, or an error message naming the first illegal move.
struct PEGSOL_API Replay {
  bool ok = false;
  HoleSet final;
  std::string error;
};
PEGSOL_API Replay replay(const Board& board, const HoleSet& start, const std::vector<Jump>& moves);

}  // namespace pegsol
