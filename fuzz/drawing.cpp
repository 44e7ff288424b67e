// SPDX-License-Identifier: MIT
// Fuzzes the drawing parser (docs/board-format.md): a drawn board, then a position drawn on it.
// A board that parses draws back to the same board and pegs.
#include "fuzz_util.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pegsol;
  std::string_view in = fuzz::text(data, size);
  // The first byte picks the lattice override (none, or one of the three).
  std::optional<Lattice> lattice;
  if (!in.empty()) {
    const int pick = static_cast<unsigned char>(in.front()) % 4;
    if (pick > 0) lattice = static_cast<Lattice>(pick - 1);
    in.remove_prefix(1);
  }
  // A second drawing after a line with "%%" is read as a position of the first one's board.
  std::string_view second;
  if (auto cut = in.find("\n%%\n"); cut != std::string_view::npos) {
    second = in.substr(cut + 4);
    in = in.substr(0, cut);
  }
  try {
    Drawing d = parse_drawing(in, "fuzz", lattice);
    const std::string again = format_drawing(*d.board, d.pegs);
    Drawing e = parse_drawing(again, "again", d.board->lattice());
    if (e.board->size() != d.board->size() || e.pegs.count() != d.pegs.count()) fuzz::broken();
    if (!second.empty()) {
      HoleSet p = parse_position(*d.board, second, "position");
      if (p.size() != d.board->size()) fuzz::broken();
    }
  } catch (const InputError&) {
  }
  return 0;
}
