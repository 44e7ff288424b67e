// SPDX-License-Identifier: MIT
// The grid layout of square boards within an 8x8 box, and the scalar kernel on it (internal to
// src/census). Compiled once per CPU tier: the tier's source includes this inside its target
// region (compact_tier.hpp), in an unnamed namespace, so that no tier's copy is shared with
// another's; kBmi2 (the tier's traits) says whether pext and pdep may be used.
//
// The key is the grid word
//
//      bit 8*r + c  = hole at row r, column c of the box (r, c = 0..7 from its top-left corner)
//
// and the eight symmetries of the box are, for R rows and C columns:
//
//   q    image                                    shift back into the box
//   0    x                                        -
//   1    bytes reversed (rows upside down)        8 * (8 - R)
//   2    bits reversed in each byte (mirror)      8 - C
//   3    both                                     8 * (8 - R) + (8 - C)
//   4-7  the transpose T, then as 0-3 with R and C exchanged
//
// Scalar, each is a byte swap and a few delta swaps (the transpose is three): about twenty word
// operations for all eight images of a key, against eight table lookups per image for TableKernel.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "kernels.hpp"

namespace pegsol::census_detail {
namespace {

// x with the bits selected by m exchanged with those `delta` places above them.
inline std::uint64_t delta_swap(std::uint64_t x, std::uint64_t m, int delta) {
  const std::uint64_t t = ((x >> delta) ^ x) & m;
  return x ^ t ^ (t << delta);
}
// Rows upside down.
inline std::uint64_t grid_flip(std::uint64_t x) {
  return __builtin_bswap64(x);
}
// Each row mirrored: the bits of every byte reversed.
inline std::uint64_t grid_mirror(std::uint64_t x) {
  x = delta_swap(x, 0x5555555555555555ull, 1);
  x = delta_swap(x, 0x3333333333333333ull, 2);
  return delta_swap(x, 0x0F0F0F0F0F0F0F0Full, 4);
}
// Bit 8r + c to bit 8c + r.
inline std::uint64_t grid_transpose(std::uint64_t x) {
  x = delta_swap(x, 0x00000000F0F0F0F0ull, 28);
  x = delta_swap(x, 0x0000CCCC0000CCCCull, 14);
  return delta_swap(x, 0x00AA00AA00AA00AAull, 7);
}

#if defined(__wasm_simd128__)
// WebAssembly SIMD (the static edition's module): the same transforms on two keys at once, one
// a 64-bit lane. WebAssembly has no byte swap: a scalar flip takes many word operations, here one
// shuffle.
inline v128_t delta_swap2(v128_t x, std::uint64_t m, int delta) {
  const v128_t t =
      wasm_v128_and(wasm_v128_xor(wasm_u64x2_shr(x, static_cast<std::uint32_t>(delta)), x),
                    wasm_i64x2_splat(static_cast<std::int64_t>(m)));
  return wasm_v128_xor(wasm_v128_xor(x, t), wasm_i64x2_shl(t, static_cast<std::uint32_t>(delta)));
}
inline v128_t grid_flip2(v128_t x) {
  return wasm_i8x16_shuffle(x, x, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
}
inline v128_t grid_mirror2(v128_t x) {
  x = delta_swap2(x, 0x5555555555555555ull, 1);
  x = delta_swap2(x, 0x3333333333333333ull, 2);
  return delta_swap2(x, 0x0F0F0F0F0F0F0F0Full, 4);
}
inline v128_t grid_transpose2(v128_t x) {
  x = delta_swap2(x, 0x00000000F0F0F0F0ull, 28);
  x = delta_swap2(x, 0x0000CCCC0000CCCCull, 14);
  return delta_swap2(x, 0x00AA00AA00AA00AAull, 7);
}
#endif

// Where each hole sits in the grid word, which box transforms make up the census group, the
// jumps as masks and by direction, and the dense packing of keys (by pext and pdep when kBmi2).
template <bool kBmi2>
class GridLayout {
 public:
  std::uint64_t bit(int hole) const {
    return std::uint64_t{1} << bit_[static_cast<std::size_t>(hole)];
  }
  int hole_at(int b) const { return hole_[static_cast<std::size_t>(b)]; }
  std::uint64_t holes() const { return holes_; }
  const std::vector<JumpMask>& jumps() const { return jumps_; }
  int group_size() const { return static_cast<int>(order_.size()); }
  // out[i] = the image of x under the i-th group element (the identity first).
  void images(std::uint64_t x, std::uint64_t* out) const {
    for (std::size_t i = 0; i < order_.size(); ++i) out[i] = image(order_[i], x);
  }
  int packed_bytes() const { return (n_ + 7) / 8; }
  // x's hole bits side by side (bit i = the i-th hole in grid order), and back.
  std::uint64_t pack(std::uint64_t x) const {
#if defined(__x86_64__)
    if constexpr (kBmi2) return _pext_u64(x, holes_);
#endif
    std::uint64_t d = 0;
    for (int i = 0; i < 8; ++i)
      d |= std::uint64_t{pack_[static_cast<std::size_t>(i)][(x >> (8 * i)) & 0xff]} << offset_[i];
    return d;
  }
  std::uint64_t unpack(std::uint64_t d) const {
#if defined(__x86_64__)
    if constexpr (kBmi2) return _pdep_u64(d, holes_);
#endif
    std::uint64_t x = 0;
    for (int i = 0; i < 8; ++i)
      x |= std::uint64_t{unpack_[static_cast<std::size_t>(i)][(d >> offset_[i]) & 0xff]} << (8 * i);
    return x;
  }

  // The box transform q (0..7, the table above) of x.
  std::uint64_t image(int q, std::uint64_t x) const {
    if (q & 4) x = grid_transpose(x);
    if (q & 1) x = grid_flip(x);
    if (q & 2) x = grid_mirror(x);
    return x >> shift_[q];
  }

 protected:
  GridLayout() {
    hole_.fill(-1);
  }

  // Fills k for this board and group; false when the board is triangular, outside 8x8, or some
  // group element (or the twist) is not one of the box's transforms.
  static bool build(GridLayout& k, const Board& b, const std::vector<int>& syms, int twist) {
    if (b.lattice() == Lattice::Triangular) return false;
    const Coord lo = b.min_coord(), hi = b.max_coord();
    const int rows = hi.r - lo.r + 1, cols = hi.c - lo.c + 1;
    if (rows > 8 || cols > 8) return false;
    k.n_ = b.size();
    for (int h = 0; h < k.n_; ++h) {
      const Coord c = b.coord(h);
      const int g = 8 * (c.r - lo.r) + (c.c - lo.c);
      k.bit_[static_cast<std::size_t>(h)] = static_cast<std::uint8_t>(g);
      k.hole_[static_cast<std::size_t>(g)] = static_cast<std::int8_t>(h);
      k.holes_ |= std::uint64_t{1} << g;
    }
    for (int q = 0; q < 8; ++q) {
      const int r = q & 4 ? cols : rows, c = q & 4 ? rows : cols;
      k.shift_[q] = static_cast<unsigned>((q & 1 ? 8 * (8 - r) : 0) + (q & 2 ? 8 - c : 0));
    }
    // Match each group element, and the twist, to the transform that moves every hole the same
    // way.
    auto transform_of = [&](int s) {
      const auto& want = b.symmetries()[static_cast<std::size_t>(s)];
      for (int q = 0; q < 8; ++q) {
        bool same = true;
        for (int h = 0; h < k.n_ && same; ++h) {
          const std::uint64_t x = k.image(q, k.bit(h));
          same = std::has_single_bit(x) && k.hole_[static_cast<std::size_t>(std::countr_zero(x))] ==
                                               want[static_cast<std::size_t>(h)];
        }
        if (same) return q;
      }
      return -1;
    };
    for (int s : syms) {
      const int found = transform_of(s);
      if (found < 0 || k.in_group_[found]) return false;
      k.in_group_[found] = true;
      k.order_.push_back(found);
    }
    k.twist_ = transform_of(twist);
    if (k.twist_ < 0) return false;
    for (const Jump& j : b.jumps()) {
      const std::uint64_t f = k.bit(j.from), o = k.bit(j.over), t = k.bit(j.to);
      k.jumps_.push_back({f | o | t, f | o, f | o | t});
      const int step = std::countr_zero(o) - std::countr_zero(f);
      auto it = std::find_if(k.dirs_.begin(), k.dirs_.end(),
                             [&](const Dir& d) { return d.step == step; });
      if (it == k.dirs_.end()) {
        k.dirs_.push_back({step, 0});
        it = k.dirs_.end() - 1;
      }
      it->from |= f;
    }
    int offset = 0;
    for (int i = 0; i < 8; ++i) {
      const unsigned m = (k.holes_ >> (8 * i)) & 0xff;
      k.offset_[i] = offset;
      for (unsigned v = 0; v < 256; ++v) {
        unsigned packed = 0, unpacked = 0;
        for (unsigned bit = 0, out = 0; bit < 8; ++bit)
          if (m >> bit & 1) {
            packed |= (v >> bit & 1) << out;
            unpacked |= (v >> out & 1) << bit;
            ++out;
          }
        k.pack_[static_cast<std::size_t>(i)][v] = static_cast<std::uint8_t>(packed);
        k.unpack_[static_cast<std::size_t>(i)][v] = static_cast<std::uint8_t>(unpacked);
      }
      offset += std::popcount(m);
    }
    return true;
  }

  // The legal jumps of key x: per direction, the pegs with a peg beyond and a hole past that.
  std::uint32_t legal_jumps(std::uint64_t x) const {
    const std::uint64_t e = holes_ & ~x;
    std::uint32_t m = 0;
    for (const Dir& d : dirs_) {
      const std::uint64_t over = d.step > 0 ? x >> d.step : x << -d.step;
      const std::uint64_t to = d.step > 0 ? e >> (2 * d.step) : e << (-2 * d.step);
      m += static_cast<std::uint32_t>(std::popcount(x & d.from & over & to));
    }
    return m;
  }

  struct Dir {
    int step;            // grid offset from a from-hole to its over-hole
    std::uint64_t from;  // grid bits where a jump in this direction starts
  };
  int n_ = 0;
  std::array<std::uint8_t, 64> bit_{};
  std::array<std::int8_t, 64> hole_{};
  std::uint64_t holes_ = 0;
  unsigned shift_[8] = {};
  bool in_group_[8] = {};
  std::vector<int> order_;  // the group's transforms, in the order of syms (identity first)
  int twist_ = 0;           // the transform of twist8()
  std::vector<JumpMask> jumps_;
  std::vector<Dir> dirs_;
  // pack(): byte i of a key goes to bits offset_[i].. of the dense form, through pack_[i].
  int offset_[8] = {};
  std::array<std::array<std::uint8_t, 256>, 8> pack_{}, unpack_{};
};

// Square boards within an 8x8 box on any CPU: the grid layout with images by word operations,
// eight keys at a time in branch-free loops that the compiler may vectorise.
template <bool kBmi2>
class ScalarGridKernel : public GridLayout<kBmi2> {
  using Layout = GridLayout<kBmi2>;
  using Layout::holes_;
  using Layout::image;
  using Layout::in_group_;
  using Layout::legal_jumps;
  using Layout::shift_;
  using Layout::twist_;

 public:
  using Layout::group_size;

  // The kernel for this board and group, or nullopt (see GridLayout::build).
  static std::optional<ScalarGridKernel> make(const Board& b, const std::vector<int>& syms,
                                              int twist = 0) {
    ScalarGridKernel k;
    if (!Layout::build(k, b, syms, twist)) return std::nullopt;
    for (int q = 0; q < 8; ++q) k.keep_[q] = k.in_group_[q] ? ~std::uint64_t{0} : 0;
    return k;
  }

  std::uint64_t canon(std::uint64_t x) const {
    std::uint64_t im[8];
    all8(x, im);
    std::uint64_t best = x;
    for (int q = 1; q < 8; ++q) best = std::min(best, im[q]);
    return best;
  }
  void canon8(const std::uint64_t* in, std::uint64_t* out) const {
#if defined(__wasm_simd128__)
    for (int i = 0; i < 8; i += 2) {
      v128_t im[8];
      all8x2(wasm_v128_load(in + i), im);
      wasm_v128_store(out + i, least8x2(im));
    }
#else
    for (int i = 0; i < 8; ++i) out[i] = canon(in[i]);
#endif
  }
  // The same, with the orbit sizes.
  void canon8(const std::uint64_t* in, std::uint64_t* out, std::uint32_t* orbit) const {
#if defined(__wasm_simd128__)
    for (int i = 0; i < 8; i += 2) {
      const v128_t x = wasm_v128_load(in + i);
      v128_t im[8];
      all8x2(x, im);
      wasm_v128_store(out + i, least8x2(im));
      // Each image equal to x, of a transform in the group, counts -1 (all ones) into stab.
      v128_t stab = wasm_i64x2_splat(0);
      for (int q = 0; q < 8; ++q)
        stab = wasm_i64x2_sub(stab,
                              wasm_v128_and(wasm_i64x2_eq(im[q], x),
                                            wasm_i64x2_splat(static_cast<std::int64_t>(keep_[q]))));
      const auto g = static_cast<std::uint32_t>(group_size());
      orbit[i] = g / static_cast<std::uint32_t>(wasm_i64x2_extract_lane(stab, 0));
      orbit[i + 1] = g / static_cast<std::uint32_t>(wasm_i64x2_extract_lane(stab, 1));
    }
    return;
#endif
    for (int i = 0; i < 8; ++i) {
      const std::uint64_t x = in[i];
      std::uint64_t im[8];
      all8(x, im);
      std::uint64_t best = x;
      std::uint32_t stab = 0;
      for (int q = 0; q < 8; ++q) {
        best = std::min(best, im[q]);
        stab += (im[q] == x) & (keep_[q] != 0);
      }
      out[i] = best;
      orbit[i] = static_cast<std::uint32_t>(group_size()) / stab;
    }
  }
  void describe8(const std::uint64_t* in, std::uint32_t* orbit, std::uint32_t* moves) const {
    std::uint64_t out[8];
    canon8(in, out, orbit);
    for (int i = 0; i < 8; ++i) moves[i] = legal_jumps(in[i]);
  }
  // Canonical forms and orbits of t(complement of x), t the twist.
  void twist8(const std::uint64_t* in, std::uint64_t* out, std::uint32_t* orbit) const {
    std::uint64_t t[8];
    for (int i = 0; i < 8; ++i) t[i] = image(twist_, holes_ & ~in[i]);
    canon8(t, out, orbit);
  }

 private:
  ScalarGridKernel() = default;

  // The eight box transforms of x, with those outside the group replaced by x itself: one
  // transpose, two mirrors and four byte swaps.
  void all8(std::uint64_t x, std::uint64_t* im) const {
    const std::uint64_t t = grid_transpose(x), m = grid_mirror(x), mt = grid_mirror(t);
    const std::uint64_t raw[8] = {
        x, grid_flip(x) >> shift_[1], m >> shift_[2],  grid_flip(m) >> shift_[3],
        t, grid_flip(t) >> shift_[5], mt >> shift_[6], grid_flip(mt) >> shift_[7]};
    for (int q = 0; q < 8; ++q) im[q] = (raw[q] & keep_[q]) | (x & ~keep_[q]);
  }
#if defined(__wasm_simd128__)
  // all8 of two keys, one a lane.
  __attribute__((always_inline)) void all8x2(v128_t x, v128_t* im) const {
    const v128_t t = grid_transpose2(x), m = grid_mirror2(x), mt = grid_mirror2(t);
    const v128_t raw[8] = {x,
                           wasm_u64x2_shr(grid_flip2(x), shift_[1]),
                           wasm_u64x2_shr(m, shift_[2]),
                           wasm_u64x2_shr(grid_flip2(m), shift_[3]),
                           wasm_u64x2_shr(t, shift_[4]),
                           wasm_u64x2_shr(grid_flip2(t), shift_[5]),
                           wasm_u64x2_shr(mt, shift_[6]),
                           wasm_u64x2_shr(grid_flip2(mt), shift_[7])};
    for (int q = 0; q < 8; ++q)
      im[q] = wasm_v128_bitselect(raw[q], x, wasm_i64x2_splat(static_cast<std::int64_t>(keep_[q])));
  }
  // The least of the eight images in each lane, as unsigned 64-bit integers (a signed compare
  // with the top bits flipped).
  __attribute__((always_inline)) static v128_t least8x2(const v128_t* im) {
    const v128_t top = wasm_i64x2_splat(INT64_MIN);
    v128_t best = wasm_v128_xor(im[0], top);
    for (int q = 1; q < 8; ++q) {
      const v128_t v = wasm_v128_xor(im[q], top);
      best = wasm_v128_bitselect(v, best, wasm_i64x2_lt(v, best));
    }
    return wasm_v128_xor(best, top);
  }
#endif

  std::uint64_t keep_[8] = {};  // all ones for the group's transforms, zero for the others
};

}  // namespace
}  // namespace pegsol::census_detail
