// SPDX-License-Identifier: MIT
// The x86-64 vector helpers of the census's tiers (internal to src/census): each compiled for the
// instruction set it uses (its own target region), so that every tier's translation unit can name
// them in the branches its traits discard (compact_tier.hpp); they run only in the tiers whose
// traits have that instruction set. Include this before any target region opens.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>

#include <array>
#include <cstdint>

#include "target.hpp"

PEGSOL_TARGET_BEGIN(PEGSOL_ISA_AVX2)
namespace pegsol::census_detail {

// Each byte of x replaced by its number of set bits, by two nibble look-ups.
inline __m256i byte_popcounts(__m256i x) {
  const __m256i bits4 = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2,
                                         1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i low = _mm256_set1_epi8(0x0F);
  return _mm256_add_epi8(
      _mm256_shuffle_epi8(bits4, _mm256_and_si256(x, low)),
      _mm256_shuffle_epi8(bits4, _mm256_and_si256(_mm256_srli_epi16(x, 4), low)));
}
// out[0..3] = the low 32 bits of x's four 64-bit lanes.
inline void store_low32x4(std::uint32_t* out, __m256i x) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                   _mm256_castsi256_si128(
                       _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6))));
}
// The sum of the four 64-bit lanes (modulo 2^64).
inline std::uint64_t hsum(__m256i a) {
  const __m128i q = _mm_add_epi64(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(q) + _mm_extract_epi64(q, 1));
}

// The 32-bit lane permutations that move the lanes set in m (4 bits) to the front, in order, for
// each m: lanes of `words` 32-bit words (2: 64-bit lanes; 1: the low four 32-bit lanes).
constexpr auto make_pack4(int words) {
  std::array<std::array<int, 8>, 16> t{};
  for (int m = 0; m < 16; ++m) {
    int out = 0;
    for (int l = 0; l < 4; ++l)
      if (m >> l & 1) {
        for (int w = 0; w < words; ++w)
          t[static_cast<std::size_t>(m)][static_cast<std::size_t>(words * out + w)] = words * l + w;
        ++out;
      }
  }
  return t;
}
alignas(32) inline constexpr std::array<std::array<int, 8>, 16> kPack4Table = make_pack4(2);
alignas(32) inline constexpr std::array<std::array<int, 8>, 16> kPack4x32Table = make_pack4(1);
// Bit l: lane l of x holds the pegs and hole of the lane's jump ((x & need) == have).
inline unsigned legal4(__m256i x, __m256i need, __m256i have) {
  return static_cast<unsigned>(
      _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(x, need), have))));
}
// The permutation packing the lanes set in m: pack4 for 64-bit lanes, pack4_32 for the low four
// 32-bit lanes.
inline __m256i pack4(unsigned m) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(kPack4Table[m].data()));
}
inline __m256i pack4_32(unsigned m) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(kPack4x32Table[m].data()));
}

}  // namespace pegsol::census_detail
PEGSOL_TARGET_END

PEGSOL_TARGET_BEGIN(PEGSOL_ISA_AVX512)
namespace pegsol::census_detail {

// Full-mask forms with a source operand in place of the plain intrinsics, whose GCC 12
// definitions read an undefined register and trip -Wmaybe-uninitialized.
inline __m512i vmin(__m512i a, __m512i b) {
  return _mm512_mask_min_epu64(a, 0xFF, a, b);
}
inline __m512i vsrli(__m512i a, unsigned n) {
  return _mm512_mask_srli_epi64(a, 0xFF, a, n);
}
inline __m512i vslli(__m512i a, unsigned n) {
  return _mm512_mask_slli_epi64(a, 0xFF, a, n);
}
inline __m512i vsrl(__m512i a, std::uint64_t n) {
  return _mm512_mask_srl_epi64(a, 0xFF, a, _mm_cvtsi64_si128(static_cast<long long>(n)));
}
inline __m512i vandnot(__m512i a, __m512i b) {
  return _mm512_mask_andnot_epi64(b, 0xFF, a, b);
}
// The sum of the eight lanes (modulo 2^64).
inline std::uint64_t hsum(__m512i a) {
  const __m256i z = _mm256_setzero_si256();
  const __m256i h = _mm256_add_epi64(_mm512_mask_extracti64x4_epi64(z, 0xF, a, 0),
                                     _mm512_mask_extracti64x4_epi64(z, 0xF, a, 1));
  const __m128i q = _mm_add_epi64(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(q) + _mm_extract_epi64(q, 1));
}

}  // namespace pegsol::census_detail
PEGSOL_TARGET_END
#endif
