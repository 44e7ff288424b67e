// SPDX-License-Identifier: MIT
// The AVX-512 kernel of the compact census engine (internal to src/census): GridKernel, for
// square boards within an 8x8 box, on CPUs with AVX-512 (F, BW, VL, DQ, CD, VPOPCNTDQ, BITALG,
// VBMI2), GFNI and BMI2. Included only inside a region compiled for those extensions
// (compact_avx512.cpp); the CPU is checked at run time before any of it runs (src/core/cpu.cpp).
#pragma once

#include <immintrin.h>

#include "kernels.hpp"

#include "kernels_grid.hpp"
#include "simd_x86.hpp"

namespace pegsol::census_detail {
namespace {

// Square boards (with or without diagonal jumps) within an 8x8 box: the grid layout
// (kernels_grid.hpp) with the eight box transforms computed for eight keys at once, one per 64-bit
// lane (the transpose by GFNI bit-matrix products). Transforms outside the census group are
// computed and replaced by x itself before the minimum.
class GridKernel : public GridLayout<true> {
 public:
  // The kernel for this board and group, or nullopt (see GridLayout::build).
  static std::optional<GridKernel> make(const Board& b, const std::vector<int>& syms,
                                        int twist = 0) {
    GridKernel k;
    if (!build(k, b, syms, twist)) return std::nullopt;
    return k;
  }

  std::uint64_t canon(std::uint64_t x) const {
    alignas(64) std::uint64_t in[8] = {x, x, x, x, x, x, x, x}, out[8];
    canon8(in, out);
    return out[0];
  }
  void canon8(const std::uint64_t* in, std::uint64_t* out) const {
    const __m512i x = _mm512_loadu_si512(in);
    __m512i im[8];
    all8(x, im);
    _mm512_storeu_si512(out, least(x, im));
  }
  // The same, with the orbit sizes.
  void canon8(const std::uint64_t* in, std::uint64_t* out, std::uint32_t* orbit) const {
    const __m512i x = _mm512_loadu_si512(in);
    __m512i im[8];
    all8(x, im);
    _mm512_storeu_si512(out, least(x, im));
    store_orbits(stabiliser(x, im), orbit);
  }
  void describe8(const std::uint64_t* in, std::uint32_t* orbit, std::uint32_t* moves) const {
    const __m512i x = _mm512_loadu_si512(in);
    __m512i im[8];
    all8(x, im);
    const __m512i stab = stabiliser(x, im);
    const __m512i e = vandnot(x, _mm512_set1_epi64(static_cast<long long>(holes_)));
    __m512i mv = _mm512_setzero_si512();
    for (const Dir& d : dirs_) {
      const __m512i from = _mm512_set1_epi64(static_cast<long long>(d.from));
      __m512i over, to;
      if (d.step > 0) {
        over = vsrli(x, static_cast<unsigned>(d.step));
        to = vsrli(e, static_cast<unsigned>(2 * d.step));
      } else {
        over = vslli(x, static_cast<unsigned>(-d.step));
        to = vslli(e, static_cast<unsigned>(-2 * d.step));
      }
      const __m512i legal = _mm512_and_si512(_mm512_and_si512(x, from), _mm512_and_si512(over, to));
      mv = _mm512_add_epi64(mv, _mm512_popcnt_epi64(legal));
    }
    store_orbits(stab, orbit);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(moves),
                        _mm512_mask_cvtepi64_epi32(_mm256_setzero_si256(), 0xFF, mv));
  }
  void twist8(const std::uint64_t* in, std::uint64_t* out, std::uint32_t* orbit) const {
    const __m512i c =
        vandnot(_mm512_loadu_si512(in), _mm512_set1_epi64(static_cast<long long>(holes_)));
    alignas(64) std::uint64_t t[8];
    if (twist_ == 0) {
      _mm512_store_si512(t, c);
    } else {
      __m512i im[8];
      all8(c, im);
      _mm512_store_si512(t, im[twist_]);
    }
    canon8(t, out, orbit);
  }

 private:
  static constexpr std::uint64_t kReverseBits = 0x8040201008040201ull;  // GFNI: bit i -> 7-i
  static constexpr std::uint64_t kUnitBytes = 0x8040201008040201ull;    // byte i = 1 << i

  // The least of x and its images under the group, lane by lane (im: x's eight transforms).
  [[gnu::always_inline]] __m512i least(__m512i x, const __m512i* im) const {
    __m512i m = x;
    for (int q = 1; q < 8; ++q)
      if (in_group_[q]) m = vmin(m, im[q]);
    return m;
  }
  // How many group elements fix each lane of x (im: x's eight transforms).
  [[gnu::always_inline]] __m512i stabiliser(__m512i x, const __m512i* im) const {
    __m512i stab = _mm512_set1_epi64(1);
    const __m512i one = _mm512_set1_epi64(1);
    for (int q = 1; q < 8; ++q)
      if (in_group_[q])
        stab = _mm512_mask_add_epi64(stab, _mm512_cmpeq_epu64_mask(im[q], x), stab, one);
    return stab;
  }
  // orbit[i] = the group's order over stab's lane i: both are powers of two, so a shift.
  [[gnu::always_inline]] void store_orbits(__m512i stab, std::uint32_t* orbit) const {
    const __m512i log_stab = _mm512_sub_epi64(_mm512_set1_epi64(63), _mm512_lzcnt_epi64(stab));
    const __m512i orb =
        _mm512_mask_srlv_epi64(stab, 0xFF, _mm512_set1_epi64(group_size()), log_stab);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(orbit),
                        _mm512_mask_cvtepi64_epi32(_mm256_setzero_si256(), 0xFF, orb));
  }

  // The eight transforms of the eight keys in x (im[0] = x).
  [[gnu::always_inline]] void all8(__m512i x, __m512i* im) const {
    const __m512i rev =
        _mm512_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                        14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4,
                        5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i rb = _mm512_set1_epi64(static_cast<long long>(kReverseBits));
    // Byte i of unit.x is column i of x read bottom-up; reversing its bits gives the transpose.
    __m512i t =
        _mm512_gf2p8affine_epi64_epi8(_mm512_set1_epi64(static_cast<long long>(kUnitBytes)), x, 0);
    t = _mm512_gf2p8affine_epi64_epi8(t, rb, 0);
    for (int half = 0; half < 2; ++half) {
      const __m512i b = half ? t : x;
      const __m512i v = _mm512_shuffle_epi8(b, rev);
      const int q = 4 * half;
      im[q] = b;
      im[q + 1] = vsrl(v, shift_[q + 1]);
      im[q + 2] = vsrl(_mm512_gf2p8affine_epi64_epi8(b, rb, 0), shift_[q + 2]);
      im[q + 3] = vsrl(_mm512_gf2p8affine_epi64_epi8(v, rb, 0), shift_[q + 3]);
    }
  }
};

}  // namespace
}  // namespace pegsol::census_detail
