// SPDX-License-Identifier: MIT
/// @file
/// The board catalogue and drawings: every way a board enters the engine.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/board.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/holeset.hpp"

namespace pegsol {

/// A shared, immutable board: what problems, positions and games hold.
using BoardPtr = std::shared_ptr<const Board>;

/// One entry of the board catalogue.
struct PEGSOL_API CatalogueEntry {
  std::string spec;         ///< "english", "triangle:N", ...
  std::string description;  ///< one line for `pegsol boards`
};

/// The catalogue, with one example size for each parametrised family.
PEGSOL_API std::vector<CatalogueEntry> catalogue();

/// Builds a catalogue board: english, french, diamond41, wiegleb, triangle:N (3 <= N <= 32),
/// hexagon:N (2 <= N <= 13), rect:RxC. `lattice` may turn a square board into square8 (diagonal
/// jumps).
/// @throws InputError naming the spec when it is unknown or out of range.
PEGSOL_API BoardPtr make_board(std::string_view spec,
                               std::optional<Lattice> lattice = std::nullopt);

/// A board drawn as text, with the pegs the drawing shows.
struct PEGSOL_API Drawing {
  BoardPtr board;  ///< the drawn board
  HoleSet pegs;    ///< the pegs drawn on it
};

/// Parses a drawing (format: docs/board-format.md). `source` names the text in error messages
/// ("file.txt:3:7: ..."); `lattice` overrides a header line.
/// @throws InputError naming what is wrong and where.
PEGSOL_API Drawing parse_drawing(std::string_view text, std::string_view source,
                                 std::optional<Lattice> lattice = std::nullopt);

/// Reads a position of `board` from a drawing: the drawing's holes must be exactly the board's (up
/// to translation).
/// @throws InputError naming the first mismatch.
PEGSOL_API HoleSet parse_position(const Board& board, std::string_view text,
                                  std::string_view source);

/// Renders a position as a drawing that parse_drawing reads back (with a lattice header line
/// unless the lattice is square).
PEGSOL_API std::string format_drawing(const Board& board, const HoleSet& pegs);

}  // namespace pegsol
