// SPDX-License-Identifier: MIT
#include "pegsol/play.hpp"

#include <stdexcept>
#include <utility>

#include "pegsol/error.hpp"
#include "pegsol/notation.hpp"

namespace pegsol {

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

bool is_bits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("01") == std::string_view::npos;
}

std::string_view trim(std::string_view s) {
  auto a = s.find_first_not_of(" \t\r\n");
  if (a == std::string_view::npos) return {};
  auto z = s.find_last_not_of(" \t\r\n");
  return s.substr(a, z - a + 1);
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

// ---------------------------------------------------------------------------------------------
// Position

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

// ---------------------------------------------------------------------------------------------
// Moves

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

// ---------------------------------------------------------------------------------------------
// Games

Game::Game(Problem problem)
    : problem_((check_problem(problem), std::move(problem))),
      position_(problem_.board, problem_.start) {}

std::vector<Move> Game::played() const {
  return {moves_.begin(), moves_.begin() + static_cast<std::ptrdiff_t>(cursor_)};
}

void Game::play(const Move& m) {
  position_.apply(m);  // throws before anything changes
  moves_.resize(cursor_);
  moves_.push_back(m);
  ++cursor_;
}

bool Game::undo() {
  if (cursor_ == 0) return false;
  position_.undo(moves_[cursor_ - 1]);
  --cursor_;
  return true;
}

bool Game::redo() {
  if (cursor_ == moves_.size()) return false;
  position_.apply(moves_[cursor_]);
  ++cursor_;
  return true;
}

namespace {

constexpr std::string_view kHeader = "pegsol game";

// The catalogue spec that rebuilds `b` ("english", "triangle:5", "english" + square8), if any.
std::optional<std::pair<std::string, std::optional<Lattice>>> catalogue_spec(const Board& b) {
  std::string spec = b.name();
  std::optional<Lattice> lattice;
  if (auto plus = spec.find("+diagonals"); plus != std::string::npos) {
    spec.erase(plus);
    lattice = Lattice::Square8;
  }
  if (spec.empty() || spec[0] == '@') return std::nullopt;
  try {
    BoardPtr c = make_board(spec, lattice);
    if (c->lattice() != b.lattice() || c->size() != b.size()) return std::nullopt;
    for (int h = 0; h < b.size(); ++h)
      if (c->hole_name(h) != b.hole_name(h)) return std::nullopt;
  } catch (const InputError&) {
    return std::nullopt;
  }
  return std::pair{spec, lattice};
}

struct Line {
  int number = 0;         // 1-based
  std::string_view text;  // without the line end
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  int n = 0;
  for (std::size_t pos = 0; pos <= text.size();) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back({++n, line});
    pos = nl + 1;
  }
  return lines;
}

// The line without a '#' comment.
std::string_view strip_comment(std::string_view line) {
  return line.substr(0, line.find('#'));
}

bool blank_or_comment(std::string_view line) {
  return trim(strip_comment(line)).empty();
}

class GameReader {
 public:
  GameReader(std::string_view text, std::string_view source)
      : lines_(split_lines(text)), source_(source) {}

  Game read();

 private:
  [[noreturn]] void fail(int line, std::size_t col, const std::string& what) const {
    throw InputError(std::string(source_) + ":" + std::to_string(line) + ":" +
                     std::to_string(col + 1) + ": " + what);
  }
  // Column (0-based) of `part` inside `line`, both views of the same text.
  static std::size_t column(std::string_view line, std::string_view part) {
    return static_cast<std::size_t>(part.data() - line.data());
  }
  BoardPtr read_board(std::size_t& i, const Line& line, std::string_view value);
  HoleSet read_start(const Line& line, std::string_view value) const;
  Goal read_goal(const Line& line, std::string_view value) const;
  void read_moves(const Line& line, std::string_view text, std::vector<Move>& out,
                  std::vector<std::pair<int, std::size_t>>& where) const;

  std::vector<Line> lines_;
  std::string_view source_;
  BoardPtr board_;
};

BoardPtr GameReader::read_board(std::size_t& i, const Line& line, std::string_view value) {
  if (!value.empty()) {
    std::string spec(value);
    std::optional<Lattice> lattice;
    if (auto plus = spec.find("+diagonals"); plus != std::string::npos && plus > 0) {
      spec.erase(plus);
      lattice = Lattice::Square8;
    }
    try {
      return make_board(spec, lattice);
    } catch (const InputError& e) {
      fail(line.number, column(line.text, value), e.what());
    }
  }
  // An inline drawing: the lines after "board:" that are blank, comments, a lattice line or rows
  // of 'o' and '.'. Earlier lines are passed on blank, so the drawing's errors name file lines.
  std::string drawing(static_cast<std::size_t>(line.number), '\n');
  bool rows = false;
  while (i + 1 < lines_.size()) {
    std::string_view t = trim(lines_[i + 1].text);
    bool row = t.empty() || t[0] == '#' || t[0] == 'o' || t[0] == '.' || t.starts_with("lattice");
    if (!row) break;
    rows = rows || (!t.empty() && t[0] != '#' && !t.starts_with("lattice"));
    ++i;
    drawing += std::string(lines_[i].text) + "\n";
  }
  if (!rows)
    fail(line.number, line.text.size(),
         "'board:' needs a catalogue board (english, triangle:5, ...) or a drawing on the lines "
         "below");
  return parse_drawing(drawing, source_).board;
}

HoleSet GameReader::read_start(const Line& line, std::string_view value) const {
  const Board& b = *board_;
  if (value.empty()) fail(line.number, line.text.size(), "the start position is missing");
  if (auto h = b.find(value)) return single_vacancy(b, *h);
  if (is_bits(value)) {
    if (static_cast<int>(value.size()) != b.size())
      fail(line.number, column(line.text, value),
           "the start position has " + std::to_string(value.size()) + " characters; board " +
               b.name() + " has " + std::to_string(b.size()) + " holes (one '0' or '1' each)");
    return HoleSet::from_bits(value);
  }
  fail(line.number, column(line.text, value),
       "start '" + std::string(value) + "': expected a hole of board " + b.name() +
           " (the single vacancy) or a string of '0' and '1', one per hole");
}

Goal GameReader::read_goal(const Line& line, std::string_view value) const {
  const Board& b = *board_;
  Goal g;
  if (value.empty()) fail(line.number, line.text.size(), "the goal is missing");
  if (value == "any") return g;
  if (auto h = b.find(value)) {
    g.kind = Goal::Kind::Hole;
    g.hole = *h;
    return g;
  }
  if (is_bits(value) && static_cast<int>(value.size()) == b.size()) {
    g.kind = Goal::Kind::Position;
    g.position = HoleSet::from_bits(value);
    return g;
  }
  fail(line.number, column(line.text, value),
       "goal '" + std::string(value) + "': expected 'any', a hole of board " + b.name() +
           " (one peg there) or a string of " + std::to_string(b.size()) + " '0' and '1'");
}

void GameReader::read_moves(const Line& line, std::string_view text, std::vector<Move>& out,
                            std::vector<std::pair<int, std::size_t>>& where) const {
  auto sep = [](char c) { return c == ' ' || c == '\t' || c == ','; };
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && sep(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && !sep(text[j])) ++j;
    if (j == i) break;
    std::string_view token = text.substr(i, j - i);
    // An optional move number, "12." as the CLI prints it.
    if (auto dot = token.find('.'); dot != std::string_view::npos) {
      std::string_view number = token.substr(0, dot);
      if (number.empty() || number.find_first_not_of("0123456789") != std::string_view::npos)
        fail(line.number, column(line.text, token),
             "move '" + std::string(token) + "': a move number is written as digits and a '.'");
      token.remove_prefix(dot + 1);
    }
    if (token.empty())
      fail(line.number, column(line.text, text.substr(j)), "a move number without its move");
    try {
      out.push_back(parse_move_chain(*board_, token));
    } catch (const InputError& e) {
      fail(line.number, column(line.text, token), e.what());
    }
    where.emplace_back(line.number, column(line.text, token));
    i = j;
  }
}

