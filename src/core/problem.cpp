// SPDX-License-Identifier: MIT
#include "pegsol/problem.hpp"

#include "pegsol/error.hpp"

namespace pegsol {

void check_hole(const Board& board, int hole, std::string_view field) {
  if (hole < 0 || hole >= board.size())
    throw InputError(std::string(field), "hole " + std::to_string(hole) + " is not on board " +
                                             board.name() + " (holes 0 to " +
                                             std::to_string(board.size() - 1) + ")");
}

void check_position(const Board& board, const HoleSet& pegs, std::string_view field) {
  if (pegs.size() != board.size())
    throw InputError(std::string(field), "a position of " + std::to_string(pegs.size()) +
                                             " holes; board " + board.name() + " has " +
                                             std::to_string(board.size()));
}

void check_jump(const Board& board, const Jump& j, std::string_view field) {
  for (int h : {j.from, j.over, j.to})
    if (h < 0 || h >= board.size())
      throw InputError(std::string(field), "jump " + std::to_string(j.from) + "-" +
                                               std::to_string(j.over) + "-" + std::to_string(j.to) +
                                               ": hole " + std::to_string(h) + " is not on board " +
                                               board.name());
}

void check_goal(const Board& board, const Goal& goal) {
  switch (goal.kind) {
    case Goal::Kind::Hole:
      check_hole(board, goal.hole, "goal.hole");
      return;
    case Goal::Kind::Any:
      return;
    case Goal::Kind::Position:
      check_position(board, goal.position, "goal.position");
      return;
  }
  throw InputError("goal.kind", "not a kind of goal");
}

void check_problem(const Problem& p) {
  if (!p.board) throw InputError("board", "a problem needs a board (the pointer is null)");
  check_position(*p.board, p.start, "start");
  check_goal(*p.board, p.goal);
}

HoleSet single_vacancy(const Board& board, int hole) {
  check_hole(board, hole, "hole");
  HoleSet s(board.size(), true);
  s.set(hole, false);
  return s;
}

Problem default_problem(BoardPtr board) {
  if (!board) throw InputError("board", "the board pointer is null");
  const Board& b = *board;
  auto named = [&](const char* name) {
    auto h = b.find(name);
    if (!h) throw InputError("board " + b.name() + " has no hole " + name);
    return *h;
  };
  auto vacancy_to = [&](int start, std::optional<int> end) {
    Problem p{board, single_vacancy(b, start), {}};
    if (end) {
      p.goal.kind = Goal::Kind::Hole;
      p.goal.hole = *end;
    }
    return p;
  };
  // Square boards with diagonal jumps ("english+diagonals") keep their base board's default.
  std::string n = b.name();
  if (auto plus = n.find("+diagonals"); plus != std::string::npos) n.erase(plus);
  // Defaults of the square boards: the classic central games where they are solvable, otherwise a
  // classic solvable single-vacancy game (docs/problems.md gives the reasons).
  if (n == "english") return vacancy_to(named("d4"), named("d4"));
  if (n == "french") return vacancy_to(named("d2"), named("d6"));
  if (n == "diamond41") return vacancy_to(named("e3"), named("e7"));
  if (n == "wiegleb") return vacancy_to(named("e5"), named("e5"));
  if (n.starts_with("triangle:")) return vacancy_to(0, std::nullopt);
  if (n.starts_with("hexagon:")) {
    // The centre hole: the middle of reading order.
    return vacancy_to(b.size() / 2, std::nullopt);
  }
  if (n.starts_with("rect:") || !n.starts_with("@")) return vacancy_to(0, std::nullopt);
  throw InputError("board", "board " + n + " has no default problem: give a start");
}

int goal_pegs(const Problem& p) {
  check_problem(p);
  return p.goal.kind == Goal::Kind::Position ? p.goal.position.count() : 1;
}

bool goal_reached(const Problem& p, const HoleSet& pegs) {
  check_problem(p);
  check_position(*p.board, pegs, "pegs");
  switch (p.goal.kind) {
    case Goal::Kind::Hole:
      return pegs.count() == 1 && pegs.test(p.goal.hole);
    case Goal::Kind::Any:
      return pegs.count() == 1;
    case Goal::Kind::Position:
      return pegs == p.goal.position;
  }
  return false;
}

std::string describe(const Problem& p) {
  check_problem(p);
  const Board& b = *p.board;
  std::string s = b.name() + ": ";
  HoleSet empty = p.start.complement();
  if (empty.count() == 1)
    s += "vacancy " + b.hole_name(empty.members()[0]);
  else
    s += "start with " + std::to_string(p.start.count()) + " pegs";
  switch (p.goal.kind) {
    case Goal::Kind::Hole:
      return s + " -> one peg at " + b.hole_name(p.goal.hole);
    case Goal::Kind::Any:
      return s + " -> one peg anywhere";
    case Goal::Kind::Position:
      return s + " -> a position of " + std::to_string(p.goal.position.count()) + " pegs";
  }
  return s;
}

Problem complement_problem(const Problem& p) {
  check_problem(p);
  if (p.goal.kind == Goal::Kind::Any)
    throw InputError("goal.kind",
                     "the complement trick needs a goal position or hole, not one peg anywhere");
  Problem q{p.board, {}, {}};
  HoleSet target = p.goal.kind == Goal::Kind::Position ? p.goal.position : HoleSet(p.board->size());
  if (p.goal.kind == Goal::Kind::Hole) target.set(p.goal.hole);
  q.start = target.complement();
  q.goal.kind = Goal::Kind::Position;
  q.goal.position = p.start.complement();
  return q;
}

Replay replay(const Board& board, const HoleSet& start, const std::vector<Jump>& moves) {
  Replay r;
  r.final = start;
  if (start.size() != board.size()) {
    r.error = "start position has " + std::to_string(start.size()) + " holes, board " +
              std::to_string(board.size());
    return r;
  }
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Jump& m = moves[i];
    auto where = "move " + std::to_string(i + 1) + ": ";
    auto valid = [&](int h) { return h >= 0 && h < board.size(); };
    if (!valid(m.from) || !valid(m.over) || !valid(m.to)) {
      r.error = where + "hole number out of range";
      return r;
    }
    // Geometry: over is the neighbour of from in some lattice direction and to lies beyond it.
    Coord a = board.coord(m.from), b = board.coord(m.over), c = board.coord(m.to);
    Coord d{b.r - a.r, b.c - a.c};
    bool direction = false;
    for (const Coord& dir : board.directions()) direction = direction || dir == d;
    if (!direction || c.r - b.r != d.r || c.c - b.c != d.c) {
      r.error = where + board.hole_name(m.from) + " over " + board.hole_name(m.over) + " to " +
                board.hole_name(m.to) + " is not a jump on this lattice";
      return r;
    }
    if (!r.final.test(m.from) || !r.final.test(m.over) || r.final.test(m.to)) {
      r.error = where + board.hole_name(m.from) + "-" + board.hole_name(m.to) + " needs pegs at " +
                board.hole_name(m.from) + " and " + board.hole_name(m.over) + " and an empty " +
                board.hole_name(m.to);
      return r;
    }
    r.final.set(m.from, false);
    r.final.set(m.over, false);
    r.final.set(m.to, true);
  }
  r.ok = true;
  return r;
}

}  // namespace pegsol
