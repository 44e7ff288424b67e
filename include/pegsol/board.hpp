// SPDX-License-Identifier: MIT
/// @file
/// Board: an immutable board geometry, built once and borrowed by everything else.
///
/// A board is a set of holes on a lattice. Holes are numbered 0..n-1 in reading order (top to
/// bottom, left to right). The searches keep positions as fixed-width bitsets in a bit layout of
/// their own, chosen when the board is built; only its width shows (Board::width()).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/holeset.hpp"

namespace pegsol {

/// The lattice a board's holes lie on, which sets its jump directions.
enum class Lattice {
  Square,     ///< four directions: along rows and columns
  Square8,    ///< eight directions: square and diagonal
  Triangular  ///< six directions (triangles, hexagons)
};

/// "square", "square8" or "triangular".
PEGSOL_API std::string_view lattice_name(Lattice l);
/// Parses "square", "square8" or "triangular"; nullopt otherwise.
PEGSOL_API std::optional<Lattice> parse_lattice(std::string_view s);

/// Lattice coordinates. Square lattices: (row, column). Triangular lattice: skewed (row, k) in
/// which the six neighbours are (0,±1), (±1,0), (1,1) and (-1,-1).
struct PEGSOL_API Coord {
  int r = 0;  ///< row
  int c = 0;  ///< column (square lattices) or k (triangular)
  /// Same row and column.
  bool operator==(const Coord&) const = default;
};

/// One jump: the peg at `from` jumps over `over` into `to`. Hole indices in reading order.
struct PEGSOL_API Jump {
  int from = 0;  ///< the jumping peg's hole
  int over = 0;  ///< the hole jumped over (its peg is removed)
  int to = 0;    ///< the empty hole landed in
  /// Same three holes.
  bool operator==(const Jump&) const = default;
};

/// The engines' bit layout (src/core/layout.hpp): declared here only so that a Board can own it;
/// not part of the API.
namespace layout_detail {
/// @cond internal
class Layout;
struct Access;
/// @endcond
}  // namespace layout_detail

/// An immutable board: its holes (numbered 0..size()-1 in reading order) with their lattice
/// coordinates and names, the jumps, the symmetries, the position-class invariants and the peg
/// types. Shared as a BoardPtr; safe to read from any number of threads.
class PEGSOL_API Board {
 public:
  /// Builds a board from its holes' lattice coordinates (any order, no duplicates).
  /// @throws InputError (field "cells") for an empty or duplicated set, or more holes than the
  /// layouts hold (1,024).
  Board(std::string name, Lattice lattice, std::vector<Coord> cells);

  /// The name it was built with (a catalogue spec, or a drawing's name).
  const std::string& name() const { return name_; }
  /// The lattice of its holes.
  Lattice lattice() const { return lattice_; }
  /// The number of holes.
  int size() const { return static_cast<int>(cells_.size()); }
  /// The lattice coordinate of `hole`.
  /// @throws InputError (field "hole") unless 0 <= hole < size(); so do hole_name and peg_type.
  Coord coord(int hole) const { return cells_[checked(hole)]; }
  /// The name of `hole`: "d4" on square lattices, "1".."n" on the triangular lattice.
  const std::string& hole_name(int hole) const { return names_[checked(hole)]; }
  /// The same lattice and the same holes up to a translation (names aside): a board drawn again
  /// elsewhere on the lattice, as a game file reads it back, has the same shape.
  bool same_shape(const Board& o) const;
  /// The hole at a lattice coordinate, if any.
  std::optional<int> at(Coord c) const;
  /// The hole with this name ("d4" on square lattices, "1".."n" on the triangular lattice).
  std::optional<int> find(std::string_view name) const;
  /// The least row and column of the coordinates (the bounding box's corner).
  Coord min_coord() const { return min_; }
  /// The greatest row and column of the coordinates.
  Coord max_coord() const { return max_; }

  /// Every jump of the board, in a fixed order (the board's jump order).
  const std::vector<Jump>& jumps() const { return jumps_; }
  /// Every jump direction of the lattice, as coordinate steps.
  const std::vector<Coord>& directions() const { return directions_; }

  /// Symmetries as hole permutations: sym[k][h] is the image of hole h. sym[0] is the identity.
  const std::vector<std::vector<int>>& symmetries() const { return symmetries_; }

  /// The bitset width the searches use for this board: 64, 128, 256, 512 or 1024 bits (the
  /// results' `width`, the JSON's "bit_width").
  int width() const { return width_; }

  /// Position-class invariants: each set S here meets every jump in an even number of holes, so the
  /// parity of the pegs on S never changes. Together they span all such sets (computed over GF(2)).
  const std::vector<HoleSet>& class_invariants() const { return invariants_; }
  /// Peg types: a peg only ever visits holes of its own type (the components of the from-to graph).
  int peg_type(int hole) const { return peg_types_[checked(hole)]; }
  /// The number of peg types (peg_type gives 0..peg_type_count()-1).
  int peg_type_count() const { return peg_type_count_; }

  /// Drawing-style render, one string per row: square lattices one cell per column, triangular
  /// lattices staggered. `glyph(h)` returns the text for hole h, exactly `cell_width` columns wide
  /// when printed (it may carry terminal colour codes).
  template <class Glyph>
  std::vector<std::string> render(Glyph glyph, int cell_width = 1) const;

 private:
  std::size_t checked(int hole) const {
    if (hole < 0 || hole >= size()) out_of_range(hole);
    return static_cast<std::size_t>(hole);
  }
  [[noreturn]] void out_of_range(int hole) const;
  void build_names();
  void build_jumps();
  void build_symmetries();
  void build_invariants();
  void build_peg_types();

  std::string name_;
  Lattice lattice_;
  std::vector<Coord> cells_;
  std::vector<std::string> names_;
  Coord min_, max_;
  std::vector<int> grid_;  ///< (r - min.r) * cols + (c - min.c) -> hole, -1 when none
  int grid_cols_ = 0;
  std::vector<Coord> directions_;
  std::vector<Jump> jumps_;
  std::vector<std::vector<int>> symmetries_;
  int width_ = 0;
  /// @cond internal
  friend struct layout_detail::Access;
  std::shared_ptr<const layout_detail::Layout> layout_;  // shared by copies: immutable
  /// @endcond
  std::vector<HoleSet> invariants_;
  std::vector<int> peg_types_;
  int peg_type_count_ = 0;
};

/// Square: the hole at (r, c) starts at column (c - min.c) * cell_width. Triangular: staggered, the
/// hole at (r, k) starts at column (2k - r) * cell_width (shifted so the leftmost is 0): neighbours
/// in a row sit two cells apart and each row is shifted by one cell.
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
