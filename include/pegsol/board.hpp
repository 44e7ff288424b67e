// SPDX-License-Identifier: MIT
// Board: an immutable board geometry, built once and borrowed by everything else.
//
// A board is a set of holes on a lattice. Holes are numbered 0..n-1 in reading order (top to
// bottom, left to right). Each hole also has a bit in the board's layout: the bit index used by the
// fixed-width searches. The layout is chosen so that jumps fall into few "shift classes" (all jumps
// whose over- and to-holes sit at the same bit offsets from the from-hole), which lets move
// generation handle a whole class with a handful of word operations.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/holeset.hpp"

namespace pegsol {

enum class Lattice { Square, Square8, Triangular };

PEGSOL_API std::string_view lattice_name(Lattice l);
// Parses "square", "square8" or "triangular"; nullopt otherwise.
PEGSOL_API std::optional<Lattice> parse_lattice(std::string_view s);

// Lattice coordinates. Square lattices: (row, column). Triangular lattice: skewed (row, k) in which
// the six neighbours are (0,±1), (±1,0), (1,1) and (-1,-1).
struct PEGSOL_API Coord {
  int r = 0, c = 0;
  bool operator==(const Coord&) const = default;
};

// One jump: the peg at `from` jumps over `over` into `to`. Hole indices in reading order.
struct PEGSOL_API Jump {
  int from = 0, over = 0, to = 0;
  bool operator==(const Jump&) const = default;
};

// A group of jumps that share bit offsets in the layout: over = from + mid, to = from + to.
struct PEGSOL_API ShiftClass {
  int mid = 0, to = 0;
  std::vector<int> jumps;  // jump indices, ascending from-bit
};

class PEGSOL_API Board {
 public:
  // Builds a board from its holes' lattice coordinates (any order, no duplicates).
  // Throws InputError (field "cells") for an empty or duplicated set, or more holes than the
  // layouts hold (1,024).
  Board(std::string name, Lattice lattice, std::vector<Coord> cells);

  const std::string& name() const { return name_; }
  Lattice lattice() const { return lattice_; }
  int size() const { return static_cast<int>(cells_.size()); }
  // coord, hole_name, peg_type and bit throw InputError (field "hole") unless 0 <= hole < size().
  Coord coord(int hole) const { return cells_[checked(hole)]; }
  const std::string& hole_name(int hole) const { return names_[checked(hole)]; }
  // The same lattice and the same holes up to a translation (names aside): a board drawn again
  // elsewhere on the lattice, as a game file reads it back, has the same shape.
  bool same_shape(const Board& o) const;
  // The hole at a lattice coordinate, if any.
  std::optional<int> at(Coord c) const;
  // The hole with this name ("d4" on square lattices, "1".."n" on the triangular lattice).
  std::optional<int> find(std::string_view name) const;
  // Bounding box of the coordinates.
  Coord min_coord() const { return min_; }
  Coord max_coord() const { return max_; }

  const std::vector<Jump>& jumps() const { return jumps_; }
  // Every jump direction of the lattice, as coordinate steps.
  const std::vector<Coord>& directions() const { return directions_; }

  // Symmetries as hole permutations: sym[k][h] is the image of hole h. sym[0] is the identity.
  const std::vector<std::vector<int>>& symmetries() const { return symmetries_; }

  // Layout: bit of each hole, number of bits spanned, and the bitset width that holds them.
  int bit(int hole) const { return bits_[checked(hole)]; }
  int span() const { return span_; }
  int width() const { return width_; }
  // Hole at a layout bit, or -1 for a bit outside the board. Throws InputError (field "bit")
  // unless 0 <= b < width().
  int hole_at_bit(int b) const {
    if (b < 0 || static_cast<std::size_t>(b) >= bit_hole_.size()) out_of_range(b, "bit");
    return bit_hole_[static_cast<std::size_t>(b)];
  }
  const std::vector<ShiftClass>& shift_classes() const { return classes_; }

  // Position-class invariants: each set S here meets every jump in an even number of holes, so the
  // parity of the pegs on S never changes. Together they span all such sets (computed over GF(2)).
  const std::vector<HoleSet>& class_invariants() const { return invariants_; }
  // Peg types: a peg only ever visits holes of its own type (the components of the from-to graph).
  int peg_type(int hole) const { return peg_types_[checked(hole)]; }
  int peg_type_count() const { return peg_type_count_; }

  // Drawing-style render, one string per row: square lattices one cell per column, triangular
  // lattices staggered. `glyph(h)` returns the text for hole h, exactly `cell_width` columns wide
  // when printed (it may carry terminal colour codes).
  template <class Glyph>
  std::vector<std::string> render(Glyph glyph, int cell_width = 1) const;

 private:
  std::size_t checked(int hole) const {
    if (hole < 0 || hole >= size()) out_of_range(hole, "hole");
    return static_cast<std::size_t>(hole);
  }
  [[noreturn]] void out_of_range(int hole, const char* what) const;
  void build_names();
  void build_jumps();
  void build_symmetries();
  void build_layout();
  void build_invariants();
  void build_peg_types();

  std::string name_;
  Lattice lattice_;
  std::vector<Coord> cells_;
  std::vector<std::string> names_;
  Coord min_, max_;
  std::vector<int> grid_;  // (r - min.r) * cols + (c - min.c) -> hole, -1 when none
  int grid_cols_ = 0;
  std::vector<Coord> directions_;
  std::vector<Jump> jumps_;
  std::vector<std::vector<int>> symmetries_;
  std::vector<int> bits_, bit_hole_;
  int span_ = 0, width_ = 0;
  std::vector<ShiftClass> classes_;
  std::vector<HoleSet> invariants_;
  std::vector<int> peg_types_;
  int peg_type_count_ = 0;
};

// Square: the hole at (r, c) starts at column (c - min.c) * cell_width. Triangular: staggered, the
// hole at (r, k) starts at column (2k - r) * cell_width (shifted so the leftmost is 0): neighbours
// in a row sit two cells apart and each row is shifted by one cell.
template <class Glyph>
std::vector<std::string> Board::render(Glyph glyph, int cell_width) const {
  std::vector<std::string> lines(static_cast<std::size_t>(max_.r - min_.r + 1));
  std::vector<int> used(lines.size(), 0);
  // Column of each hole in display cells.
  int min_col = 1 << 30;
  auto col_of = [&](Coord p) {
    return lattice_ == Lattice::Triangular ? (2 * p.c - p.r) * cell_width
                                           : (p.c - min_.c) * cell_width;
  };
  for (const Coord& p : cells_) min_col = std::min(min_col, col_of(p));
  for (int h = 0; h < size(); ++h) {
    Coord p = cells_[static_cast<std::size_t>(h)];
    auto row = static_cast<std::size_t>(p.r - min_.r);
    int col = col_of(p) - min_col;
    std::string& line = lines[row];
    // Reading order guarantees increasing columns within a row.
    int pad = col - used[row];
    if (pad > 0) line.append(static_cast<std::size_t>(pad), ' ');
    used[row] = col + cell_width;
    line += glyph(h);
  }
  return lines;
}

}  // namespace pegsol
