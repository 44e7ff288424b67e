// SPDX-License-Identifier: MIT
// A position's legal jumps found by shifts: its pegs laid out on the board's bounding box, one
// bit a cell, each jump direction a shift (src/fewest).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "keys.hpp"
#include "pegsol/board.hpp"

namespace pegsol::fewest_detail {

// The legal jumps of a position on a board whose bounding box has at most 128 cells (64 and
// fewer in one word): the key's bytes give the cells by table, and for each direction of step
// s (cells from the jump's from hole to its over hole) the cells x whose x, x + s and x + 2s
// hold a peg, a peg and a hole (forward) are the from holes of the legal jumps. Some 100
// instructions a position on the English board, where a walk of its 76 jumps took some 770.
template <int W>
class JumpGrid {
 public:
  using Wide = unsigned __int128;

  JumpGrid() = default;
  JumpGrid(const Board& b, const std::vector<Jump>& jumps) {
    const int cols = b.max_coord().c - b.min_coord().c + 1;
    const int rows = b.max_coord().r - b.min_coord().r + 1;
    if (rows * cols > 128 || jumps.size() > 0xffff) return;
    cells_ = rows * cols;
    key_bytes_ = (b.size() + 7) / 8;
    auto cell = [&](int h) {
      const Coord c = b.coord(h);
      return (c.r - b.min_coord().r) * cols + (c.c - b.min_coord().c);
    };
    if (cells_ <= 64)
      build(b, jumps, cell, narrow_);
    else
      build(b, jumps, cell, wide_);
  }

  // Whether legal() may be called: the bounding box has at most 128 cells.
  bool usable() const { return cells_ > 0; }

  // The numbers (Board::jumps) of the legal jumps of `pegs` into `out`, by direction and from
  // cell; returns how many. Forward: from and over hold pegs, to is empty; Backward (a jump taken
  // back): from and over are empty, to holds a peg.
  template <bool Backward>
  std::size_t legal(Bits<W> pegs, std::uint16_t* out) const {
    return cells_ <= 64 ? find<Backward>(pegs, out, narrow_) : find<Backward>(pegs, out, wide_);
  }

 private:
  template <class C>
  struct Tables {
    std::vector<C> byte_cells;           // [i * 256 + v]: the cells of key byte i holding v
    std::vector<int> step;               // [direction]: cells from a jump's from to its over hole
    std::vector<C> valid;                // [direction]: the from cells of its jumps
    std::vector<std::uint16_t> jump_at;  // [direction * 128 + from cell]: the jump's number
  };

  template <class Cell, class C>
  void build(const Board& b, const std::vector<Jump>& jumps, Cell&& cell, Tables<C>& t) {
    t.byte_cells.assign(static_cast<std::size_t>(key_bytes_) * 256, 0);
    for (int i = 0; i < key_bytes_; ++i)  // each value's cells: its lowest bit's and the rest's
      for (int v = 1; v < 256; ++v) {
        const int h = 8 * i + std::countr_zero(static_cast<unsigned>(v));
        t.byte_cells[static_cast<std::size_t>(i * 256 + v)] =
            t.byte_cells[static_cast<std::size_t>(i * 256 + (v & (v - 1)))] |
            (h < b.size() ? C{1} << cell(h) : C{0});
      }
    for (std::size_t j = 0; j < jumps.size(); ++j) {
      const int from = cell(jumps[j].from), s = cell(jumps[j].over) - from;
      std::size_t d = 0;
      while (d < t.step.size() && t.step[d] != s) ++d;
      if (d == t.step.size()) {
        t.step.push_back(s);
        t.valid.push_back(0);
        t.jump_at.resize(t.jump_at.size() + 128, 0);
      }
      t.valid[d] |= C{1} << from;
      t.jump_at[d * 128 + static_cast<std::size_t>(from)] = static_cast<std::uint16_t>(j);
    }
  }

  template <bool Backward, class C>
  std::size_t find(Bits<W> pegs, std::uint16_t* out, const Tables<C>& t) const {
    C g = 0;
    const C* bc = t.byte_cells.data();
    for (int i = 0; i < key_bytes_; ++i, bc += 256)
      g |= bc[pegs.w[static_cast<std::size_t>(i >> 3)] >> ((i & 7) * 8) & 0xff];
    std::size_t n = 0;
    for (std::size_t d = 0; d < t.step.size(); ++d) {
      const int s = t.step[d];
      // Bit x of `a` is cell x + s's, of `c` cell x + 2s's (cells shifted in from past the box
      // fall on no valid cell).
      const C a = s > 0 ? g >> s : g << -s;
      const C c = s > 0 ? g >> 2 * s : g << -2 * s;
      C l = Backward ? t.valid[d] & ~g & ~a & c : t.valid[d] & g & a & ~c;
      const std::uint16_t* at = t.jump_at.data() + d * 128;
      if constexpr (sizeof(C) == 8) {
        for (; l; l &= l - 1) out[n++] = at[std::countr_zero(l)];
      } else {
        for (auto lo = static_cast<std::uint64_t>(l); lo; lo &= lo - 1)
          out[n++] = at[std::countr_zero(lo)];
        for (auto hi = static_cast<std::uint64_t>(l >> 64); hi; hi &= hi - 1)
          out[n++] = at[64 + std::countr_zero(hi)];
      }
    }
    return n;
  }

  int cells_ = 0, key_bytes_ = 0;
  Tables<std::uint64_t> narrow_;
  Tables<Wide> wide_;
};

}  // namespace pegsol::fewest_detail
