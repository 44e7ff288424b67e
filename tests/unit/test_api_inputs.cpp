// SPDX-License-Identifier: MIT
// Every public entry point checks its arguments: a hole out of range, a position of another size,
// a null board, a goal off the board, options that make no sense each throw InputError naming the
// argument or field; nothing reaches undefined behaviour.
#include <atomic>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "pegsol/analysis.hpp"
#include "pegsol/beam.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/path_index.hpp"
#include "pegsol/play.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/svg.hpp"
#ifdef PEGSOL_TEST_JSON
#include "pegsol/json.hpp"
#endif

namespace pegsol {
namespace {

// The field of the InputError `f` throws; "<none>" when it returns, "<other>" for another error.
std::string field_thrown(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.field();
  } catch (...) {
    return "<other>";
  }
  return "<none>";
}

struct ApiInputs : ::testing::Test {
  BoardPtr b = make_board("triangle:5");  // 15 holes
  Problem ok{b, single_vacancy(*b, 0), {}};
};

TEST_F(ApiInputs, HolesInRange) {
  EXPECT_EQ(field_thrown([&] { single_vacancy(*b, 99); }), "hole");
  EXPECT_EQ(field_thrown([&] { single_vacancy(*b, -1); }), "hole");
  EXPECT_EQ(field_thrown([&] { single_vacancy(*b, 15); }), "hole");
  EXPECT_EQ(field_thrown([&] { single_vacancy(*b, 14); }), "<none>");
  HoleSet s(15);
  EXPECT_EQ(field_thrown([&] { s.set(15); }), "hole");
  EXPECT_EQ(field_thrown([&] { (void)s.test(-1); }), "hole");
  EXPECT_EQ(field_thrown([&] { s.flip(64); }), "hole");
  EXPECT_EQ(field_thrown([&] { HoleSet(-3); }), "n");
  EXPECT_EQ(field_thrown([&] { (void)b->coord(15); }), "hole");
  EXPECT_EQ(field_thrown([&] { (void)b->hole_name(-1); }), "hole");
  EXPECT_EQ(field_thrown([&] { (void)b->peg_type(99); }), "hole");
  Position p(b, ok.start);
  EXPECT_EQ(field_thrown([&] { (void)p.is_peg(15); }), "hole");
  EXPECT_EQ(field_thrown([&] { Move{}.from(); }), "jumps");
  EXPECT_EQ(field_thrown([&] { Pagoda{{1, 1}}.loss(Jump{0, 1, 2}); }), "j");
}

TEST_F(ApiInputs, PositionsOfTheBoardsSize) {
  const HoleSet wrong(14, true);
  for (auto f : std::vector<std::function<void()>>{
           [&] {
             census(Problem{b, wrong, {}});
           },
           [&] {
             solve(Problem{b, wrong, {}});
           },
           [&] {
             complementary(Problem{b, wrong, {}});
           },
           [&] {
             impossibility(Problem{b, wrong, {}});
           },
           [&] {
             describe(Problem{b, wrong, {}});
           },
           [&] {
             enumerate_solutions(Problem{b, wrong, {}}, {}, [](const auto&) { return true; });
           }})
    EXPECT_EQ(field_thrown(f), "start");
  EXPECT_EQ(field_thrown([&] { goal_reached(ok, wrong); }), "pegs");
  EXPECT_EQ(field_thrown([&] { position_class(*b, wrong); }), "pegs");
  EXPECT_EQ(field_thrown([&] { admissible_finals(*b, wrong); }), "start");
  EXPECT_EQ(field_thrown([&] { find_separating_pagoda(*b, ok.start, wrong); }), "target");
  EXPECT_EQ(field_thrown([&] { find_tight_pagodas(*b, wrong, ok.start); }), "start");
  EXPECT_EQ(field_thrown([&] { find_pruning_pagodas(*b, ok.start, wrong); }), "goal");
  EXPECT_EQ(field_thrown([&] { format_drawing(*b, wrong); }), "pegs");
  EXPECT_EQ(field_thrown([&] { position_svg(*b, wrong); }), "pegs");
  EXPECT_EQ(field_thrown([&] { Pagoda{std::vector<long long>(15, 1)}.value(wrong); }), "pegs");
  EXPECT_EQ(field_thrown([&] { pagoda_text(*b, Pagoda{{1, 2}}); }), "p");
  // The census used to answer "reachable 1, solutions 0, finished" for such a start.
  EXPECT_EQ(field_thrown([&] { census(ok); }), "<none>");
}

TEST_F(ApiInputs, NonNullBoards) {
  const Problem none{nullptr, HoleSet(15, true), {}};
  for (auto f : std::vector<std::function<void()>>{
           [&] { census(none); }, [&] { solve(none); }, [&] { beam_solve(none, {}); },
           [&] { complementary(none); }, [&] { impossibility(none); }, [&] { goal_pegs(none); },
           [&] { problem_key(none); }, [&] { default_problem(nullptr); },
           [&] { solvability_table(nullptr); }, [&] { Analyzer(nullptr, Goal{}); },
           [&] { Game{none}; }, [&] { Position(nullptr, HoleSet(15)); },
           [&] { PathIndex(none, PathIndex::Options{}); }, [&] { fewest_board(nullptr); },
           [&] { fewest_table(nullptr); }})
    EXPECT_EQ(field_thrown(f), "board");
}

TEST_F(ApiInputs, GoalsOnHolesThatExist) {
  Problem p = ok;
  p.goal.kind = Goal::Kind::Hole;
  p.goal.hole = 99;  // answered "impossible" before
  EXPECT_EQ(field_thrown([&] { solve(p); }), "goal.hole");
  EXPECT_EQ(field_thrown([&] { census(p); }), "goal.hole");
  EXPECT_EQ(field_thrown([&] { Analyzer(b, p.goal); }), "goal.hole");
  EXPECT_EQ(field_thrown([&] { is_solvable(Position(b, p.start), p.goal, 1.0); }), "goal.hole");
  EXPECT_EQ(field_thrown([&] { explain(Position(b, p.start), p.goal, {}); }), "goal.hole");
  p.goal.kind = Goal::Kind::Position;
  p.goal.position = HoleSet(16);
  EXPECT_EQ(field_thrown([&] { solve(p); }), "goal.position");
  p.goal.kind = Goal::Kind::Any;
  EXPECT_EQ(field_thrown([&] { complement_problem(p); }), "goal.kind");
}

TEST_F(ApiInputs, ConsistentOptions) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  SolveOptions so;
  so.auto_beam_seconds = nan;
  EXPECT_EQ(field_thrown([&] { solve(ok, so); }), "SolveOptions::auto_beam_seconds");
  so = {};
  so.threads = -2;
  EXPECT_EQ(field_thrown([&] { solve(ok, so); }), "SolveOptions::threads");
  so = {};
  so.pagoda_jumps = -5;
  EXPECT_EQ(field_thrown([&] { solve(ok, so); }), "SolveOptions::pagoda_jumps");
  so = {};
  so.algorithm = Algorithm::Dfs;
  EXPECT_EQ(field_thrown([&] { beam_solve(ok, so); }), "SolveOptions::algorithm");

