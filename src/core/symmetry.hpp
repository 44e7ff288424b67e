// SPDX-License-Identifier: MIT
// The board symmetries a problem keeps, and the final holes worth trying for a goal "anywhere"
// (internal to the library): stated once for the census, the depth-first search and the beam.
#pragma once

#include <vector>

#include "pegsol/board.hpp"
#include "pegsol/holeset.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {

// Indices into b.symmetries() of the symmetries mapping p's start and goal each to itself, the
// identity (0) first; the identity alone when use_symmetry is false.
std::vector<int> problem_symmetries(const Board& b, const Problem& p, bool use_symmetry = true);

// The smallest admissible final hole of each orbit, under the symmetries mapping start to itself,
// that has one, in increasing order.
std::vector<int> final_holes(const Board& b, const HoleSet& start);

}  // namespace pegsol
