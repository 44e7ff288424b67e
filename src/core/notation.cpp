// SPDX-License-Identifier: MIT
#include "pegsol/notation.hpp"

#include "pegsol/error.hpp"

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
  std::vector<Jump> moves;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '\n' ||
                               text[i] == '\t' || text[i] == '\r'))
      ++i;
    std::size_t j = i;
    while (j < text.size() && !(text[j] == ' ' || text[j] == ',' || text[j] == '\n' ||
                                text[j] == '\t' || text[j] == '\r'))
      ++j;
    if (j > i) {
      try {
        moves.push_back(parse_move(board, text.substr(i, j - i)));
      } catch (const InputError& e) {
        throw InputError("move " + std::to_string(moves.size() + 1) + ": " + e.what());
      }
    }
    i = j;
  }
  return moves;
}

}  // namespace pegsol
