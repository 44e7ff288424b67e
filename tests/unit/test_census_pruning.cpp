// SPDX-License-Identifier: MIT
// The census's pagoda pruning and middle join (what the solvability table's passes use),
// against full passes and the reference.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "census_helpers.hpp"
#include "hole_classes.hpp"
#include "reference/reference.hpp"
#include "sanitized.hpp"

#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {
namespace {

using namespace census_test;

// Pagoda pruning (CensusOptions::reach) keeps every position on a way to its goals: a pruned pass
// finds the same goals reachable as a full one, in both engines, never one the full pass does
// not, and stores fewer positions where the pagodas bite.
TEST(Census, PagodaPruningKeepsTheGoals) {
  std::uint64_t full_total = 0, pruned_total = 0;
  for (const char* name : {"rect:3x5", "hexagon:3", "rect:4x5"}) {
    BoardPtr b = make_board(name);
    for (int v : one_hole_a_class(*b)) {  // the other vacancies are their images
      const Problem p{b, single_vacancy(*b, v), Goal{}};
      CensusOptions o = small_options();
      o.counts = false;
      const CensusResult full = census(p, o);
      std::vector<CensusReach> reach;
      for (int h = 0; h < b->size() && reach.size() < 2; ++h) {
        HoleSet goal(b->size());
        goal.set(h);
        std::vector<Pagoda> pg = find_pruning_pagodas(*b, p.start, goal);
        if (!pg.empty()) reach.push_back({goal, std::move(pg)});
      }
      // One goal, then two (a position is kept when either allows it).
      for (std::size_t goals = 1; goals <= reach.size(); ++goals) {
        o.reach.assign(reach.begin(), reach.begin() + static_cast<std::ptrdiff_t>(goals));
        for (CensusEngine e : {CensusEngine::Compact, CensusEngine::Wide}) {
          o.engine = e;
          const CensusResult r = census(p, o);
          const std::string what = std::string(name) + " from " + b->hole_name(v) + ", " +
                                   std::to_string(goals) + " goal(s), " +
                                   (e == CensusEngine::Wide ? "wide" : "compact");
          EXPECT_LE(r.reachable_sym, full.reachable_sym) << what;
          for (int h = 0; h < b->size(); ++h) {
            const auto q = static_cast<std::size_t>(h);
            EXPECT_FALSE(r.solutions_by_hole[q] > 0 && full.solutions_by_hole[q] == 0) << what;
          }
          for (std::size_t g = 0; g < goals; ++g) {
            const auto q = static_cast<std::size_t>(reach[g].goal.members()[0]);
            EXPECT_EQ(r.solutions_by_hole[q] > 0, full.solutions_by_hole[q] > 0) << what;
          }
          if (e == CensusEngine::Compact) {
            full_total += full.reachable_sym;
            pruned_total += r.reachable_sym;
          }
        }
      }
    }
  }
  EXPECT_LT(pruned_total, full_total);
}

TEST(Census, PagodaPruningNeedsSetsAndPagodas) {
  BoardPtr b = make_board("rect:3x5");
  const Problem p{b, single_vacancy(*b, 0), Goal{}};
  HoleSet goal(b->size());
  goal.set(2);
  CensusOptions o = small_options();
  o.reach.push_back({goal, find_pruning_pagodas(*b, p.start, goal)});
  ASSERT_FALSE(o.reach[0].pagodas.empty());
  EXPECT_THROW(census(p, o), InputError);  // counts on
  o.counts = false;
  o.reach[0].pagodas[0].weight[0] += 5;  // no longer a pagoda function
  EXPECT_THROW(census(p, o), InputError);
}

// The middle join (CensusOptions::meet) against the brute force, on every pair of a board that
// is its own complement problem: odd boards (joined while the lower middle level is built) and an
// even one (its middle level joined with itself), with and without pruning pagodas, on both
// compact tiers. The witness is reachable and can reach the goal, and no level below the middle
// is built.
TEST(Census, MeetInTheMiddleAgainstBruteForce) {
  int pairs = 0, reachable = 0;
  for (const char* name : {"rect:3x5", "triangle:5", "rect:4x5"}) {
    BoardPtr b = make_board(name);
    if (kSanitized && b->size() >= 20) continue;  // the brute force is the Release run's
    const std::vector<HoleSet> want = reference::one_peg_table(*b);
    const int n = b->size();
    for (int v = 0; v < n; ++v)
      for (int h = 0; h < n; ++h) {
        const Problem p{b, single_vacancy(*b, v), Goal{Goal::Kind::Hole, h, {}}};
        if (!complementary(p)) continue;
        ++pairs;
        const bool yes = want[static_cast<std::size_t>(v)].test(h);
        reachable += yes;
        reference::Counts bf(p);
        std::map<int, std::set<std::string>> reach = reference::reachable_by_pegs(*b, p.start);
        CensusOptions o = sets_only();
        o.meet = true;
        HoleSet goal(n);
        goal.set(h);
        for (bool prune : {false, true}) {
          o.reach.clear();
          if (prune)
            if (std::vector<Pagoda> pg = find_pruning_pagodas(*b, p.start, goal); !pg.empty())
              o.reach.push_back({goal, std::move(pg)});
          // The levels down to the middle are the full pass's (the lower middle one of an odd
          // board counted, never stored).
          CensusOptions whole = o;
          whole.meet = false;
          const CensusResult f = census(p, whole);
          for (CensusEngine e : {CensusEngine::Compact, CensusEngine::CompactPortable}) {
            // The sanitizer build has the portable tier alone: the two engines are one there.
            if (kSanitized && e == CensusEngine::CompactPortable) continue;
            o.engine = e;
            const std::string what = std::string(name) + " " + b->hole_name(v) + " -> " +
                                     b->hole_name(h) + (prune ? ", pruned" : "") +
                                     (e == CensusEngine::Compact ? "" : ", portable");
            const CensusResult r = census(p, o);
            EXPECT_EQ(r.stop, StopReason::None) << what;
            EXPECT_EQ(r.meet_reaches_goal, yes) << what;
            for (int k = n / 2; k < n && r.met; ++k) {
              const auto q = static_cast<std::size_t>(k);
              EXPECT_EQ(r.levels[q].reachable_sym, f.levels[q].reachable_sym) << what << " " << k;
              EXPECT_EQ(r.levels[q].reachable_raw, f.levels[q].reachable_raw) << what << " " << k;
            }
            EXPECT_EQ(r.solutions_by_hole[static_cast<std::size_t>(h)] > 0, yes) << what;
            if (!yes) {
              EXPECT_FALSE(r.meet_witness) << what;
              continue;
            }
            EXPECT_TRUE(r.met) << what;
            EXPECT_GT(r.levels[static_cast<std::size_t>(n / 2)].on_path_sym, 0u) << what;
            for (int k = 0; k < n / 2; ++k)
              EXPECT_EQ(r.levels[static_cast<std::size_t>(k)].reachable_sym, 0u) << what;
            ASSERT_TRUE(r.meet_witness) << what;
            const HoleSet& x = *r.meet_witness;
            EXPECT_EQ(x.count(), n / 2) << what;
            EXPECT_TRUE(reach[x.count()].count(x.to_bits())) << what << ": not reachable";
            EXPECT_GT(bf.to_goal(x), 0) << what << ": cannot reach the goal";
          }
        }
      }
  }
  EXPECT_GT(pairs, 20);
  EXPECT_GT(reachable, 5);
  EXPECT_LT(reachable, pairs);
}

TEST(Census, MeetNeedsSetsAndAComplementProblem) {
  BoardPtr b = make_board("rect:3x5");
  CensusOptions o = sets_only();
  o.meet = true;
  const Problem self{b, single_vacancy(*b, 7), Goal{Goal::Kind::Hole, 7, {}}};
  ASSERT_TRUE(complementary(self));
  EXPECT_NO_THROW(census(self, o));
  const Problem other{b, single_vacancy(*b, 7), Goal{Goal::Kind::Hole, 1, {}}};
  ASSERT_FALSE(complementary(other));
  EXPECT_THROW(census(other, o), InputError);
  EXPECT_FALSE(complementary(Problem{b, single_vacancy(*b, 7), Goal{}}));  // anywhere
  o.engine = CensusEngine::Wide;
  EXPECT_THROW(census(self, o), InputError);
  o = small_options();
  o.meet = true;
  EXPECT_THROW(census(self, o), InputError);  // counts on
}

}  // namespace
}  // namespace pegsol
