// SPDX-License-Identifier: MIT
#include "census_cmd.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "census_text.hpp"
#include "fewest_cmd.hpp"
#include "pegsol/api.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"
#include "pegsol/json.hpp"
#include "pegsol/notation.hpp"
#include "problem_options.hpp"
#include "text.hpp"

namespace pegsol::cli {

namespace {

// The census's limits are the control's (--memory-limit, --time-limit: run() sets them).
CensusOptions census_options(int threads, const Control* control) {
  CensusOptions o;
  o.threads = threads;
  o.control = control;
  return o;
}

// A child of `parent` that shows a census's or a table's progress on one line at a terminal (not
// with --json); clear() clears the line after a run of at least half a second.
class CensusLine {
 public:
  CensusLine(const Control& parent, bool json)
      : control_(&parent), on_(isatty(STDERR_FILENO) && !json) {
    if (on_) control_.set_progress(show);
  }
  const Control& control() const { return control_; }
  void clear(double seconds) const {
    if (on_ && seconds >= 0.5) fmt::print(stderr, "\r{:70}\r", "");
  }

 private:
  static void show(const ProgressReport& pr) {
    if (pr.table && pr.table->searches > 0) {
      fmt::print(stderr, "\rsearch {}/{}  {:.1f} s   ", pr.table->search, pr.table->searches,
                 pr.seconds);
      return;
    }
    const std::string pass = pr.table && pr.table->passes > 0
                                 ? fmt::format("pass {}/{}  ", pr.table->pass, pr.table->passes)
                                 : std::string();
    fmt::print(stderr, "\r{}{:.1f} s  level {}  {} positions  {:.2f} M/s  {}   ", pass, pr.seconds,
               pr.level, pr.positions, pr.positions / std::max(pr.seconds, 1e-9) / 1e6,
               mib(pr.memory_bytes));
  }