Game GameReader::read() {
  std::size_t i = 0;
  while (i < lines_.size() && blank_or_comment(lines_[i].text)) ++i;
  if (i == lines_.size() || trim(strip_comment(lines_[i].text)) != kHeader)
    fail(i == lines_.size() ? static_cast<int>(lines_.size()) : lines_[i].number, 0,
         "a game file starts with the line '" + std::string(kHeader) + "'");
  std::optional<HoleSet> start;
  std::optional<Goal> goal;
  std::vector<Move> played, undone;
  std::vector<std::pair<int, std::size_t>> played_at, undone_at;
  enum class Section { Head, Moves, Undone } section = Section::Head;
  bool seen_moves = false, seen_undone = false;
  for (++i; i < lines_.size(); ++i) {
    const Line& line = lines_[i];
    std::string_view body = strip_comment(line.text);
    if (trim(body).empty()) continue;
    auto colon = body.find(':');
    if (colon == std::string_view::npos) {
      if (section == Section::Head)
        fail(line.number, column(line.text, trim(body)),
             "expected 'board:', 'start:', 'goal:' or 'moves:' (moves come after 'moves:')");
      read_moves(line, body, section == Section::Moves ? played : undone,
                 section == Section::Moves ? played_at : undone_at);
      continue;
    }
    std::string_view key = trim(body.substr(0, colon));
    std::string_view value = trim(body.substr(colon + 1));
    std::size_t key_col = column(line.text, key);
    auto once = [&](bool seen) {
      if (seen) fail(line.number, key_col, "'" + std::string(key) + ":' is given twice");
    };
    auto need_board = [&] {
      if (!board_)
        fail(line.number, key_col, "'board:' must come before '" + std::string(key) + ":'");
    };
    auto before_moves = [&] {
      if (section != Section::Head)
        fail(line.number, key_col, "'" + std::string(key) + ":' must come before 'moves:'");
    };
    if (key == "board") {
      once(board_ != nullptr);
      board_ = read_board(i, line, value);
    } else if (key == "start") {
      once(start.has_value());
      need_board();
      before_moves();
      start = read_start(line, value);
    } else if (key == "goal") {
      once(goal.has_value());
      need_board();
      before_moves();
      goal = read_goal(line, value);
    } else if (key == "moves") {
      once(seen_moves);
      need_board();
      if (section == Section::Undone)
        fail(line.number, key_col, "'moves:' must come before 'undone:'");
      seen_moves = true;
      section = Section::Moves;
      read_moves(line, body.substr(colon + 1), played, played_at);
    } else if (key == "undone") {
      once(seen_undone);
      need_board();
      seen_undone = true;
      section = Section::Undone;
      read_moves(line, body.substr(colon + 1), undone, undone_at);
    } else {
      fail(line.number, key_col,
           "unknown keyword '" + std::string(key) + "' (board, start, goal, moves, undone)");
    }
  }
  if (!board_) fail(static_cast<int>(lines_.size()), 0, "the game has no 'board:' line");
  Problem p{board_, {}, {}};
  if (!start || !goal) {
    std::optional<Problem> def;
    try {
      def = default_problem(board_);
    } catch (const InputError&) {
    }
    if (!start && !def)
      fail(static_cast<int>(lines_.size()), 0,
           "board " + board_->name() + " has no default start: give a 'start:' line");
    p.start = start ? *start : def->start;
    if (goal)
      p.goal = *goal;
    else if (!start && def)
      p.goal = def->goal;
  } else {
    p.start = *start;
    p.goal = *goal;
  }
  Game game(p);
  auto play_all = [&](const std::vector<Move>& moves,
                      const std::vector<std::pair<int, std::size_t>>& at, std::size_t first) {
    for (std::size_t k = 0; k < moves.size(); ++k) {
      try {
        game.play(moves[k]);
      } catch (const InputError& e) {
        fail(at[k].first, at[k].second,
             "move " + std::to_string(first + k + 1) + ": " + std::string(e.what()));
      }
    }
  };
  play_all(played, played_at, 0);
  play_all(undone, undone_at, played.size());
  for (std::size_t k = 0; k < undone.size(); ++k) game.undo();
  return game;
}

}  // namespace

