// The bidirectional beam search: the report's rule piece by piece, and solutions on real boards.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "pegsol/beam.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/solve.hpp"

namespace pegsol {
namespace {

Bits<64> from_string(const std::string& s) {  // "10110": bit 0 first
  Bits<64> b;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == '1') b.set(static_cast<int>(i));
  return b;
}

Problem hole_problem(const std::string& spec, const std::string& start, const std::string& end) {
  BoardPtr b = make_board(spec);
  Problem p{b, single_vacancy(*b, *b->find(start)), {}};
  p.goal.kind = Goal::Kind::Hole;
  p.goal.hole = *b->find(end);
  return p;
}

// The solution is legal move by move and reaches the goal (solve() checks it too; this test does
// not rely on that).
void expect_valid(const Problem& p, const SolveResult& r) {
  ASSERT_EQ(r.status, Status::Solved) << r.reason;
  ASSERT_EQ(static_cast<int>(r.moves.size()), p.start.count() - goal_pegs(p));
  Replay check = replay(*p.board, p.start, r.moves);
  ASSERT_TRUE(check.ok) << check.error;
  EXPECT_TRUE(goal_reached(p, check.final));
  ASSERT_TRUE(r.beam.has_value());
  if (r.beam->method != "sweep") {
    EXPECT_GE(r.beam->pairs, 1u);
  }
}

TEST(BeamReport, AverageBoardTakesTheMostFrequentHoles) {
  // Frequencies over holes 0..5: 3, 1, 2, 0, 2, 1. Three pegs each: holes 0 (3), then 2 and 4 (2).
  std::vector<Bits<64>> level = {from_string("101010"), from_string("110010"),
                                 from_string("101001")};
  EXPECT_EQ(beam_detail::average_board(level), from_string("101010"));
  // A tie at the cut goes to the lower hole: frequencies 2, 2, 1, 1 with two pegs -> 0 and 1;
  // with one peg each (frequencies 1, 1, 0, 0) -> hole 0.
  EXPECT_EQ(beam_detail::average_board(
                std::vector{from_string("1100"), from_string("1100"), from_string("0011")}),
            from_string("11"));
  EXPECT_EQ(beam_detail::average_board(std::vector{from_string("01"), from_string("1")}),
            from_string("1"));
}

TEST(BeamReport, SurvivorsDifferMostFromTheAverage) {
  const Bits<64> avg = from_string("1100");
  // Distances from avg: 4, 2, 0, 4 (a copy of the first), 2.
  std::vector<Bits<64>> children = {from_string("0011"), from_string("1010"), from_string("1100"),
                                    from_string("0011"), from_string("0110")};
  // Capacity 1: the farthest; the copy at index 3 is never kept beside index 0.
  EXPECT_EQ(beam_detail::report_survivors(children, avg, 1, 7), (std::vector<std::size_t>{0}));
  // Capacity 3: the farthest, then both at distance 2; the copy is dropped.
  EXPECT_EQ(beam_detail::report_survivors(children, avg, 3, 7),
            (std::vector<std::size_t>{0, 1, 4}));
  // Room for everything: the four distinct positions.
  EXPECT_EQ(beam_detail::report_survivors(children, avg, 10, 7),
            (std::vector<std::size_t>{0, 1, 2, 4}));
  // Capacity 2: one of the two at distance 2, the choice fixed by the seed.
  auto a = beam_detail::report_survivors(children, avg, 2, 7);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0], 0u);
  EXPECT_TRUE(a[1] == 1 || a[1] == 4);
  EXPECT_EQ(beam_detail::report_survivors(children, avg, 2, 7), a);
}

