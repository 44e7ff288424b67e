// SPDX-License-Identifier: MIT
// Positions and moves of the play API (include/pegsol/play.hpp): legal jumps, apply and undo,
// moves as chains of jumps and their text.
#include <utility>

#include "pegsol/error.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/play.hpp"
#include "text.hpp"

namespace pegsol {

using text::is_bits;
using text::trim;

namespace {

bool on_board(const Board& b, int h) {
  return h >= 0 && h < b.size();
}

// True when over and to lie one and two steps from `from` along a lattice direction.
bool is_board_jump(const Board& b, const Jump& j) {
  if (!on_board(b, j.from) || !on_board(b, j.over) || !on_board(b, j.to)) return false;
  Coord a = b.coord(j.from), o = b.coord(j.over), t = b.coord(j.to);
  Coord d{o.r - a.r, o.c - a.c};
  if (t.r - o.r != d.r || t.c - o.c != d.c) return false;
  for (const Coord& dir : b.directions())
    if (dir == d) return true;
  return false;
}

std::string jump_label(const Board& b, const Jump& j) {
  if (!on_board(b, j.from) || !on_board(b, j.over) || !on_board(b, j.to))
    return "jump (" + std::to_string(j.from) + ", " + std::to_string(j.over) + ", " +
           std::to_string(j.to) + ")";
  return "jump " + move_text(b, j);
}

// Calls f(j) on each legal jump of `pegs` in the board's jump order (by from-hole in reading order,
// then by lattice direction: the pegs in that order, looking along each direction) until f returns
// false; true when f never did.
template <class F>
bool visit_legal_jumps(const Board& b, const HoleSet& pegs, F f) {
  for (int from : pegs.members()) {
    Coord p = b.coord(from);
    for (const Coord& d : b.directions()) {
      auto over = b.at({p.r + d.r, p.c + d.c});
      if (!over || !pegs.test(*over)) continue;
      auto to = b.at({p.r + 2 * d.r, p.c + 2 * d.c});
      if (to && !pegs.test(*to) && !f(Jump{from, *over, *to})) return false;
    }
  }
  return true;
}

}  // namespace

Position::Position(BoardPtr board, HoleSet pegs)
    : board_(std::move(board)), pegs_(std::move(pegs)) {
  if (!board_) throw InputError("board", "a position needs a board (the pointer is null)");
  if (pegs_.size() != board_->size())
    throw InputError("pegs", "a position of " + std::to_string(pegs_.size()) +
                                 " holes does not fit board " + board_->name() + " (" +
                                 std::to_string(board_->size()) + " holes)");
}

Position Position::parse(BoardPtr board, std::string_view text, std::string_view source) {
  if (!board) throw InputError("board", "a position needs a board (the pointer is null)");
  std::string_view t = trim(text);
  if (is_bits(t)) {
    if (static_cast<int>(t.size()) != board->size())
      throw InputError(std::string(source) + ": the position string has " +
                       std::to_string(t.size()) + " characters; board " + board->name() + " has " +
                       std::to_string(board->size()) + " holes (one '0' or '1' each)");
    return Position(board, HoleSet::from_bits(t));
  }
  HoleSet pegs = parse_position(*board, text, source);
  return Position(std::move(board), std::move(pegs));
}

std::vector<Jump> Position::legal_jumps() const {
  std::vector<Jump> out;
  visit_legal_jumps(*board_, pegs_, [&](const Jump& j) {
    out.push_back(j);
    return true;
  });
  return out;
}

std::string Position::why_illegal(const Jump& j) const {
  const Board& b = *board_;
  if (!is_board_jump(b, j)) return "it is not a jump of board " + b.name();
  if (!pegs_.test(j.from)) return "there is no peg on " + b.hole_name(j.from);
  if (!pegs_.test(j.over)) return "there is no peg on " + b.hole_name(j.over) + " to jump over";
  if (pegs_.test(j.to)) return b.hole_name(j.to) + " is not empty";
  return {};
}

std::string Position::why_not_undoable(const Jump& j) const {
  const Board& b = *board_;
  if (!is_board_jump(b, j)) return "it is not a jump of board " + b.name();
  if (!pegs_.test(j.to)) return "there is no peg on " + b.hole_name(j.to) + " to take back";
  if (pegs_.test(j.over)) return b.hole_name(j.over) + " is not empty";
  if (pegs_.test(j.from)) return b.hole_name(j.from) + " is not empty";
  return {};
}

bool Position::is_legal(const Jump& j) const {
  return why_illegal(j).empty();
}

bool Position::is_legal(const Move& m) const {
  if (m.jumps.empty()) return false;
  Position q = *this;
  for (std::size_t i = 0; i < m.jumps.size(); ++i) {
    if (i > 0 && m.jumps[i].from != m.jumps[i - 1].to) return false;
    if (!q.is_legal(m.jumps[i])) return false;
    q.apply(m.jumps[i]);
  }
  return true;
}

void Position::apply(const Jump& j) {
  if (std::string why = why_illegal(j); !why.empty())
    throw InputError(jump_label(*board_, j) + " is illegal: " + why);
  pegs_.set(j.from, false);
  pegs_.set(j.over, false);
  pegs_.set(j.to, true);
}

void Position::apply(const Move& m) {
  if (m.jumps.empty()) throw InputError("a move needs at least one jump");
  Position q = *this;
  for (std::size_t i = 0; i < m.jumps.size(); ++i) {
    const Jump& j = m.jumps[i];
    std::string why;
    if (i > 0 && j.from != m.jumps[i - 1].to)
      why = "it does not start where the previous jump landed, so the move is not one peg's chain";
    else
      why = q.why_illegal(j);
    if (!why.empty())
      throw InputError("move " + move_chain_text(*board_, m) + ": step " + std::to_string(i + 1) +
                       " (" + jump_label(*board_, j) + ") is illegal: " + why);
    q.apply(j);
  }
  pegs_ = std::move(q.pegs_);
}

void Position::undo(const Jump& j) {
  if (std::string why = why_not_undoable(j); !why.empty())
    throw InputError("cannot take back " + jump_label(*board_, j) + ": " + why);
  pegs_.set(j.from, true);
  pegs_.set(j.over, true);
  pegs_.set(j.to, false);
}

void Position::undo(const Move& m) {
  for (std::size_t i = 1; i < m.jumps.size(); ++i)
    if (m.jumps[i].from != m.jumps[i - 1].to)
      throw InputError("cannot take back move " + move_chain_text(*board_, m) + ": step " +
                       std::to_string(i + 1) + " does not start where step " + std::to_string(i) +
                       " landed");
  Position q = *this;
  for (auto it = m.jumps.rbegin(); it != m.jumps.rend(); ++it) q.undo(*it);
  pegs_ = std::move(q.pegs_);
}

bool Position::stuck() const {
  return visit_legal_jumps(*board_, pegs_, [](const Jump&) { return false; });
}

std::string move_chain_text(const Board& board, const Move& m) {
  if (m.jumps.empty()) return "";
  std::string s = board.hole_name(m.jumps.front().from);
  for (const Jump& j : m.jumps) s += "-" + board.hole_name(j.to);
  return s;
}

Move parse_move_chain(const Board& board, std::string_view text) {
  const std::string shown = "move '" + std::string(text) + "': ";
  std::vector<std::string_view> names;
  for (std::size_t pos = 0;;) {
    std::size_t dash = text.find('-', pos);
    names.push_back(text.substr(pos, dash == std::string_view::npos ? dash : dash - pos));
    if (dash == std::string_view::npos) break;
    pos = dash + 1;
  }
  if (names.size() < 2) {
    std::string example =
        board.jumps().empty() ? std::string("FROM-TO") : move_text(board, board.jumps().front());
    throw InputError(shown + "write the holes the peg visits joined by '-', e.g. " + example);
  }
  std::vector<int> holes;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty())
      throw InputError(shown + "hole " + std::to_string(i + 1) + " of the chain is missing");
    auto h = board.find(names[i]);
    if (!h)
      throw InputError(shown + "no hole named '" + std::string(names[i]) + "' on board " +
                       board.name());
    holes.push_back(*h);
  }
  Move m;
  for (std::size_t i = 0; i + 1 < holes.size(); ++i) {
    const Jump* found = nullptr;
    for (const Jump& j : board.jumps())
      if (j.from == holes[i] && j.to == holes[i + 1]) found = &j;
    if (!found)
      throw InputError(shown + "step " + std::to_string(i + 1) + " (" + board.hole_name(holes[i]) +
                       "-" + board.hole_name(holes[i + 1]) + "): " + board.hole_name(holes[i]) +
                       " and " + board.hole_name(holes[i + 1]) +
                       " are not two steps apart along a line of the board");
    m.jumps.push_back(*found);
  }
  return m;
}

