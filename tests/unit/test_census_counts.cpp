// SPDX-License-Identifier: MIT
// The census's figures against the deliberately simple reference (tests/reference/): reachable
// positions and their symmetry classes by level, solutions, games, ends by hole, the random
// player's chance, solutions up to symmetry and distinct, the streamed solutions.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "census_helpers.hpp"
#include "reference/reference.hpp"
#include "sanitized.hpp"

#include "census/engine.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {
namespace {

using namespace census_test;
using Seq = std::vector<int>;  // jump indices
using reference::vacancy;

void check_against_brute(const Problem& p, bool list_solutions) {
  SCOPED_TRACE(describe(p));
  CensusResult r = census(p, small_options());
  const Board& b = *p.board;
  reference::Counts bf(p);
  const std::vector<std::vector<int>> group = reference::stabilizer(p);
  std::map<int, std::set<std::string>> reach = reference::reachable_by_pegs(b, p.start);
  ASSERT_EQ(r.group_size, static_cast<int>(group.size()));
  std::uint64_t total = 0;
  for (int k = 0; k <= b.size(); ++k) {
    const auto& set = reach[k];
    std::set<std::string> orbits;
    std::uint64_t on_path = 0;
    std::set<std::string> on_path_orbits;
    for (const std::string& s : set) {
      HoleSet h = HoleSet::from_bits(s);
      orbits.insert(reference::least_image(group, h));
      if (bf.to_goal(h) > 0) {
        ++on_path;
        on_path_orbits.insert(reference::least_image(group, h));
      }
    }
    SCOPED_TRACE("pegs " + std::to_string(k));
    EXPECT_EQ(r.levels[k].reachable_raw, set.size());
    EXPECT_EQ(r.levels[k].reachable_sym, orbits.size());
    EXPECT_EQ(r.levels[k].on_path_raw, on_path);
    EXPECT_EQ(r.levels[k].on_path_sym, on_path_orbits.size());
    total += set.size();
  }
  EXPECT_EQ(r.reachable_raw, total);
  EXPECT_EQ(count_text(r.solutions), count_text(bf.to_goal(p.start)));
  EXPECT_EQ(count_text(r.games), count_text(bf.games(p.start)));
  const std::vector<Count>& by_hole = bf.to_one_peg(p.start);
  for (int h = 0; h < b.size(); ++h)
    EXPECT_EQ(count_text(r.solutions_by_hole[h]), count_text(by_hole[h])) << "hole " << h;
  EXPECT_NEAR(r.p_one_peg, bf.one_peg_chance(p.start), 1e-12);
  if (!list_solutions) return;
  const std::vector<Seq> solutions = bf.solutions(p.start);
  ASSERT_EQ(solutions.size(), static_cast<std::size_t>(r.solutions));
  std::set<Seq> orbits, traces;
  for (const Seq& s : solutions) {
    orbits.insert(reference::least_image(b, group, s));
    traces.insert(reference::reordering_normal_form(b, s));
  }
  EXPECT_EQ(count_text(r.solutions_up_to_symmetry), std::to_string(orbits.size()));
  ASSERT_TRUE(r.distinct_solutions.has_value()) << r.distinct_note;
  EXPECT_EQ(count_text(*r.distinct_solutions), std::to_string(traces.size()));

  // The streamed solutions: all of them, each legal, each distinct; --distinct gives one per class.
  std::set<Seq> streamed;
  auto as_seq = [&](const std::vector<Jump>& js) {
    Seq s;
    for (const Jump& j : js) s.push_back(reference::jump_index(b, j));
    return s;
  };
  EnumerateResult n = enumerate_solutions(p, {}, [&](const std::vector<Jump>& js) {
    Replay rp = replay(b, p.start, js);
    EXPECT_TRUE(rp.ok && goal_reached(p, rp.final));
    streamed.insert(as_seq(js));
    return true;
  });
  EXPECT_EQ(n.emitted, solutions.size());
  EXPECT_EQ(streamed.size(), solutions.size());
  std::set<Seq> classes;
  EnumerateOptions d;
  d.distinct = true;
  n = enumerate_solutions(p, d, [&](const std::vector<Jump>& js) {
    Seq s = as_seq(js);
    EXPECT_EQ(reference::reordering_normal_form(b, s), s);  // least by index order, the same form
    classes.insert(s);
    return true;
  });
  EXPECT_EQ(n.emitted, traces.size());
  EXPECT_EQ(classes, traces);
}

TEST(Census, Triangle5PublishedCount) {
  CensusResult r = census(vacancy("triangle:5", "1"), small_options());
  EXPECT_EQ(count_text(r.solutions), "29760");
}

TEST(Census, Triangle5AgainstBruteForce) {
  check_against_brute(vacancy("triangle:5", "1"), true);
}

TEST(Census, Triangle5ToHole) {
  check_against_brute(vacancy("triangle:5", "1", "13"), true);
}

TEST(Census, Triangle5SideStart) {
  check_against_brute(vacancy("triangle:5", "4"), true);
}

TEST(Census, Triangle6AgainstBruteForce) {
  check_against_brute(after_jumps(vacancy("triangle:6", "1"), 4), false);
}

TEST(Census, Rect3x4) {
  check_against_brute(vacancy("rect:3x4", "b1"), true);
}

TEST(Census, Rect4x4) {
  check_against_brute(vacancy("rect:4x4", "b2"), true);
}

TEST(Census, Rect3x5Centre) {
  check_against_brute(vacancy("rect:3x5", "c2"), true);
}

TEST(Census, Hexagon2) {
  check_against_brute(vacancy("hexagon:2", "4"), true);
}

TEST(Census, Hexagon3) {
  check_against_brute(after_jumps(vacancy("hexagon:3", "10"), 3), false);
}

TEST(Census, PositionGoal) {
  Problem p = vacancy("triangle:5", "1");
  // A reachable two-peg position as the goal.
  std::map<int, std::set<std::string>> reach = reference::reachable_by_pegs(*p.board, p.start);
  ASSERT_FALSE(reach[2].empty());
  p.goal = Goal{Goal::Kind::Position, -1, HoleSet::from_bits(*reach[2].begin())};
  check_against_brute(p, true);
}

TEST(Census, WithoutSymmetryAgrees) {
  Problem p = vacancy("triangle:5", "1");
  CensusOptions o = small_options();
  CensusResult a = census(p, o);
  o.symmetry = false;
  o.threads = 1;
  CensusResult b = census(p, o);
  EXPECT_EQ(b.group_size, 1);
  EXPECT_EQ(a.reachable_raw, b.reachable_raw);
  EXPECT_EQ(b.reachable_raw, b.reachable_sym);
  EXPECT_EQ(count_text(a.solutions), count_text(b.solutions));
  EXPECT_EQ(count_text(a.games), count_text(b.games));
  EXPECT_EQ(count_text(*a.distinct_solutions), count_text(*b.distinct_solutions));
}

TEST(Census, GamesStreamMatchesCount) {
  Problem p = vacancy("triangle:5", "1");
  CensusResult r = census(p, small_options());
  EnumerateOptions o;
  o.games = true;
  const EnumerateResult n = enumerate_solutions(p, o, [&](const std::vector<Jump>& js) {
    Replay rp = replay(*p.board, p.start, js);
    EXPECT_TRUE(rp.ok);
    return true;
  });
  EXPECT_EQ(std::to_string(n.emitted), count_text(r.games));
  o.limit = 10;
  EXPECT_EQ(enumerate_solutions(p, o, [](const std::vector<Jump>&) { return true; }).emitted, 10u);
}

// Problems whose goal is the start's complement take the compact engine's complement trick for
// the solution paths (each level joined with its complement level), the rest its backward pass.
// So do problems whose goal's complement is a symmetric image of the start (the trick then joins
// each level with its complement level turned by that symmetry).
TEST(Census, ComplementTrickAgainstBruteForce) {
  for (const Problem& p : {vacancy("triangle:5", "1", "1"), vacancy("rect:3x5", "c2", "c2"),
                           vacancy("triangle:5", "1", "11"), vacancy("triangle:5", "4", "13"),
                           vacancy("rect:4x5", "b2", "d3"), vacancy("triangle:6", "13", "13")}) {
    EXPECT_GE(census_detail::complement_twist(*p.board, p), 0) << describe(p);
    if (kSanitized && p.board->size() >= 20) continue;  // the brute force is the Release run's
    check_against_brute(p, p.board->size() < 21);
  }
  EXPECT_LT(
      census_detail::complement_twist(*make_board("rect:4x5"), vacancy("rect:4x5", "b2", "c2")), 0);
}

// Boards of more than 45 holes take 8-byte keys in the compact engine: a sparse start on the
// 49-hole square against the brute force.
TEST(Census, WideKeysAgainstBruteForce) {
  BoardPtr b = make_board("rect:7x7");
  HoleSet start(b->size());
  for (const char* h : {"a1", "b1", "b2", "c2", "d3", "d4", "e4", "f6", "g6"})
    start.set(*b->find(h));
  check_against_brute(Problem{b, start, Goal{}}, true);
}

}  // namespace
}  // namespace pegsol
