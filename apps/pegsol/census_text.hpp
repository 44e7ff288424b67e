// SPDX-License-Identifier: MIT
// The human-readable census report, shared by `pegsol count` and `pegsol-mpi count`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "pegsol/census.hpp"
#include "pegsol/problem.hpp"

namespace pegsol::cli {

// "40861647040079968" -> "40,861,647,040,079,968"
std::string grouped(const std::string& s);
std::string grouped(Count c);
std::string grouped(std::uint64_t c);
// Bytes as "12.3 MiB".
std::string mib(std::size_t b);

// The census of p as `pegsol count` prints it: the level table, the funnel chart `columns`
// wide, the solution and game counts, the random player's chances and the run's figures.
std::string census_text(const Problem& p, const CensusResult& r, int columns);

}  // namespace pegsol::cli
