// Position kernels of the compact census engine (internal to src/census).
//
// The engine keys a position densely (bit h = hole h, holes in reading order) and asks a kernel
// for everything that depends on the board's shape:
//
//   Imgs                        the images of one position under the census group
//   images(d, im) -> orbit      fills im for dense key d, returns the orbit's size
//   child(im, j)                canonical dense key of the position jump j makes from im's
//   children(im, js, n, out)    out[u] = child(im, js[u]) for u < n
//   moves(d, f), unmoves(d, f)  f(j) for the jumps legal in d, in d's complement
//   canon(d)                    canonical (least) dense key of d's orbit
//   for_each_image(im, f)       f(dense image) for every group element
//
// Images are linear over XOR, so a child's images are its parent's XOR the jump's: child() costs a
// few word operations and a minimum, whatever the group.
//
// TableKernel serves every board whose layout fits 64 bits. GridKernel, for square boards within
// an 8x8 box whose census group is made of the box's flips and its transposition, keeps all eight
// images in one AVX-512 register and computes them with GFNI bit-matrix instructions (no table
// lookups); it is built only where the compiler targets those instructions.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>
#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "pegsol/board.hpp"
#include "pegsol/geometry.hpp"

#if defined(__AVX512F__) && defined(__AVX512VBMI__) && defined(__GFNI__) && defined(__BMI2__)
#define PEGSOL_GRID_KERNEL 1
#else
#define PEGSOL_GRID_KERNEL 0
#endif

namespace pegsol::census_detail {

// Any board whose layout fits 64 bits, any group (up to the 12 symmetries of the triangular
// lattice). Images by byte tables straight from the dense key; moves by the board's shift classes
// on its layout.
class TableKernel {
 public:
  static constexpr std::size_t kMaxGroup = 16;
  struct Imgs {
    alignas(64) std::uint64_t v[kMaxGroup];
  };

  // syms: indices into board.symmetries(), the identity first.
  TableKernel(const Board& b, const Geometry<64>& g, const std::vector<int>& syms)
      : g_(&g), ns_(syms.size()), n_(b.size()) {
    dense_bytes_ = (n_ + 7) / 8;
    const std::size_t db = static_cast<std::size_t>(dense_bytes_);
    byte_image_.assign(ns_ * db * 256, 0);
    for (std::size_t q = 0; q < ns_; ++q) {
      const auto& perm = b.symmetries()[static_cast<std::size_t>(syms[q])];
      for (std::size_t i = 0; i < db; ++i)
        for (std::size_t v = 0; v < 256; ++v)
          for (std::size_t k = 0; k < 8; ++k)
            if ((v >> k) & 1 && 8 * i + k < static_cast<std::size_t>(n_))
              byte_image_[(q * db + i) * 256 + v] |= std::uint64_t{1} << perm[8 * i + k];
    }
    layout_byte_.assign(db * 256, 0);
    for (std::size_t i = 0; i < db; ++i)
      for (std::size_t v = 0; v < 256; ++v)
        for (std::size_t k = 0; k < 8; ++k)
          if ((v >> k) & 1 && 8 * i + k < static_cast<std::size_t>(n_))
            layout_byte_[i * 256 + v] |= std::uint64_t{1} << b.bit(static_cast<int>(8 * i + k));
    const std::size_t nj = b.jumps().size();
    sym_jump_.resize(ns_ * nj);
    for (std::size_t j = 0; j < nj; ++j) {
      const Jump& jp = b.jumps()[j];
      const std::uint64_t m =
          std::uint64_t{1} << jp.from | std::uint64_t{1} << jp.over | std::uint64_t{1} << jp.to;
      for (std::size_t q = 0; q < ns_; ++q) sym_jump_[j * ns_ + q] = apply(q, m);
    }
  }

  std::size_t group_size() const { return ns_; }

  int images(std::uint64_t d, Imgs& im) const {
    im.v[0] = d;
    int stab = 1;
    for (std::size_t q = 1; q < ns_; ++q) {
      im.v[q] = apply(q, d);
      stab += im.v[q] == d;
    }
    return static_cast<int>(ns_) / stab;
  }

