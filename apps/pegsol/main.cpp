// SPDX-License-Identifier: MIT
// pegsol: the command-line front end over libpegsol.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <string_view>
#include <system_error>

#include <CLI/CLI.hpp>

#include "bench.hpp"
#include "census_cmd.hpp"
#include "cli.hpp"
#include "fewest_cmd.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/version.hpp"
#include "play_cmd.hpp"
#include "presets_cmd.hpp"
#include "problem_options.hpp"
#include "serve_cmd.hpp"
#include "solve_cmd.hpp"

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

  cli::SolveCommand solve_cmd(app);

  bool boards_json = false;
  auto* boards_cmd = app.add_subcommand("boards", "List the board catalogue");
  boards_cmd->add_flag("--json", boards_json, "Print JSON");

  ProblemSpec show_args;
  bool show_json = false;
  auto* show_cmd = app.add_subcommand("show", "Draw a board with its hole names");
  cli::add_problem_options(show_cmd, show_args, cli::ProblemParts::Board);
  show_cmd->add_flag("--json", show_json, "Print JSON");

  cli::BenchCommand bench_cmd(app);
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
      if (auto rc = bench_cmd.run(control)) return bench_cmd.stoppable() ? status(*rc) : *rc;
      // `pegsol` alone and `pegsol solve` solve the default problem.
      return status(solve_cmd.run(control));
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
