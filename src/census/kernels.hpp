// Position kernels of the compact census engine (internal to src/census).
//
// A kernel fixes how a position is held in one 64-bit word (its "key") and does everything that
// depends on the board's shape there:
//
//   bit(h)                      the key bit of hole h; hole_at(b) the hole of key bit b
//   holes()                     the key bits of all holes
//   jumps()                     per board jump: legal in x when (x & need) == have, x ^ flip plays
//   it canon(x), canon8(in, out)   the least image of x under the census group (8 at a time)
//   describe8(in, orbit, moves) orbit sizes and legal-jump counts of 8 keys
//   images(x, out)              the images of x under each group element (the identity first)
//   twist8(in, out, orbit)      canonical forms and orbits of t(complement of x) for 8 keys, t the
//                               board symmetry given at construction (the complement trick)
//   pack(x), unpack(d)          x as n dense bits (d) and back, for keys kept in fewer bytes
//
// GridKernel serves square boards within an 8x8 box on CPUs with AVX-512 and GFNI: the key is the
// box's grid word and a symmetry image is a handful of byte and bit permutations of it. TableKernel
// serves every board of up to 64 holes anywhere: the key is dense (bit h = hole h) and an image
// costs one table lookup per key byte.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "pegsol/board.hpp"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) &&         \
    defined(__AVX512DQ__) && defined(__AVX512CD__) && defined(__AVX512VPOPCNTDQ__) && \
    defined(__GFNI__) && defined(__BMI2__) && defined(__AVX512BITALG__) &&            \
    defined(__AVX512VBMI2__)
#define PEGSOL_AVX512 1
#else
#define PEGSOL_AVX512 0
#endif

namespace pegsol::census_detail {

struct JumpMask {
  std::uint64_t need = 0, have = 0, flip = 0;
};

// Every board of up to 64 holes and any group of its symmetries. Dense keys; images by byte
// tables (one lookup per key byte), legal jumps by testing each jump's masks.
class TableKernel {
 public:
  // syms: indices into b.symmetries(), the identity first; twist: the board symmetry of
  // twist8() (another index into b.symmetries()).
  TableKernel(const Board& b, const std::vector<int>& syms, int twist = 0)
      : n_(b.size()), ns_(syms.size()) {
    bytes_ = (n_ + 7) / 8;
    std::vector<int> all = syms;
    all.push_back(twist);  // the twist's table comes last
    table_.assign(all.size() * static_cast<std::size_t>(bytes_) * 256, 0);
    for (std::size_t q = 0; q < all.size(); ++q) {
      const auto& perm = b.symmetries()[static_cast<std::size_t>(all[q])];
      for (int i = 0; i < bytes_; ++i)
        for (int v = 0; v < 256; ++v) {
          std::uint64_t img = 0;
          for (int k = 0; k < 8; ++k)
            if ((v >> k) & 1 && 8 * i + k < n_)
              img |= std::uint64_t{1} << perm[static_cast<std::size_t>(8 * i + k)];
          table_[(q * static_cast<std::size_t>(bytes_) + static_cast<std::size_t>(i)) * 256 +
                 static_cast<std::size_t>(v)] = img;
        }
    }
    holes_ = n_ == 64 ? ~0ull : (1ull << n_) - 1;
    for (const Jump& j : b.jumps()) {
      const std::uint64_t f = bit(j.from), o = bit(j.over), t = bit(j.to);
      jumps_.push_back({f | o | t, f | o, f | o | t});
    }
  }

  std::uint64_t bit(int hole) const { return std::uint64_t{1} << hole; }
  int hole_at(int b) const { return b; }
  std::uint64_t holes() const { return holes_; }
  const std::vector<JumpMask>& jumps() const { return jumps_; }
  int group_size() const { return static_cast<int>(ns_); }

  std::uint64_t canon(std::uint64_t x) const {
    std::uint64_t best = x;
    for (std::size_t q = 1; q < ns_; ++q) best = std::min(best, apply(q, x));
    return best;
  }
  void canon8(const std::uint64_t* in, std::uint64_t* out) const {
    for (int i = 0; i < 8; ++i) out[i] = canon(in[i]);
  }
  // The same, with the orbit sizes.
  void canon8(const std::uint64_t* in, std::uint64_t* out, std::uint32_t* orbit) const {
    for (int i = 0; i < 8; ++i) {
      const std::uint64_t x = in[i];
      std::uint64_t best = x;
      int stab = 1;
      for (std::size_t q = 1; q < ns_; ++q) {
        const std::uint64_t y = apply(q, x);
        best = std::min(best, y);
        stab += y == x;
      }
      out[i] = best;
      orbit[i] = static_cast<std::uint32_t>(ns_) / static_cast<std::uint32_t>(stab);
    }
  }
  void describe8(const std::uint64_t* in, std::uint32_t* orbit, std::uint32_t* moves) const {
    for (int i = 0; i < 8; ++i) {
      int stab = 1;
      for (std::size_t q = 1; q < ns_; ++q) stab += apply(q, in[i]) == in[i];
      orbit[i] = static_cast<std::uint32_t>(ns_) / static_cast<std::uint32_t>(stab);
      std::uint32_t m = 0;
      for (const JumpMask& j : jumps_) m += (in[i] & j.need) == j.have;
      moves[i] = m;
    }
  }
  // out[q] = image of x under the q-th group element.
  void images(std::uint64_t x, std::uint64_t* out) const {
    for (std::size_t q = 0; q < ns_; ++q) out[q] = q ? apply(q, x) : x;
  }
  void twist8(const std::uint64_t* in, std::uint64_t* out, std::uint32_t* orbit) const {
    std::uint64_t t[8];
    for (int i = 0; i < 8; ++i) t[i] = apply(ns_, holes_ & ~in[i]);
    canon8(t, out, orbit);
  }
  int packed_bytes() const { return bytes_; }
  std::uint64_t pack(std::uint64_t x) const { return x; }
  std::uint64_t unpack(std::uint64_t d) const { return d; }