TEST(BeamReport, KeyOrdersByScoreThenSeededTie) {
  const Bits<64> x = from_string("1011"), y = from_string("0111");
  EXPECT_GT(beam_detail::survivor_key(5, x, 1), beam_detail::survivor_key(4, y, 1));
  EXPECT_GT(beam_detail::survivor_key(0, x, 1), beam_detail::survivor_key(-1, y, 1));
  EXPECT_EQ(beam_detail::survivor_key(3, x, 1), beam_detail::survivor_key(3, x, 1));
  // Over many seeds the tie between x and y breaks both ways.
  int x_first = 0;
  for (std::uint64_t s = 0; s < 64; ++s)
    x_first += beam_detail::survivor_key(3, x, s) > beam_detail::survivor_key(3, y, s);
  EXPECT_GT(x_first, 0);
  EXPECT_LT(x_first, 64);
}

TEST(BeamReport, SolvesTriangles) {
  // The report's problem, 12 -> 24 (on 10 rows the position class rules it out).
  for (const char* spec : {"triangle:8", "triangle:9", "triangle:11"}) {
    SCOPED_TRACE(spec);
    Problem p = hole_problem(spec, "12", "24");
    ASSERT_FALSE(impossibility(p));
    SolveOptions o;
    o.algorithm = Algorithm::BeamReport;
    o.capacity = 2000;
    SolveResult r = solve(p, o);
    expect_valid(p, r);
    EXPECT_EQ(r.beam->attempts, 1);
    // Fixed seed: the same run again gives the same figures and moves.
    SolveResult again = solve(p, o);
    EXPECT_EQ(again.nodes, r.nodes);
    EXPECT_EQ(again.beam->pairs, r.beam->pairs);
    EXPECT_EQ(again.moves, r.moves);
  }
}

TEST(BeamReport, FailedBeamIsUnknownNeverImpossible) {
  // Capacity 1 on a 66-hole board: two greedy lines that do not meet.
  Problem p = hole_problem("triangle:11", "12", "24");
  ASSERT_FALSE(impossibility(p));
  SolveOptions o;
  o.algorithm = Algorithm::BeamReport;
  o.capacity = 1;
  SolveResult r = solve(p, o);
  EXPECT_EQ(r.status, Status::Unknown);
  EXPECT_NE(r.reason.find("proves nothing"), std::string::npos) << r.reason;
  ASSERT_TRUE(r.beam.has_value());
  EXPECT_EQ(r.beam->pairs, 0u);
}

TEST(Beam, SolvesTrianglesAndWiderBoards) {
  const struct {
    const char* spec;
    const char* start;
    const char* end;
  } cases[] = {{"triangle:8", "1", "1"},
               {"triangle:11", "12", "24"},
               {"triangle:12", "12", "24"},
               {"english", "d4", "d4"}};
  for (const auto& c : cases) {
    // The default, the sweep alone and the bidirectional meet alone.
    for (BeamMethod m : {BeamMethod::Auto, BeamMethod::Sweep, BeamMethod::Meet}) {
      const bool meet = m == BeamMethod::Meet;
      SCOPED_TRACE(std::string(c.spec) + (meet ? " meet" : " sweep"));
      Problem p = hole_problem(c.spec, c.start, c.end);
      ASSERT_FALSE(impossibility(p));
      SolveOptions o;
      o.algorithm = Algorithm::Beam;
      o.beam_method = m;
      SolveResult r = solve(p, o);
      expect_valid(p, r);
      EXPECT_EQ(r.beam->method, meet ? "meet" : "sweep");
      EXPECT_EQ(r.width, p.board->width());
    }
  }
}

TEST(Beam, OnePegAnywhere) {
  BoardPtr b = make_board("triangle:9");
  Problem p{b, single_vacancy(*b, 0), {}};
  p.goal.kind = Goal::Kind::Any;
  SolveOptions o;
  o.algorithm = Algorithm::Beam;
  SolveResult r = solve(p, o);
  expect_valid(p, r);
}

