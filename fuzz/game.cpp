// SPDX-License-Identifier: MIT
// Fuzzes the game file reader (docs/game-format.md) and positions given as text. A game that
// parses writes back to a text that parses to the same text.
#include "fuzz_util.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/play.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pegsol;
  const std::string_view in = fuzz::text(data, size);
  try {
    Game g = Game::parse(in, "fuzz");
    const std::string text = g.to_text();
    if (Game::parse(text, "again").to_text() != text) fuzz::broken();
  } catch (const InputError&) {
  }
  // The same bytes as a position (a 0/1 string or a drawing) of two catalogue boards.
  static const BoardPtr boards[] = {make_board("english"), make_board("triangle:5")};
  for (const BoardPtr& b : boards) {
    try {
      Position p = Position::parse(b, in, "fuzz");
      if (p.pegs().size() != b->size()) fuzz::broken();
    } catch (const InputError&) {
    }
  }
  return 0;
}