  std::uint64_t child(const Imgs& im, std::size_t j) const {
    const std::uint64_t* sj = &sym_jump_[j * ns_];
#ifdef __AVX2__
    // The square boards' 8 images in two vectors. The signed compare orders keys below 2^63, so
    // a 64-hole board (rect:8x8) takes the plain loop.
    if (ns_ == 8 && n_ < 64) {
      auto ld = [](const std::uint64_t* p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
      };
      __m256i a = _mm256_xor_si256(ld(im.v), ld(sj));
      __m256i b = _mm256_xor_si256(ld(im.v + 4), ld(sj + 4));
      __m256i m = _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
      __m128i lo = _mm256_castsi256_si128(m), hi = _mm256_extracti128_si256(m, 1);
      __m128i m2 = _mm_blendv_epi8(lo, hi, _mm_cmpgt_epi64(lo, hi));
      __m128i sw = _mm_unpackhi_epi64(m2, m2);
      __m128i m1 = _mm_blendv_epi8(m2, sw, _mm_cmpgt_epi64(m2, sw));
      return static_cast<std::uint64_t>(_mm_cvtsi128_si64(m1));
    }
#endif
    std::uint64_t best = im.v[0] ^ sj[0];
    for (std::size_t q = 1; q < ns_; ++q) best = std::min(best, im.v[q] ^ sj[q]);
    return best;
  }

  void children(const Imgs& im, const int* js, std::size_t n, std::uint64_t* out) const {
    for (std::size_t u = 0; u < n; ++u) out[u] = child(im, static_cast<std::size_t>(js[u]));
  }

  template <class F>
  void moves(std::uint64_t d, F&& f) const {
    g_->for_each_jump(word(layout(d)), f);
  }
  template <class F>
  void unmoves(std::uint64_t d, F&& f) const {
    g_->for_each_jump(g_->complement(word(layout(d))), f);
  }

  std::uint64_t canon(std::uint64_t d) const {
    std::uint64_t best = d;
    for (std::size_t q = 1; q < ns_; ++q) best = std::min(best, apply(q, d));
    return best;
  }

  template <class F>
  void for_each_image(const Imgs& im, F&& f) const {
    for (std::size_t q = 0; q < ns_; ++q) f(im.v[q]);
  }

 private:
  static Bits<64> word(std::uint64_t x) {
    Bits<64> b;
    b.w[0] = x;
    return b;
  }
  // Dense image of dense key d under the group's q-th symmetry: one lookup per byte.
  std::uint64_t apply(std::size_t q, std::uint64_t d) const {
    const std::uint64_t* t = &byte_image_[q * static_cast<std::size_t>(dense_bytes_) * 256];
    std::uint64_t r = 0;
    for (int i = 0; i < dense_bytes_; ++i, d >>= 8, t += 256) r |= t[d & 0xff];
    return r;
  }
  // Layout bits of dense key d.
  std::uint64_t layout(std::uint64_t d) const {
    std::uint64_t x = 0;
    for (int i = 0; i < dense_bytes_; ++i, d >>= 8) x |= layout_byte_[i * 256 + (d & 0xff)];
    return x;
  }

  const Geometry<64>* g_;
  std::size_t ns_;
  int n_, dense_bytes_ = 1;
  std::vector<std::uint64_t> byte_image_;   // [symmetry][dense byte][value]: dense image
  std::vector<std::uint64_t> layout_byte_;  // [dense byte][value]: layout bits
  std::vector<std::uint64_t> sym_jump_;     // [jump][symmetry]: dense image of the jump's holes
};

#if PEGSOL_GRID_KERNEL
// Square boards within an 8x8 box. A position lives in the grid word
//
//      bit 8*r + c  = hole at row r, column c of the box (r, c = 0..7)
//
// which pdep/pext convert to and from the dense key (reading order is the grid's bit order, so
// pext keeps order: the least grid image is the least dense image). Lane q of a 512-bit register
// holds the image under: transposition when q & 4, then a vertical flip when q & 1, then a
// horizontal flip when q & 2. A flip reverses the bytes (rows) or the bits within each byte
// (columns) and shifts back into the box; the transposition is a GFNI bit-matrix product.
// Lanes outside the census group are computed and ignored (masked).
class GridKernel {
 public:
  using Imgs = __m512i;

