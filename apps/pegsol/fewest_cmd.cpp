// SPDX-License-Identifier: MIT
#include "fewest_cmd.hpp"

#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

#include "cli.hpp"
#include "fewest_text.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/json.hpp"
#include "pegsol/spec.hpp"
#include "problem_options.hpp"
#include "text.hpp"

namespace pegsol::cli {

namespace {

FewestOptions options(const Control& control, const FewestFlags& flags) {
  FewestOptions o;
  o.control = &control;
  flags.apply(o);
  return o;
}

// A child of `parent` that shows the fewest-moves searches' bounds on one line at a terminal
// (not with --json); clear() clears the line.
class BoundsLine {
 public:
  BoundsLine(const Control& parent, bool json)
      : control_(&parent), on_(isatty(STDERR_FILENO) && !json) {
    if (on_)
      control_.set_progress([](const ProgressReport& r) {
        if (r.fewest) show(r, *r.fewest);
      });
  }
  const Control& control() const { return control_; }
  void clear() const {
    if (on_) fmt::print(stderr, "\r{:130}\r", "");
  }

 private:
  static void show(const ProgressReport& r, const FewestBounds& p) {
    const std::string best =
        p.best_found >= 0 ? fmt::format(", best found {}", p.best_found) : std::string();
    if (p.shortening) {
      fmt::print(stderr,
                 "\r{:.1f} s  moves: at least {}{}  out of memory: shortening, window {}{:40}",
                 r.seconds, p.lower_bound, best, p.window, "");
      return;
    }
    const std::string pair =
        p.pair >= 0 ? fmt::format("  pair {}/{}", p.pair + 1, p.pairs) : std::string();
    fmt::print(stderr,
               "\r{:.1f} s  moves: at least {}{}{}  forward at {} pegs, backward at {}  {} "
               "positions{}   ",
               r.seconds, p.lower_bound, best, pair, p.forward_level, p.backward_level, r.positions,
               p.released ? " (last levels only)" : "");
  }

