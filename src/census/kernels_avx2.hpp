// SPDX-License-Identifier: MIT
// The AVX2 grid kernel of the compact census engine (internal to src/census), for square boards
// within an 8x8 box: the grid layout (kernels_grid.hpp) with the eight box transforms of four
// keys at once, one per 64-bit lane. Included only inside a region compiled for the avx2 tier
// (compact_avx2.cpp); the CPU is checked at run time before any of it runs (src/core/cpu.cpp).
#pragma once

#include <immintrin.h>

#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include "kernels_grid.hpp"
#include "simd_x86.hpp"

namespace pegsol::census_detail {
namespace {

class Avx2GridKernel : public GridLayout<true> {
 public:
  // The kernel for this board and group, or nullopt (see GridLayout::build).
  static std::optional<Avx2GridKernel> make(const Board& b, const std::vector<int>& syms,
                                            int twist = 0) {
    Avx2GridKernel k;
    if (!build(k, b, syms, twist)) return std::nullopt;
    k.full_ = k.group_size() == 8;
    k.as_double_ = k.holes_ >> 62 == 0;
    for (int q = 0; q < 8; ++q) k.keep_[q] = _mm256_set1_epi64x(k.in_group_[q] ? -1 : 0);
    return k;
  }

  std::uint64_t canon(std::uint64_t x) const {
    std::uint64_t best = x;
    for (int q = 1; q < 8; ++q)
      if (in_group_[q]) best = std::min(best, image(q, x));
    return best;
  }
  void canon8(const std::uint64_t* in, std::uint64_t* out) const {
    const bool dbl = doubles();
    for (int h = 0; h < 8; h += 4) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + h));
      __m256i im[8];
      all4(x, im);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + h), least(x, im, dbl));
    }
  }
  // Keys b[0, n) in canonical form, four at a time (b has room to pad n to a multiple of 4):
  // the batch's tests and shift counts taken once.
  void canon_many(std::uint64_t* b, std::size_t n) const {
    const bool dbl = doubles();
    if (full_)
      dbl ? canon_run<true, true>(b, n) : canon_run<true, false>(b, n);
    else
      dbl ? canon_run<false, true>(b, n) : canon_run<false, false>(b, n);
  }
  // The same, with the orbit sizes.
  void canon8(const std::uint64_t* in, std::uint64_t* out, std::uint32_t* orbit) const {
    const bool dbl = doubles();
    for (int h = 0; h < 8; h += 4) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + h));
      __m256i im[8];
      all4(x, im);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + h), least(x, im, dbl));
      orbits(x, im, orbit + h);
    }
  }
  void describe8(const std::uint64_t* in, std::uint32_t* orbit, std::uint32_t* moves) const {
    for (int h = 0; h < 8; h += 4) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + h));
      __m256i im[8];
      all4(x, im);
      orbits(x, im, orbit + h);
      moves4(x, moves + h);
    }
  }
  // Canonical forms and orbits of t(complement of x), t the twist.
  void twist8(const std::uint64_t* in, std::uint64_t* out, std::uint32_t* orbit) const {
    alignas(32) std::uint64_t t[8];
    for (int h = 0; h < 8; h += 4) {
      const __m256i c =
          _mm256_andnot_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + h)),
                              _mm256_set1_epi64x(static_cast<long long>(holes_)));
      __m256i im[8];
      all4(c, im);
      _mm256_store_si256(reinterpret_cast<__m256i*>(t + h), im[twist_]);
    }
    canon8(t, out, orbit);
  }

 private:
  Avx2GridKernel() = default;

  // Keys may be compared as doubles: none reaches bit 62, and this thread's MXCSR does not have
  // DAZ (denormals are zero) set, which a caller built with -ffast-math may have.
  bool doubles() const { return as_double_ && (_mm_getcsr() & 0x0040) == 0; }
  // x with the bits selected by m exchanged with those `delta` places above them, per lane.
  template <int kDelta>
  static __m256i delta_swap4(__m256i x, std::uint64_t m) {
    const __m256i t = _mm256_and_si256(_mm256_xor_si256(_mm256_srli_epi64(x, kDelta), x),
                                       _mm256_set1_epi64x(static_cast<long long>(m)));
    return _mm256_xor_si256(_mm256_xor_si256(x, t), _mm256_slli_epi64(t, kDelta));
  }
  // Rows upside down: the bytes of each lane reversed.
  static __m256i flip4(__m256i x) {
    const __m256i rev = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                                         5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    return _mm256_shuffle_epi8(x, rev);
  }
  // Rows mirrored: the bits of each byte reversed, a nibble at a time by lookup.
  static __m256i mirror4(__m256i x) {
    const __m256i rev4 = _mm256_setr_epi8(0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15, 0,
                                          8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15);
    const __m256i low = _mm256_set1_epi8(0x0F);
    const __m256i lo = _mm256_shuffle_epi8(rev4, _mm256_and_si256(x, low));
    const __m256i hi = _mm256_shuffle_epi8(rev4, _mm256_and_si256(_mm256_srli_epi16(x, 4), low));
    return _mm256_or_si256(_mm256_slli_epi16(lo, 4), hi);
  }
  static __m256i transpose4(__m256i x) {
    x = delta_swap4<28>(x, 0x00000000F0F0F0F0ull);
    x = delta_swap4<14>(x, 0x0000CCCC0000CCCCull);
    return delta_swap4<7>(x, 0x00AA00AA00AA00AAull);
  }

  bool full_ = false;       // the group is all eight transforms
  bool as_double_ = false;  // no hole at bit 62 or 63: keys compare as doubles
  __m256i keep_[8];         // lanes all ones for the group's transforms, zero for the others

  // The shift counts of the transforms, as vector shift operands (loaded once a batch).
  struct Shifts {
    __m128i s[8];
  };
  Shifts shifts() const {
    Shifts r;
    for (int q = 0; q < 8; ++q) r.s[q] = _mm_cvtsi32_si128(static_cast<int>(shift_[q]));
    return r;
  }
  // The eight box transforms of the four keys in x (im[q] as in kernels_grid.hpp's table).
  [[gnu::always_inline]] void all4(__m256i x, __m256i* im, const Shifts& sh) const {
    const __m256i t = transpose4(x), m = mirror4(x), mt = mirror4(t);
    im[0] = x;
    im[1] = _mm256_srl_epi64(flip4(x), sh.s[1]);
    im[2] = _mm256_srl_epi64(m, sh.s[2]);
    im[3] = _mm256_srl_epi64(flip4(m), sh.s[3]);
    im[4] = t;
    im[5] = _mm256_srl_epi64(flip4(t), sh.s[5]);
    im[6] = _mm256_srl_epi64(mt, sh.s[6]);
    im[7] = _mm256_srl_epi64(flip4(mt), sh.s[7]);
  }
  [[gnu::always_inline]] void all4(__m256i x, __m256i* im) const { all4(x, im, shifts()); }
  // The least of x and its images under the group, lane by lane, as a tree of minima; images
  // outside the group count as x. With `dbl` (no key reaches bit 62, and the thread does not
  // treat denormals as zero) the keys are compared as doubles: a non-negative double orders like
  // its bit pattern and none of these is a NaN, so a minimum is one instruction. Otherwise as
  // signed integers with the top bit flipped.
  template <bool kFull, bool kDbl>
  [[gnu::always_inline]] __m256i least(__m256i x, const __m256i* im) const {
    __m256i v[8];
    v[0] = x;
    for (int q = 1; q < 8; ++q) v[q] = kFull ? im[q] : _mm256_blendv_epi8(x, im[q], keep_[q]);
    if constexpr (kDbl) {
      auto d = [&](int q) { return _mm256_castsi256_pd(v[q]); };
      const __m256d m =
          _mm256_min_pd(_mm256_min_pd(_mm256_min_pd(d(0), d(1)), _mm256_min_pd(d(2), d(3))),
                        _mm256_min_pd(_mm256_min_pd(d(4), d(5)), _mm256_min_pd(d(6), d(7))));
      return _mm256_castpd_si256(m);
    } else {
      const __m256i top = _mm256_set1_epi64x(static_cast<long long>(0x8000000000000000ull));
      for (__m256i& u : v) u = _mm256_xor_si256(u, top);
      const __m256i m =
          min(min(min(v[0], v[1]), min(v[2], v[3])), min(min(v[4], v[5]), min(v[6], v[7])));
      return _mm256_xor_si256(m, top);
    }
  }
  [[gnu::always_inline]] __m256i least(__m256i x, const __m256i* im, bool dbl) const {
    if (full_) return dbl ? least<true, true>(x, im) : least<true, false>(x, im);
    return dbl ? least<false, true>(x, im) : least<false, false>(x, im);
  }
  template <bool kFull, bool kDbl>
  void canon_run(std::uint64_t* b, std::size_t n) const {
    const Shifts sh = shifts();
    for (std::size_t i = 0; i < n; i += 4) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i));
      __m256i im[8];
      all4(x, im, sh);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(b + i), least<kFull, kDbl>(x, im));
    }
  }
  // The lane-wise signed minimum.
  static __m256i min(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
  }
  // moves[i] = the number of legal jumps in lane i of x: per direction, the pegs with a peg
  // beyond and a hole past that, counted by nibble look-ups summed per byte (at most 8 a byte and
  // direction, so at most 64 over the 8 directions), then per lane.
  [[gnu::always_inline]] void moves4(__m256i x, std::uint32_t* moves) const {
    const __m256i e = _mm256_andnot_si256(x, _mm256_set1_epi64x(static_cast<long long>(holes_)));
    __m256i sum = _mm256_setzero_si256();
    for (const Dir& d : dirs_) {
      const __m128i s1 = _mm_cvtsi32_si128(d.step > 0 ? d.step : -d.step);
      const __m128i s2 = _mm_cvtsi32_si128(d.step > 0 ? 2 * d.step : -2 * d.step);
      const __m256i over = d.step > 0 ? _mm256_srl_epi64(x, s1) : _mm256_sll_epi64(x, s1);
      const __m256i to = d.step > 0 ? _mm256_srl_epi64(e, s2) : _mm256_sll_epi64(e, s2);
      const __m256i legal =
          _mm256_and_si256(_mm256_and_si256(x, _mm256_set1_epi64x(static_cast<long long>(d.from))),
                           _mm256_and_si256(over, to));
      sum = _mm256_add_epi8(sum, byte_popcounts(legal));
    }
    store_low32x4(moves, _mm256_sad_epu8(sum, _mm256_setzero_si256()));
  }
  // orbit[i] = the group's order over the number of its elements fixing lane i (both powers of
  // two: the box's group has order 8, so a shift).
  [[gnu::always_inline]] void orbits(__m256i x, const __m256i* im, std::uint32_t* orbit) const {
    __m256i fixed = _mm256_set1_epi64x(1);  // the group elements fixing the lane
    for (int q = 1; q < 8; ++q)
      fixed = _mm256_sub_epi64(fixed, _mm256_and_si256(_mm256_cmpeq_epi64(im[q], x), keep_[q]));
    alignas(32) std::int64_t f[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(f), fixed);
    for (int i = 0; i < 4; ++i)
      orbit[i] = static_cast<std::uint32_t>(group_size()) >>
                 std::countr_zero(static_cast<std::uint64_t>(f[i]));
  }
};

}  // namespace
}  // namespace pegsol::census_detail
