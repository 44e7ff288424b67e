// SPDX-License-Identifier: MIT
// pegsol: the command-line front end over libpegsol.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <iostream>
#include <string_view>
#include <system_error>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "census_cmd.hpp"
#include "cli.hpp"
#include "fewest_cmd.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/json.hpp"
#include "pegsol/presets.hpp"
#include "pegsol/spec.hpp"
#include "pegsol/version.hpp"
#include "play_cmd.hpp"
#include "presets_cmd.hpp"
#include "serve_cmd.hpp"

namespace {

// Set by SIGINT, SIGTERM and SIGHUP (the handler does nothing else: both are lock-free atomics,
// so it stays async-signal-safe). The command's control polls g_stop as StopReason::Signal; the
// exit status is then 128 + the signal's number (docs/control.md).
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

extern "C" void on_signal(int sig) {
  g_signal.store(sig);
  g_stop.store(true);
}

void add_problem_options(CLI::App* cmd, pegsol::ProblemSpec& a) {
  cmd->add_option("--board,-b", a.board, "Catalogue board (english, triangle:5, ...) or @FILE");
  cmd->add_option("--lattice", a.lattice, "square, square8 (diagonal jumps) or triangular");
  cmd->add_option("--start,-s", a.start,
                  "Vacant hole (d4, 1), a 0/1 string (the JSON's start), or @FILE with a start "
                  "position or a saved game (docs/game-format.md)");
  cmd->add_option("--end,-e", a.end, "Hole of the last peg, or 'any'");
  cmd->add_option("--goal,-g", a.goal, "@FILE with a whole target position");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace pegsol;
  CLI::App app{"pegsol: peg solitaire engine"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version,-V", []() -> std::string {
    KernelInfo k;
    try {
      k = kernel_info();
    } catch (const InputError& e) {
      return "pegsol " + std::string(version()) + "\n" + e.what();
    }
    std::string cap = k.cap.empty() ? "" : " (capped by PEGSOL_KERNELS=" + k.cap + ")";
    return "pegsol " + std::string(version()) +
           "\ncensus kernels: " + std::string(isa_name(k.census)) + cap + "; this CPU supports " +
           std::string(isa_name(k.cpu));
  });

  ProblemSpec solve_args;
  std::string direction = "forward";
  double time_limit = 0;
  double memory_mb = 1024;
  bool json = false, no_draw = false;
  auto* solve_cmd = app.add_subcommand("solve", "Find a solution (or prove there is none)");
  add_problem_options(solve_cmd, solve_args);
  auto* direction_opt = solve_cmd->add_option("--direction", direction, "forward or backward")
                            ->check(CLI::IsMember(direction_names()));
  solve_cmd->add_option("--time-limit", time_limit, "Stop after this many seconds (0: none)")
      ->check(cli::seconds_check());
  solve_cmd
      ->add_option("--memory-limit", memory_mb,
                   "Megabytes for the search table (the beam's capacity is clamped to fit)")
      ->check(cli::positive_check());
  std::string algorithm = "auto";
  std::size_t capacity = 0;
  std::uint64_t seed = 1;
  auto* algorithm_opt =
      solve_cmd
          ->add_option("--algorithm", algorithm,
                       "auto (bounded DFS, then beam, then complete DFS), dfs (complete), beam "
                       "(huge boards, incomplete) or beam-report (the 2022 report's beam rule)")
          ->check(CLI::IsMember(algorithm_names()));
  auto* capacity_opt =
      solve_cmd
          ->add_option("--capacity", capacity,
                       "Beam: positions kept per level (0: default; beam raises it on failure)")
          ->check(cli::whole_number_check(0, 1'000'000'000'000));
  auto* seed_opt =
      solve_cmd->add_option("--seed", seed, "Beam: seed for tie-breaking (runs repeat per seed)")
          ->check(cli::whole_number_check(0, UINT64_MAX));
  std::string beam_method = "auto";
  auto* beam_method_opt =
      solve_cmd
          ->add_option(
              "--beam-method", beam_method,
              "Beam: auto (the forward sweep; with the meet for whole-position goals), sweep "
              "(the sweep alone) or meet (the bidirectional meet alone, with complement pairs)")
          ->check(CLI::IsMember(beam_method_names()));
  std::string minimize;
  // The fewest-moves search is a search of its own: the other searches' options do not apply.
  solve_cmd
      ->add_option("--minimize", minimize,
                   "moves: a solution with the fewest moves (chains of jumps by one peg), proven")
      ->check(CLI::IsMember({"moves"}))
      ->excludes(direction_opt)
      ->excludes(algorithm_opt)
      ->excludes(capacity_opt)
      ->excludes(seed_opt)
      ->excludes(beam_method_opt);
  cli::FewestFlags fewest_flags;
  fewest_flags.add(solve_cmd, "; with --minimize moves");
  cli::LongRunFlags fewest_runs;
  fewest_runs.add(solve_cmd, "; with --minimize moves");
  solve_cmd->add_flag("--json", json, "Print one JSON object");
  solve_cmd->add_flag("--no-draw", no_draw, "Do not draw the positions");
  std::string preset_name;
  solve_cmd->add_option("--preset", preset_name,
                        "A preset problem by name (`pegsol presets`); excludes --board, --start, "
                        "--end, --goal");
  std::string svg_path;
  solve_cmd->add_option(
      "--svg", svg_path,
      "Write the solution's picture (the start, then each move) to this SVG file");
  std::string keep_moves;
  solve_cmd->add_option("--moves", keep_moves,
                        "Moves played first and kept (\"d2-d4 b5-d5\", chains f3-d3-d5); the "
                        "search finishes the game from there (with --minimize moves: in the "
                        "fewest moves from there)");