  // The kernel for this board and group, or nullopt when the board is not a square-lattice board
  // within 8x8 or some group element is not one of the box's eight transformations.
  static std::optional<GridKernel> make(const Board& b, const std::vector<int>& syms) {
    if (b.lattice() == Lattice::Triangular) return std::nullopt;
    const Coord lo = b.min_coord(), hi = b.max_coord();
    const int rows = hi.r - lo.r + 1, cols = hi.c - lo.c + 1;
    if (rows > 8 || cols > 8) return std::nullopt;
    GridKernel k;
    const int n = b.size();
    std::vector<int> grid_bit(static_cast<std::size_t>(n));
    std::array<int, 64> hole_at{};
    hole_at.fill(-1);
    for (int h = 0; h < n; ++h) {
      const Coord c = b.coord(h);
      grid_bit[static_cast<std::size_t>(h)] = 8 * (c.r - lo.r) + (c.c - lo.c);
      hole_at[static_cast<std::size_t>(grid_bit[static_cast<std::size_t>(h)])] = h;
      k.mask_ |= std::uint64_t{1} << grid_bit[static_cast<std::size_t>(h)];
    }
    for (int h = 1; h < n; ++h)  // pext keeps order only if reading order is grid order
      if (grid_bit[static_cast<std::size_t>(h)] <= grid_bit[static_cast<std::size_t>(h - 1)])
        return std::nullopt;
    alignas(64) std::uint64_t shift[8], matrix[8];
    alignas(64) std::uint8_t perm[64];
    for (int q = 0; q < 8; ++q) {
      const bool t = q & 4, v = q & 1, hz = q & 2;
      const int r2 = t ? cols : rows, c2 = t ? rows : cols;
      shift[q] = static_cast<std::uint64_t>((v ? 8 * (8 - r2) : 0) + (hz ? 8 - c2 : 0));
      matrix[q] = hz ? kReverseBits : kIdentity;
      for (int i = 0; i < 8; ++i)
        perm[8 * q + i] = static_cast<std::uint8_t>(8 * q + (v ? 7 - i : i));
    }
    k.shift_ = _mm512_load_si512(shift);
    k.matrix_ = _mm512_load_si512(matrix);
    k.perm_ = _mm512_load_si512(perm);
    // Match each group element to the lane that permutes the holes the same way.
    for (int s : syms) {
      const auto& want = b.symmetries()[static_cast<std::size_t>(s)];
      int found = -1;
      for (int q = 0; q < 8 && found < 0; ++q) {
        bool same = true;
        for (int h = 0; h < n && same; ++h) {
          alignas(64) std::uint64_t im[8];
          _mm512_store_si512(im,
                             k.lanes(std::uint64_t{1} << grid_bit[static_cast<std::size_t>(h)]));
          const std::uint64_t x = im[q];
          same = std::has_single_bit(x) && hole_at[static_cast<std::size_t>(std::countr_zero(x))] ==
                                               want[static_cast<std::size_t>(h)];
        }
        if (same) found = q;
      }
      if (found < 0 || (k.group_ >> found) & 1) return std::nullopt;
      k.group_ = static_cast<__mmask8>(k.group_ | (1u << found));
    }
    k.group_size_ = static_cast<int>(syms.size());
    // Jumps: their lanes for child(), and per direction the from-bits and jump numbers for moves.
    for (std::size_t j = 0; j < b.jumps().size(); ++j) {
      const Jump& jp = b.jumps()[j];
      const int f = grid_bit[static_cast<std::size_t>(jp.from)],
                o = grid_bit[static_cast<std::size_t>(jp.over)];
      const int step = o - f;
      Lanes jl;
      _mm512_store_si512(jl.v,
                         k.lanes(std::uint64_t{1} << f | std::uint64_t{1} << o |
                                 std::uint64_t{1} << grid_bit[static_cast<std::size_t>(jp.to)]));
      k.jump_lanes_.push_back(jl);
      auto it = std::find_if(k.dirs_.begin(), k.dirs_.end(),
                             [&](const Dir& d) { return d.step == step; });
      if (it == k.dirs_.end()) {
        k.dirs_.push_back(Dir{step, 0, {}});
        it = k.dirs_.end() - 1;
      }
      it->from |= std::uint64_t{1} << f;
      it->jump[static_cast<std::size_t>(f)] = static_cast<std::uint16_t>(j);
    }
    return k;
  }

