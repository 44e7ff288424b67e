// SPDX-License-Identifier: MIT
// Problems from the module's keyword arguments: names and files through the library's
// build_problem, boards and positions given as Python objects resolved on their board.
#include <optional>
#include <string>

#include "common.hpp"
#include "pegsol/error.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::python {

namespace {

bool text_or_none(py::handle v) {
  return v.is_none() || py::isinstance<py::str>(v);
}

std::string text(py::handle v) {
  return v.is_none() ? std::string() : v.cast<std::string>();
}

// A position of `b` from a keyword argument: a pegsol.Position of the same board, a 0/1 string
// or a drawing, or @FILE with a drawing.
HoleSet position_arg(const BoardPtr& b, py::handle v, const char* what) {
  if (py::isinstance<Position>(v)) {
    const Position& p = v.cast<const Position&>();
    if (!same_board(p.board(), *b))
      throw InputError(std::string(what) + ": the position is on board " + p.board().name() +
                       ", not " + b->name());
    return p.pegs();
  }
  if (!py::isinstance<py::str>(v))
    throw py::type_error(std::string(what) +
                         ": expected a pegsol.Position, a 0/1 string or a drawing, got " +
                         py::repr(v).cast<std::string>());
  const std::string s = v.cast<std::string>();
  if (s.starts_with("@")) {
    const std::string path = s.substr(1);
    return parse_position(*b, read_file(path, std::string(what) + " " + s), path);
  }
  return Position::parse(b, s, what).pegs();
}

// The board named by `board` and `lattice` (text, or a pegsol.Board with no lattice).
BoardPtr named_board(py::handle board, const std::string& lattice) {
  if (py::isinstance<BoardRef>(board)) {
    if (!lattice.empty())
      throw InputError("lattice " + lattice +
                       ": the board is a pegsol.Board, whose lattice is set; give its spec as "
                       "text to change the lattice");
    return board.cast<const BoardRef&>().ptr;
  }
  if (!text_or_none(board))
    throw py::type_error(
        "board: expected a board spec (\"english\", \"@FILE\") or a pegsol.Board, "
        "got " +
        py::repr(board).cast<std::string>());
  ProblemSpec spec;
  spec.board = text(board);
  spec.lattice = lattice;
  return build_board(spec);
}

}  // namespace

Problem problem_of(const ProblemArgs& a) {
  if (!a.problem.is_none()) {
    if (!a.board.is_none() || !a.start.is_none() || !a.end.is_none() || !a.goal.is_none() ||
        !a.lattice.empty())
      throw InputError(
          "problem: give a pegsol.Problem or board, lattice, start, end and goal, not both");
    if (!py::isinstance<Problem>(a.problem))
      throw py::type_error("problem: expected a pegsol.Problem, got " +
                           py::repr(a.problem).cast<std::string>());
    return a.problem.cast<Problem>();
  }
  // Everything as text: the library's rules (defaults, @FILE drawings and saved games).
  if (text_or_none(a.board) && text_or_none(a.start) && text_or_none(a.end) &&
      (a.goal.is_none() || (py::isinstance<py::str>(a.goal) && text(a.goal).starts_with("@")))) {
    ProblemSpec spec;
    spec.board = text(a.board);
    spec.lattice = a.lattice;
    spec.start = text(a.start);
    spec.end = text(a.end);
    spec.goal = text(a.goal);
    return build_problem(spec);
  }
  // A board or a position as an object, a hole index or a goal as text: on that board.
  Problem p;
  if (py::isinstance<Position>(a.start)) {
    p.board = a.start.cast<const Position&>().board_ptr();
    if (!a.board.is_none() || !a.lattice.empty()) {
      BoardPtr named = named_board(a.board, a.lattice);
      if (!same_board(*named, *p.board))
        throw InputError("start: the position is on board " + p.board->name() + ", not " +
                         named->name());
    }
  } else {
    p.board = named_board(a.board, a.lattice);
  }
  const Board& b = *p.board;
  std::optional<Problem> def;
  try {
    def = default_problem(p.board);
  } catch (const InputError&) {
  }
  if (a.start.is_none()) {
    if (!def)
      throw InputError("board " + b.name() +
                       " has no default start: give start (a hole or a position)");
    p.start = def->start;
  } else if (py::isinstance<py::int_>(a.start) ||
             (py::isinstance<py::str>(a.start) && b.find(text(a.start)))) {
    p.start = single_vacancy(b, hole_of(b, a.start, "start"));
  } else {
    p.start = position_arg(p.board, a.start, "start");
  }
  if (!a.end.is_none() && !a.goal.is_none()) throw InputError("give either end or goal, not both");
  if (!a.goal.is_none()) {
    p.goal.kind = Goal::Kind::Position;
    p.goal.position = position_arg(p.board, a.goal, "goal");
  } else if (py::isinstance<py::str>(a.end) && text(a.end) == "any") {
    p.goal.kind = Goal::Kind::Any;
  } else if (!a.end.is_none()) {
    p.goal.kind = Goal::Kind::Hole;
    p.goal.hole = hole_of(b, a.end, "end");
  } else if (a.start.is_none() && def) {
    p.goal = def->goal;
  } else {
    p.goal.kind = Goal::Kind::Any;
  }
  if (p.start.count() == 0) throw InputError("the start position has no pegs");
  return p;
}

BoardPtr board_of(const ProblemArgs& a, const char* function) {
  if (!a.problem.is_none() || !a.start.is_none() || !a.end.is_none() || !a.goal.is_none())
    throw InputError(std::string(function) +
                     " is about a whole board: give board (and lattice) alone, not a problem, "
                     "start, end or goal");
  return named_board(a.board, a.lattice);
}

}  // namespace pegsol::python
