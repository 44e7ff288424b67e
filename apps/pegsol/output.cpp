#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "cli.hpp"
#include "pegsol/error.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/play.hpp"
#include "pegsol/version.hpp"

namespace pegsol::cli {

namespace {

HoleSet load_position(const Board& board, const std::string& arg, const char* option) {
  std::string path = arg.substr(1);
  if (path.empty()) throw InputError(std::string(option) + " @FILE: the file name is missing");
  return parse_position(board, read_file(path), path);
}

int hole_named(const Board& board, const std::string& name, const char* option) {
  if (auto h = board.find(name)) return *h;
  std::string example = board.hole_name(board.size() / 2);
  throw InputError(std::string(option) + " " + name + ": board " + board.name() +
                   " has no hole named '" + name + "' (holes are named like " + example +
                   "; see `pegsol show --board " + board.name() + "`)");
}

// --start HOLE (a single vacancy) or the 0/1 string that `solve --json` prints as "start".
HoleSet start_arg(const Board& board, const std::string& arg) {
  if (board.find(arg) || arg.find_first_not_of("01") != std::string::npos)
    return single_vacancy(board, hole_named(board, arg, "--start"));
  if (static_cast<int>(arg.size()) != board.size())
    throw InputError("--start " + arg +
                     ": a position string needs one '0' or '1' for each of the " +
                     std::to_string(board.size()) + " holes of board " + board.name() + ", not " +
                     std::to_string(arg.size()));
  return HoleSet::from_bits(arg);
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

}  // namespace

Problem build_problem(const ProblemArgs& a) {
  std::optional<Lattice> lattice;
  if (!a.lattice.empty()) {
    lattice = parse_lattice(a.lattice);
    if (!lattice)
      throw InputError("--lattice " + a.lattice + ": expected square, square8 or triangular");
  }
  // --start @FILE: a game file (continued from its current position) or a drawn position.
  std::string start_path, start_text;
  std::optional<Game> game;
  if (!a.start.empty() && a.start[0] == '@') {
    start_path = a.start.substr(1);
    if (start_path.empty()) throw InputError("--start @FILE: the file name is missing");
    start_text = read_file(start_path);
    if (is_game_text(start_text)) game = Game::parse(start_text, start_path);
  }
  Problem p;
  std::optional<HoleSet> drawn;
  if (game && a.board.empty()) {
    p.board = game->problem().board;
  } else if (!a.board.empty() && a.board[0] == '@') {
    std::string path = a.board.substr(1);
    if (path.empty()) throw InputError("--board @FILE: the file name is missing");
    Drawing d = parse_drawing(read_file(path), path, lattice);
    p.board = d.board;
    if (d.pegs.count() < d.board->size()) drawn = d.pegs;
  } else {
    p.board = make_board(a.board.empty() ? "english" : a.board, lattice);
  }
  if (game) {
    if (lattice && *lattice != game->problem().board->lattice())
      throw InputError("--lattice " + a.lattice + ": the game in " + start_path + " is on the " +
                       std::string(lattice_name(game->problem().board->lattice())) + " lattice");
    if (!same_board(*p.board, *game->problem().board))
      throw InputError("--start @" + start_path + ": the game is on board " +
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
    p.start = a.start[0] == '@' ? parse_position(b, start_text, start_path) : start_arg(b, a.start);
  } else if (drawn) {
    p.start = *drawn;
  } else if (def) {
    p.start = def->start;
  } else {
    throw InputError("board " + b.name() + " has no default start: give --start HOLE or @FILE");
  }
  if (!a.goal.empty() && !a.end.empty()) throw InputError("give either --end or --goal, not both");
  if (!a.goal.empty()) {
    if (a.goal[0] != '@') throw InputError("--goal " + a.goal + ": expected @FILE (a drawing)");
    p.goal.kind = Goal::Kind::Position;
    p.goal.position = load_position(b, a.goal, "--goal");
  } else if (a.end == "any") {
    p.goal.kind = Goal::Kind::Any;
  } else if (!a.end.empty()) {
    p.goal.kind = Goal::Kind::Hole;
    p.goal.hole = hole_named(b, a.end, "--end");
  } else if (game) {
    p.goal = game->problem().goal;
  } else if (a.start.empty() && !drawn && def) {
    p.goal = def->goal;
  } else {
    p.goal.kind = Goal::Kind::Any;
  }
  if (p.start.count() == 0) throw InputError("the start position has no pegs");
  return p;
}

bool want_colour() {
  const char* nc = std::getenv("NO_COLOR");
  return isatty(STDOUT_FILENO) && !(nc && *nc);
}

int terminal_columns() {
  if (const char* c = std::getenv("COLUMNS")) {
    int v = std::atoi(c);
    if (v >= 20) return v;
  }
  return 80;
}

namespace {

// One line of beam figures: the last attempt's method, complement pairs where the two sides met
// (the sweep has no second side), positions over all attempts, time, capacity, attempts.
std::string beam_line(const BeamStats& s, const SolveResult& r) {
  if (s.attempts == 0) return "beam: no attempt run\n";
  const std::string pairs = s.method == "sweep" ? std::string("no complement pairs (one side)")
                                                : fmt::format("{} complement pairs", s.pairs);
  return fmt::format("beam ({}): {}, {} positions, {:.2f} s, capacity {}, {} attempt{}\n", s.method,
                     pairs, r.nodes, r.seconds, s.capacity, s.attempts, s.attempts == 1 ? "" : "s");
}

}  // namespace

std::string format_solution(const Problem& p, const SolveResult& r, bool colour, int columns,
                            bool draw) {
  const Board& b = *p.board;
  std::string out = describe(p) + "\n";
  if (r.status != Status::Solved) {
    out += fmt::format("{}: {}\n", status_name(r.status), r.reason);
    out += fmt::format("({} positions searched, {:.3f} ms)\n", r.nodes, r.seconds * 1e3);
    if (r.beam) out += beam_line(*r.beam, r);
    return out;
  }
  out += fmt::format("solved in {} moves ({} positions searched, {:.3f} ms)\n", r.moves.size(),
                     r.nodes, r.seconds * 1e3);
  if (r.beam) out += beam_line(*r.beam, r);
  std::string line;
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    std::string m = fmt::format("{}.{}", i + 1, move_text(b, r.moves[i]));
    if (!line.empty() && static_cast<int>(line.size() + 1 + m.size()) > columns) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + m;
  }
  if (!line.empty()) out += line + "\n";
  if (!draw) return out;
  // Positions side by side: the start, then the position after each move. The landing peg is
  // highlighted; holes emptied by the move are marked.
  struct Frame {
    std::string title;
    std::vector<std::string> lines;
    int width = 0;
  };
  std::vector<Frame> frames;
  HoleSet pos = p.start;
  auto frame = [&](const std::string& title, const Jump* last) {
    Frame f;
    f.title = title;
    f.lines = b.render([&](int h) {
      bool peg = pos.test(h);
      std::string g(1, peg ? 'o' : '.');
      if (!colour) return g;
      if (last && h == last->to) return "\x1b[1;33m" + g + "\x1b[0m";
      if (last && (h == last->from || h == last->over)) return "\x1b[31m" + g + "\x1b[0m";
      return peg ? "\x1b[32m" + g + "\x1b[0m" : "\x1b[2m" + g + "\x1b[0m";
    });
    // Display width: the plain render.
    for (const std::string& l : b.render([&](int) { return std::string(1, 'o'); }))
      f.width = std::max(f.width, static_cast<int>(l.size()));
    f.width = std::max(f.width, static_cast<int>(title.size()));
    frames.push_back(std::move(f));
  };
  frame("start", nullptr);
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    const Jump& j = r.moves[i];
    pos.set(j.from, false);
    pos.set(j.over, false);
    pos.set(j.to, true);
    frame(fmt::format("{}.{}", i + 1, move_text(b, j)), &j);
  }
  const int gap = 3;
  std::vector<int> plain_len;  // visible width of each rendered line
  std::size_t i = 0;
  while (i < frames.size()) {
    std::size_t k = i;
    int used = 0;
    while (k < frames.size() && (k == i || used + gap + frames[k].width <= columns)) {
      used += (k == i ? 0 : gap) + frames[k].width;
      ++k;
    }
    std::size_t rows = frames[i].lines.size();
    out += "\n";
    for (std::size_t row = 0; row <= rows; ++row) {
      std::string text;
      for (std::size_t f = i; f < k; ++f) {
        const Frame& fr = frames[f];
        std::string cell = row == 0 ? fr.title : fr.lines[row - 1];
        // Visible width: strip colour codes.
        int visible = 0;
        for (std::size_t c = 0; c < cell.size(); ++c) {
          if (cell[c] == '\x1b') {
            while (c < cell.size() && cell[c] != 'm') ++c;
          } else {
            ++visible;
          }
        }
        text += cell;
        if (f + 1 < k) text += std::string(static_cast<std::size_t>(fr.width - visible + gap), ' ');
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      out += text + "\n";
    }
    i = k;
  }
  return out;
}

nlohmann::json solution_json(const Problem& p, const SolveResult& r) {
  const Board& b = *p.board;
  nlohmann::json moves = nlohmann::json::array(), notation = nlohmann::json::array();
  for (const Jump& j : r.moves) {
    moves.push_back({j.from, j.over, j.to});
    notation.push_back(move_text(b, j));
  }
  nlohmann::json stats = {{"nodes", r.nodes}, {"seconds", r.seconds}, {"width", r.width}};
  if (r.beam) {
    stats["pairs"] = r.beam->pairs;
    stats["expanded"] = r.nodes;
    stats["capacity"] = r.beam->capacity;
    stats["attempts"] = r.beam->attempts;
    stats["method"] = r.beam->method;
  }
  return {
      {"board", b.name()},
      {"holes", b.size()},
      {"start", p.start.to_bits()},
      {"status", std::string(status_name(r.status))},
      {"reason", r.reason},
      {"moves", moves},
      {"notation", notation},
      {"final", r.final.to_bits()},
      {"stats", stats},
  };
}

}  // namespace pegsol::cli

namespace pegsol::cli {

namespace {

BoardPtr board_of(const ProblemArgs& a) {
  ProblemArgs b = a;
  b.start = b.end = b.goal = "";
  std::optional<Lattice> lattice;
  if (!a.lattice.empty()) {
    lattice = parse_lattice(a.lattice);
    if (!lattice)
      throw InputError("--lattice " + a.lattice + ": expected square, square8 or triangular");
  }
  if (!a.board.empty() && a.board[0] == '@') {
    std::string path = a.board.substr(1);
    return parse_drawing(read_file(path), path, lattice).board;
  }
  return make_board(a.board.empty() ? "english" : a.board, lattice);
}

nlohmann::json board_json(const Board& b) {
  nlohmann::json names = nlohmann::json::array();
  for (int h = 0; h < b.size(); ++h) names.push_back(b.hole_name(h));
  return {{"board", b.name()},
          {"lattice", std::string(lattice_name(b.lattice()))},
          {"holes", b.size()},
          {"jumps", b.jumps().size()},
          {"symmetries", b.symmetries().size()},
          {"class_invariants", b.class_invariants().size()},
          {"peg_types", b.peg_type_count()},
          {"bit_width", b.width()},
          {"names", names}};
}

}  // namespace

int print_boards(bool json) {
  nlohmann::json all = nlohmann::json::array();
  if (!json)
    fmt::print("{:<12} {:>6} {:>6} {:>5}  {:<11} {}\n", "board", "holes", "jumps", "syms",
               "lattice", "description");
  for (const CatalogueEntry& e : catalogue()) {
    BoardPtr b = make_board(e.spec);
    if (json) {
      nlohmann::json j = board_json(*b);
      j.erase("names");
      j["description"] = e.description;
      j["default_problem"] = describe(default_problem(b));
      all.push_back(j);
    } else {
      fmt::print("{:<12} {:>6} {:>6} {:>5}  {:<11} {}\n", e.spec, b->size(), b->jumps().size(),
                 b->symmetries().size(), lattice_name(b->lattice()), e.description);
    }
  }
  if (json) {
    const KernelInfo k = kernel_info();
    nlohmann::json out = {{"version", std::string(version())},
                          {"kernels",
                           {{"cpu", std::string(isa_name(k.cpu))},
                            {"census", std::string(isa_name(k.census))},
                            {"cap", k.cap}}},
                          {"boards", all}};
    fmt::print("{}\n", out.dump());
  }
  return 0;
}

int print_show(const ProblemArgs& a, bool json) {
  BoardPtr b = board_of(a);
  if (json) {
    fmt::print("{}\n", board_json(*b).dump());
    return 0;
  }
  std::size_t w = 0;
  for (int h = 0; h < b->size(); ++h) w = std::max(w, b->hole_name(h).size());
  int cell = static_cast<int>(w) + (b->lattice() == Lattice::Triangular ? 0 : 1);
  fmt::print(
      "{} ({} lattice): {} holes, {} jumps, {} symmetries, {} peg types, {} class "
      "invariants, {}-bit layout\n\n",
      b->name(), lattice_name(b->lattice()), b->size(), b->jumps().size(), b->symmetries().size(),
      b->peg_type_count(), b->class_invariants().size(), b->width());
  for (const std::string& line : b->render(
           [&](int h) {
             std::string n = b->hole_name(h);
             return std::string(static_cast<std::size_t>(cell) - n.size(), ' ') + n;
           },
           cell)) {
    std::string l = line;
    while (!l.empty() && l.back() == ' ') l.pop_back();
    fmt::print("{}\n", l);
  }
  return 0;
}

}  // namespace pegsol::cli
