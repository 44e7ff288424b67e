// SPDX-License-Identifier: MIT
// Fuzzes hole names and move notation on boards of each lattice: single jumps, move lists and
// chains. What parses is written back and parses to the same moves.
#include "pegsol/notation.hpp"
#include "fuzz_util.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/play.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pegsol;
  static const BoardPtr boards[] = {make_board("english"), make_board("triangle:5"),
                                    make_board("english", Lattice::Square8),
                                    make_board("hexagon:3"), make_board("rect:3x30")};
  std::string_view in = fuzz::text(data, size);
  if (in.empty()) return 0;
  const Board& b = *boards[static_cast<unsigned char>(in.front()) % std::size(boards)];
  in.remove_prefix(1);
  if (auto h = b.find(in)) {
    if (*h < 0 || *h >= b.size() || b.find(b.hole_name(*h)) != h) fuzz::broken();
  }
  try {
    const Jump j = parse_move(b, in);
    const Jump k = parse_move(b, move_text(b, j));
    if (j.from != k.from || j.over != k.over || j.to != k.to) fuzz::broken();
  } catch (const InputError&) {
  }
  try {
    const std::vector<Jump> js = parse_moves(b, in);
    for (const Jump& j : js)
      if (j.from < 0 || j.from >= b.size() || j.to < 0 || j.to >= b.size()) fuzz::broken();
  } catch (const InputError&) {
  }
  try {
    const Move m = parse_move_chain(b, in);
    const Move n = parse_move_chain(b, move_chain_text(b, m));
    if (flatten({m}).size() != flatten({n}).size()) fuzz::broken();
  } catch (const InputError&) {
  }
  return 0;
}
