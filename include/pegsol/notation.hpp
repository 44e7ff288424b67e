// SPDX-License-Identifier: MIT
// Move notation: "d2-d4" on square lattices, "4-1" on the triangular lattice (from-to).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pegsol/board.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"

namespace pegsol {

// "from-to" with the board's hole names.
PEGSOL_API std::string move_text(const Board& board, const Jump& j);

// Reads "from-to" (hole names of this board) into the jump it names. Throws InputError when the
// text is not a move of this board, saying why.
PEGSOL_API Jump parse_move(const Board& board, std::string_view text);

// Reads a whitespace- or comma-separated move list; errors name the move's position in the list.
PEGSOL_API std::vector<Jump> parse_moves(const Board& board, std::string_view text);

}  // namespace pegsol
