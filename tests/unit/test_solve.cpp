// SPDX-License-Identifier: MIT
// The first-solution solver against a deliberately simple reference, known results, and the
// independent replay check.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>
#include <set>

#include "reference/reference.hpp"
#include "sanitized.hpp"
#include "ticking_clock.hpp"

#include "core/pagodas.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/solve.hpp"
#include "solve/dfs.hpp"

using namespace pegsol;

namespace {

// True when no symmetry maps hole s to a smaller index.
bool orbit_leader(const Board& b, int s) {
  for (const auto& sym : b.symmetries())
    if (sym[static_cast<std::size_t>(s)] < s) return false;
  return true;
}

void expect_valid(const Problem& p, const SolveResult& r) {
  ASSERT_EQ(r.status, Status::Solved);
  Replay check = replay(*p.board, p.start, r.moves);
  ASSERT_TRUE(check.ok) << check.error;
  EXPECT_TRUE(goal_reached(p, check.final));
  EXPECT_EQ(check.final, r.final);
}

using reference::vacancy;

}  // namespace

TEST(Solve, EnglishCentralGame) {
  Problem p = default_problem(make_board("english"));
  SolveResult r = solve(p);
  expect_valid(p, r);
  EXPECT_EQ(r.moves.size(), 31u);
  SolveOptions back;
  back.direction = Direction::Backward;
  back.algorithm = Algorithm::Dfs;
  expect_valid(p, solve(p, back));
}

TEST(Solve, FrenchCentreIsImpossibleByPositionClass) {
  Problem p = vacancy("french", "d4", "d4");
  SolveResult r = solve(p);
  EXPECT_EQ(r.status, Status::Impossible);
  EXPECT_EQ(r.nodes, 0u);
  EXPECT_NE(r.reason.find("position class"), std::string::npos) << r.reason;
}

TEST(Solve, CatalogueDefaultsAreSolved) {
  for (const char* spec :
       {"french", "diamond41", "wiegleb", "triangle:5", "triangle:6", "hexagon:5"}) {
    Problem p = default_problem(make_board(spec));
    Control limit;
    limit.set_time_limit(120);
    SolveOptions o;
    o.control = &limit;
    SolveResult r = solve(p, o);
    expect_valid(p, r);
  }
}

// Every single-vacancy start of small boards, to one peg anywhere and to each hole: the solver's
// verdict (forward, backward, DFS only) agrees with the reference.
TEST(Solve, AgreesWithReferenceOnSmallBoards) {
  int restricted = 0;  // impossible by a search over the jumps a tight pagoda allows
  for (const char* spec : {"triangle:4", "triangle:5", "triangle:6", "rect:3x4", "rect:4x4",
                           "rect:3x5", "hexagon:2"}) {
    if (kSanitized && std::string(spec) == "triangle:6") continue;
    BoardPtr b = make_board(spec);
    for (int s = 0; s < b->size(); ++s) {
      if (!orbit_leader(*b, s)) continue;  // one start per symmetry class
      std::set<int> finals = reference::one_peg_holes(*b, single_vacancy(*b, s));
      for (int e = -1; e < b->size(); ++e) {
        if (std::string(spec) == "triangle:6" && e % 4 != 0) continue;  // keep it quick
        Problem p{b, single_vacancy(*b, s), {}};
        p.goal.kind = e < 0 ? Goal::Kind::Any : Goal::Kind::Hole;
        p.goal.hole = e;
        bool expected = e < 0 ? !finals.empty() : finals.count(e) > 0;
        for (Direction d : {Direction::Forward, Direction::Backward})
          for (int pagoda_jumps : {16, 0, -1}) {  // tight pagodas at the default size, any, none
            SolveOptions o;
            o.direction = d;
            o.algorithm = Algorithm::Dfs;
            o.pagoda_jumps = pagoda_jumps;
            SolveResult r = solve(p, o);
            ASSERT_NE(r.status, Status::Unknown);
            ASSERT_EQ(r.status == Status::Solved, expected)
                << spec << " start " << s << " end " << e << " direction " << static_cast<int>(d)
                << " pagoda_jumps " << pagoda_jumps << ": " << r.reason;
            if (expected) expect_valid(p, r);
            restricted += r.reason.find("keep the pagoda") != std::string::npos;
          }
      }
    }
  }
  EXPECT_GT(restricted, 0);  // rect:3x4 and rect:3x5 have such pairs
}

