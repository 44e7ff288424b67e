// SPDX-License-Identifier: MIT
// Plays the 15-hole triangle through the play API: from vacancy 1, asks for a hint before each
// move, plays it, and saves the game in the text format (docs/game-format.md), then reads the
// text back. Exit status 0 when the hints lead to one peg and the saved game reads back the same.
#include <iostream>

#include "pegsol/catalogue.hpp"
#include "pegsol/play.hpp"

int main() {
  pegsol::Game game(pegsol::default_problem(pegsol::make_board("triangle:5")));
  const pegsol::Board& board = *game.problem().board;
  while (!game.won()) {
    const pegsol::Hint h = pegsol::hint(game.position(), game.problem().goal, 5.0);
    if (!h.move) {
      std::cerr << pegsol::solvability_name(h.answer.verdict) << ": " << h.answer.reason << '\n';
      return 1;
    }
    std::cout << pegsol::move_chain_text(board, *h.move) << ' '
              << game.position().legal_jumps().size() << " legal jumps before it\n";
    game.play(*h.move);
  }
  const std::string saved = game.to_text();
  const pegsol::Game back = pegsol::Game::parse(saved, "saved game");
  std::cout << "one peg left after " << game.moves().size() << " moves; saved game:\n" << saved;
  return back.to_text() == saved && back.won() ? 0 : 1;
}
