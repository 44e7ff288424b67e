// SPDX-License-Identifier: MIT
// The commands' text pieces, shared by `pegsol` and `pegsol-mpi`: digit grouping, MiB, grids side
// by side and lines of words wrapped at a width.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pegsol/census.hpp"

namespace pegsol::cli {

// "40861647040079968" -> "40,861,647,040,079,968"
std::string grouped(const std::string& digits);
std::string grouped(Count c);
std::string grouped(std::uint64_t c);
// Bytes as "12.3 MiB".
std::string mib(std::size_t b);
// Grids (lines of text) side by side, as many a row as fit in `columns` at the widest grid's
// width and three spaces, a blank line after each row of grids.
std::string side_by_side(const std::vector<std::vector<std::string>>& grids, int columns);
// The words joined by `gap` spaces, a new line before a word that would pass `columns`.
std::string wrapped(const std::vector<std::string>& words, int columns, int gap = 1);

}  // namespace pegsol::cli
