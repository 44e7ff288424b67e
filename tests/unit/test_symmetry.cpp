// SPDX-License-Identifier: MIT
// The symmetry and goal helpers (src/core/symmetry.hpp) against a deliberately simple reference:
// each permutation applied to hole sets by hand, orbits grown by closure.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/symmetry.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/problem.hpp"
#include "reference/reference.hpp"

using namespace pegsol;

namespace {

using reference::image;

std::vector<int> reference_symmetries(const Board& b, const Problem& p, bool use_symmetry) {
  std::vector<int> out;
  const auto& syms = b.symmetries();
  for (int s = 0; s < static_cast<int>(syms.size()); ++s) {
    const auto& perm = syms[static_cast<std::size_t>(s)];
    if (s == 0) {
      out.push_back(s);
      continue;
    }
    if (!use_symmetry || !(image(perm, p.start) == p.start)) continue;
    bool goal = false;
    if (p.goal.kind == Goal::Kind::Any) goal = true;
    if (p.goal.kind == Goal::Kind::Hole)
      goal = perm[static_cast<std::size_t>(p.goal.hole)] == p.goal.hole;
    if (p.goal.kind == Goal::Kind::Position) goal = image(perm, p.goal.position) == p.goal.position;
    if (goal) out.push_back(s);
  }
  return out;
}

// Orbits under the permutations that map start to itself, grown by closure; from each orbit with
// an admissible final, its smallest one; sorted. (Admissible by the position classes, not by a
// search: one_peg_holes() in tests/reference/ is that.)
std::vector<int> admissible_orbit_leaders(const Board& b, const HoleSet& start) {
  std::vector<const std::vector<int>*> fixing;
  for (const auto& perm : b.symmetries())
    if (image(perm, start) == start) fixing.push_back(&perm);
  const HoleSet ok = admissible_finals(b, start);
  std::set<int> seen;
  std::vector<int> out;
  for (int h = 0; h < b.size(); ++h) {
    if (seen.count(h)) continue;
    std::set<int> orbit{h};
    std::vector<int> todo{h};
    while (!todo.empty()) {
      int x = todo.back();
      todo.pop_back();
      for (const auto* perm : fixing) {
        int y = (*perm)[static_cast<std::size_t>(x)];
        if (orbit.insert(y).second) todo.push_back(y);
      }
    }
    seen.insert(orbit.begin(), orbit.end());
    for (int x : orbit)  // std::set: increasing
      if (ok.test(x)) {
        out.push_back(x);
        break;
      }
  }
  std::sort(out.begin(), out.end());
  return out;
}

int hole(const Board& b, const std::string& name) {
  auto h = b.find(name);
  EXPECT_TRUE(h.has_value()) << b.name() << " " << name;
  return h.value_or(0);
}

Problem vacancy(const BoardPtr& b, int start, Goal goal) {
  return Problem{b, single_vacancy(*b, start), goal};
}

Goal to_hole(int h) {
  return Goal{Goal::Kind::Hole, h, {}};
}
Goal anywhere() {
  return Goal{Goal::Kind::Any, -1, {}};
}
Goal to_position(HoleSet s) {
  return Goal{Goal::Kind::Position, -1, std::move(s)};
}

const char* const kBoards[] = {"english",  "french",   "diamond41", "triangle:5",
                               "rect:4x5", "rect:4x4", "hexagon:3"};

}  // namespace

