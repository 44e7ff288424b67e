// SPDX-License-Identifier: MIT
// `pegsol play`: reads commands and moves line by line, draws the board after each change and
// says whether the game can still be won. Everything it knows comes from the play API and the
// analysis; this file only parses commands and prints.
#include "play_cmd.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "cli.hpp"
#include "pegsol/analysis.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/json.hpp"
#include "pegsol/path_index.hpp"
#include "pegsol/play.hpp"
#include "pegsol/presets.hpp"
#include "pegsol/svg.hpp"
#include "problem_options.hpp"
#include "text.hpp"

namespace pegsol::cli {

namespace {

// The fewest-moves search of `shortest`: its time (unless --think is longer) and memory.
constexpr double kShortestSeconds = 10;
constexpr std::size_t kShortestBytes = std::size_t{1} << 30;

constexpr const char* kHelp =
    R"(Moves: a jump in the board's notation (d2-d4, 4-1) or a chain of jumps by one peg
(f3-d3-d5); several moves on one line are played in turn.
Commands:
  undo, u          take back the last move         redo, r        play it again
  hint, h          the next move of a solution      finish, f      play a solution to the end
  shortest, s      finish in the fewest moves from here (a proof that none is shorter)
  why, w           where did I go wrong?            rewind [N]     back to before the losing
                                                                   move (or to N moves played)
  restart          back to the start                moves, m       the moves played
  analyse, a       ways left and end holes          board, b       draw the board again
  save FILE        write the game (docs/game-format.md)
  help, ?          this text                        quit, q        leave (end of input too)
)";

std::string goal_words(const Board& b, const Goal& g) {
  switch (g.kind) {
    case Goal::Kind::Any:
      return "one peg anywhere";
    case Goal::Kind::Hole:
      return "one peg on " + b.hole_name(g.hole);
    case Goal::Kind::Position:
      return "the goal position (" + std::to_string(g.position.count()) + " pegs)";
  }
  return "";
}

// `s` without the blanks around it.
std::string trimmed(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r\n");
  return a == std::string::npos ? std::string()
                                : s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

class Session {
 public:
  Session(Game game, const Control& control, double think, bool analysis, std::size_t memo_bytes)
      : game_(std::move(game)),
        analyzer_(game_.problem().board, game_.problem().goal, memo_bytes),
        control_(control),
        think_(think),
        analysis_(analysis),
        colour_(want_colour()),
        prompt_(isatty(STDIN_FILENO) != 0) {
    // The solution-path look-ups of this game's start start building at once, in the background.
    if (analysis_) paths_.start(game_.problem());
  }

  int run() {
    const Board& b = board();
    fmt::print("pegsol play: {} ({}). Type a move such as {}, or help.\n", b.name(),
               describe(game_.problem()), example_move());
    show(nullptr);
    std::string line;
    for (;;) {
      if (prompt_) fmt::print("> ");
      std::fflush(stdout);
      if (!std::getline(std::cin, line)) break;
      if (control_.stop_reason() == StopReason::Signal) break;
      if (!command(line)) break;
    }
    if (prompt_) fmt::print("\n");
    return 0;
  }

 private:
  const Board& board() const { return *game_.problem().board; }

  std::string example_move() const {
    auto moves = legal_moves(game_.position());
    return moves.empty() ? "d2-d4" : move_chain_text(board(), moves.front());
  }

  // Runs one input line; false to leave.
  bool command(const std::string& line) {
    std::istringstream in(line);
    std::string word;
    if (!(in >> word)) return true;
    const std::string w = lower(word);
    std::string rest;
    std::getline(in, rest);
    rest = trimmed(rest);
    try {
      if (w == "q" || w == "quit" || w == "exit") return false;
      if (w == "help" || w == "?") {
        fmt::print("{}", kHelp);
      } else if (w == "u" || w == "undo") {
        if (game_.undo())
          show(nullptr);
        else
          error("nothing to undo");
      } else if (w == "r" || w == "redo") {
        if (game_.redo())
          show(&game_.moves()[game_.cursor() - 1]);
        else
          error("nothing to redo");
      } else if (w == "restart") {
        while (game_.undo()) {
        }
        show(nullptr);
      } else if (w == "h" || w == "hint") {
        hint();
      } else if (w == "f" || w == "finish") {
        finish();
      } else if (w == "s" || w == "shortest") {
        shortest();
      } else if (w == "w" || w == "why") {
        why();
      } else if (w == "rewind") {
        rewind(rest);
      } else if (w == "m" || w == "moves") {
        print_moves();
      } else if (w == "a" || w == "analyse" || w == "analyze") {
        report(true);
      } else if (w == "b" || w == "board") {
        draw(nullptr);
      } else if (w == "save") {
        save(rest);
      } else {
        play(line);
      }
    } catch (const InputError& e) {
      error(e.what());
    }
    return true;
  }

  void error(const std::string& what) const {
    fmt::print("{}\n", colour_ ? "\x1b[31m" + what + "\x1b[0m" : what);
  }

  // Plays the line's moves (parse_move_list) in turn, stopping at the first that is not legal; a
  // line that is not all moves plays none.
  void play(const std::string& line) {
    std::vector<Move> moves;
    try {
      moves = parse_move_list(board(), line);
    } catch (const InputError& e) {
      throw InputError("not a move or a command: '" + trimmed(line) + "' (" + e.what() +
                       "); type help for the commands");
    }
    const Move* last = nullptr;
    for (const Move& m : moves) {
      try {
        game_.play(m);
      } catch (const InputError& e) {
        if (last) show(last);
        throw InputError("illegal move " + move_chain_text(board(), m) + ": " + e.what());
      }
      last = &game_.moves()[game_.cursor() - 1];
    }
    if (last) show(last);
  }

  // `ways`: count the ways left and the end holes (the count decides in any case where the
  // short searches did not).
  AnalysisOptions options(bool ways = true) const {
    AnalysisOptions o;
    o.control = &control_;
    o.time_limit = think_;
    o.ways = ways;
    o.start = game_.problem().start;  // every position of the game is reached from it
    o.paths = &paths_;
    return o;
  }

  // The board, then the live verdict. Every change of the game comes here, so a losing move
  // found before it is forgotten (rewind asks again).
  void show(const Move* last) {
    mistake_.reset();
    draw(last);
    if (analysis_) report(false);
  }

  void draw(const Move* last) const {
    const Board& b = board();
    const Position& p = game_.position();
    auto glyph = [&](int h) {
      const bool peg = p.is_peg(h);
      std::string g(1, peg ? 'o' : '.');
      if (!colour_) return g;
      if (last && h == last->to()) return "\x1b[1;33m" + g + "\x1b[0m";
      if (last && std::any_of(last->jumps.begin(), last->jumps.end(),
                              [&](const Jump& j) { return h == j.from || h == j.over; }))
        return "\x1b[31m" + g + "\x1b[0m";
      return peg ? "\x1b[32m" + g + "\x1b[0m" : "\x1b[2m" + g + "\x1b[0m";
    };
    std::string out = "\n";
    if (b.lattice() != Lattice::Triangular) {
      // Column letters over the grid, row numbers beside it (names as the board gives them).
      const int cols = b.max_coord().c - b.min_coord().c + 1;
      const int rows = b.max_coord().r - b.min_coord().r + 1;
      std::vector<std::string> col_name(static_cast<std::size_t>(cols)),
          row_name(static_cast<std::size_t>(rows));
      for (int h = 0; h < b.size(); ++h) {
        const std::string& n = b.hole_name(h);
        const std::size_t digits = n.find_first_of("0123456789");
        col_name[static_cast<std::size_t>(b.coord(h).c - b.min_coord().c)] = n.substr(0, digits);
        row_name[static_cast<std::size_t>(b.coord(h).r - b.min_coord().r)] = n.substr(digits);
      }
      std::size_t rw = 0, cw = 1;
      for (const auto& r : row_name) rw = std::max(rw, r.size());
      for (const auto& c : col_name) cw = std::max(cw, c.size());
      std::string header(rw + 1, ' ');
      for (const auto& c : col_name) header += fmt::format("{:>{}}", c, cw + 1);
      out += header + "\n";
      const auto lines = b.render([&](int h) { return std::string(cw, ' ') + glyph(h); },
                                  static_cast<int>(cw) + 1);
      for (std::size_t r = 0; r < lines.size(); ++r)
        out += fmt::format("{:>{}} {}\n", row_name[r], rw, lines[r]);
    } else {
      // The pegs, and beside them the holes' numbers.
      std::size_t nw = 0;
      for (int h = 0; h < b.size(); ++h) nw = std::max(nw, b.hole_name(h).size());
      const auto pegs = b.render([&](int h) { return std::string(nw - 1, ' ') + glyph(h); },
                                 static_cast<int>(nw));
      const auto plain = b.render([&](int) { return std::string(nw, 'o'); }, static_cast<int>(nw));
      const auto names = b.render([&](int h) { return fmt::format("{:>{}}", b.hole_name(h), nw); },
                                  static_cast<int>(nw));
      std::size_t width = 0;
      for (const auto& l : plain) width = std::max(width, l.size());
      for (std::size_t r = 0; r < pegs.size(); ++r)
        out += "  " + pegs[r] + std::string(width - plain[r].size() + 4, ' ') + names[r] + "\n";
    }
    out += fmt::format("\npegs {}  moves {}{}\n", p.peg_count(), game_.cursor(),
                       game_.can_redo()
                           ? fmt::format(" (+{} to redo)", game_.moves().size() - game_.cursor())
                           : "");
    fmt::print("{}", out);
  }

  // A verdict, and why in plain words when it is not solvable (the engine's words with `details`).
  std::string verdict(const SolvabilityAnswer& a, const Explanation& why,
                      bool details = false) const {
    switch (a.verdict) {
      case Solvability::Solvable:
        return colour_ ? "\x1b[32msolvable\x1b[0m" : "solvable";
      case Solvability::NotSolvable:
        return (colour_ ? "\x1b[31mnot solvable\x1b[0m" : "not solvable") + std::string(": ") +
               (why.text.empty() ? a.reason : why.text) +
               (details && !why.text.empty() ? "\n  (details: " + a.reason + ")" : "");
      case Solvability::Unknown:
        return "unknown (" + a.reason + ")";
    }
    return "";
  }

  // While the game's look-ups are being built: a line saying so (the answers are searches' till
  // then, and may be "unknown").
  void preparing() const {
    const LookupStatus st = paths_.status(game_.problem());
    if (st.state == LookupStatus::State::Queued || st.state == LookupStatus::State::Building)
      fmt::print("preparing exact answers... ({:.0f}%)\n", 100 * st.fraction);
  }

  // "Still solvable?" for the current position; with `full`, the counts even when not asked.
  void report(bool full) {
    const Board& b = board();
    const Position& p = game_.position();
    if (game_.won()) {
      fmt::print("{}\n", colour_ ? "\x1b[1;32mYou won!\x1b[0m" : "You won!");
      return;
    }
    Analysis a = analyzer_.analyze(p, options());
    const Goal& g = game_.problem().goal;
    if (!a.exact) preparing();
    std::string ways;
    if (a.counted) ways = fmt::format(" ({} ways left)", grouped(a.ways_goal));
    fmt::print("goal, {}: {}{}\n", goal_words(b, g), verdict(a.goal, a.goal_explanation, full),
               a.goal.verdict == Solvability::Solvable ? ways : "");
    if (g.kind != Goal::Kind::Any) {
      std::string ways1;
      if (a.counted) ways1 = fmt::format(" ({} ways left)", grouped(a.ways_one_peg));
      fmt::print("one peg anywhere: {}{}\n", verdict(a.one_peg, a.one_peg_explanation, full),
                 a.one_peg.verdict == Solvability::Solvable ? ways1 : "");
    }
    if (a.counted && a.ways_one_peg > 0) {
      std::string holes;
      for (int h : a.end_holes.members()) holes += " " + b.hole_name(h);
      fmt::print("the last peg can still end on:{}\n", holes);
    } else if (full && !a.counted) {
      fmt::print("not counted: {}\n", a.count_note);
    }
    if (game_.finished())
      fmt::print("No move left: {} pegs.{}\n", p.peg_count(),
                 a.goal.verdict == Solvability::NotSolvable && game_.cursor() > 0
                     ? " Type why to find the move that lost the game."
                     : "");
    else if (a.goal.verdict == Solvability::NotSolvable && game_.cursor() > 0)
      fmt::print("Type why to find the move that lost the game.\n");
  }

  void hint() {
    Analysis a = analyzer_.analyze(game_.position(), options(false));
    if (a.hint) {
      fmt::print("hint: {}{}\n", move_chain_text(board(), *a.hint),
                 a.hint_to_goal ? "" : " (towards one peg: the goal is out of reach)");
      return;
    }
    if (game_.won())
      fmt::print("the goal is reached\n");
    else
      fmt::print("no hint: {}\n", verdict(a.goal, a.goal_explanation));
  }

  // Plays a solution from here to the end, keeping the moves played.
  void finish() {
    Analysis a = analyzer_.analyze(game_.position(), options(false));
    const SolvabilityAnswer& s = a.goal.verdict == Solvability::Solvable ? a.goal : a.one_peg;
    if (s.verdict != Solvability::Solvable) {
      fmt::print("cannot finish: {}\n", verdict(a.goal, a.goal_explanation));
      return;
    }
    const std::size_t kept = game_.cursor();
    std::string text;
    for (const Move& m : group_moves(s.solution)) {
      game_.play(m);
      text += " " + move_chain_text(board(), m);
    }
    fmt::print("kept your {} move{}; the rest{}:{}\n", kept, kept == 1 ? "" : "s",
               &s == &a.goal ? "" : " (to one peg: the goal is out of reach)", text);
    show(nullptr);
  }

  // Plays a solution with the fewest moves from here, keeping the moves played. The search runs
  // for at most kShortestSeconds (or --think when that is longer); stopped, it plays the best
  // solution found and says what is proven.
  void shortest() {
    if (game_.won()) {
      fmt::print("the goal is reached\n");
      return;
    }
    Control limit(&control_);
    limit.set_time_limit(think_ > 0 ? std::max(think_, kShortestSeconds) : 0);
    limit.set_memory_budget(kShortestBytes);
    FewestOptions o;
    o.control = &limit;
    // At a terminal, the bounds closing on one line, cleared when the search ends.
    if (prompt_)
      limit.set_progress([](const ProgressReport& r) {
        if (!r.fewest) return;
        fmt::print(
            "\rsearching: at least {} moves{}, {} positions, {:.0f} s ", r.fewest->lower_bound,
            r.fewest->best_found >= 0 ? fmt::format(", best found {}", r.fewest->best_found) : "",
            r.positions, r.seconds);
        std::fflush(stdout);
      });
    const Problem from{game_.problem().board, game_.position().pegs(), game_.problem().goal};
    const FewestResult r = fewest_solve(from, o);
    if (prompt_) fmt::print("\r{:79}\r", "");
    if (r.jumps.empty()) {
      fmt::print("cannot finish: {}\n",
                 r.status == Status::Impossible
                     ? r.reason
                     : fmt::format("{} (at least {} moves)", r.reason, r.lower_bound));
      return;
    }
    const std::size_t kept = game_.cursor();
    std::string text;
    for (const Move& m : r.chains()) {
      game_.play(m);
      text += " " + move_chain_text(board(), m);
    }
    fmt::print("kept your {} move{}; the fewest from there, {} move{}{}:{}\n", kept,
               kept == 1 ? "" : "s", r.moves, r.moves == 1 ? "" : "s",
               r.proven
                   ? " (proven)"
                   : fmt::format(" (the best found; at least {}: {})", r.lower_bound, r.reason),
               text);
    show(nullptr);
  }

  void why() {
    Mistake m = analyzer_.first_mistake(game_, options());
    if (m.now == Solvability::Solvable) {
      fmt::print("nothing went wrong: the goal can still be reached\n");
    } else if (m.start_lost) {
      fmt::print("the start itself cannot reach the goal: {}\n",
                 m.explanation.text.empty() ? m.reason : m.explanation.text);
    } else if (m.move) {
      mistake_ = m.move;
      fmt::print(
          "move {} ({}) lost the game: after it, {}\nType rewind to go back to just before it.\n",
          *m.move + 1, move_chain_text(board(), game_.moves()[*m.move]),
          m.explanation.text.empty() ? m.reason : m.explanation.text);
    } else {
      fmt::print("cannot tell: {}\n", m.note);
    }
  }

  void rewind(const std::string& arg) {
    std::size_t to = 0;
    if (!arg.empty()) {
      std::size_t used = 0;
      try {
        to = std::stoul(arg, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != arg.size())
        throw InputError("rewind takes a number of moves to keep, not '" + arg + "'");
    } else {
      if (!mistake_) why();
      if (!mistake_) return;
      to = *mistake_;
    }
    if (to > game_.cursor())
      throw InputError("rewind " + std::to_string(to) + ": only " + std::to_string(game_.cursor()) +
                       " moves are played");
    while (game_.cursor() > to) game_.undo();
    mistake_.reset();
    show(nullptr);
  }

  void print_moves() const {
    if (game_.cursor() == 0) {
      fmt::print("no move played\n");
      return;
    }
    std::string out;
    for (std::size_t i = 0; i < game_.cursor(); ++i)
      out +=
          fmt::format("{}{}.{}", i ? " " : "", i + 1, move_chain_text(board(), game_.moves()[i]));
    fmt::print("{}\n", out);
  }

  void save(const std::string& path) const {
    if (path.empty()) throw InputError("save needs a file name: save game.txt");
    std::ofstream f(path);
    if (!(f << game_.to_text()) || !(f.close(), f)) throw InputError("cannot write " + path);
    fmt::print("saved to {}\n", path);
  }

  Game game_;
  Analyzer analyzer_;
  mutable PathIndexCache paths_;  // get() builds: not part of the session's state
  const Control& control_;
  double think_;
  bool analysis_;
  bool colour_;
  bool prompt_;
  std::optional<std::size_t> mistake_;
};

}  // namespace

PlayCommand::PlayCommand(CLI::App& app) {
  cmd_ =
      app.add_subcommand("play", "Play in the terminal: moves, undo, hints, where it went wrong");
  cmd_->add_option("game", game_file_, "@FILE: a saved game to go on with (docs/game-format.md)");
  add_problem_options(cmd_, args_);
  cmd_->add_option("--preset", preset_,
                   "A preset problem by name (`pegsol presets`); excludes --board, --start, "
                   "--end and --goal");
  cmd_->add_option("--think", think_, "Seconds of analysis after each move (0: no limit)")
      ->check(seconds_check());
  cmd_->add_flag("--no-analysis", no_analysis_, "Do not say after each move whether it can be won");
  cmd_->add_option("--memo", memo_mb_,
                   "Megabytes of the analysis's search memo, per verdict (kept for the whole game; "
                   "it grows only as long searches fill it)")
      ->check(positive_check());
}

std::optional<int> PlayCommand::run(const Control& control) {
  if (!*cmd_) return std::nullopt;
  std::optional<Game> game;
  const bool problem_given = !args_.board.empty() || !args_.lattice.empty() ||
                             !args_.start.empty() || !args_.end.empty() || !args_.goal.empty();
  if (!preset_.empty() && (problem_given || !game_file_.empty()))
    throw InputError("play: --preset " + preset_ +
                     " names its board, start and goal; leave out a saved game and --board, "
                     "--lattice, --start, --end and --goal");
  if (!preset_.empty()) {
    game.emplace(preset_problem(preset(preset_)));
  } else if (!game_file_.empty()) {
    if (problem_given)
      throw InputError(
          "play: a saved game brings its own board, start and goal; leave out "
          "--board, --lattice, --start, --end and --goal");
    const std::string path = game_file_.front() == '@' ? game_file_.substr(1) : game_file_;
    game.emplace(Game::parse(read_file(path, "play " + game_file_), path));
  } else {
    game.emplace(build_problem(args_));
  }
  return Session(std::move(*game), control, think_, !no_analysis_, megabytes(memo_mb_)).run();
}

}  // namespace pegsol::cli
