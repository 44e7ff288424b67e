// SPDX-License-Identifier: MIT
// The census's engines (compact on each kernel, wide) and count widths agree figure by figure.
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "census_helpers.hpp"
#include "reference/reference.hpp"

#include "census/engine.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {
namespace {

using namespace census_test;
using reference::vacancy;

// The compact engine (64-bit layouts, 4-byte keys), with its fastest kernel and with the portable
// one, against the wide one (128-bit entries), figure by figure, on boards with and without
// symmetry and with every goal kind.
void check_engines_agree(const Problem& p) {
  SCOPED_TRACE(describe(p));
  CensusOptions o = small_options();
  o.engine = CensusEngine::Wide;
  CensusResult w = census(p, o);
  EXPECT_TRUE(w.random_player);
  for (CensusEngine e : {CensusEngine::Compact, CensusEngine::CompactPortable}) {
    SCOPED_TRACE(e == CensusEngine::Compact ? "compact" : "compact, portable kernel");
    o.engine = e;
    check_same_figures(census(p, o), w);
  }
  // Without the random player (the compact engine then carries counts alone): every other
  // figure the same, and no chance reported.
  o.random_player = false;
  for (CensusEngine e :
       {CensusEngine::Wide, CensusEngine::Compact, CensusEngine::CompactPortable}) {
    SCOPED_TRACE("no random player, engine " + std::to_string(static_cast<int>(e)));
    o.engine = e;
    CensusResult n = census(p, o);
    EXPECT_FALSE(n.random_player);
    EXPECT_EQ(n.p_one_peg, 0.0);
    EXPECT_EQ(n.p_goal, 0.0);
    for (double x : n.p_by_hole) EXPECT_EQ(x, 0.0);
    n.p_one_peg = w.p_one_peg;
    n.p_goal = w.p_goal;
    n.p_by_hole = w.p_by_hole;
    check_same_figures(n, w);
  }
  o.random_player = true;
  // Reachable sets alone (what the solvability table runs) give the same sets.
  o.engine = CensusEngine::Auto;
  o.counts = false;
  o.on_path = false;
  o.distinct = false;
  CensusResult s = census(p, o);
  EXPECT_EQ(s.reachable_raw, w.reachable_raw);
  EXPECT_EQ(s.reachable_sym, w.reachable_sym);
  for (std::size_t h = 0; h < s.solutions_by_hole.size(); ++h)
    EXPECT_EQ(s.solutions_by_hole[h] > 0, w.solutions_by_hole[h] > 0) << "hole " << h;
}

TEST(Census, EnginesAgreeTriangle6) {
  check_engines_agree(after_jumps(vacancy("triangle:6", "1"), 3));
}

TEST(Census, EnginesAgreeTriangle6ToHole) {
  check_engines_agree(vacancy("triangle:6", "4", "13"));
}

TEST(Census, EnginesAgreeRect4x5) {
  check_engines_agree(vacancy("rect:4x5", "b2"));
}

TEST(Census, EnginesAgreeEnglish) {
  check_engines_agree(after_jumps(vacancy("english", "d4"), 12));
}

TEST(Census, EnginesAgreeHexagon3) {
  check_engines_agree(after_jumps(vacancy("hexagon:3", "10"), 2));
}

TEST(Census, EnginesAgreePositionGoal) {
  Problem p = vacancy("triangle:5", "1");
  std::map<int, std::set<std::string>> reach = reference::reachable_by_pegs(*p.board, p.start);
  p.goal = Goal{Goal::Kind::Position, -1, HoleSet::from_bits(*reach[3].begin())};
  check_engines_agree(p);
}

// 128-bit counts from the first level give every figure the default run gives (which widens
// only at the level that needs it, if any), and so do runs that widen early, at the first level
// whose counts could reach 2^bits: the engine throws if a 64-bit count reaches it first.
TEST(Census, WideCountsAgree) {
  // Under the sanitizers the 21-hole triangle two jumps in (its whole census takes most of the
  // suite's time there).
  const Problem triangle =
      small_cases_only() ? after_jumps(vacancy("triangle:6", "1"), 2) : vacancy("triangle:6", "1");
  for (const Problem& p : {triangle, vacancy("rect:4x5", "b2", "b2"),
                           after_jumps(vacancy("english", "d4", "d4"), 10)}) {
    SCOPED_TRACE(describe(p));
    CensusOptions o = small_options();
    const CensusResult r = census(p, o);
    check_same_figures(census_detail::compact_census(p, o, 0), r);
    for (int bits : {8, 12, 16, 20, 24, 32}) {
      if (small_cases_only() && bits % 12 != 0) continue;
      SCOPED_TRACE("counts 64-bit below 2^" + std::to_string(bits));
      check_same_figures(census_detail::compact_census(p, o, bits), r);
    }
    // And without the random player (counts alone, 128-bit from the first level).
    o.random_player = false;
    CensusResult n = census_detail::compact_census(p, o, 0);
    EXPECT_FALSE(n.random_player);
    EXPECT_EQ(n.p_one_peg, 0.0);
    n.p_one_peg = r.p_one_peg;
    n.p_goal = r.p_goal;
    n.p_by_hole = r.p_by_hole;
    check_same_figures(n, r);
  }
}

}  // namespace
}  // namespace pegsol