  CensusOptions co;
  co.threads = -1;
  EXPECT_EQ(field_thrown([&] { census(ok, co); }), "CensusOptions::threads");
  EXPECT_EQ(field_thrown([&] { solvability_table(b, co); }), "CensusOptions::threads");
  co = {};
  co.resume = true;
  EXPECT_EQ(field_thrown([&] { census(ok, co); }), "CensusOptions::resume");
  TableOptions to;
  to.search_seconds = -1;
  EXPECT_EQ(field_thrown([&] { solvability_table(b, {}, to); }), "TableOptions::search_seconds");
  to = {};
  to.max_searches = -2;
  EXPECT_EQ(field_thrown([&] { solvability_table(b, {}, to); }), "TableOptions::max_searches");
  EXPECT_EQ(field_thrown([&] { enumerate_solutions(ok, {}, nullptr); }), "emit");

  Analyzer a(b, Goal{});
  const Position p(b, ok.start);
  AnalysisOptions ao;
  ao.time_limit = nan;
  EXPECT_EQ(field_thrown([&] { a.analyze(p, ao); }), "AnalysisOptions::time_limit");
  ao = {};
  ao.count_seconds = -1;
  EXPECT_EQ(field_thrown([&] { a.solvable(p, ao); }), "AnalysisOptions::count_seconds");
  ao = {};
  ao.start = HoleSet(3);
  EXPECT_EQ(field_thrown([&] { a.analyze(p, ao); }), "AnalysisOptions::start");
  const Position other(make_board("triangle:6"), single_vacancy(*make_board("triangle:6"), 0));
  EXPECT_EQ(field_thrown([&] { a.analyze(other); }), "p");