  Control control_;
  bool on_;
};

}  // namespace

FewestCommand::FewestCommand(CLI::App& app) {
  cmd_ = app.add_subcommand(
      "fewest", "The fewest moves over every single-vacancy-to-one-peg problem of a board");
  add_board_options(cmd_, board_, lattice_);
  cmd_->add_option("--time-limit", time_limit_, "Stop after this many seconds (0: none)")
      ->check(seconds_check());
  cmd_->add_option("--memory-limit", memory_mb_, "Megabytes the search may hold (default 8192)")
      ->check(positive_check());
  cmd_->add_flag("--json", json_, "Print one JSON object");
  cmd_->add_flag("--split", split_,
                 "One search per start class and end class, each limited by the best solution "
                 "found so far (less memory a search; the same answer)");
  runs_.add(cmd_, "");
  flags_.add(cmd_, "");
}

std::optional<int> FewestCommand::run(const Control& parent) {
  if (!*cmd_) return std::nullopt;
  Control control(&parent);
  control.set_time_limit(time_limit_);
  control.set_memory_budget(megabytes(memory_mb_));
  ProblemSpec spec;
  spec.board = board_;
  spec.lattice = lattice_;
  BoardPtr board = build_board(spec);
  const BoundsLine shown(control, json_);
  FewestOptions o = options(shown.control(), flags_);
  runs_.apply(o, *board);
  o.split = split_;
  FewestBoardResult r;
  try {
    r = fewest_board(board, o);
  } catch (const InputError& e) {
    shown.clear();
    throw runs_.known_error(e);
  }
  shown.clear();
  const Board& b = *board;
  if (json_)
    fmt::print("{}\n", dump_json(fewest_board_json(b, r)));
  else
    fmt::print("{}", fewest_board_text(b, r, terminal_columns()));
  return exit_status(r.result.status);
}

int solve_fewest(const Problem& p, const std::vector<Move>& kept, const Control& control,
                 const FewestFlags& flags, const LongRunFlags& runs, bool json, int columns,
                 const std::string& svg_path) {
  const BoundsLine shown(control, json);
  FewestOptions o = options(shown.control(), flags);
  runs.apply(o, *p.board);
  FewestFinish f;
  if (kept.empty()) {
    try {
      f.rest = fewest_solve(p, o);
    } catch (const InputError& e) {
      shown.clear();
      throw runs.known_error(e);
    }
    f.jumps = f.rest.jumps;
  } else {
    // A known solution of the whole game (the JSON of `solve --moves ... --minimize moves`)
    // begins with the kept moves: the rest is the known solution from where they leave it.
    const std::vector<Jump> played = flatten(kept);
    if (o.known_solution.size() > played.size() &&
        std::equal(played.begin(), played.end(), o.known_solution.begin()))
      o.known_solution.erase(o.known_solution.begin(),
                             o.known_solution.begin() + static_cast<std::ptrdiff_t>(played.size()));
    try {
      f = fewest_finish(p, kept, o);
    } catch (const InputError& e) {
      shown.clear();
      if (e.field() == "FewestOptions::known_solution") throw runs.known_error(e);
      throw InputError(std::string("--moves: ") + e.what());
    }
  }
  shown.clear();
  const FewestResult& r = f.rest;
  if (!svg_path.empty() && !f.jumps.empty()) write_solution_svg(svg_path, p, f.jumps);
  if (json) {
    fmt::print("{}\n", dump_json(kept.empty() ? fewest_json(p, r) : fewest_finish_json(p, f)));
    return exit_status(r.status);
  }
  fmt::print("{}\n", describe(p));
  if (!kept.empty()) {
    std::string line;
    for (const Move& m : kept) line += " " + move_chain_text(*p.board, m);
    fmt::print("kept your {} move{} ({} jump{}):{}\nfrom the position after them, ", kept.size(),
               kept.size() == 1 ? "" : "s", f.kept_jumps, f.kept_jumps == 1 ? "" : "s", line);
  }
  fmt::print("{}\n", fewest_verdict(r));
  fmt::print("{}", numbered_moves(*p.board, r, columns));
  fmt::print("({} positions stored up to symmetry, {:.3f} s)\n", r.positions, r.seconds);
  return exit_status(r.status);
}

int table_fewest(const BoardPtr& board, const Control& control, const FewestFlags& flags, bool json,
                 int columns) {
  const BoundsLine shown(control, json);
  FewestTable t = fewest_table(board, options(shown.control(), flags));
  shown.clear();
  const Board& b = *board;
  if (json) {
    fmt::print("{}\n", dump_json(fewest_table_json(b, t)));
    return t.complete ? kSolved : kStopped;
  }
  fmt::print(
      "{}: fewest moves from each single vacancy (*) to one peg on each hole ('-' "
      "impossible{})\n\n",
      b.name(), t.complete ? "" : ", '?' not settled");
  std::vector<std::vector<std::string>> grids;
  for (int s = 0; s < b.size(); ++s) {
    std::vector<std::string> grid{b.hole_name(s)};
    for (auto& l : b.render(
             [&](int h) {
               int m = t.at(s, h);
               std::string cell = h == s                          ? "*"
                                  : m == FewestTable::kImpossible ? "-"
                                  : m == FewestTable::kUnknown    ? "?"
                                                                  : std::to_string(m);
               if (h == s && m >= 0) cell = std::to_string(m) + "*";
               return fmt::format("{:>3}", cell);
             },
             3))
      grid.push_back(std::move(l));
    grids.push_back(std::move(grid));
  }
  fmt::print("{}", side_by_side(grids, columns));
  if (t.fewest >= 0)
    fmt::print("board minimum: {} moves, proven (every pair settled), e.g. {} -> {}\n", t.fewest,
               b.hole_name(t.start), b.hole_name(t.end));
  else if (t.complete)
    fmt::print("no single vacancy can be solved to one peg\n");
  else
    fmt::print("table incomplete (stopped: {}): the board minimum is not settled\n",
               stop_reason_name(t.stop));
  fmt::print("{} positions stored, {:.3f} s\n", t.positions, t.seconds);
  return t.complete ? kSolved : kStopped;
}

}  // namespace pegsol::cli
