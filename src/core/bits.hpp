// SPDX-License-Identifier: MIT
// Fixed-width bitsets: the position type of every search.
//
// Bits<W> holds W bits (W a multiple of 64) in W/64 little-endian words:
//
//   word 0: bits 0..63   word 1: bits 64..127   ...
//
// Bit i lives in word i/64 at position i%64. Shifts move bits towards higher (shl) or lower (shr)
// indices across word boundaries. With W = 64 every operation is one machine instruction: the
// loops below run once and vanish under optimisation, so Bits<64> costs what a uint64_t costs.
#pragma once

#include <array>
#include <bit>
#include <compare>
#include <cstddef>
#include <cstdint>

#include "hash.hpp"

namespace pegsol {

template <int W>
struct Bits {
  static_assert(W > 0 && W % 64 == 0, "width must be a positive multiple of 64");
  static constexpr int kWidth = W;
  static constexpr int kWords = W / 64;

  std::array<std::uint64_t, kWords> w{};

  constexpr Bits() = default;

  static constexpr Bits single(int i) {
    Bits b;
    b.w[static_cast<std::size_t>(i >> 6)] = std::uint64_t{1} << (i & 63);
    return b;
  }
  // All bits below n set.
  static constexpr Bits low(int n) {
    Bits b;
    for (int k = 0; k < kWords; ++k) {
      int lo = k * 64;
      if (n >= lo + 64)
        b.w[k] = ~std::uint64_t{0};
      else if (n > lo)
        b.w[k] = (std::uint64_t{1} << (n - lo)) - 1;
    }
    return b;
  }

  constexpr bool test(int i) const { return (w[static_cast<std::size_t>(i >> 6)] >> (i & 63)) & 1; }
  constexpr void set(int i) { w[static_cast<std::size_t>(i >> 6)] |= std::uint64_t{1} << (i & 63); }
  constexpr void reset(int i) {
    w[static_cast<std::size_t>(i >> 6)] &= ~(std::uint64_t{1} << (i & 63));
  }
  constexpr void flip(int i) {
    w[static_cast<std::size_t>(i >> 6)] ^= std::uint64_t{1} << (i & 63);
  }

  constexpr bool any() const {
    std::uint64_t acc = 0;
    for (int k = 0; k < kWords; ++k) acc |= w[k];
    return acc != 0;
  }
  constexpr bool none() const { return !any(); }
  constexpr int count() const {
    int c = 0;
    for (int k = 0; k < kWords; ++k) c += std::popcount(w[k]);
    return c;
  }
  // Index of the lowest set bit; W when empty.
  constexpr int lowest() const {
    for (int k = 0; k < kWords; ++k)
      if (w[k]) return k * 64 + std::countr_zero(w[k]);
    return W;
  }
  // Clears the lowest set bit (no-op when empty).
  constexpr void pop_lowest() {
    for (int k = 0; k < kWords; ++k)
      if (w[k]) {
        w[k] &= w[k] - 1;
        return;
      }
  }

  constexpr Bits& operator&=(const Bits& o) {
    for (int k = 0; k < kWords; ++k) w[k] &= o.w[k];
    return *this;
  }
  constexpr Bits& operator|=(const Bits& o) {
    for (int k = 0; k < kWords; ++k) w[k] |= o.w[k];
    return *this;
  }
  constexpr Bits& operator^=(const Bits& o) {
    for (int k = 0; k < kWords; ++k) w[k] ^= o.w[k];
    return *this;
  }
  friend constexpr Bits operator&(Bits a, const Bits& b) { return a &= b; }
  friend constexpr Bits operator|(Bits a, const Bits& b) { return a |= b; }
  friend constexpr Bits operator^(Bits a, const Bits& b) { return a ^= b; }
  friend constexpr Bits operator~(Bits a) {
    for (int k = 0; k < kWords; ++k) a.w[k] = ~a.w[k];
    return a;
  }
  // a & ~b
  friend constexpr Bits andnot(Bits a, const Bits& b) {
    for (int k = 0; k < kWords; ++k) a.w[k] &= ~b.w[k];
    return a;
  }

  // Bit i of the result is bit i-s of this (0 <= s < W).
  constexpr Bits shl(int s) const {
    if constexpr (kWords == 1) {
      Bits r;
      r.w[0] = w[0] << s;
      return r;
    } else {
      Bits r;
      int ws = s >> 6, bs = s & 63;
      for (int k = kWords - 1; k >= ws; --k) {
        std::uint64_t v = w[k - ws] << bs;
        if (bs && k - ws - 1 >= 0) v |= w[k - ws - 1] >> (64 - bs);
        r.w[k] = v;
      }
      return r;
    }
  }
  // Bit i of the result is bit i+s of this (0 <= s < W).
  constexpr Bits shr(int s) const {
    if constexpr (kWords == 1) {
      Bits r;
      r.w[0] = w[0] >> s;
      return r;
    } else {
      Bits r;
      int ws = s >> 6, bs = s & 63;
      for (int k = 0; k + ws < kWords; ++k) {
        std::uint64_t v = w[k + ws] >> bs;
        if (bs && k + ws + 1 < kWords) v |= w[k + ws + 1] << (64 - bs);
        r.w[k] = v;
      }
      return r;
    }
  }
  // Bit i of the result is bit i+s of this, for either sign of s (|s| < W).
  constexpr Bits shift_down(int s) const { return s >= 0 ? shr(s) : shl(-s); }
  // Bit i of the result is bit i-s of this, for either sign of s (|s| < W).
  constexpr Bits shift_up(int s) const { return s >= 0 ? shl(s) : shr(-s); }

  // A word loop: the defaulted comparison of std::array becomes a memcmp call.
  friend constexpr bool operator==(const Bits& a, const Bits& b) {
    std::uint64_t diff = 0;
    for (int k = 0; k < kWords; ++k) diff |= a.w[k] ^ b.w[k];
    return diff == 0;
  }
  // Orders as unsigned W-bit integers.
  friend constexpr std::strong_ordering operator<=>(const Bits& a, const Bits& b) {
    for (int k = kWords - 1; k >= 0; --k)
      if (a.w[k] != b.w[k]) return a.w[k] <=> b.w[k];
    return std::strong_ordering::equal;
  }

  // The words folded into 64 bits: word 0 XOR each further word times an odd constant (the
  // word itself at W = 64). Not mixed: for hashes that mix it after (the fewest search's keys).
  constexpr std::uint64_t fold() const {
    std::uint64_t h = w[0];
    for (int k = 1; k < kWords; ++k) h ^= w[k] * 0xD6E8FEB86659FD93ull;
    return h;
  }

  // A well-mixed 64-bit digest (fixed constants: runs repeat): each word, offset by the digest so
  // far, goes through the mixer, and the digest so far is stirred by another odd multiplier.
  constexpr std::uint64_t digest() const {
    std::uint64_t h = kGolden;
    for (int k = 0; k < kWords; ++k) h = mix64(w[k] + h) ^ (h * 0x2545F4914F6CDD1Dull);
    return h;
  }
};

// Calls f(i) for every set bit i, lowest first.
template <int W, class F>
constexpr void for_each_bit(Bits<W> b, F&& f) {
  for (int k = 0; k < Bits<W>::kWords; ++k) {
    std::uint64_t x = b.w[k];
    while (x) {
      f(k * 64 + std::countr_zero(x));
      x &= x - 1;
    }
  }
}

// The widths the engine is instantiated for; a board picks the smallest that holds its layout.
inline constexpr int kWidths[] = {64, 128, 256, 512, 1024};
inline constexpr int kMaxWidth = 1024;

}  // namespace pegsol
