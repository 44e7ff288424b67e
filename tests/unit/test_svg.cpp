// SPDX-License-Identifier: MIT
// SVG pictures: one frame per move plus the start, each with the pegs the replayed position has.
// (tests/cli/cli_test.sh checks the files with xmllint as well.)
#include <gtest/gtest.h>

#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/play.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/svg.hpp"

using namespace pegsol;

namespace {

// The text of each <g class="frame"> ... </g>.
std::vector<std::string> frames(const std::string& svg) {
  std::vector<std::string> out;
  const std::string open = "<g class=\"frame\"";
  for (std::size_t at = svg.find(open); at != std::string::npos; at = svg.find(open, at + 1)) {
    const std::size_t end = svg.find("</g>", at);
    out.push_back(svg.substr(at, end - at));
  }
  return out;
}

int occurrences(const std::string& s, const std::string& what) {
  int n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(Svg, SolutionFramesHoldTheReplayedPegs) {
  for (const char* spec : {"triangle:5", "english", "triangle:6"}) {
    BoardPtr b = make_board(spec);
    Problem p = default_problem(b);
    if (std::string(spec) == "triangle:6") p = Problem{b, single_vacancy(*b, 3), Goal{}};
    SolveResult r = solve(p);
    ASSERT_EQ(r.status, Status::Solved) << spec;
    const std::string svg = solution_svg(*b, p.start, r.moves);
    EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
    EXPECT_EQ(occurrences(svg, "<g"), occurrences(svg, "</g>"));
    EXPECT_EQ(occurrences(svg, "<svg"), 1);
    const std::vector<Move> moves = group_moves(r.moves);
    const auto fs = frames(svg);
    ASSERT_EQ(fs.size(), moves.size() + 1) << spec;
    Position pos(b, p.start);
    for (std::size_t i = 0; i < fs.size(); ++i) {
      if (i > 0) {
        pos.apply(moves[i - 1]);
        EXPECT_NE(fs[i].find(std::to_string(i) + ". " + move_chain_text(*b, moves[i - 1])),
                  std::string::npos);
        EXPECT_EQ(occurrences(fs[i], "class=\"peg landed\""), 1);
      }
      EXPECT_EQ(occurrences(fs[i], "class=\"peg"), pos.peg_count()) << spec << " frame " << i;
      EXPECT_EQ(occurrences(fs[i], "class=\"hole"), b->size());
    }
  }
}

TEST(Svg, PositionAndErrors) {
  BoardPtr b = make_board("english");
  Problem p = default_problem(b);
  SvgOptions o;
  o.names = true;
  const std::string svg = position_svg(*b, p.start, o);
  EXPECT_EQ(occurrences(svg, "class=\"peg"), 32);
  EXPECT_NE(svg.find(">d4<"), std::string::npos);
  EXPECT_THROW(position_svg(*b, HoleSet(5)), InputError);
  std::vector<Jump> bad{b->jumps().front()};  // not legal from the central vacancy
  EXPECT_THROW(solution_svg(*b, p.start, bad), InputError);
}