std::vector<Move> parse_move_list(const Board& board, std::string_view text) {
  std::vector<Move> moves;
  for (const std::string_view word : text::move_list_words(text)) {
    const std::string where = "move " + std::to_string(moves.size() + 1) + ": ";
    try {
      const std::string_view chain = text::without_move_number(word);
      if (chain.empty()) throw InputError("a move number without its move");
      moves.push_back(parse_move_chain(board, chain));
    } catch (const InputError& e) {
      throw InputError(where + e.what());
    }
  }
  return moves;
}

namespace {

void extend_chains(const Position& p, Move& chain, std::vector<Move>& out) {
  for (const Jump& j : p.legal_jumps()) {
    if (!chain.jumps.empty() && j.from != chain.to()) continue;
    chain.jumps.push_back(j);
    out.push_back(chain);
    Position q = p;
    q.apply(j);
    extend_chains(q, chain, out);
    chain.jumps.pop_back();
  }
}

}  // namespace

std::vector<Move> legal_moves(const Position& p) {
  std::vector<Move> out;
  Move chain;
  extend_chains(p, chain, out);
  return out;
}

std::vector<Jump> flatten(const std::vector<Move>& moves) {
  std::vector<Jump> out;
  for (const Move& m : moves) out.insert(out.end(), m.jumps.begin(), m.jumps.end());
  return out;
}

std::vector<Move> group_moves(const std::vector<Jump>& jumps) {
  std::vector<Move> out;
  for (const Jump& j : jumps) {
    if (out.empty() || out.back().to() != j.from) out.emplace_back();
    out.back().jumps.push_back(j);
  }
  return out;
}

}  // namespace pegsol
