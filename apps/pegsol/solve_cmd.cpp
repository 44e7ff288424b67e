// SPDX-License-Identifier: MIT
// `pegsol solve` (solve_cmd.hpp): its options, the search it runs and how it prints the answer.
#include "solve_cmd.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include "cli.hpp"
#include "pegsol/error.hpp"
#include "pegsol/json.hpp"
#include "pegsol/presets.hpp"
#include "pegsol/solve.hpp"
#include "problem_options.hpp"

namespace pegsol::cli {

namespace {

// The moves of `pegsol solve --moves "d2-d4 ..."` (parse_move_list), errors naming the flag.
std::vector<Move> parse_kept_moves(const Board& b, const std::string& moves) {
  try {
    return parse_move_list(b, moves);
  } catch (const InputError& e) {
    throw InputError(std::string("--moves: ") + e.what());
  }
}

// `pegsol solve --moves "d2-d4 ..."`: plays the moves, solves the rest keeping them, prints the
// kept moves then the found ones (or JSON). Returns the exit status (0 solved, 1 not).
int run_finish(const Problem& p, const std::string& moves, const SolveOptions& options, bool json,
               bool draw, const std::string& svg_path) {
  const std::vector<Move> kept = parse_kept_moves(*p.board, moves);
  FinishResult f;
  try {
    f = finish_game(p, kept, options);
  } catch (const InputError& e) {
    throw InputError(std::string("--moves: ") + e.what());
  }
  if (!svg_path.empty()) write_solution_svg(svg_path, p, f.result.moves);
  if (json) {
    fmt::print("{}\n", dump_json(finish_json(p, f)));
  } else {
    const Board& b = *p.board;
    std::string line;
    for (const Move& m : kept) line += " " + move_chain_text(b, m);
    fmt::print("kept your {} move{} ({} jump{}):{}\n", kept.size(), kept.size() == 1 ? "" : "s",
               f.kept_jumps, f.kept_jumps == 1 ? "" : "s", line);
    if (f.result.status == Status::Solved) {
      line.clear();
      for (const Move& m : group_moves(
               std::vector<Jump>(f.result.moves.begin() + static_cast<std::ptrdiff_t>(f.kept_jumps),
                                 f.result.moves.end())))
        line += " " + move_chain_text(b, m);
      fmt::print("found the rest ({} jumps):{}\n", f.result.moves.size() - f.kept_jumps,
                 line.empty() ? " none needed" : line);
    } else {
      fmt::print("from the position after them: ");
    }
    fmt::print("{}", format_solution(p, f.result, want_colour(), terminal_columns(), draw));
  }
  return exit_status(f.result.status);
}

}  // namespace

SolveCommand::SolveCommand(CLI::App& app) {
  cmd_ = app.add_subcommand("solve", "Find a solution (or prove there is none)");
  add_problem_options(cmd_, args_);
  auto* direction_opt = cmd_->add_option("--direction", direction_, "forward or backward")
                            ->check(CLI::IsMember(direction_names()));
  cmd_->add_option("--time-limit", time_limit_, "Stop after this many seconds (0: none)")
      ->check(seconds_check());
  cmd_->add_option("--memory-limit", memory_mb_,
                   "Megabytes for the search table (the beam's capacity is clamped to fit)")
      ->check(positive_check());
  auto* algorithm_opt =
      cmd_->add_option("--algorithm", algorithm_,
                       "auto (bounded DFS, then beam, then complete DFS), dfs (complete), beam "
                       "(huge boards, incomplete) or beam-report (the 2022 report's beam rule)")
          ->check(CLI::IsMember(algorithm_names()));
  auto* capacity_opt =
      cmd_->add_option("--capacity", capacity_,
                       "Beam: positions kept per level (0: default; beam raises it on failure)")
          ->check(whole_number_check(0, 1'000'000'000'000));
  auto* seed_opt =
      cmd_->add_option("--seed", seed_, "Beam: seed for tie-breaking (runs repeat per seed)")
          ->check(whole_number_check(0, UINT64_MAX));
  auto* beam_method_opt =
      cmd_->add_option(
              "--beam-method", beam_method_,
              "Beam: auto (the forward sweep; with the meet for whole-position goals), sweep "
              "(the sweep alone) or meet (the bidirectional meet alone, with complement pairs)")
          ->check(CLI::IsMember(beam_method_names()));
  // The fewest-moves search is a search of its own: the other searches' options do not apply.
  cmd_->add_option("--minimize", minimize_,
                   "moves: a solution with the fewest moves (chains of jumps by one peg), proven")
      ->check(CLI::IsMember({"moves"}))
      ->excludes(direction_opt)
      ->excludes(algorithm_opt)
      ->excludes(capacity_opt)
      ->excludes(seed_opt)
      ->excludes(beam_method_opt);
  fewest_flags_.add(cmd_, "; with --minimize moves");
  fewest_runs_.add(cmd_, "; with --minimize moves");
  cmd_->add_flag("--json", json_, "Print one JSON object");
  cmd_->add_flag("--no-draw", no_draw_, "Do not draw the positions");
  cmd_->add_option("--preset", preset_,
                   "A preset problem by name (`pegsol presets`); excludes --board, --start, "
                   "--end, --goal");
  cmd_->add_option("--svg", svg_path_,
                   "Write the solution's picture (the start, then each move) to this SVG file");
  cmd_->add_option("--moves", keep_moves_,
                   "Moves played first and kept (\"d2-d4 b5-d5\", chains f3-d3-d5); the "
                   "search finishes the game from there (with --minimize moves: in the "
                   "fewest moves from there)");
}

int SolveCommand::run(const Control& control) {
  if (!preset_.empty()) {
    if (!args_.board.empty() || !args_.start.empty() || !args_.end.empty() || !args_.goal.empty() ||
        !args_.lattice.empty())
      throw InputError("--preset " + preset_ +
                       ": a preset names its board, start and goal; drop --board, --lattice, "
                       "--start, --end and --goal");
    args_ = preset(preset_).spec;
  }
  Problem p = build_problem(args_);
  fewest_flags_.check(cmd_, minimize_ == "moves");
  fewest_runs_.check(cmd_, minimize_ == "moves");
  if (minimize_ == "moves") {
    const std::vector<Move> kept = parse_kept_moves(*p.board, keep_moves_);
    Control limits(&control);
    limits.set_time_limit(time_limit_);
    if (cmd_->count("--memory-limit")) limits.set_memory_budget(megabytes(memory_mb_));
    return solve_fewest(p, kept, limits, fewest_flags_, fewest_runs_, json_, terminal_columns(),
                        svg_path_);
  }
  Control limits(&control);
  limits.set_time_limit(time_limit_);
  limits.set_memory_budget(megabytes(memory_mb_));
  SolveOptions o;
  o.direction = *parse_direction(direction_);
  o.control = &limits;
  o.algorithm = *parse_algorithm(algorithm_);
  o.capacity = capacity_;
  o.seed = seed_;
  o.beam_method = *parse_beam_method(beam_method_);
  check_solve_options(o);
  if (o.algorithm == Algorithm::Dfs && cmd_->count("--seed"))
    throw InputError("--seed " + std::to_string(seed_) +
                     ": seeds the beam searches' tie-breaking; --algorithm dfs runs none");
  if (!keep_moves_.empty()) return run_finish(p, keep_moves_, o, json_, !no_draw_, svg_path_);
  bool progress_shown = false;
  if (isatty(STDERR_FILENO) && !json_)
    limits.set_progress([&progress_shown](const ProgressReport& pr) {
      progress_shown = true;
      if (pr.beam) {
        const BeamProgress& b = *pr.beam;
        const std::string pairs =
            b.method == "sweep" ? std::string() : fmt::format("  {} pairs", b.pairs);
        fmt::print(stderr, "\r{:.1f} s  {} capacity {}  level {}/{}{}  {} positions  {:.2f} M/s   ",
                   pr.seconds, b.method, b.capacity, pr.level, b.levels, pairs, pr.positions,
                   pr.positions / pr.seconds / 1e6);
        return;
      }
      fmt::print(stderr, "\r{:.1f} s  {} positions  {:.2f} M/s  table {}   ", pr.seconds,
                 pr.positions, pr.positions / pr.seconds / 1e6, pr.table_entries);
    });
  SolveResult r = solve(p, o);
  if (progress_shown) fmt::print(stderr, "\n");
  if (!svg_path_.empty()) write_solution_svg(svg_path_, p, r.moves);
  if (json_)
    fmt::print("{}\n", dump_json(solve_json(p, r, option_for)));
  else
    fmt::print("{}", format_solution(p, r, want_colour(), terminal_columns(), !no_draw_));
  return exit_status(r.status);
}

}  // namespace pegsol::cli