TEST(Sweep, CostByHand) {
  // triangle:3, every hole filled: no boundary pair, no isolated peg; rim pairs: the corners 1,
  // 4, 6 have 4 off-board directions each, holes 2, 3, 5 two each: 18 pairs at weight 2 = 36.
  // Distances from hole 1: 1 for holes 2, 3 and 2 for holes 4, 5, 6: 8 more.
  BoardPtr b = make_board("triangle:3");
  Bits<64> full;
  for (int h = 0; h < b->size(); ++h) full.set(b->bit(h));
  EXPECT_EQ(beam_detail::sweep_cost(*b, full, -1), 36);
  EXPECT_EQ(beam_detail::sweep_cost(*b, full, 0), 44);
  // Only hole 1: rim 4 * 2, boundary 2 * 2 (holes 2 and 3 empty), isolated 8.
  Bits<64> one;
  one.set(b->bit(0));
  EXPECT_EQ(beam_detail::sweep_cost(*b, one, -1), 8 + 4 + 8);
}

TEST(Sweep, DeltaMatchesTheWholeCost) {
  // Random games on several boards: each jump's incremental cost equals the difference of the
  // whole costs, with and without the goal term.
  for (const char* spec : {"triangle:7", "english", "hexagon:3", "rect:5x6"}) {
    SCOPED_TRACE(spec);
    BoardPtr b = make_board(spec);
    ASSERT_EQ(b->width(), 64);
    std::uint64_t rng = 12345;
    for (int game = 0; game < 6; ++game) {
      Bits<64> p;
      for (int h = 0; h < b->size(); ++h)
        if (h != game % b->size()) p.set(b->bit(h));
      for (;;) {
        std::vector<int> legal;
        for (int j = 0; j < static_cast<int>(b->jumps().size()); ++j) {
          const Jump& m = b->jumps()[static_cast<std::size_t>(j)];
          if (p.test(b->bit(m.from)) && p.test(b->bit(m.over)) && !p.test(b->bit(m.to)))
            legal.push_back(j);
        }
        if (legal.empty()) break;
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        const int j = legal[(rng >> 33) % legal.size()];
        const Jump& m = b->jumps()[static_cast<std::size_t>(j)];
        Bits<64> c = p;
        c.reset(b->bit(m.from));
        c.reset(b->bit(m.over));
        c.set(b->bit(m.to));
        for (int goal : {-1, 0}) {
          EXPECT_EQ(beam_detail::sweep_delta(*b, p, j, goal),
                    beam_detail::sweep_cost(*b, c, goal) - beam_detail::sweep_cost(*b, p, goal));
        }
        p = c;
      }
    }
  }
}

TEST(Sweep, SolvesTrianglesFromSeveralStarts) {
  // One peg anywhere and on a fixed hole, from corner, edge and inner vacancies; 8 to 15 rows.
  int solved = 0;
  for (const char* spec :
       {"triangle:8", "triangle:9", "triangle:10", "triangle:12", "triangle:15"}) {
    BoardPtr b = make_board(spec);
    for (const char* start : {"1", "2", "4", "5", "13"}) {
      SCOPED_TRACE(std::string(spec) + " from " + start);
      Problem p{b, single_vacancy(*b, *b->find(start)), {}};
      p.goal.kind = Goal::Kind::Any;
      if (impossibility(p)) continue;
      SolveOptions o;
      o.algorithm = Algorithm::Beam;
      SolveResult r = solve(p, o);
      expect_valid(p, r);
      EXPECT_EQ(r.beam->method, "sweep");
      ++solved;
      // The same problem with the last peg on the start hole, where the classes allow it.
      p.goal.kind = Goal::Kind::Hole;
      p.goal.hole = *b->find(start);
      if (impossibility(p)) continue;
      SolveResult fixed = solve(p, o);
      expect_valid(p, fixed);
      ++solved;
    }
  }
  EXPECT_GE(solved, 30);
}

TEST(Sweep, RepeatsRunToRun) {
  Problem p = hole_problem("triangle:9", "1", "1");
  SolveOptions o;
  o.algorithm = Algorithm::Beam;
  SolveResult r = solve(p, o), again = solve(p, o);
  expect_valid(p, r);
  EXPECT_EQ(again.nodes, r.nodes);
  EXPECT_EQ(again.moves, r.moves);
}