TEST(Solve, QuickProofsNeverContradictTheReference) {
  int signed_proofs = 0;
  for (const char* spec : {"triangle:5", "rect:3x5", "hexagon:2", "rect:4x4", "triangle:6"}) {
    if (kSanitized && std::string(spec) == "triangle:6") continue;
    BoardPtr b = make_board(spec);
    for (int s = 0; s < b->size(); ++s) {
      if (!orbit_leader(*b, s)) continue;  // one start per symmetry class
      std::set<int> finals = reference::one_peg_holes(*b, single_vacancy(*b, s));
      for (int e = -1; e < b->size(); ++e) {
        Problem p{b, single_vacancy(*b, s), {e < 0 ? Goal::Kind::Any : Goal::Kind::Hole, e, {}}};
        if (auto why = impossibility(p)) {
          EXPECT_TRUE(e < 0 ? finals.empty() : finals.count(e) == 0)
              << spec << " " << s << "->" << e << ": " << *why;
          signed_proofs += why->starts_with("pagoda") && why->find("=-") != std::string::npos;
        }
      }
    }
  }
  // rect:3x5 and hexagon:2 have pairs that only a pagoda with negative weights rules out.
  EXPECT_GT(signed_proofs, 0);
}

TEST(Solve, PagodaWithNegativeWeightsProvesDiamondPairs) {
  // Diamond 41, vacancy e3 -> one peg on e4: neither the position class nor the peg types forbid
  // it, nor any pagoda with weights of one sign; one with weights in {-1, 0, 1} does.
  BoardPtr b = make_board("diamond41");
  const int e3 = *b->find("e3"), e4 = *b->find("e4");
  HoleSet target(b->size());
  target.set(e4);
  const HoleSet start = single_vacancy(*b, e3);
  auto pag = find_separating_pagoda(*b, start, target);
  ASSERT_TRUE(pag);
  bool negative = false;
  for (long long w : pag->weight) negative = negative || w < 0;
  EXPECT_TRUE(negative);
  // Checked here by hand: every jump keeps w(from) + w(over) >= w(to), and the start is worth
  // less than the goal.
  const auto& w = pag->weight;
  for (const Jump& j : b->jumps())
    ASSERT_GE(w[static_cast<std::size_t>(j.from)] + w[static_cast<std::size_t>(j.over)],
              w[static_cast<std::size_t>(j.to)]);
  long long at_start = 0;
  for (int h = 0; h < b->size(); ++h)
    if (h != e3) at_start += w[static_cast<std::size_t>(h)];
  EXPECT_LT(at_start, w[static_cast<std::size_t>(e4)]);
  Problem p{b, start, {Goal::Kind::Hole, e4, {}}};
  SolveResult r = solve(p);
  EXPECT_EQ(r.status, Status::Impossible);
  EXPECT_TRUE(r.reason.starts_with("pagoda function")) << r.reason;
  // The default problem (e3 -> e7) is solvable: no pagoda may claim otherwise.
  HoleSet e7(b->size());
  e7.set(*b->find("e7"));
  EXPECT_FALSE(find_separating_pagoda(*b, start, e7));
}

TEST(Solve, PagodaLinearProgramsStopWithTheirControl) {
  BoardPtr b = make_board("diamond41");
  HoleSet e4(b->size());
  e4.set(*b->find("e4"));
  const HoleSet start = single_vacancy(*b, *b->find("e3"));
  const auto free = find_separating_pagoda(*b, start, e4);
  ASSERT_TRUE(free);
  Control far;
  far.set_time_limit(3600);
  const auto timed = detail::find_separating_pagoda(*b, start, e4, &far);
  ASSERT_TRUE(timed);
  EXPECT_EQ(timed->weight, free->weight);
  Control cancelled;
  cancelled.cancel();
  EXPECT_FALSE(detail::find_separating_pagoda(*b, start, e4, &cancelled));
  // The pruning pagodas: none when stopped before the first, and those found before a stop are
  // the first ones of the whole list (a clock that moves at each poll stops the linear programs
  // part of the way through).
  BoardPtr eng = make_board("english");
  const Problem p = default_problem(eng);
  HoleSet d4(eng->size());
  d4.set(p.goal.hole);
  const std::vector<Pagoda> all = find_pruning_pagodas(*eng, p.start, d4);
  ASSERT_GE(all.size(), 2u);
  EXPECT_TRUE(detail::find_pruning_pagodas(*eng, p.start, d4, 4, &cancelled).empty());
  std::size_t least = all.size();
  for (int ticks = 1; ticks <= 400; ticks += 7) {
    Control c(ticking_clock());
    c.set_time_limit(ticks / 1000.0);
    const std::vector<Pagoda> some = detail::find_pruning_pagodas(*eng, p.start, d4, 4, &c);
    ASSERT_LE(some.size(), all.size());
    least = std::min(least, some.size());
    for (std::size_t i = 0; i < some.size(); ++i) EXPECT_EQ(some[i].weight, all[i].weight);
  }
  EXPECT_LT(least, all.size());
}