Game Game::parse(std::string_view text, std::string_view source) {
  return GameReader(text, source).read();
}

std::string Game::to_text() const {
  const Board& b = *problem_.board;
  std::string out = std::string(kHeader) + "\n";
  if (auto spec = catalogue_spec(b)) {
    out += "board: " + b.name() + "\n";
  } else {
    out += "board:\n" + format_drawing(b, HoleSet(b.size(), true));
  }
  out += "start: " + problem_.start.to_bits() + "\n";
  switch (problem_.goal.kind) {
    case Goal::Kind::Any:
      out += "goal: any\n";
      break;
    case Goal::Kind::Hole:
      out += "goal: " + b.hole_name(problem_.goal.hole) + "\n";
      break;
    case Goal::Kind::Position:
      out += "goal: " + problem_.goal.position.to_bits() + "\n";
      break;
  }
  out += "moves:\n";
  for (std::size_t k = 0; k < cursor_; ++k) out += move_chain_text(b, moves_[k]) + "\n";
  if (cursor_ < moves_.size()) {
    out += "undone:\n";
    for (std::size_t k = cursor_; k < moves_.size(); ++k)
      out += move_chain_text(b, moves_[k]) + "\n";
  }
  return out;
}

Game game_after(const Problem& p, const std::vector<Move>& moves) {
  Game game(p);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    try {
      game.play(moves[i]);
    } catch (const InputError& e) {
      throw InputError("move " + std::to_string(i + 1) + " (" +
                       move_chain_text(*p.board, moves[i]) + "): " + e.what());
    }
  }
  return game;
}

