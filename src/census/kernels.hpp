// SPDX-License-Identifier: MIT
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

#include "../core/byte_images.hpp"
#include "pegsol/board.hpp"

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
      byte_images(bytes_, n_, &table_[q * static_cast<std::size_t>(bytes_) * 256],
                  [&](int h) { return std::uint64_t{1} << perm[static_cast<std::size_t>(h)]; });
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

}  // namespace pegsol::census_detail
