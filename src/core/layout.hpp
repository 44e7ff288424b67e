// SPDX-License-Identifier: MIT
// Layout: the bit each hole of a board takes in the fixed-width searches, and the shift classes.
//
// Every engine holds a position as Bits<W> (bits.hpp); the layout says which bit is which hole.
// Candidates are the compact layout (bit = the hole's reading-order index) and every injective
// linear map of the lattice coordinates, shifted to start at 0:
//
//   bit(h) = a * row(h) + b * col(h) - lo
//
// A linear map sends each jump direction (dr, dc) to one bit offset (a*dr + b*dc), so all the
// jumps along a direction share their offsets: one shift class each. The compact layout needs
// the fewest bits but mixes offsets. Preference: smallest bitset width, then fewest shift classes,
// then smallest span. With (r, c) counted from the bounding box's corner, the English 33 takes
// bit = 3c - 5r + 24, 37 bits in 4 classes (the Diamond 41: 4c - 5r + 24, 41 bits):
//
//        c:  0  1  2  3  4  5  6
//   r = 0:         30 33 36            over = from + mid, to = from + to:
//   r = 1:         25 28 31              right (0,+1): mid +3, to  +6
//   r = 2:   14 17 20 23 26 29 32        left  (0,-1): mid -3, to  -6
//   r = 3:    9 12 15 18 21 24 27        up   (-1,0):  mid +5, to +10
//   r = 4:    4  7 10 13 16 19 22        down (+1,0):  mid -5, to -10
//   r = 5:          5  8 11
//   r = 6:          0  3  6
//
// A shift class (mid, to) lists its jumps in ascending from-bit; Geometry<W> turns each into one
// from-mask, so move generation tests a whole class with three shifts and three ANDs. The layout
// is the engines' own: results that carry layout bits (CensusResult::paths) are read back through
// it, and it may change in any release.
#pragma once

#include <cstddef>
#include <vector>

#include "pegsol/board.hpp"

namespace pegsol {

// Named apart from pegsol's public names: board.hpp declares Layout and Access here.
namespace layout_detail {

// A group of jumps that share bit offsets in the layout: over = from + mid, to = from + to.
struct ShiftClass {
  int mid = 0, to = 0;
  std::vector<int> jumps;  // jump indices, ascending from-bit
};

class Layout {
 public:
  // The layout of a board whose holes, coordinates and jumps are built (Board's constructor).
  explicit Layout(const Board& board);

  // The bitset width the searches use: 64, 128, 256, 512 or 1024 (Board::width()).
  int width() const { return width_; }
  // The bits spanned: bit(h) < span() for every hole.
  int span() const { return span_; }
  // The bit of `hole`; InputError (field "hole") unless 0 <= hole < the board's size.
  int bit(int hole) const {
    if (hole < 0 || static_cast<std::size_t>(hole) >= bits_.size()) out_of_range(hole, "hole");
    return bits_[static_cast<std::size_t>(hole)];
  }
  // The hole at bit b, -1 outside the board; InputError (field "bit") unless 0 <= b < width().
  int hole_at_bit(int b) const {
    if (b < 0 || static_cast<std::size_t>(b) >= bit_hole_.size()) out_of_range(b, "bit");
    return bit_hole_[static_cast<std::size_t>(b)];
  }
  // The shift classes, every jump in exactly one.
  const std::vector<ShiftClass>& shift_classes() const { return classes_; }

 private:
  [[noreturn]] void out_of_range(int v, const char* what) const;

  std::vector<int> bits_, bit_hole_;
  int span_ = 0, width_ = 0;
  std::vector<ShiftClass> classes_;
};

// The only reader of Board's private layout.
struct Access {
  static const Layout& of(const Board& b) { return *b.layout_; }
};

}  // namespace layout_detail

// The engines' bit layout of a board.
inline const layout_detail::Layout& layout(const Board& b) {
  return layout_detail::Access::of(b);
}

}  // namespace pegsol
