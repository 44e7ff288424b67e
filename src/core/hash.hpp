// SPDX-License-Identifier: MIT
// The one hash mixer of the engines: SplitMix64's finaliser, its increment, and the multiplicative
// (Fibonacci) hash the census's hot tables index by. Fixed constants, no seed: runs repeat.
#pragma once

#include <cstdint>

namespace pegsol {

// 2^64 divided by the golden ratio, made odd: SplitMix64's increment and Fibonacci hashing's
// multiplier.
inline constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;

// SplitMix64's finaliser: a bijection of 64-bit words in which every input bit changes about
// half the output bits.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// SplitMix64's output for the state x: the increment added, then the finaliser.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  return mix64(x + kGolden);
}

// Fibonacci hashing: the bits of k * kGolden from `shift` up (a table of 2^(64 - shift) slots
// takes its index from the product's high bits, where every bit of k has mixed in).
constexpr std::uint64_t golden_hash(std::uint64_t k, int shift) {
  return (k * kGolden) >> shift;
}

}  // namespace pegsol
