// SPDX-License-Identifier: MIT
// The presets: each one solvable (a solution found and replayed here, independently of the
// search), names unique, graded easiest first, the classic boards covered.
#include <set>

#include <gtest/gtest.h>

#include "pegsol/error.hpp"
#include "pegsol/presets.hpp"
#include "pegsol/solve.hpp"

namespace pegsol {
namespace {

// The position after `moves` from `start` on `b`, each jump checked by hand; nullopt when one
// is illegal.
std::optional<HoleSet> play_out(const Board& b, HoleSet pegs, const std::vector<Jump>& moves) {
  for (const Jump& j : moves) {
    if (j.from < 0 || j.from >= b.size() || j.over < 0 || j.over >= b.size() || j.to < 0 ||
        j.to >= b.size())
      return std::nullopt;
    bool is_jump = false;
    for (const Jump& k : b.jumps()) is_jump |= k.from == j.from && k.over == j.over && k.to == j.to;
    if (!is_jump || !pegs.test(j.from) || !pegs.test(j.over) || pegs.test(j.to))
      return std::nullopt;
    pegs.set(j.from, false);
    pegs.set(j.over, false);
    pegs.set(j.to);
  }
  return pegs;
}

TEST(Presets, AtLeastTwelveUniqueGradedAndCoveringTheClassicBoards) {
  const auto& v = presets();
  ASSERT_GE(v.size(), 12u);
  std::set<std::string> names, boards;
  for (std::size_t i = 0; i < v.size(); ++i) {
    EXPECT_TRUE(names.insert(v[i].name).second) << v[i].name;
    boards.insert(v[i].spec.board);
    EXPECT_GE(v[i].difficulty, 1);
    EXPECT_LE(v[i].difficulty, 5);
    if (i) {
      EXPECT_LE(v[i - 1].difficulty, v[i].difficulty) << v[i].name;
    }
    EXPECT_EQ(v[i].pegs, preset_problem(v[i]).start.count());
    EXPECT_EQ(find_preset(v[i].name), &v[i]);
  }
  EXPECT_TRUE(boards.count("english"));
  EXPECT_TRUE(boards.count("french"));
  EXPECT_TRUE(boards.count("triangle:5"));
  EXPECT_EQ(v.front().difficulty, 1);
  EXPECT_EQ(v.back().difficulty, 5);
}

TEST(Presets, EverySolvableWithTheSolutionReplayedHere) {
  for (const Preset& pr : presets()) {
    SCOPED_TRACE(pr.name);
    Problem p = preset_problem(pr);
    SolveResult r = solve(p);
    ASSERT_EQ(r.status, Status::Solved) << r.reason;
    std::optional<HoleSet> end = play_out(*p.board, p.start, r.moves);
    ASSERT_TRUE(end.has_value());
    EXPECT_EQ(end->count(), 1);
    EXPECT_TRUE(goal_reached(p, *end));
    if (pr.spec.end != "any") {
      EXPECT_TRUE(end->test(*p.board->find(pr.spec.end)));
    }
  }
}

TEST(Presets, UnknownNameSuggestsTheClosest) {
  EXPECT_EQ(find_preset("no-such"), nullptr);
  try {
    preset("latin-cros");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'latin-cross'"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace pegsol