  std::size_t group_size() const { return static_cast<std::size_t>(group_size_); }

  int images(std::uint64_t d, Imgs& im) const {
    im = lanes(_pdep_u64(d, mask_));
    const __mmask8 eq = _mm512_mask_cmpeq_epu64_mask(
        group_, im, _mm512_mask_permutexvar_epi64(im, 0xFF, _mm512_setzero_si512(), im));
    return group_size_ / std::popcount(static_cast<unsigned>(eq));
  }

  std::uint64_t child(const Imgs& im, std::size_t j) const {
    const __m512i w = _mm512_xor_si512(im, _mm512_load_si512(jump_lanes_[j].v));
    return _pext_u64(least(w), mask_);
  }

  // Eight children at a time: row u holds child u's images (lanes outside the group all ones),
  // and three rounds of pairing rows and taking minima leave child u's least image in lane u.
  // About 30 vector instructions for eight children, where child() takes nine for each.
  //
  //   round 1  t01 = min(unpacklo(r0, r1), unpackhi(r0, r1))   lanes: r0 r1 r0 r1 r0 r1 r0 r1
  //   round 2  u03 = min of two 2-source permutes of t01, t23   lanes: r0 r1 r2 r3 r0 r1 r2 r3
  //   round 3  v07 = min of two 2-source permutes of u03, u47   lanes: r0 r1 ... r7
  void children(const Imgs& im, const int* js, std::size_t n, std::uint64_t* out) const {
    const __m512i ones = _mm512_set1_epi64(-1);
    const __m512i x2a = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    const __m512i x2b = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    const __m512i x3a = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
    const __m512i x3b = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    alignas(64) std::uint64_t least8[8];
    for (std::size_t at = 0; at < n; at += 8) {
      __m512i r[8];
      for (std::size_t u = 0; u < 8; ++u) {
        const std::size_t j = static_cast<std::size_t>(js[at + u < n ? at + u : at]);
        r[u] = _mm512_mask_xor_epi64(ones, group_, im, _mm512_load_si512(jump_lanes_[j].v));
      }
      // (Full-mask forms with a source operand, as in lanes() and least().)
      auto min = [](__m512i a, __m512i b) { return _mm512_mask_min_epu64(a, 0xFF, a, b); };
      __m512i t[4];
      for (int p = 0; p < 4; ++p) {
        const __m512i a = r[2 * p], b = r[2 * p + 1];
        t[p] = min(_mm512_mask_unpacklo_epi64(a, 0xFF, a, b),
                   _mm512_mask_unpackhi_epi64(a, 0xFF, a, b));
      }
      __m512i v[2];
      for (int p = 0; p < 2; ++p)
        v[p] = min(_mm512_permutex2var_epi64(t[2 * p], x2a, t[2 * p + 1]),
                   _mm512_permutex2var_epi64(t[2 * p], x2b, t[2 * p + 1]));
      _mm512_store_si512(least8, min(_mm512_permutex2var_epi64(v[0], x3a, v[1]),
                                     _mm512_permutex2var_epi64(v[0], x3b, v[1])));
      for (std::size_t u = 0; u < 8 && at + u < n; ++u) out[at + u] = _pext_u64(least8[u], mask_);
    }
  }

  template <class F>
  void moves(std::uint64_t d, F&& f) const {
    generate(_pdep_u64(d, mask_), f);
  }
  template <class F>
  void unmoves(std::uint64_t d, F&& f) const {
    generate(mask_ & ~_pdep_u64(d, mask_), f);
  }

  std::uint64_t canon(std::uint64_t d) const {
    return _pext_u64(least(lanes(_pdep_u64(d, mask_))), mask_);
  }

  template <class F>
  void for_each_image(const Imgs& im, F&& f) const {
    alignas(64) std::uint64_t v[8];
    _mm512_store_si512(v, im);
    for (int q = 0; q < 8; ++q)
      if ((group_ >> q) & 1) f(_pext_u64(v[q], mask_));
  }