bool is_game_text(std::string_view text) {
  for (const Line& line : split_lines(text)) {
    if (blank_or_comment(line.text)) continue;
    return trim(strip_comment(line.text)) == kHeader;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Solvability and hints

std::string_view solvability_name(Solvability s) {
  switch (s) {
    case Solvability::Solvable:
      return "solvable";
    case Solvability::NotSolvable:
      return "not solvable";
    case Solvability::Unknown:
      return "unknown";
  }
  return "?";
}

SolvabilityAnswer is_solvable(const Position& p, const Goal& goal, double time_limit_seconds) {
  SolveOptions o;
  o.time_limit = time_limit_seconds;
  return is_solvable(p, goal, o);
}

SolvabilityAnswer is_solvable(const Position& p, const Goal& goal, const SolveOptions& options) {
  Problem problem{p.board_ptr(), p.pegs(), goal};
  check_problem(problem);
  SolvabilityAnswer a;
  if (goal_reached(problem, p.pegs())) {
    a.verdict = Solvability::Solvable;
    return a;
  }
  if (p.peg_count() == 0) {
    a.verdict = Solvability::NotSolvable;
    a.reason = "there are no pegs on the board";
    return a;
  }
  SolveResult r = solve(problem, options);
  a.nodes = r.nodes;
  a.seconds = r.seconds;
  a.reason = r.reason;
  switch (r.status) {
    case Status::Solved: {
      Position q = p;
      for (const Jump& j : r.moves) q.apply(j);  // an illegal jump would be a solver bug
      if (!goal_reached(problem, q.pegs()))
        throw InternalError("is_solvable: the solver's solution does not reach the goal");
      a.verdict = Solvability::Solvable;
      a.solution = std::move(r.moves);
      a.reason.clear();
      break;
    }
    case Status::Impossible:
      a.verdict = Solvability::NotSolvable;
      break;
    case Status::Unknown:
      a.verdict = Solvability::Unknown;
      break;
  }
  return a;
}

Hint hint(const Position& p, const Goal& goal, double time_limit_seconds) {
  SolveOptions o;
  o.time_limit = time_limit_seconds;
  return hint(p, goal, o);
}

Hint hint(const Position& p, const Goal& goal, const SolveOptions& options) {
  Hint h;
  h.answer = is_solvable(p, goal, options);
  if (h.answer.verdict == Solvability::Solvable && !h.answer.solution.empty())
    h.move = group_moves(h.answer.solution).front();
  return h;
}

}  // namespace pegsol
