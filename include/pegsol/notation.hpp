// SPDX-License-Identifier: MIT
/// @file
/// Move notation: "d2-d4" on square lattices, "4-1" on the triangular lattice (from-to).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pegsol/board.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"

namespace pegsol {

/// "from-to" with the board's hole names.
/// @throws InputError (field "hole") when a hole of `j` is not one of the board's.
PEGSOL_API std::string move_text(const Board& board, const Jump& j);

/// Reads "from-to" (hole names of this board) into the jump it names.
/// @throws InputError when the text is not a jump of this board, saying why.
PEGSOL_API Jump parse_move(const Board& board, std::string_view text);

/// Reads a move list into its jumps: the list parse_move_list() reads (a move may be a chain of
/// jumps by one peg, "f3-d3-d5").
/// @throws InputError as parse_move_list(), the message starting with the move's place in the list
/// ("move 3: ...").
PEGSOL_API std::vector<Jump> parse_moves(const Board& board, std::string_view text);

}  // namespace pegsol
