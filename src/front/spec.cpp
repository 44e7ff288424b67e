// SPDX-License-Identifier: MIT
// Problems named as text: board specs, @FILE drawings and games, hole names, default rules.
#include <optional>
#include <string>

#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/play.hpp"
#include "pegsol/spec.hpp"

namespace pegsol {

namespace {

// The text of the file `@path` named by spec field `field`; InputError naming the field.
std::string field_file(const std::string& path, const char* field) {
  if (path.empty()) throw InputError(field, "@FILE: the file name is missing");
  try {
    return read_file(path, "@" + path);
  } catch (const InputError& e) {
    throw InputError(field, e.what());
  }
}

HoleSet load_position(const Board& board, const std::string& arg, const char* field) {
  const std::string path = arg.substr(1);
  const std::string text = field_file(path, field);
  try {
    return parse_position(board, text, path);
  } catch (const InputError& e) {
    throw InputError(field, e.what());
  }
}

int hole_named(const Board& board, const std::string& name, const char* field) {
  if (auto h = board.find(name)) return *h;
  std::string example = board.hole_name(board.size() / 2);
  throw InputError(field, "board " + board.name() + " has no hole named '" + name +
                              "' (holes are named like " + example + ")");
}

// The start as a hole (a single vacancy) or the 0/1 string that solve_json prints as "start".
HoleSet start_arg(const Board& board, const std::string& arg) {
  if (board.find(arg) || arg.find_first_not_of("01") != std::string::npos)
    return single_vacancy(board, hole_named(board, arg, "start"));
  if (static_cast<int>(arg.size()) != board.size())
    throw InputError("start", "a position string needs one '0' or '1' for each of the " +
                                  std::to_string(board.size()) + " holes of board " + board.name() +
                                  ", not " + std::to_string(arg.size()));
  return HoleSet::from_bits(arg);
}

// A drawing named by spec field "board" (@path) or read from the start's file.
Drawing board_drawing(const std::string& path, std::optional<Lattice> lattice) {
  const std::string text = field_file(path, "board");
  try {
    return parse_drawing(text, path, lattice);
  } catch (const InputError& e) {
    throw InputError("board", e.what());
  }
}

// True when two boards have the same lattice and the same holes up to translation.
bool same_board(const Board& a, const Board& b) {
  if (a.lattice() != b.lattice() || a.size() != b.size()) return false;
  for (int h = 0; h < a.size(); ++h) {
    Coord p = a.coord(h), q = b.coord(h);
    if (p.r - a.min_coord().r != q.r - b.min_coord().r ||
        p.c - a.min_coord().c != q.c - b.min_coord().c)
      return false;
  }
  return true;
}

// A catalogue board named by spec field "board".
BoardPtr catalogue_board(std::string_view spec, std::optional<Lattice> lattice) {
  try {
    return make_board(spec, lattice);
  } catch (const InputError& e) {
    throw InputError("board", e.what());
  }
}

std::optional<Lattice> lattice_of(const ProblemSpec& a) {
  if (a.lattice.empty()) return std::nullopt;
  std::optional<Lattice> lattice = parse_lattice(a.lattice);
  if (!lattice)
    throw InputError("lattice", "'" + a.lattice + "': expected square, square8 or triangular");
  return lattice;
}

}  // namespace

BoardPtr build_board(const ProblemSpec& a) {
  std::optional<Lattice> lattice = lattice_of(a);
  if (!a.board.empty() && a.board[0] == '@') {
    return board_drawing(a.board.substr(1), lattice).board;
  }
  return catalogue_board(a.board.empty() ? "english" : a.board, lattice);
}

Problem build_problem(const ProblemSpec& a) {
  std::optional<Lattice> lattice = lattice_of(a);
  // --start @FILE: a game file (continued from its current position) or a drawn position.
  std::string start_path, start_text;
  std::optional<Game> game;
  if (!a.start.empty() && a.start[0] == '@') {
    start_path = a.start.substr(1);
    start_text = field_file(start_path, "start");
    if (is_game_text(start_text)) {
      try {
        game = Game::parse(start_text, start_path);
      } catch (const InputError& e) {
        throw InputError("start", e.what());
      }
    }
  }
  Problem p;
  std::optional<HoleSet> drawn;
  if (game && a.board.empty()) {
    p.board = game->problem().board;
  } else if (!a.board.empty() && a.board[0] == '@') {
    Drawing d = board_drawing(a.board.substr(1), lattice);
    p.board = d.board;
    if (d.pegs.count() < d.board->size()) drawn = d.pegs;
  } else {
    p.board = catalogue_board(a.board.empty() ? "english" : a.board, lattice);
  }
  if (game) {
    if (lattice && *lattice != game->problem().board->lattice())
      throw InputError("lattice", "'" + a.lattice + "': the game in " + start_path + " is on the " +
                                      std::string(lattice_name(game->problem().board->lattice())) +
                                      " lattice");
    if (!same_board(*p.board, *game->problem().board))
      throw InputError("start", "@" + start_path + ": the game is on board " +
                                    game->problem().board->name() + ", not " + p.board->name());
    p.board = game->problem().board;
    drawn.reset();
  }
  const Board& b = *p.board;
  std::optional<Problem> def;
  try {
    def = default_problem(p.board);
  } catch (const InputError&) {
  }
  if (game) {
    p.start = game->position().pegs();
  } else if (!a.start.empty()) {
    if (a.start[0] == '@') {
      try {
        p.start = parse_position(b, start_text, start_path);
      } catch (const InputError& e) {
        throw InputError("start", e.what());
      }
    } else {
      p.start = start_arg(b, a.start);
    }
  } else if (drawn) {
    p.start = *drawn;
  } else if (def) {
    p.start = def->start;
  } else {
    throw InputError("start",
                     "board " + b.name() + " has no default start: give a hole or a drawing");
  }
  if (!a.goal.empty() && !a.end.empty())
    throw InputError("goal", "give either an end hole or a goal position, not both");
  if (!a.goal.empty()) {
    if (a.goal[0] != '@') throw InputError("goal", "'" + a.goal + "': expected @FILE (a drawing)");
    p.goal.kind = Goal::Kind::Position;
    p.goal.position = load_position(b, a.goal, "goal");
  } else if (a.end == "any") {
    p.goal.kind = Goal::Kind::Any;
  } else if (!a.end.empty()) {
    p.goal.kind = Goal::Kind::Hole;
    p.goal.hole = hole_named(b, a.end, "end");
  } else if (game) {
    p.goal = game->problem().goal;
  } else if (a.start.empty() && !drawn && def) {
    p.goal = def->goal;
  } else {
    p.goal.kind = Goal::Kind::Any;
  }
  if (p.start.count() == 0) throw InputError("start", "the start position has no pegs");
  return p;
}

}  // namespace pegsol