// Every single-vacancy start with goals: the same hole, anywhere, another hole, and positions
// (the start's orbit under one symmetry, and a random set); then random starts.
TEST(Symmetry, MatchesReferenceOnEveryVacancy) {
  std::mt19937_64 rng(12345);
  for (const char* spec : kBoards) {
    BoardPtr b = make_board(spec);
    const int n = b->size();
    const auto& syms = b->symmetries();
    for (int h = 0; h < n; ++h) {
      HoleSet pair(n);
      pair.set(h);
      pair.set(syms[syms.size() - 1][static_cast<std::size_t>(h)]);
      HoleSet random(n);
      for (int x = 0; x < n; ++x)
        if (rng() & 1) random.set(x);
      for (const Goal& goal : {to_hole(h), anywhere(), to_hole((7 * h + 3) % n), to_position(pair),
                               to_position(random)}) {
        Problem p = vacancy(b, h, goal);
        for (bool use : {true, false})
          EXPECT_EQ(problem_symmetries(*b, p, use), reference_symmetries(*b, p, use))
              << spec << " vacancy " << b->hole_name(h) << " goal kind "
              << static_cast<int>(goal.kind) << " symmetry " << use;
      }
      EXPECT_EQ(final_holes(*b, single_vacancy(*b, h)),
                admissible_orbit_leaders(*b, single_vacancy(*b, h)))
          << spec << " vacancy " << b->hole_name(h);
    }
    for (int k = 0; k < 20; ++k) {
      HoleSet start(n);
      for (int x = 0; x < n; ++x)
        if (rng() % 4 != 0) start.set(x);
      EXPECT_EQ(final_holes(*b, start), admissible_orbit_leaders(*b, start))
          << spec << " random start";
      Problem p{b, start, anywhere()};
      EXPECT_EQ(problem_symmetries(*b, p), reference_symmetries(*b, p, true)) << spec;
    }
  }
}

// The named cases: centre to centre, a corner to anywhere, a position goal.
TEST(Symmetry, NamedProblems) {
  struct Row {
    const char *spec, *centre, *corner;
  };
  for (Row r : {Row{"english", "d4", "c1"}, Row{"french", "d4", "c1"}, Row{"diamond41", "e5", "e1"},
                Row{"triangle:5", "5", "1"}, Row{"rect:4x5", "b2", "a1"}}) {
    BoardPtr b = make_board(r.spec);
    const int c = hole(*b, r.centre), k = hole(*b, r.corner);
    HoleSet corners(b->size());
    for (const auto& perm : b->symmetries()) corners.set(perm[static_cast<std::size_t>(k)]);
    for (const Problem& p : {vacancy(b, c, to_hole(c)), vacancy(b, k, anywhere()),
                             vacancy(b, c, to_position(corners))}) {
      EXPECT_EQ(problem_symmetries(*b, p), reference_symmetries(*b, p, true)) << describe(p);
      EXPECT_EQ(problem_symmetries(*b, p, false), std::vector<int>{0}) << describe(p);
      EXPECT_EQ(final_holes(*b, p.start), admissible_orbit_leaders(*b, p.start)) << describe(p);
    }
  }
}

TEST(Symmetry, EnglishKnownFacts) {
  BoardPtr b = make_board("english");
  const int d4 = hole(*b, "d4");
  // Centre to centre keeps the whole group of the square, identity first.
  EXPECT_EQ(problem_symmetries(*b, vacancy(b, d4, to_hole(d4))),
            (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(problem_symmetries(*b, vacancy(b, d4, anywhere())),
            (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  // No symmetry but the identity keeps c1; the mirror through the d column keeps d1.
  const int c1 = hole(*b, "c1"), d1 = hole(*b, "d1");
  EXPECT_EQ(problem_symmetries(*b, vacancy(b, c1, to_hole(c1))), std::vector<int>{0});
  EXPECT_EQ(problem_symmetries(*b, vacancy(b, d1, to_hole(d1))).size(), 2u);
  EXPECT_EQ(final_holes(*b, single_vacancy(*b, c1)),
            admissible_orbit_leaders(*b, single_vacancy(*b, c1)));
  // Vacancy d4 to anywhere: the last peg may be on d4 or on the four holes three steps away
  // (a4, g4, d1, d7), two orbits under the full group: d4 and the first of the other four.
  const HoleSet start = single_vacancy(*b, d4);
  std::set<int> ok;
  for (int h : admissible_finals(*b, start).members()) ok.insert(h);
  const std::set<int> edge{hole(*b, "a4"), hole(*b, "g4"), hole(*b, "d1"), hole(*b, "d7")};
  std::set<int> expect = edge;
  expect.insert(d4);
  EXPECT_EQ(ok, expect);
  const std::vector<int> finals = final_holes(*b, start);
  std::vector<int> want{d4, *edge.begin()};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(finals, want);
}