TEST(Solve, TightPagodasRestrictTheSearch) {
  // Diamond 41, vacancy e1 -> one peg on e6: no quick proof, but tight pagodas (worth as much at
  // the start as at the goal) lose on every jump the start allows, so no solution exists.
  BoardPtr b = make_board("diamond41");
  const int e1 = *b->find("e1"), e6 = *b->find("e6");
  Problem p{b, single_vacancy(*b, e1), {Goal::Kind::Hole, e6, {}}};
  ASSERT_FALSE(impossibility(p));
  HoleSet goal(b->size());
  goal.set(e6);
  const std::vector<Pagoda> tight = find_tight_pagodas(*b, p.start, goal);
  ASSERT_FALSE(tight.empty());
  for (const Pagoda& pg : tight) {
    ASSERT_TRUE(is_pagoda(*b, pg));
    EXPECT_EQ(pg.value(p.start), pg.value(goal));
  }
  for (const Jump& j : b->jumps()) {
    if (!p.start.test(j.from) || !p.start.test(j.over) || p.start.test(j.to)) continue;
    bool loses = false;
    for (const Pagoda& pg : tight)
      loses = loses || pg.weight[static_cast<std::size_t>(j.from)] +
                               pg.weight[static_cast<std::size_t>(j.over)] >
                           pg.weight[static_cast<std::size_t>(j.to)];
    EXPECT_TRUE(loses) << b->hole_name(j.from) << "-" << b->hole_name(j.to);
  }
  // Forward the start has no allowed jump. (Backward, the same jumps are allowed, but the
  // search from the goal has many before it fails; the small boards' reference test covers it.)
  const SolveResult r = solve(p);
  EXPECT_EQ(r.status, Status::Impossible);
  EXPECT_NE(r.reason.find("keep the pagoda function"), std::string::npos) << r.reason;
}

TEST(Solve, WholePositionGoal) {
  BoardPtr b = make_board("english");
  Problem p = default_problem(b);
  SolveResult full = solve(p);
  ASSERT_EQ(full.status, Status::Solved);
  // The position after 10 moves of a solution is a reachable target.
  std::vector<Jump> first(full.moves.begin(), full.moves.begin() + 10);
  Problem q{b, p.start, {Goal::Kind::Position, -1, replay(*b, p.start, first).final}};
  expect_valid(q, solve(q));
  SolveOptions back;
  back.direction = Direction::Backward;
  expect_valid(q, solve(q, back));
  // More pegs in the goal than the start: impossible at once.
  Problem r{b, q.goal.position, {Goal::Kind::Position, -1, p.start}};
  EXPECT_EQ(solve(r).status, Status::Impossible);
}

TEST(Solve, TimeLimitAndCancelGiveUnknownNeverImpossible) {
  // The DFS polls its stop conditions every 1024 positions and needs more than 5000 here, so a
  // deadline already past, a cancel flag already set and a node limit stop it whatever the
  // machine's speed.
  Problem p = vacancy("diamond41", "e4");
  Control limit;
  limit.set_time_limit(1e-9);
  SolveOptions o;
  o.algorithm = Algorithm::Dfs;
  o.control = &limit;
  SolveResult r = solve(p, o);
  EXPECT_EQ(r.status, Status::Unknown);
  EXPECT_EQ(r.stop, StopReason::Time);
  EXPECT_NE(r.reason.find("stopped (time limit)"), std::string::npos) << r.reason;
  EXPECT_LT(r.nodes, 2048u);
  std::atomic<bool> cancel{true};
  Control ctl;
  ctl.watch(&cancel);
  SolveOptions c;
  c.algorithm = Algorithm::Dfs;
  c.control = &ctl;
  SolveResult rc = solve(p, c);
  EXPECT_EQ(rc.status, Status::Unknown);
  EXPECT_EQ(rc.stop, StopReason::Cancelled);
  EXPECT_LT(rc.nodes, 2048u);
  // Auto stops after its first phase when cancelled.
  c.algorithm = Algorithm::Auto;
  EXPECT_EQ(solve(p, c).status, Status::Unknown);
  SolveOptions n;
  n.algorithm = Algorithm::Dfs;
  n.node_limit = 5000;
  SolveResult rn = solve(p, n);
  EXPECT_EQ(rn.status, Status::Unknown);
  EXPECT_EQ(rn.stop, StopReason::None);  // its own budget, not a stop
  EXPECT_LT(rn.nodes, 7000u);
}