TEST(Beam, WholePositionGoal) {
  // A goal of three pegs: the sweep, then the meet at the same capacity if needed.
  Problem p = hole_problem("triangle:8", "1", "1");
  SolveOptions d;
  d.algorithm = Algorithm::Dfs;
  SolveResult full = solve(p, d);
  ASSERT_EQ(full.status, Status::Solved);
  // The position two jumps before the end of the DFS solution: three pegs.
  Replay part =
      replay(*p.board, p.start, std::vector<Jump>(full.moves.begin(), full.moves.end() - 2));
  ASSERT_TRUE(part.ok);
  p.goal.kind = Goal::Kind::Position;
  p.goal.position = part.final;
  SolveOptions o;
  o.algorithm = Algorithm::Beam;
  SolveResult r = solve(p, o);
  expect_valid(p, r);
  o.beam_method = BeamMethod::Meet;
  r = solve(p, o);
  expect_valid(p, r);
  EXPECT_EQ(r.beam->method, "meet");
}

TEST(Beam, WholePositionGoalOnALargeBoard) {
  // triangle:20 from vacancy 1 to a peg on each hole of the bottom row (20 pegs, 189 moves). The
  // start has fewer holes than the goal has pegs, so the sweep runs on the reversed problem,
  // from the complement of the goal down to one peg on hole 1, and plays its moves backwards.
  BoardPtr b = make_board("triangle:20");
  Problem p{b, single_vacancy(*b, 0), {}};
  p.goal.kind = Goal::Kind::Position;
  p.goal.position = HoleSet(b->size());
  for (int h = b->size() - 20; h < b->size(); ++h) p.goal.position.set(h);
  ASSERT_FALSE(impossibility(p));
  SolveOptions o;
  o.algorithm = Algorithm::Beam;
  o.time_limit = 30;
  SolveResult r = solve(p, o);
  expect_valid(p, r);
  EXPECT_EQ(r.beam->method, "sweep");
  EXPECT_EQ(r.beam->attempts, 1);
  EXPECT_EQ(r.width, 256);
}

TEST(Beam, MeetAloneRepeatsAndCountsPairs) {
  // The meet alone at a fixed capacity: one attempt, complement pairs, and the same figures and
  // moves on a second run (the winning thread is the lowest-numbered one that succeeds).
  Problem p = hole_problem("triangle:12", "12", "24");
  SolveOptions o;
  o.algorithm = Algorithm::Beam;
  o.beam_method = BeamMethod::Meet;
  o.capacity = 1000;
  SolveResult r = solve(p, o);
  expect_valid(p, r);
  EXPECT_EQ(r.beam->method, "meet");
  EXPECT_EQ(r.beam->capacity, 1000u);
  EXPECT_EQ(r.beam->attempts, 1);
  EXPECT_GE(r.beam->pairs, 2u);
  SolveResult again = solve(p, o);
  EXPECT_EQ(again.nodes, r.nodes);
  EXPECT_EQ(again.beam->pairs, r.beam->pairs);
  EXPECT_EQ(again.moves, r.moves);
}

TEST(Beam, SweepAloneNeverMeets) {
  // A whole-position goal (three pegs) that the sweep misses at capacity 2: Auto then alternates
  // sweep and meet attempts, while Sweep runs only sweeps, each at twice the capacity before.
  Problem p = default_problem(make_board("english"));
  SolveOptions d;
  d.algorithm = Algorithm::Dfs;
  SolveResult full = solve(p, d);
  ASSERT_EQ(full.status, Status::Solved);
  Replay part =
      replay(*p.board, p.start, std::vector<Jump>(full.moves.begin(), full.moves.end() - 2));
  ASSERT_TRUE(part.ok);
  p.goal.kind = Goal::Kind::Position;
  p.goal.position = part.final;
  SolveOptions o;
  o.algorithm = Algorithm::Beam;
  o.threads = 1;
  o.capacity = 2;
  o.beam_method = BeamMethod::Sweep;
  SolveResult r = solve(p, o);
  expect_valid(p, r);
  EXPECT_EQ(r.beam->method, "sweep");
  EXPECT_EQ(r.beam->pairs, 0u);
  ASSERT_GE(r.beam->attempts, 2);
  EXPECT_EQ(r.beam->capacity, o.capacity << (r.beam->attempts - 1));
  o.beam_method = BeamMethod::Auto;
  SolveResult a = solve(p, o);
  expect_valid(p, a);
  EXPECT_GT(a.beam->attempts, r.beam->attempts);  // meets ran between the sweeps
}

