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

// 40861647040079968 -> "40,861,647,040,079,968" (the library's grouped_count_text)
std::string grouped(Count c);
std::string grouped(std::uint64_t c);
// Bytes as "12.3 MiB".
std::string mib(std::size_t b);
// How side_by_side sizes its columns: each as wide as the widest grid (a table whose columns line
// up from row to row), or each as wide as its own grid.
enum class GridWidth { Widest, Own };
// Grids (lines of text; colour codes take no room) side by side, three spaces apart, as many a
// row as fit in `columns`, a blank line after each row of grids.
std::string side_by_side(const std::vector<std::vector<std::string>>& grids, int columns,
                         GridWidth widths = GridWidth::Widest);
// The words joined by `gap` spaces, a new line before a word that would pass `columns`.
std::string wrapped(const std::vector<std::string>& words, int columns, int gap = 1);

}  // namespace pegsol::cli