  Control c;
  EXPECT_EQ(field_thrown([&] { c.set_progress([](const ProgressReport&) {}, nan); }),
            "interval_seconds");
  std::atomic<bool> flag{false};
  EXPECT_EQ(field_thrown([&] { c.watch(&flag, StopReason::None); }), "reason");
  for (int i = 0; i < 4; ++i) c.watch(&flag);
  EXPECT_EQ(field_thrown([&] { c.watch(&flag); }), "flag");

  SvgOptions sv;
  sv.spacing = 0;
  EXPECT_EQ(field_thrown([&] { position_svg(*b, ok.start, sv); }), "SvgOptions::spacing");
  sv = {};
  sv.columns = -1;
  EXPECT_EQ(field_thrown([&] { solution_svg(*b, ok.start, {}, sv); }), "SvgOptions::columns");
}

TEST_F(ApiInputs, BoardsOfSaneSize) {
  EXPECT_EQ(field_thrown([] { Board("far", Lattice::Square, {{0, 0}, {0, 1 << 21}}); }), "cells");
  EXPECT_EQ(field_thrown([] { Board("wide", Lattice::Square, {{0, 0}, {4000, 4000}}); }), "cells");
  std::vector<Coord> many;
  for (int i = 0; i < 1025; ++i) many.push_back({i / 40, i % 40});
  EXPECT_EQ(field_thrown([&] { Board("many", Lattice::Square, many); }), "cells");
}

TEST_F(ApiInputs, PathIndexPositions) {
  Problem p{b, single_vacancy(*b, 0), {}};
  PathIndex idx(p, PathIndex::Options{});
  ASSERT_TRUE(idx.ok()) << idx.failed();
  EXPECT_EQ(field_thrown([&] { idx.on_path(HoleSet(3)); }), "pegs");
  EXPECT_EQ(field_thrown([&] { idx.ways(HoleSet(16)); }), "pegs");
  EXPECT_EQ(field_thrown([&] { idx.solution_from(HoleSet(15)); }), "pegs");  // not on a path
  EXPECT_FALSE(idx.solution_from(p.start).empty());
}

// Positions compare by value: the same pegs on boards of the same shape, whichever objects.
TEST_F(ApiInputs, PositionsCompareByValue) {
  Game g(ok);
  g.play(legal_moves(g.position()).front());
  const Game back = Game::parse(g.to_text(), "saved");
  EXPECT_NE(&back.position().board(), &g.position().board());
  EXPECT_TRUE(back.position() == g.position());
  const BoardPtr again = make_board("triangle:5");
  EXPECT_TRUE(Position(again, ok.start) == Position(b, ok.start));
  EXPECT_FALSE(Position(again, ok.start) == Position(b, single_vacancy(*b, 1)));
  const BoardPtr other = make_board("rect:3x5");  // 15 holes of another shape
  EXPECT_FALSE(Position(other, ok.start) == Position(b, ok.start));
}

// A move read on a board with no jump at all (two holes side by side) is an error, not a crash.
TEST_F(ApiInputs, MoveOnABoardWithoutJumps) {
  const BoardPtr two = make_board("rect:1x2");
  ASSERT_TRUE(two->jumps().empty());
  EXPECT_EQ(field_thrown([&] { parse_move(*two, "a1"); }), "");
  EXPECT_EQ(field_thrown([&] { parse_move(*two, "a1-b1"); }), "");
  EXPECT_EQ(field_thrown([&] { parse_moves(*two, "a1 b1"); }), "");
}

#ifdef PEGSOL_TEST_JSON
// SolutionsJson keeps its own problem: one built from a temporary stays valid.
TEST_F(ApiInputs, SolutionsJsonOwnsItsProblem) {
  EnumerateOptions o;
  o.limit = 1;
  SolutionsJson out(Problem{make_board("triangle:5"), single_vacancy(*b, 0), {}}, o);
  const std::string head = out.head();  // the temporary problem and its board are gone
  EXPECT_NE(head.find("\"board\":\"triangle:5\""), std::string::npos) << head;
  EXPECT_NE(head.find(single_vacancy(*b, 0).to_bits()), std::string::npos) << head;
}
#endif

}  // namespace
}  // namespace pegsol
