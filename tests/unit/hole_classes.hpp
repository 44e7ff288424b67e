// SPDX-License-Identifier: MIT
#pragma once
// One hole of each class under a board's symmetries (the least of each), in increasing order:
// the vacancies a test needs when the others are their images. That the symmetries take jumps to
// jumps, on every board the tests use this on, is Board.InvariantsAndPegTypesHoldForEveryJump's.
#include <algorithm>
#include <vector>

#include "pegsol/board.hpp"

inline std::vector<int> one_hole_a_class(const pegsol::Board& board) {
  std::vector<int> holes;
  for (int h = 0; h < board.size(); ++h)
    if (std::all_of(board.symmetries().begin(), board.symmetries().end(),
                    [&](const std::vector<int>& s) { return s[static_cast<std::size_t>(h)] >= h; }))
      holes.push_back(h);
  return holes;
}
