// SPDX-License-Identifier: MIT
// The board catalogue and drawings: every way a board enters the engine.
#pragma once

#include <cstddef>
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

using BoardPtr = std::shared_ptr<const Board>;

struct PEGSOL_API CatalogueEntry {
  std::string spec;         // "english", "triangle:N", ...
  std::string description;  // one line for `pegsol boards`
};

// The catalogue, with one example size for each parametrised family.
PEGSOL_API std::vector<CatalogueEntry> catalogue();

// Builds a catalogue board: english, french, diamond41, wiegleb, triangle:N (3 <= N <= 32),
// hexagon:N (2 <= N <= 13), rect:RxC. `lattice` may turn a square board into square8 (diagonal
// jumps). Throws InputError naming the spec when it is unknown or out of range.
PEGSOL_API BoardPtr make_board(std::string_view spec,
                               std::optional<Lattice> lattice = std::nullopt);

// A board drawn as text, with the pegs the drawing shows.
struct PEGSOL_API Drawing {
  BoardPtr board;
  HoleSet pegs;
};

// Parses a drawing (format: docs/board-format.md). `source` names the text in error messages
// ("file.txt:3:7: ..."); `lattice` overrides a header line. Throws InputError.
PEGSOL_API Drawing parse_drawing(std::string_view text, std::string_view source,
                                 std::optional<Lattice> lattice = std::nullopt);

// Reads a position of `board` from a drawing: the drawing's holes must be exactly the board's
// (up to translation). Throws InputError naming the first mismatch.
PEGSOL_API HoleSet parse_position(const Board& board, std::string_view text,
                                  std::string_view source);

// Renders a position as a drawing that parse_drawing reads back (with a lattice header line
// unless the lattice is square).
PEGSOL_API std::string format_drawing(const Board& board, const HoleSet& pegs);

// The most bytes read_file() takes by default: drawings and games are far smaller (a board has at
// most 1,024 holes).
inline constexpr std::size_t kMaxInputBytes = std::size_t{16} << 20;

// Reads the whole of a file given by the user: a regular file, a device, a pipe or a FIFO, never
// more than max_bytes + 1 bytes whatever it is. Throws InputError when the file cannot be opened
// or read, is a directory, or holds more than max_bytes; the message starts with `what` (the
// option and the file, "--board @b.txt"; when empty, "file 'PATH'").
PEGSOL_API std::string read_file(const std::string& path, std::string_view what = {},
                                 std::size_t max_bytes = kMaxInputBytes);

// The name in `names` closest to `word` by edit distance (insertions, deletions, substitutions
// and swaps of neighbours), when it is close enough to be a typing slip (at most 1 edit for
// words of up to 4 characters, 2 up to 8, 3 beyond); nullopt otherwise. For "did you mean".
PEGSOL_API std::optional<std::string> closest_name(std::string_view word,
                                                   const std::vector<std::string>& names);

}  // namespace pegsol