// The depth-first search with a memo kept from one search to the next (the Analyzer's: failed
// positions and pruning pagodas) agrees with the reference from every position of random games
// and of random drawn positions, towards one peg anywhere and towards single holes, with
// searches stopped part way (their partial tables kept) in between and a table small enough to
// overwrite its slots.
TEST(Solve, DfsMemoAgreesWithReferenceAcrossSearches) {
  struct Case {
    const char* spec;
    int least, most;  // drawn positions' pegs
  };
  std::vector<Case> cases{{"triangle:5", 4, 12}, {"rect:3x5", 5, 12}, {"english", 8, 12}};
  if (!kSanitized) cases.push_back({"rect:4x5", 6, 14});
  std::mt19937 rng(47);
  for (const Case& c : cases) {
    BoardPtr b = make_board(c.spec);
    SCOPED_TRACE(c.spec);
    // Positions in the order a player meets them: random games from each single vacancy, then
    // random drawn positions.
    std::vector<HoleSet> positions;
    for (int v = 0; v < b->size(); ++v) {
      if (v % 3 != 0) continue;                            // games from a third of the vacancies
      if (b->size() > 21 && positions.size() > 40) break;  // english: its games are too large
      HoleSet x = single_vacancy(*b, v);
      for (;;) {
        positions.push_back(x);
        const std::vector<Jump> js = reference::legal_jumps(*b, x);
        if (js.empty()) break;
        x = reference::after(x, js[rng() % js.size()]);
      }
    }
    for (int k = 0; k < 60; ++k) {
      HoleSet x(b->size());
      const int pegs = c.least + static_cast<int>(rng() % static_cast<unsigned>(c.most - c.least));
      while (x.count() < pegs) x.set(static_cast<int>(rng() % static_cast<unsigned>(b->size())));
      positions.push_back(x);
    }
    if (b->size() > 21)  // english: only positions the reference settles quickly
      std::erase_if(positions, [&](const HoleSet& x) { return x.count() > c.most; });
    const std::vector<int> holes{0, b->size() / 2, b->size() - 1};
    solve_detail::DfsMemo any(std::size_t{16} << 20), tiny(std::size_t{1} << 12),
        switching(std::size_t{16} << 20);
    int n = 0;
    std::vector<std::unique_ptr<solve_detail::DfsMemo>> per_hole;
    for (std::size_t i = 0; i < holes.size(); ++i)
      per_hole.push_back(std::make_unique<solve_detail::DfsMemo>(std::size_t{16} << 20));
    Control ctl;
    for (const HoleSet& x : positions) {
      if (x.count() == 0) continue;
      const std::set<int> finals = reference::one_peg_holes(*b, x);
      SCOPED_TRACE(x.to_bits());
      auto check = [&](const Goal& g, solve_detail::DfsMemo& memo, bool want) {
        const Problem p{b, x, g};
        SolveOptions o;
        o.algorithm = Algorithm::Dfs;
        o.node_limit = 1;  // stops at the first check, after 1024 positions
        SolveResult part =
            solve_detail::run_dfs(p, o, ctl, std::chrono::steady_clock::now(), &memo);
        if (part.status != Status::Unknown) {
          EXPECT_EQ(part.status == Status::Solved, want);
        }
        o.node_limit = 0;
        SolveResult r = solve_detail::run_dfs(p, o, ctl, std::chrono::steady_clock::now(), &memo);
        ASSERT_NE(r.status, Status::Unknown);
        EXPECT_EQ(r.status == Status::Solved, want);
        if (r.status == Status::Solved) {
          Replay rp = replay(*b, x, r.moves);
          ASSERT_TRUE(rp.ok) << rp.error;
          EXPECT_TRUE(goal_reached(p, rp.final));
        }
      };
      check(Goal{}, any, !finals.empty());
      if (x.count() <= 10) check(Goal{}, tiny, !finals.empty());  // else near a plain tree search
      // `switching` changes target on every call, so it starts afresh each time (its pagodas'
      // linear programs too: a few positions only).
      if (++n <= 8) {
        check(Goal{}, switching, !finals.empty());
        check(Goal{Goal::Kind::Hole, holes[1], {}}, switching, finals.count(holes[1]) > 0);
      }
      for (std::size_t i = 0; i < holes.size(); ++i)
        check(Goal{Goal::Kind::Hole, holes[i], {}}, *per_hole[i], finals.count(holes[i]) > 0);
    }
    EXPECT_GT(any.size(), 0u);
  }
}

TEST(Replay, RejectsIllegalMoves) {
  BoardPtr b = make_board("english");
  HoleSet start = single_vacancy(*b, *b->find("d4"));
  Jump good{*b->find("d2"), *b->find("d3"), *b->find("d4")};
  EXPECT_TRUE(replay(*b, start, {good}).ok);
  Replay twice = replay(*b, start, {good, good});
  EXPECT_FALSE(twice.ok);
  EXPECT_NE(twice.error.find("move 2"), std::string::npos);
  Jump bent{*b->find("d2"), *b->find("d3"), *b->find("e3")};
  EXPECT_FALSE(replay(*b, start, {bent}).ok);
  Jump far{*b->find("d1"), *b->find("d3"), *b->find("d4")};
  EXPECT_FALSE(replay(*b, start, {far}).ok);
}
