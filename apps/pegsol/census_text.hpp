// SPDX-License-Identifier: MIT
// The human-readable census report, shared by `pegsol count` and `pegsol-mpi count`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "pegsol/census.hpp"
#include "pegsol/problem.hpp"
#include "text.hpp"

namespace pegsol::cli {

// The census of p as `pegsol count` prints it: the level table, the funnel chart `columns`
// wide, the solution and game counts, the random player's chances and the run's figures.
std::string census_text(const Problem& p, const CensusResult& r, int columns);

}  // namespace pegsol::cli
