// SPDX-License-Identifier: MIT
#include "pegsol/notation.hpp"

#include "pegsol/error.hpp"
#include "pegsol/play.hpp"

namespace pegsol {

std::string move_text(const Board& board, const Jump& j) {
  return board.hole_name(j.from) + "-" + board.hole_name(j.to);
}

Jump parse_move(const Board& board, std::string_view text) {
  auto dash = text.find('-');
  if (dash == std::string_view::npos)
    throw InputError("move '" + std::string(text) + "': write FROM-TO" +
                     (board.jumps().empty() ? std::string()
                                            : ", e.g. " + move_text(board, board.jumps().front())));
  auto from = board.find(text.substr(0, dash));
  auto to = board.find(text.substr(dash + 1));
  if (!from || !to)
    throw InputError("move '" + std::string(text) + "': no hole named '" +
                     std::string(!from ? text.substr(0, dash) : text.substr(dash + 1)) +
                     "' on board " + board.name());
  for (const Jump& j : board.jumps())
    if (j.from == *from && j.to == *to) return j;
  throw InputError("move '" + std::string(text) + "': " + board.hole_name(*from) + " and " +
                   board.hole_name(*to) + " are not two steps apart along a line of the board");
}

std::vector<Jump> parse_moves(const Board& board, std::string_view text) {
  return flatten(parse_move_list(board, text));
}

}  // namespace pegsol
