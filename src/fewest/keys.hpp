// SPDX-License-Identifier: MIT
// The fewest-moves search's keys: a position as Bits<W> (core/bits.hpp) with bit h for hole h, the
// board's own numbering rather than the layout's (the search goes jump by jump, not by shift
// class, and its level files store these keys). W is 64 for boards of at most kHoles<64> holes,
// else 128; fewest.cpp picks it and calls with_width once.
#pragma once

#include <cstdint>
#include <limits>

#include "../core/bits.hpp"

namespace pegsol::fewest_detail {

// The widest keys: boards of more holes are refused.
inline constexpr int kWidestKeys = 128;
// 64-bit entries pack the cost into the top 6 bits of the landing set (level_map.hpp).
template <int W>
inline constexpr bool kPacked = W == 64;
// The most holes a board may have on W-bit keys.
template <int W>
inline constexpr int kHoles = kPacked<W> ? W - 6 : W;

// No cost: a position not reached.
inline constexpr std::uint32_t kNoCost = std::numeric_limits<std::uint32_t>::max();

}  // namespace pegsol::fewest_detail