 private:
  static constexpr std::uint64_t kIdentity = 0x0102040810204080ull;     // GFNI: bit i -> bit i
  static constexpr std::uint64_t kReverseBits = 0x8040201008040201ull;  // GFNI: bit i -> bit 7-i
  static constexpr std::uint64_t kUnitBytes = 0x8040201008040201ull;    // byte i = 1 << i

  GridKernel() = default;

  // The eight images of grid word x, lane q as described above.
  __m512i lanes(std::uint64_t x) const {
    __m512i v = _mm512_set1_epi64(static_cast<long long>(x));
    // Byte i of unit·x is column i of x read bottom-up; reversing its bits gives the transpose.
    __m512i t =
        _mm512_gf2p8affine_epi64_epi8(_mm512_set1_epi64(static_cast<long long>(kUnitBytes)), v, 0);
    t = _mm512_gf2p8affine_epi64_epi8(t, _mm512_set1_epi64(static_cast<long long>(kReverseBits)),
                                      0);
    v = _mm512_mask_mov_epi64(v, 0xF0, t);
    v = _mm512_mask_permutexvar_epi8(v, ~__mmask64{0}, perm_, v);
    v = _mm512_gf2p8affine_epi64_epi8(v, matrix_, 0);
    return _mm512_mask_srlv_epi64(v, 0xFF, v, shift_);
  }

  // The least lane of the group. (Here and in lanes(), full-mask forms with a source operand stand
  // for the plain intrinsics, whose GCC 12 definitions read an undefined register and trip
  // -Wmaybe-uninitialized.)
  std::uint64_t least(__m512i w) const {
    w = _mm512_mask_mov_epi64(_mm512_set1_epi64(-1), group_, w);
    const __m512i swap4 = _mm512_set_epi64(3, 2, 1, 0, 7, 6, 5, 4);
    const __m512i swap2 = _mm512_set_epi64(5, 4, 7, 6, 1, 0, 3, 2);
    const __m512i swap1 = _mm512_set_epi64(6, 7, 4, 5, 2, 3, 0, 1);
    w = _mm512_mask_min_epu64(w, 0xFF, w, _mm512_mask_permutexvar_epi64(w, 0xFF, swap4, w));
    w = _mm512_mask_min_epu64(w, 0xFF, w, _mm512_mask_permutexvar_epi64(w, 0xFF, swap2, w));
    w = _mm512_mask_min_epu64(w, 0xFF, w, _mm512_mask_permutexvar_epi64(w, 0xFF, swap1, w));
    return static_cast<std::uint64_t>(
        _mm_cvtsi128_si64(_mm512_mask_extracti32x4_epi32(_mm_setzero_si128(), 0xF, w, 0)));
  }

  // f(jump) for the jumps legal in grid word x: per direction, from & x & over-pegs & to-holes.
  template <class F>
  void generate(std::uint64_t x, F& f) const {
    const std::uint64_t e = mask_ & ~x;
    for (const Dir& d : dirs_) {
      std::uint64_t m = d.step > 0 ? d.from & x & (x >> d.step) & (e >> 2 * d.step)
                                   : d.from & x & (x << -d.step) & (e << -2 * d.step);
      for (; m; m &= m - 1)
        f(static_cast<int>(d.jump[static_cast<std::size_t>(std::countr_zero(m))]));
    }
  }

  struct Lanes {
    alignas(64) std::uint64_t v[8];
  };
  struct Dir {
    int step;                            // grid offset from a from-hole to its over-hole
    std::uint64_t from;                  // grid bits where a jump in this direction starts
    std::array<std::uint16_t, 64> jump;  // jump number by from-bit
  };
  std::uint64_t mask_ = 0;  // grid bits of the holes
  __mmask8 group_ = 0;      // lanes of the census group
  int group_size_ = 1;
  __m512i shift_{}, matrix_{}, perm_{};
  std::vector<Lanes> jump_lanes_;  // [jump]: the jump's holes in every lane
  std::vector<Dir> dirs_;
};
#endif

}  // namespace pegsol::census_detail
