#pragma once
// One hole of each class under a board's symmetries (the least of each), in increasing order:
// the vacancies a test needs when the others are their images. Each symmetry is checked first to
// take every jump to a jump (so a wrong one fails the test rather than its reference).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "pegsol/board.hpp"

inline std::vector<int> one_hole_a_class(const pegsol::Board& board) {
  const auto& jumps = board.jumps();
  for (const std::vector<int>& s : board.symmetries())
    for (const pegsol::Jump& j : jumps) {
      const auto at = [&](int h) { return s[static_cast<std::size_t>(h)]; };
      const pegsol::Jump image{at(j.from), at(j.over), at(j.to)};
      EXPECT_NE(std::find(jumps.begin(), jumps.end(), image), jumps.end())
          << "a symmetry of " << board.size() << " holes takes a jump to no jump";
    }
  std::vector<int> holes;
  for (int h = 0; h < board.size(); ++h)
    if (std::all_of(board.symmetries().begin(), board.symmetries().end(),
                    [&](const std::vector<int>& s) { return s[static_cast<std::size_t>(h)] >= h; }))
      holes.push_back(h);
  return holes;
}
