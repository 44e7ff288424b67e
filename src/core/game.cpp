// SPDX-License-Identifier: MIT
// Games of the play API (include/pegsol/play.hpp): moves with undo and redo, and the game file
// (docs/game-format.md), read with errors naming line and column and written back.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/play.hpp"
#include "text.hpp"

namespace pegsol {

using text::is_bits;
using text::move_list_words;
using text::trim;
using text::without_move_number;

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
  // A full string of bits first, as the writer gives it: on a one-hole board "1" is also a name.
  if (is_bits(value) && static_cast<int>(value.size()) == b.size())
    return HoleSet::from_bits(value);
  if (auto h = b.find(value)) return single_vacancy(b, *h);
  if (is_bits(value))  // of the wrong length: a full string was read above
    fail(line.number, column(line.text, value),
         "the start position has " + std::to_string(value.size()) + " characters; board " +
             b.name() + " has " + std::to_string(b.size()) + " holes (one '0' or '1' each)");
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
  for (const std::string_view word : move_list_words(text)) {
    std::string_view chain;
    try {
      chain = without_move_number(word);
    } catch (const InputError& e) {
      fail(line.number, column(line.text, word), e.what());
    }
    if (chain.empty())
      fail(line.number, column(line.text, chain), "a move number without its move");
    try {
      out.push_back(parse_move_chain(*board_, chain));
    } catch (const InputError& e) {
      fail(line.number, column(line.text, chain), e.what());
    }
    where.emplace_back(line.number, column(line.text, chain));
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

}  // namespace pegsol