 private:
  std::uint64_t apply(std::size_t q, std::uint64_t x) const {
    const std::uint64_t* t = &table_[q * static_cast<std::size_t>(bytes_) * 256];
    std::uint64_t r = 0;
    for (int i = 0; i < bytes_; ++i, x >>= 8, t += 256) r |= t[x & 0xff];
    return r;
  }

  int n_;
  std::size_t ns_;
  int bytes_ = 1;
  std::uint64_t holes_ = 0;
  std::vector<std::uint64_t> table_;  // [group element, then twist][key byte][value]: image bits
  std::vector<JumpMask> jumps_;
};

#if PEGSOL_AVX512
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

// Square boards (with or without diagonal jumps) within an 8x8 box. The key is the grid word
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
//   4-7  the transpose T (GFNI bit-matrix product), then as 0-3 with R and C exchanged
//
// computed for eight keys at once, one per 64-bit lane. Transforms outside the census group are
// computed and replaced by x itself before the minimum.
class GridKernel {
 public:
  // The kernel for this board and group, or nullopt when the board is triangular, outside 8x8,
  // or some group element is not one of the box's transformations.
  static std::optional<GridKernel> make(const Board& b, const std::vector<int>& syms,
                                        int twist = 0) {
    if (b.lattice() == Lattice::Triangular) return std::nullopt;
    const Coord lo = b.min_coord(), hi = b.max_coord();
    const int rows = hi.r - lo.r + 1, cols = hi.c - lo.c + 1;
    if (rows > 8 || cols > 8) return std::nullopt;
    GridKernel k;
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
      k.shift_[q] = static_cast<std::uint64_t>((q & 1 ? 8 * (8 - r) : 0) + (q & 2 ? 8 - c : 0));
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
      if (found < 0 || k.in_group_[found]) return std::nullopt;
      k.in_group_[found] = true;
      k.order_.push_back(found);
    }
    k.twist_ = transform_of(twist);
    if (k.twist_ < 0) return std::nullopt;
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
    return k;
  }

  std::uint64_t bit(int hole) const {
    return std::uint64_t{1} << bit_[static_cast<std::size_t>(hole)];
  }
  int hole_at(int b) const { return hole_[static_cast<std::size_t>(b)]; }
  std::uint64_t holes() const { return holes_; }
  const std::vector<JumpMask>& jumps() const { return jumps_; }
  int group_size() const { return static_cast<int>(order_.size()); }

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
  void images(std::uint64_t x, std::uint64_t* out) const {
    for (std::size_t i = 0; i < order_.size(); ++i) out[i] = image(order_[i], x);
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
  int packed_bytes() const { return (n_ + 7) / 8; }
  std::uint64_t pack(std::uint64_t x) const { return _pext_u64(x, holes_); }
  std::uint64_t unpack(std::uint64_t d) const { return _pdep_u64(d, holes_); }

 private:
  static constexpr std::uint64_t kReverseBits = 0x8040201008040201ull;  // GFNI: bit i -> 7-i
  static constexpr std::uint64_t kUnitBytes = 0x8040201008040201ull;    // byte i = 1 << i

  GridKernel() { hole_.fill(-1); }

  std::uint64_t image(int q, std::uint64_t x) const {
    alignas(64) std::uint64_t v[8];
    __m512i im[8];
    all8(_mm512_set1_epi64(static_cast<long long>(x)), im);
    _mm512_store_si512(v, im[q]);
    return v[0];
  }

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

  struct Dir {
    int step;            // grid offset from a from-hole to its over-hole
    std::uint64_t from;  // grid bits where a jump in this direction starts
  };
  int n_ = 0;
  std::array<std::uint8_t, 64> bit_{};
  std::array<std::int8_t, 64> hole_{};
  std::uint64_t holes_ = 0;
  std::uint64_t shift_[8] = {};
  bool in_group_[8] = {};
  std::vector<int> order_;  // the group's transforms, in the order of syms (identity first)
  int twist_ = 0;           // the transform of twist8()
  std::vector<JumpMask> jumps_;
  std::vector<Dir> dirs_;
};
#endif

}  // namespace pegsol::census_detail
