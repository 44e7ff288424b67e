// SPDX-License-Identifier: MIT
// Fuzzes the public C++ API itself: a small board (catalogue or drawn from the bytes), then a
// sequence of calls with holes, positions, goals and options taken from the bytes, in range or
// not. Each call either returns a result that checks out (a solution replays to the goal, a count
// agrees with the search, a drawing reads back) or throws pegsol::Error; anything else is a
// finding.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "fuzz_util.hpp"
#include "pegsol/pegsol.hpp"

namespace {

using namespace pegsol;

// The bytes read one at a time; zeros once they run out.
struct Bytes {
  const std::uint8_t* p;
  std::size_t n;
  std::uint8_t next() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  bool done() const { return n == 0; }
  // A hole index around the board's range: mostly on it, sometimes just off either end.
  int hole(int size) { return static_cast<int>(next() % (size + 6)) - 3; }
  // Seconds for an option: mostly small, sometimes negative, NaN or infinite.
  double seconds() {
    switch (const std::uint8_t b = next(); b % 8) {
      case 0:
        return -1;
      case 1:
        return std::numeric_limits<double>::quiet_NaN();
      case 2:
        return std::numeric_limits<double>::infinity();
      default:
        return (b >> 3) * 0.01;
    }
  }
  int threads() { return static_cast<int>(next() % 4) - 1; }
  // A position: of the board's size mostly, sometimes one hole short or long.
  HoleSet position(int size) {
    const std::uint8_t shape = next();
    const int n = shape % 16 == 0 ? size + 1 : shape % 16 == 1 ? std::max(0, size - 1) : size;
    HoleSet s(n);
    for (int i = 0; i < n; i += 8) {
      const std::uint8_t b = next();
      for (int k = 0; k < 8 && i + k < n; ++k)
        if (b >> k & 1) s.set(i + k);
    }
    return s;
  }
  Goal goal(int size) {
    Goal g;
    switch (next() % 3) {
      case 0:
        g.kind = Goal::Kind::Hole;
        g.hole = hole(size);
        break;
      case 1:
        g.kind = Goal::Kind::Any;
        break;
      default:
        g.kind = Goal::Kind::Position;
        g.position = position(size);
    }
    return g;
  }
};

// The board: a small catalogue board, or a drawn one of up to 14 holes in a 5x5 box.
BoardPtr board_from(Bytes& in) {
  static const BoardPtr catalogue[] = {make_board("triangle:4"), make_board("triangle:5"),
                                       make_board("rect:3x4"), make_board("hexagon:2"),
                                       make_board("rect:3x3", Lattice::Square8)};
  const std::uint8_t pick = in.next();
  if (pick % 2 == 0) return catalogue[(pick / 2) % std::size(catalogue)];
  const Lattice lattice = static_cast<Lattice>((pick / 2) % 3);
  std::vector<Coord> cells;
  const int n = 1 + in.next() % 14;
  for (int i = 0; i < n; ++i) {
    const std::uint8_t c = in.next();
    cells.push_back({c % 5, (c / 5) % 5});
  }
  return std::make_shared<const Board>("fuzz", lattice, cells);  // duplicates: InputError
}

// A solution's promise: legal jumps in turn from the start, ending on the goal.
void check_solution(const Problem& p, const std::vector<Jump>& moves) {
  const Replay r = replay(*p.board, p.start, moves);
  if (!r.ok || !goal_reached(p, r.final)) fuzz::broken();
}

// One call chosen by the bytes.
void call(Bytes& in, const BoardPtr& b) {
  const int n = b->size();
  switch (in.next() % 14) {
    case 0: {
      const int h = in.hole(n);
      const HoleSet s = single_vacancy(*b, h);
      if (h < 0 || h >= n || s.count() != n - 1 || s.test(h)) fuzz::broken();
      break;
    }
    case 1: {  // solve: a solution replays; "impossible" agrees with the census
      const Problem p{b, in.position(n), in.goal(n)};
      Control limit;
      limit.set_time_limit(in.seconds());
      SolveOptions o;
      o.control = &limit;
      o.algorithm = in.next() % 2 ? Algorithm::Dfs : Algorithm::Auto;
      o.threads = in.threads();
      o.auto_beam_seconds = 0.05;
      const SolveResult r = solve(p, o);
      if (r.status == Status::Solved) check_solution(p, r.moves);
      if (r.status == Status::Impossible && p.goal.kind != Goal::Kind::Position) {
        CensusOptions co;
        co.threads = 1;
        const CensusResult c = census(p, co);
        if (c.stop == StopReason::None && c.solutions != 0) fuzz::broken();
      }
      break;
    }
    case 2: {  // census: solutions exactly when the search finds one
      const Problem p{b, in.position(n), in.goal(n)};
      CensusOptions co;
      co.threads = in.threads();
      co.symmetry = in.next() % 2;
      co.distinct = in.next() % 2;
      const CensusResult c = census(p, co);
      if (c.stop != StopReason::None) break;
      SolveOptions so;
      so.algorithm = Algorithm::Dfs;
      const SolveResult r = solve(p, so);
      if ((c.solutions != 0) != (r.status == Status::Solved)) fuzz::broken();
      break;
    }
    case 3: {  // enumerate: each solution replays, at most the limit
      const Problem p{b, in.position(n), in.goal(n)};
      EnumerateOptions o;
      o.limit = 1 + in.next() % 4;
      o.distinct = in.next() % 2;
      std::uint64_t seen = 0;
      const EnumerateResult r = enumerate_solutions(p, o, [&](const std::vector<Jump>& m) {
        check_solution(p, m);
        ++seen;
        return true;
      });
      if (r.emitted != seen || seen > o.limit) fuzz::broken();
      break;
    }
    case 4: {  // a position's jumps: apply then undo gives the same position back
      Position pos(b, in.position(n));
      const Jump j{in.hole(n), in.hole(n), in.hole(n)};
      const Position before = pos;
      const bool legal = pos.is_legal(j);
      try {
        pos.apply(j);
      } catch (const InputError&) {
        if (legal || !(pos == before)) fuzz::broken();
        break;
      }
      if (!legal) fuzz::broken();
      pos.undo(j);
      if (!(pos == before)) fuzz::broken();
      break;
    }
    case 5: {  // hint and solvability within a small time
      const Position pos(b, in.position(n));
      const Goal g = in.goal(n);
      const Hint h = hint(pos, g, in.seconds());
      if (h.move && !pos.is_legal(*h.move)) fuzz::broken();
      if (h.answer.verdict == Solvability::Solvable)
        check_solution(Problem{b, pos.pegs(), g}, h.answer.solution);
      break;
    }
    case 6: {  // the analysis, without census look-ups
      const Analyzer a(b, in.goal(n));
      AnalysisOptions o;
      o.time_limit = in.seconds();
      o.lookup = false;
      o.beam_seconds = 0;
      if (in.next() % 2) o.start = in.position(n);
      const Position pos(b, in.position(n));
      const Analysis an = a.analyze(pos, o);
      if (an.hint && !pos.is_legal(*an.hint)) fuzz::broken();
      if (an.goal.verdict == Solvability::Solvable)
        check_solution(Problem{b, pos.pegs(), a.goal()}, an.goal.solution);
      break;
    }
    case 7: {  // a hole set's bits
      HoleSet s(in.hole(n) + 3);
      const int i = in.hole(n);
      s.set(i);
      if (!s.test(i) || s.count() != 1) fuzz::broken();
      s.flip(i);
      if (s.count() != 0) fuzz::broken();
      break;
    }
    case 8: {  // the problem's helpers
      const Problem p{b, in.position(n), in.goal(n)};
      (void)describe(p);
      (void)impossibility(p);
      (void)complementary(p);
      const Problem q = complement_problem(p);
      check_problem(q);
      break;
    }
    case 9: {  // a drawing reads back to the same board and pegs
      const HoleSet pegs = in.position(n);
      const Drawing d = parse_drawing(format_drawing(*b, pegs), "fuzz");
      if (!(d.pegs == pegs) || d.board->size() != n) fuzz::broken();
      SvgOptions so;
      so.spacing = in.seconds() * 100;
      (void)position_svg(*b, pegs, so);
      break;
    }
    case 10: {  // the board's accessors
      const int h = in.hole(n);
      const Coord c = b->coord(h);
      if (b->at(c) != h || b->find(b->hole_name(h)) != h) fuzz::broken();
      (void)b->peg_type(h);
      break;
    }
    case 11: {  // a game: moves played, the text read back
      Game g(Problem{b, in.position(n), in.goal(n)});
      for (int k = 0; k < 3; ++k) {
        const std::vector<Move> moves = legal_moves(g.position());
        if (moves.empty()) break;
        g.play(moves[in.next() % moves.size()]);
      }
      const Game back = Game::parse(g.to_text(), "fuzz");
      if (!(back.position() == g.position())) fuzz::broken();
      break;
    }
    case 12: {  // pagodas
      const HoleSet s = in.position(n), t = in.position(n);
      if (auto pg = find_separating_pagoda(*b, s, t))
        if (!is_pagoda(*b, *pg) || pg->value(s) >= pg->value(t)) fuzz::broken();
      (void)position_class(*b, s);
      (void)admissible_finals(*b, s);
      break;
    }
    default: {  // a control's options
      Control c;
      c.set_time_limit(in.seconds());
      c.set_progress([](const ProgressReport&) {}, in.seconds());
      CensusOptions co;
      co.control = &c;
      co.threads = in.threads();
      co.resume = in.next() % 8 == 0;
      (void)census(Problem{b, in.position(n), in.goal(n)}, co);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in{data, size};
  BoardPtr b;
  try {
    b = board_from(in);
  } catch (const pegsol::Error&) {
    return 0;
  }
  for (int calls = 0; calls < 8 && !in.done(); ++calls) {
    try {
      call(in, b);
    } catch (const pegsol::Error&) {
      // refused, with the library's error: what the API promises
    } catch (...) {
      fuzz::broken();
    }
  }
  return 0;
}