  bool boards_json = false;
  auto* boards_cmd = app.add_subcommand("boards", "List the board catalogue");
  boards_cmd->add_flag("--json", boards_json, "Print JSON");

  ProblemSpec show_args;
  bool show_json = false;
  auto* show_cmd = app.add_subcommand("show", "Draw a board with its hole names");
  show_cmd->add_option("--board,-b", show_args.board, "Board spec or @FILE");
  show_cmd->add_option("--lattice", show_args.lattice, "Lattice override");
  show_cmd->add_flag("--json", show_json, "Print JSON");

  int repeats = 5;
  bool bench_json = false;
  auto* bench_cmd =
      app.add_subcommand("bench", "Solve fixed problems; print nodes, times, signature");
  bench_cmd->add_option("--repeat", repeats, "Runs per problem (median time)")
      ->check(CLI::Range(1, 1000));
  bench_cmd->add_flag("--json", bench_json, "Print JSON");
  bool bench_beam = false;
  auto* bench_beam_opt =
      bench_cmd->add_flag("--beam", bench_beam, "Benchmark the beam searches on large boards");
  bool bench_census = false;
  int bench_threads = 0;
  auto* bench_census_opt = bench_cmd->add_flag("--census", bench_census,
                                               "Benchmark the exact census (English included)");
  bench_cmd->add_option("--threads", bench_threads, "Census worker threads (default: one per core)")
      ->check(cli::whole_number_check(0, cli::max_threads()))
      ->needs(bench_census_opt);
  bool bench_play = false;
  int bench_games = 100;
  double bench_think = 2;
  std::string bench_only, bench_unknown_out;
  auto* bench_play_opt =
      bench_cmd->add_flag("--play", bench_play,
                          "Benchmark the analysis after each move of random games (docs/play.md)");
  // One bench at a time, and each bench's options with it alone.
  bench_beam_opt->excludes(bench_census_opt)->excludes(bench_play_opt);
  bench_census_opt->excludes(bench_play_opt);
  bench_cmd->add_option("--games", bench_games, "--play: random games per problem")
      ->check(cli::whole_number_check(1, 1000000))
      ->needs(bench_play_opt);
  bench_cmd->add_option("--think", bench_think, "--play: seconds of analysis per move")
      ->check(cli::seconds_check())
      ->needs(bench_play_opt);
  bench_cmd->add_option("--only", bench_only, "--play: the problems whose name holds this")
      ->needs(bench_play_opt);
  bench_cmd
      ->add_option("--unknown-out", bench_unknown_out,
                   "--play: write the positions whose verdict stayed unknown to this file")
      ->needs(bench_play_opt);

  cli::CensusCommands census_cmds(app);  // count, table, solutions
  cli::PresetsCommand presets_cmd(app);
  cli::ServeCommand serve_cmd(app);
  cli::PlayCommand play_cmd(app);  // play
  cli::FewestCommand fewest_cmd(app);

  app.footer(cli::exit_status_help());
  for (CLI::App* sub : app.get_subcommands({})) sub->footer(cli::exit_status_help());