  Control control_;
  bool on_;
};

}  // namespace

CensusCommands::CensusCommands(CLI::App& app) {
  auto resources = [&](CLI::App* cmd) {
    cmd->add_option("--memory-limit", memory_mb_,
                    "Megabytes the census may hold (default: the machine's memory minus a margin)")
        ->check(positive_check());
    cmd->add_option("--spill-dir", spill_dir_,
                    "Directory for the disk spill: levels past half of --memory-limit go to a "
                    "file there (removed at the end, even after a kill) instead of stopping")
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--time-limit", time_limit_, "Stop after this many seconds (0: none)")
        ->check(seconds_check());
    cmd->add_option("--threads", threads_, "Worker threads (default: one per core)")
        ->check(whole_number_check(0, max_threads()));
    cmd->add_flag("--json", json_, "Print one JSON object");
  };
  count_ = app.add_subcommand("count", "Exact census: positions, solutions, games, chances");
  add_problem_options(count_, args_);
  resources(count_);
  auto checkpoints = [&](CLI::App* cmd, const std::string& when) {
    auto* checkpoint = cmd->add_option("--checkpoint", checkpoint_dir_,
                                       "Directory (made if missing) for the state after " + when +
                                           ", so that a killed run can go on with --resume");
    cmd->add_option("--resume", resume_dir_,
                    "Go on from the state in this directory (the same command wrote it); "
                    "checkpoints go on there")
        ->check(CLI::ExistingDirectory)
        ->excludes(checkpoint);
  };
  count_flags_.add(count_);
  checkpoints(count_, "each completed level");

  table_ = app.add_subcommand("table", "Solvability matrix: single vacancy -> single survivor");
  add_problem_options(table_, args_, ProblemParts::Board);
  table_
      ->add_option("--method", table_method_,
                   "auto (class proofs, transposition, a short search per open pair, then "
                   "passes for what is left) or passes (census passes only)")
      ->check(CLI::IsMember(table_method_names()));
  table_
      ->add_option("--search-seconds", search_seconds_,
                   "auto: seconds for each open pair's solution search (default 2)")
      ->check(positive_check());
  table_
      ->add_option("--minimize", minimize_,
                   "moves: the fewest moves of each pair instead (chains of jumps by one peg)")
      ->check(CLI::IsMember({"moves"}));
  fewest_flags_.add(
      table_, "; with --minimize moves",
      "No pagodas: the census passes store every reachable position, and with "
      "--minimize moves no tight or pruning pagodas (slower, the same answer; a cross-check)");
  resources(table_);
  checkpoints(table_, "the searches and each forward pass (and each level of a pass)");
  table_->add_flag("--no-level-checkpoints", no_level_checkpoints_,
                   "With --checkpoint or --resume: no checkpoints of a pass's levels, the "
                   "table's state after each pass alone (a level's files take disk space)");

  solutions_ = app.add_subcommand("solutions", "Stream solutions, one per line, in notation");
  add_problem_options(solutions_, args_);
  solutions_->add_option("--limit", limit_, "Stop after this many (0: all)")
      ->check(whole_number_check(0, UINT64_MAX));
  solutions_->add_flag("--distinct", distinct_,
                       "One per class of reorderings of independent jumps (the least by jump "
                       "order)");
  solutions_->add_flag("--games", games_, "Every complete game instead (until no jump is left)");
  solutions_->add_option("--time-limit", time_limit_, "Stop after this many seconds (0: none)")
      ->check(seconds_check());
  solutions_
      ->add_option("--memory-limit", memory_mb_,
                   "Megabytes for the table of dead ends (default: no limit)")
      ->check(positive_check());
  solutions_->add_flag("--json", solutions_json_,
                       "One JSON object, the solutions streamed in its \"solutions\" array: "
                       "{..., \"solutions\": [{\"moves\": [[from, over, to], ...], "
                       "\"notation\": [...]}, ...], \"count\", \"status\", ...}");
}

std::optional<int> CensusCommands::run(const Control& parent) {
  // The command's control: the caller's (signals), with the command's limits.
  Control control(&parent);
  control.set_time_limit(time_limit_);
  // --memory-limit bounds everything the command holds: the census tables, the table's pair
  // searches and the enumeration's table of dead ends.
  control.set_memory_budget(megabytes(memory_mb_));
  try {
    if (*count_) return count(control);
    if (*table_) return table(control);
    if (*solutions_) return solutions(control);
  } catch (const CensusError& e) {
    return report_error("internal", std::string("census stopped: ") + e.what(),
                        json_ || solutions_json_);
  }
  return std::nullopt;
}

std::optional<std::string> CensusCommands::checkpoint_options(CensusOptions& o) const {
  o.checkpoint_dir = resume_dir_.empty() ? checkpoint_dir_ : resume_dir_;
  o.resume = !resume_dir_.empty();
  if (!checkpoint_dir_.empty()) return create_checkpoint_dir(checkpoint_dir_);
  return std::nullopt;
}

int CensusCommands::count(const Control& control) {
  Problem p = build_problem(args_);
  const CensusLine shown(control, json_);
  CensusOptions o = census_options(threads_, &shown.control());
  o.spill_dir = spill_dir_;
  if (auto error = checkpoint_options(o)) return report_error("input", *error, json_);
  count_flags_.apply(o);
  CensusResult r = census(p, o);
  shown.clear(r.seconds);
  if (json_)
    fmt::print("{}\n", dump_json(census_json(p, r, option_for)));
  else
    fmt::print("{}", census_text(p, r, terminal_columns()));
  if (r.stop != StopReason::None) {
    fmt::print(stderr, "pegsol: census {}\n", census_stop_reason(r, option_for));
    return kStopped;
  }
  return kSolved;
}

int CensusCommands::table(const Control& control) {
  ProblemSpec a;
  a.board = args_.board;
  a.lattice = args_.lattice;
  Problem p = build_problem(a);
  const Board& b = *p.board;
  fewest_flags_.check(table_, minimize_ == "moves", true);
  // Options of the solvability table's way of working that the fewest-moves table has not.
  if (minimize_ == "moves")
    for (const char* name : {"--method", "--search-seconds", "--spill-dir", "--threads"})
      if (table_->count(name))
        return report_error("input",
                            std::string("table --minimize moves: ") + name +
                                " is an option of the solvability table, which --minimize moves "
                                "does not make",
                            json_);
  if (table_method_ == "passes" && table_->count("--search-seconds"))
    return report_error("input",
                        "--search-seconds: the time of a pair's search, and --method passes "
                        "runs no search",
                        json_);
  if (no_level_checkpoints_ && checkpoint_dir_.empty() && resume_dir_.empty())
    return report_error(
        "input", "--no-level-checkpoints: applies with --checkpoint or --resume alone", json_);
  if (minimize_ == "moves") {
    if (!checkpoint_dir_.empty() || !resume_dir_.empty())
      return report_error("input",
                          "table --minimize moves: --checkpoint and --resume are for the "
                          "solvability table",
                          json_);
    Control limits(&control);
    if (memory_mb_ > 0)
      limits.set_memory_budget(static_cast<std::size_t>(memory_mb_ * 1024 * 1024));
    return table_fewest(p.board, limits, fewest_flags_, json_, terminal_columns());
  }
  const CensusLine shown(control, json_);
  CensusOptions o = census_options(threads_, &shown.control());
  o.spill_dir = spill_dir_;
  if (auto error = checkpoint_options(o)) return report_error("input", *error, json_);
  TableOptions to;
  to.method = *parse_table_method(table_method_);
  to.search_seconds = search_seconds_;
  to.level_checkpoints = !no_level_checkpoints_;
  to.pagodas = !fewest_flags_.no_pagodas;
  SolvabilityTable t = solvability_table(p.board, o, to);
  shown.clear(t.seconds);
  int open_pairs = 0;
  for (const HoleSet& u : t.open) open_pairs += u.count();
  if (!t.complete())
    fmt::print(stderr, "pegsol: table incomplete, {} pair{} open: {}\n", open_pairs,
               open_pairs == 1 ? "" : "s", option_words(t.stopped));
  if (json_) {
    fmt::print("{}\n", dump_json(table_json(b, t, to.method, option_for)));
    return t.complete() ? kSolved : kStopped;
  }
  fmt::print("{}: from each single vacancy (*), the holes where one last peg can stand (o){}\n\n",
             b.name(), t.complete() ? "" : ", and pairs still undecided (?)");
  std::vector<std::vector<std::string>> grids;
  int solvable = 0;
  for (int v = 0; v < b.size(); ++v) {
    const HoleSet& f = t.finals[static_cast<std::size_t>(v)];
    const HoleSet& u = t.open[static_cast<std::size_t>(v)];
    solvable += f.count() > 0;
    std::vector<std::string> g{fmt::format("{} ({}{})", b.hole_name(v), f.count(),
                                           u.count() ? fmt::format(", {} open", u.count()) : "")};
    for (auto& l : b.render([&](int h) {
           return std::string(f.test(h) ? "o" : u.test(h) ? "?" : h == v ? "*" : ".");
         }))
      g.push_back(std::move(l));
    grids.push_back(std::move(g));
  }
  fmt::print("{}", side_by_side(grids, terminal_columns()));
  fmt::print(
      "{} of {} single vacancies can be solved{}; {} start class{} answered by position class "
      "and peg types; {} pair{} searched ({} solved, {} proved impossible); {} forward pass{}{}; "
      "{:.3f} s{}\n",
      solvable, b.size(), t.complete() ? "" : fmt::format(" ({} pairs open)", open_pairs), t.proved,
      t.proved == 1 ? "" : "es", t.searched, t.searched == 1 ? "" : "s", t.solved_by_search,
      t.impossible_by_search, t.passes, t.passes == 1 ? "" : "es",
      t.half_passes ? fmt::format(" ({} to the middle join)", t.half_passes) : std::string(),
      t.seconds,
      t.passes > 0
          ? fmt::format(", census tables {} at peak{}", mib(t.peak_bytes),
                        t.spill_peak_bytes ? fmt::format(" and {} on disk", mib(t.spill_peak_bytes))
                                           : std::string())
          : "");
  return t.complete() ? kSolved : kStopped;
}

int CensusCommands::solutions(const Control& control) {
  Problem p = build_problem(args_);
  EnumerateOptions o;
  o.limit = limit_;
  o.distinct = distinct_;
  o.games = games_;
  o.control = &control;
  const auto t0 = std::chrono::steady_clock::now();
  SolutionsJson js(p, o);
  bool head_written = false;  // written with the first solution: an error before it is one object
  auto head = [&] {
    if (solutions_json_ && !head_written) std::fputs(js.head().c_str(), stdout);
    head_written = true;
  };
  std::string line;
  const EnumerateResult n = api::solutions(p, o, [&](const std::vector<Jump>& moves) {
    head();
    if (solutions_json_) {
      line = js.item(moves);
    } else {
      line.clear();
      for (const Jump& j : moves) {
        if (!line.empty()) line += ' ';
        line += move_text(*p.board, j);
      }
      line += '\n';
    }
    std::fputs(line.c_str(), stdout);
    return !output_failed();  // a closed pipe or a full disk ends the enumeration at once
  });
  if (output_failed()) return kInternal;  // finish_output() says why, or ends quietly
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  head();
  if (solutions_json_) fmt::print("{}\n", js.tail(n, seconds));
  const std::string st = js.status(n);
  fmt::print(stderr, "{} {}{}\n", n.emitted,
             games_      ? "games"
             : distinct_ ? "distinct solutions"
                         : "solutions",
             st == "stopped" ? fmt::format(" (stopped: {})", stop_reason_name(n.stop))
             : st == "limit" ? " (limit reached)"
             : st == "impossible"
                 ? fmt::format(" (impossible: {})",
                               n.reason.empty() ? "the enumeration completed" : n.reason)
                 : "");
  return st == "stopped" ? kStopped : st == "impossible" ? kImpossible : kSolved;
}

}  // namespace pegsol::cli