TEST(Beam, ProgressAfterASecondAcrossAttempts) {
  // Diamond 41 from a5 to one peg anywhere: the sweep fails at the first capacities, so attempts
  // follow one another. Reports start after a second; positions count every thread and every
  // earlier attempt, so they never go down and never exceed the final count.
  BoardPtr b = make_board("diamond41");
  Problem p{b, single_vacancy(*b, *b->find("a5")), {}};
  p.goal.kind = Goal::Kind::Any;
  ASSERT_FALSE(impossibility(p));
  std::vector<Progress> seen;
  SolveOptions o;
  o.algorithm = Algorithm::Beam;
  o.time_limit = 2.5;
  o.progress = [&](const Progress& pr) { seen.push_back(pr); };
  SolveResult r = solve(p, o);
  ASSERT_FALSE(seen.empty());
  EXPECT_GE(seen.front().seconds, 1.0);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].method, "sweep");
    EXPECT_GE(seen[i].level, 0);
    EXPECT_LE(seen[i].level, seen[i].levels);
    EXPECT_LE(seen[i].nodes, r.nodes);
    if (i > 0) {
      EXPECT_GE(seen[i].nodes, seen[i - 1].nodes);
      EXPECT_GE(seen[i].capacity, seen[i - 1].capacity);
    }
  }
  if (r.status != Status::Solved) {
    EXPECT_EQ(r.status, Status::Unknown);
    EXPECT_GE(r.beam->attempts, 2);
  }
}

// A clock that moves 1 ms each time it is read: a deadline expires after a fixed number of the
// search's polls, on any machine.
Control::ClockFn ticking_clock() {
  auto ns = std::make_shared<std::atomic<std::int64_t>>(0);
  return [ns] { return Control::Clock::time_point(std::chrono::nanoseconds(*ns += 1'000'000)); };
}

TEST(Beam, HonoursCancelAndTimeLimit) {
  Problem p = hole_problem("triangle:12", "12", "24");
  std::atomic<bool> cancel{true};
  SolveOptions o;
  o.algorithm = Algorithm::Beam;
  o.cancel = &cancel;
  SolveResult r = solve(p, o);
  EXPECT_EQ(r.status, Status::Unknown);
  EXPECT_EQ(r.stop, StopReason::Cancelled);
  EXPECT_NE(r.reason.find("stopped (cancelled)"), std::string::npos) << r.reason;

  Control clock(ticking_clock());
  clock.set_time_limit(0.2);  // 200 polls
  SolveOptions t;
  t.algorithm = Algorithm::BeamReport;
  t.capacity = 1000000;  // would take minutes
  t.control = &clock;
  r = solve(p, t);
  EXPECT_EQ(r.status, Status::Unknown);
  EXPECT_EQ(r.stop, StopReason::Time);

  // The forward sweep on a 465-hole board stops as well. (At its default first capacity the sweep
  // solves this problem in about 0.3 s, so a capacity that takes minutes makes the stop certain.)
  BoardPtr big = make_board("triangle:30");
  Problem q{big, single_vacancy(*big, 0), {}};
  q.goal.kind = Goal::Kind::Any;
  Control sweep_clock(ticking_clock());
  sweep_clock.set_time_limit(0.2);
  SolveOptions s;
  s.algorithm = Algorithm::Beam;
  s.capacity = 1000000;
  s.control = &sweep_clock;
  r = solve(q, s);
  EXPECT_EQ(r.status, Status::Unknown);
  EXPECT_EQ(r.stop, StopReason::Time);
  EXPECT_NE(r.reason.find("stopped (time limit)"), std::string::npos) << r.reason;
  EXPECT_EQ(r.width, 512);
}

}  // namespace
}  // namespace pegsol