  // Errors under --json are JSON too, even those found while parsing the options.
  const bool json_wanted = std::any_of(
      argv + 1, argv + argc, [](const char* a) { return std::string_view(a) == "--json"; });
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return cli::finish_output(
        cli::report_error("input", cli::parse_error_text(app, e), json_wanted));
  }

  auto run = [&]() -> int {
    try {
      if (*boards_cmd) return cli::print_boards(boards_json);
      if (*show_cmd) return cli::print_show(show_args, show_json);
      if (auto rc = presets_cmd.run()) return *rc;
      for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, on_signal);
      Control control;
      control.watch(&g_stop, StopReason::Signal);
      // A command stopped by a signal exits with 128 + its number, after printing what it settled.
      auto status = [&](int rc) {
        return control.stop_reason() == StopReason::Signal ? 128 + g_signal.load() : rc;
      };
      if (auto rc = census_cmds.run(control)) return status(*rc);
      if (auto rc = play_cmd.run(control)) return status(*rc);
      if (auto rc = fewest_cmd.run(control)) return status(*rc);
      if (auto rc = serve_cmd.run(control))
        return control.stop_reason() == StopReason::Signal ? 0 : *rc;
      if (*bench_cmd && bench_play) {
        if (bench_json) throw InputError("bench --play prints a table; --json is not available");
        return status(
            cli::run_play_bench(bench_games, bench_think, bench_only, bench_unknown_out, control));
      }
      if (*bench_cmd && bench_census)
        return cli::run_census_bench(repeats, bench_threads, bench_json);
      if (*bench_cmd)
        return bench_beam ? cli::run_beam_bench(repeats, bench_json)
                          : cli::run_bench(repeats, bench_json);
      // `pegsol` alone and `pegsol solve` solve the default problem.
      if (!preset_name.empty()) {
        if (!solve_args.board.empty() || !solve_args.start.empty() || !solve_args.end.empty() ||
            !solve_args.goal.empty() || !solve_args.lattice.empty())
          throw InputError("--preset " + preset_name +
                           ": a preset names its board, start and goal; drop --board, --lattice, "
                           "--start, --end and --goal");
        solve_args = preset(preset_name).spec;
      }
      Problem p = build_problem(solve_args);
      fewest_flags.check(solve_cmd, minimize == "moves");
      fewest_runs.check(solve_cmd, minimize == "moves");
      if (minimize == "moves") {
        const std::vector<Move> kept = cli::parse_kept_moves(*p.board, keep_moves);
        Control limits(&control);
        limits.set_time_limit(time_limit);
        if (solve_cmd->count("--memory-limit")) limits.set_memory_budget(cli::megabytes(memory_mb));
        return status(cli::solve_fewest(p, kept, limits, fewest_flags, fewest_runs, json,
                                        cli::terminal_columns(), svg_path));
      }
      SolveOptions o;
      o.direction = *parse_direction(direction);
      o.control = &control;
      o.time_limit = time_limit;
      o.memory_limit = cli::megabytes(memory_mb);
      o.algorithm = *parse_algorithm(algorithm);
      o.capacity = capacity;
      o.seed = seed;
      o.beam_method = *parse_beam_method(beam_method);
      check_solve_options(o);
      if (o.algorithm == Algorithm::Dfs && solve_cmd->count("--seed"))
        throw InputError("--seed " + std::to_string(seed) +
                         ": seeds the beam searches' tie-breaking; --algorithm dfs runs none");
      if (!keep_moves.empty())
        return status(cli::run_finish(p, keep_moves, o, json, !no_draw, svg_path));
      bool progress_shown = false;
      if (isatty(STDERR_FILENO) && !json)
        o.progress = [&progress_shown](const Progress& pr) {
          progress_shown = true;
          if (pr.level >= 0) {
            const std::string pairs =
                pr.method == "sweep" ? std::string() : fmt::format("  {} pairs", pr.pairs);
            fmt::print(stderr,
                       "\r{:.1f} s  {} capacity {}  level {}/{}{}  {} positions  {:.2f} M/s   ",
                       pr.seconds, pr.method, pr.capacity, pr.level, pr.levels, pairs, pr.nodes,
                       pr.nodes / pr.seconds / 1e6);
            return;
          }
          fmt::print(stderr, "\r{:.1f} s  {} positions  {:.2f} M/s  table {}   ", pr.seconds,
                     pr.nodes, pr.nodes / pr.seconds / 1e6, pr.table_entries);
        };
      SolveResult r = solve(p, o);
      if (progress_shown) fmt::print(stderr, "\n");
      if (!svg_path.empty()) cli::write_solution_svg(svg_path, p, r.moves);
      if (json)
        fmt::print("{}\n", dump_json(solve_json(p, r, cli::option_for)));
      else
        fmt::print("{}", cli::format_solution(p, r, cli::want_colour(), cli::terminal_columns(),
                                              !no_draw));
      return status(cli::exit_status(r.status));
    } catch (const InputError& e) {
      return cli::report_error("input", cli::input_error_text(e), json_wanted);
    } catch (const std::system_error& e) {
      // fmt::print found stdout closed or full: finish_output() says so (or ends quietly).
      if (cli::output_failed() || e.code().value() == EPIPE || e.code().value() == ENOSPC) {
        cli::note_write_error(e.code().value());
        return cli::kInternal;
      }
      return cli::report_error("internal", cli::option_words(e.what()), json_wanted);
    } catch (const std::bad_alloc&) {
      return cli::report_error(
          "internal", "out of memory outside the search (an allocation failed)", json_wanted);
    } catch (const std::exception& e) {
      return cli::report_error("internal", e.what(), json_wanted);
    }
  };
  return cli::finish_output(run());
}
