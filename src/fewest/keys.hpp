// SPDX-License-Identifier: MIT
// The fewest-moves search's keys: a position as an unsigned integer, bit h for hole h; 64 bits
// (Narrow) for boards of at most kHoles<Narrow> holes, 128 bits (Wide) up to 128. The search's
// parts are templates on the key type, instantiated for the two in fewest.cpp.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace pegsol::fewest_detail {

using Narrow = std::uint64_t;
__extension__ typedef unsigned __int128 Wide;

template <class Bits>
inline constexpr int kWidth = static_cast<int>(sizeof(Bits) * 8);
// Narrow entries pack the cost into the top 6 bits of the landing set (level_map.hpp).
template <class Bits>
inline constexpr bool kPacked = std::is_same_v<Bits, Narrow>;
// The most holes a board may have on these keys.
template <class Bits>
inline constexpr int kHoles = kPacked<Bits> ? kWidth<Bits> - 6 : kWidth<Bits>;

template <class Bits>
constexpr Bits bit(int h) {
  return Bits{1} << h;
}

inline int pop(Narrow x) {
  return std::popcount(x);
}
inline int pop(Wide x) {
  return std::popcount(static_cast<std::uint64_t>(x)) +
         std::popcount(static_cast<std::uint64_t>(x >> 64));
}
inline int ctz(Narrow x) {
  return std::countr_zero(x);
}
inline int ctz(Wide x) {
  const auto lo = static_cast<std::uint64_t>(x);
  return lo ? std::countr_zero(lo) : 64 + std::countr_zero(static_cast<std::uint64_t>(x >> 64));
}
// A 64-bit digest of a key (the key itself when it fits).
inline std::uint64_t fold(Narrow x) {
  return x;
}
inline std::uint64_t fold(Wide x) {
  return static_cast<std::uint64_t>(x) ^
         (static_cast<std::uint64_t>(x >> 64) * 0xD6E8FEB86659FD93ull);
}

// No cost: a position not reached.
inline constexpr std::uint32_t kNoCost = std::numeric_limits<std::uint32_t>::max();

}  // namespace pegsol::fewest_detail
