// SPDX-License-Identifier: MIT
// pegsol-mpi: `pegsol count`, `pegsol fewest` and `pegsol solve --minimize moves` on the ranks of
// an MPI job (docs/mpi.md, docs/fewest.md). Every rank parses the same options and runs its part;
// rank 0 prints the text or JSON that the one-process command prints, and (count) every rank's
// ledger goes to stderr.
#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "census_flags.hpp"
#include "census_mpi.hpp"
#include "census_text.hpp"
#include "cli.hpp"
#include "fewest_flags.hpp"
#include "fewest_mpi.hpp"
#include "fewest_text.hpp"
#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/json.hpp"
#include "pegsol/spec.hpp"
#include "pegsol/version.hpp"
#include "problem_options.hpp"
#include "spill_dir.hpp"

namespace {

// Set by SIGINT, SIGTERM and SIGHUP (mpirun forwards them to every rank); the census's control
// watches it as StopReason::Signal.
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};

extern "C" void on_signal(int sig) {
  g_signal.store(sig);
  g_stop.store(true);
}

// One rank's line of the ledger, with its peak resident memory as the kernel counts it.
struct LedgerRow {
  pegsol::mpi::RankLedger ledger;
  long max_rss_kib = 0;
};

// Prints every rank's ledger on stderr from rank 0 (collective).
void print_ledgers(const pegsol::mpi::RankLedger& mine, int rank, int size) {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  LedgerRow row{mine, ru.ru_maxrss};
  std::vector<LedgerRow> rows(static_cast<std::size_t>(rank == 0 ? size : 0));
  MPI_Gather(&row, sizeof row, MPI_BYTE, rows.data(), sizeof row, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  std::uint64_t sent = 0, edges = 0, kept = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& l = rows[r].ledger;
    sent += l.bytes_sent;
    kept += l.bytes_kept;
    edges += l.edges;
    fmt::print(stderr,
               "pegsol-mpi: rank {}: {} peak in tables, {:.1f} MiB peak RSS, {} positions stored "
               "(largest level {}), {} edges, {} sent, {} kept, {} exchanges, {:.3f} s{}{}\n",
               r, pegsol::cli::mib(l.peak_bytes), static_cast<double>(rows[r].max_rss_kib) / 1024,
               l.stored, l.largest_level, l.edges, pegsol::cli::mib(l.bytes_sent),
               pegsol::cli::mib(l.bytes_kept), l.rounds, l.seconds,
               l.bucket_ranges ? fmt::format(", {} ranges built from buckets ({} bytes)",
                                             l.bucket_ranges, l.bucket_bytes)
                               : std::string(),
               l.spill_file_bytes
                   ? fmt::format(", {} bytes of levels in the spill file", l.spill_file_bytes)
                   : std::string());
  }
  fmt::print(stderr,
             "pegsol-mpi: {} ranks: {} edges, {} sent between ranks ({:.1f} bytes an edge "
             "and query, children and solution-path queries together), {} kept\n",
             size, edges, pegsol::cli::mib(sent),
             edges ? static_cast<double>(sent + kept) / static_cast<double>(edges) : 0.0,
             pegsol::cli::mib(kept));
}

// The options `pegsol-mpi fewest` and `pegsol-mpi solve` share: `pegsol fewest`'s limits, with
// one thread a rank by default, and the fewest-moves search's own options.
struct FewestRunArgs {
  double time_limit = 0, memory_mb = 0;
  int threads = 1;
  bool json = false;
  pegsol::cli::FewestFlags flags;
  pegsol::cli::LongRunFlags runs;

  // Registers --time-limit, --memory-limit, --threads and --json on `cmd`.
  void add_limits(CLI::App* cmd) {
    using namespace pegsol;
    cmd->add_option("--time-limit", time_limit, "Stop after this many seconds (0: none)")
        ->check(cli::seconds_check());
    cmd->add_option("--memory-limit", memory_mb, "Megabytes each rank may hold (default 8192)")
        ->check(cli::positive_check());
    cmd->add_option("--threads", threads, "Worker threads of each rank (default 1; 0: one a core)")
        ->check(cli::whole_number_check(0, cli::max_threads()));
    cmd->add_flag("--json", json, "Print one JSON object");
  }
};

// `pegsol-mpi fewest`'s options: `pegsol fewest`'s and --spread.
struct FewestArgs : FewestRunArgs {
  std::string board, lattice;
  bool spread = false;

  CLI::App* add(CLI::App& app) {
    using namespace pegsol;
    auto* cmd = app.add_subcommand(
        "fewest",
        "The fewest moves over every single-vacancy-to-one-peg problem of a board, its start and "
        "end class pairs shared by the ranks");
    cli::add_board_options(cmd, board, lattice);
    add_limits(cmd);
    runs.add(cmd, "", cli::Runner::Ranks);
    flags.add(cmd, "");
    cmd->add_flag("--spread", spread,
                  "One search over every pair, each pass's levels spread over the ranks, instead "
                  "of the pairs dealt out (no --checkpoint, --resume or --spill-dir yet)");
    return cmd;
  }
};

// `pegsol-mpi solve --minimize moves`'s options: `pegsol solve --minimize moves`'s but the
// checkpoints and the spill.
struct SolveArgs : FewestRunArgs {
  pegsol::ProblemSpec spec;
  std::string minimize;

  CLI::App* add(CLI::App& app) {
    using namespace pegsol;
    auto* cmd = app.add_subcommand(
        "solve",
        "A solution with the fewest moves, proven, its passes' levels spread over the ranks");
    cli::add_problem_options(cmd, spec);
    cmd->add_option("--minimize", minimize, "moves (the only search pegsol-mpi solve runs)")
        ->required()
        ->check(CLI::IsMember({"moves"}));
    add_limits(cmd);
    flags.add(cmd, "");
    runs.add_known(cmd, "", cli::Runner::Ranks);
    return cmd;
  }
};

// The known solution in `path` (pegsol's --known-solution forms) on board `b`: rank 0 reads the
// file and sends its text, every rank reads the solution from it (collective). Empty when `path`
// is. Throws InputError naming the file on every rank.
std::vector<pegsol::Jump> known_solution(const pegsol::Board& b, const std::string& path,
                                         int rank) {
  using namespace pegsol;
  if (path.empty()) return {};
  const std::string what = "--known-solution " + path;
  std::string text, error;
  if (rank == 0) try {
      text = read_file(path, what);
    } catch (const InputError& e) {
      error = e.what();
    }
  if (mpi::fewest_exchange::any_failed(!error.empty(), MPI_COMM_WORLD))
    throw InputError(error.empty() ? what + ": rank 0 cannot read it" : error);
  unsigned long long size = text.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  text.resize(size);
  MPI_Bcast(text.data(), static_cast<int>(size), MPI_CHAR, 0, MPI_COMM_WORLD);
  return solution_from_text(b, text, what);
}

// Runs `body(control, o)` on this rank under a's limits, watching SIGINT, SIGTERM and SIGHUP, with
// o's control, threads and search options set from `a`, and returns its exit status. An error: rank
// 0 reports it; another rank says only what rank 0 cannot know (its own internal error).
template <class Body>
int run_on_rank(const FewestRunArgs& a, int rank, Body&& body) {
  using namespace pegsol;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, on_signal);
  Control control;
  control.watch(&g_stop, StopReason::Signal);
  control.set_time_limit(a.time_limit);
  control.set_memory_budget(cli::megabytes(a.memory_mb));
  auto failed = [&](const char* kind, const std::string& why, bool own) -> int {
    const bool input = std::string_view(kind) == "input";
    if (rank == 0) return cli::finish_output(cli::report_error(kind, why, a.json));
    if (own && !input) fmt::print(stderr, "pegsol-mpi: rank {}: {}\n", rank, why);
    return input ? cli::kBadInput : cli::kInternal;
  };
  try {
    FewestOptions o;
    o.control = &control;
    o.threads = a.threads;
    a.flags.apply(o);
    return body(control, o);
  } catch (const InputError& e) {
    return failed("input", cli::input_error_text(a.runs.known_error(e)), true);
  } catch (const mpi::PeerFailed& e) {
    return failed("internal", std::string(e.what()) + " (its message is on its stderr)", false);
  } catch (const std::exception& e) {
    return failed("internal", e.what(), true);
  }
}

// The exit status of a search that ended with `status` and `stop`: 128 + the signal's number when
// a signal stopped it.
int exit_status(pegsol::Status status, pegsol::StopReason stop) {
  return stop == pegsol::StopReason::Signal ? 128 + g_signal.load()
                                            : pegsol::cli::exit_status(status);
}

// Runs `pegsol-mpi solve --minimize moves` on this rank; rank 0 prints `pegsol solve --minimize
// moves`'s text or JSON.
int run_solve(const SolveArgs& a, int rank) {
  using namespace pegsol;
  return run_on_rank(a, rank, [&](Control&, FewestOptions& o) {
    const Problem p = build_problem(a.spec);
    o.known_solution = known_solution(*p.board, a.runs.known_file, rank);
    const FewestResult r = mpi::spread_fewest(
        o, MPI_COMM_WORLD, [&](const FewestOptions& so) { return fewest_solve(p, so); });
    const int rc = exit_status(r.status, r.stop);
    if (rank != 0) return rc;
    if (a.json) {
      fmt::print("{}\n", dump_json(fewest_json(p, r)));
      return cli::finish_output(rc);
    }
    fmt::print("{}\n{}\n{}", describe(p), cli::fewest_verdict(r),
               cli::numbered_moves(*p.board, r, cli::terminal_columns()));
    fmt::print("({} positions stored up to symmetry, {:.3f} s)\n", r.positions, r.seconds);
    return cli::finish_output(rc);
  });
}

// Runs `pegsol-mpi fewest` on this rank; rank 0 prints `pegsol fewest`'s text or JSON.
int run_fewest(const FewestArgs& a, int rank, int size) {
  using namespace pegsol;
  return run_on_rank(a, rank, [&](Control& control, FewestOptions& o) {
    ProblemSpec spec;
    spec.board = a.board;
    spec.lattice = a.lattice;
    BoardPtr board = build_board(spec);
    o.known_solution = known_solution(*board, a.runs.known_file, rank);
    a.runs.apply_paths(o);
    // Rank 0 makes the checkpoint directory; every rank learns whether it could.
    std::optional<std::string> error;
    if (rank == 0 && !a.runs.checkpoint_dir.empty())
      error = cli::create_checkpoint_dir(a.runs.checkpoint_dir);
    if (mpi::fewest_exchange::any_failed(error.has_value(), MPI_COMM_WORLD))
      throw InputError(error.value_or("--checkpoint: rank 0 cannot make the directory"));
    if (a.spread && (!o.checkpoint_dir.empty() || !o.spill_dir.empty()))
      throw InputError(
          "--spread: the spread search takes no --checkpoint, --resume or --spill-dir "
          "yet");
    const bool shown = rank == 0 && isatty(STDERR_FILENO) && !a.json;
    if (shown)
      control.set_progress([size](const ProgressReport& r) {
        if (!r.fewest) return;
        const FewestBounds& p = *r.fewest;
        fmt::print(
            stderr, "\r{:.1f} s  moves: at least {}{}{} (rank 0 of {})  {} positions   ", r.seconds,
            p.lower_bound, p.best_found >= 0 ? fmt::format(", best found {}", p.best_found) : "",
            p.pair >= 0 ? fmt::format("  pair {}/{}", p.pair + 1, p.pairs) : "", size, r.positions);
      });
    FewestBoardResult r =
        a.spread
            ? mpi::spread_fewest(o, MPI_COMM_WORLD,
                                 [&](const FewestOptions& so) { return fewest_board(board, so); })
            : mpi::distributed_fewest_board(board, o, MPI_COMM_WORLD);
    if (shown) fmt::print(stderr, "\r{:100}\r", "");
    const int rc = exit_status(r.result.status, r.result.stop);
    if (rank != 0) return rc;
    if (a.json)
      fmt::print("{}\n", dump_json(fewest_board_json(*board, r)));
    else
      fmt::print("{}", cli::fewest_board_text(*board, r, cli::terminal_columns()));
    return cli::finish_output(rc);
  });
}

int run(int argc, char** argv, int rank, int size) {
  using namespace pegsol;
  CLI::App app{
      "pegsol-mpi: the exact census and the fewest moves on MPI ranks (mpirun -np K pegsol-mpi "
      "count|fewest|solve ...)"};
  app.require_subcommand(1, 1);
  app.set_version_flag("--version,-V", std::string("pegsol-mpi ") + std::string(version()));
  ProblemSpec spec;
  bool json = false, show_progress = false;
  double memory_mb = 0, time_limit = 0;
  int threads = 0;
  auto* count = app.add_subcommand("count", "Exact census: positions, solutions, games, chances");
  cli::add_problem_options(count, spec);
  count
      ->add_option("--memory-limit", memory_mb,
                   "Megabytes each rank may hold (default: the machine's memory minus a margin)")
      ->check(cli::positive_check());
  count->add_option("--time-limit", time_limit, "Stop after this many seconds (0: none)")
      ->check(cli::seconds_check());
  count
      ->add_option("--threads", threads,
                   "Accepted for pegsol count's command lines; each rank runs one thread (run "
                   "more ranks instead)")
      ->check(cli::whole_number_check(0, cli::max_threads()));
  count->add_flag("--json", json, "Print one JSON object");
  cli::CountFlags count_flags;
  count_flags.add(count);
  count->add_flag("--progress", show_progress,
                  "A line per level on stderr (the default when stderr is a terminal)");
  mpi::Checkpoint checkpoint;
  std::string resume_dir;
  auto* ck = count->add_option("--checkpoint", checkpoint.dir,
                               "Directory for the state after each completed level (each rank "
                               "writes its own files)");
  count
      ->add_option("--resume", resume_dir,
                   "Go on from the last level committed in this directory (same command and "
                   "-np); checkpoints go on there")
      ->excludes(ck);
  mpi::RankOptions rank_options;
  std::string spill_dir;
  count->add_option("--spill-dir", spill_dir,
                    "Directory for a spill file when a level would pass --memory-limit (each rank "
                    "uses DIR/RANK and removes it at the end); without it the census stops");
  count->add_option("--crash-after-level", checkpoint.crash_after_level)->group("");
  count->add_option("--round-parents", rank_options.round_parents)
      ->check(cli::whole_number_check(1, UINT64_MAX))
      ->group("");
  count->add_flag("--wide-counts", rank_options.wide_counts)->group("");
  FewestArgs fa;
  auto* fewest = fa.add(app);
  SolveArgs sa;
  auto* solve_cmd = sa.add(app);
  const bool json_wanted =
      std::any_of(argv, argv + argc, [](const char* a) { return std::string_view(a) == "--json"; });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (rank != 0) return e.get_exit_code() == 0 ? 0 : cli::kBadInput;
    if (e.get_exit_code() == 0) return app.exit(e);
    return cli::finish_output(
        cli::report_error("input", cli::parse_error_text(app, e), json_wanted));
  }
  if (*fewest) return run_fewest(fa, rank, size);
  if (*solve_cmd) return run_solve(sa, rank);
  if (!resume_dir.empty()) {
    checkpoint.dir = resume_dir;
    checkpoint.resume = true;
  }
  if (!checkpoint.dir.empty())
    if (auto error = cli::create_checkpoint_dir(checkpoint.dir))
      return rank == 0 ? cli::finish_output(cli::report_error("input", *error, json))
                       : cli::kBadInput;
  std::string& my_spill_dir = rank_options.spill_dir;
  if (!spill_dir.empty()) {
    std::string why;
    try {
      my_spill_dir = mpi::prepare_spill_dir(spill_dir, rank);
    } catch (const CensusError& e) {
      why = "--spill-dir " + spill_dir + ": " + e.what();
    }
    // Every rank learns whether any rank cannot spill; rank 0 reports the lowest one's reason.
    int mine = why.empty() ? size : rank, first = size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first < size) {
      int len = static_cast<int>(why.size());
      MPI_Bcast(&len, 1, MPI_INT, first, MPI_COMM_WORLD);
      why.resize(static_cast<std::size_t>(len));
      MPI_Bcast(why.data(), len, MPI_CHAR, first, MPI_COMM_WORLD);
      if (!my_spill_dir.empty()) ::rmdir(my_spill_dir.c_str());
      return rank == 0 ? cli::finish_output(cli::report_error(
                             "input",
                             (size > 1 ? "rank " + std::to_string(first) + ": " : "") + why, json))
                       : cli::kBadInput;
    }
  }
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, on_signal);
  Control control;
  control.watch(&g_stop, StopReason::Signal);
  control.set_time_limit(time_limit);
  mpi::RankLedger ledger;
  int rc = cli::kSolved;
  try {
    Problem p = build_problem(spec);
    control.set_memory_budget(cli::megabytes(memory_mb));
    CensusOptions o;
    o.threads = threads;
    o.control = &control;
    count_flags.apply(o);
    const bool tty = isatty(STDERR_FILENO) && !json;
    // Every level's report (the census reports once a level, collectively).
    if (rank == 0 && (show_progress || tty))
      control.set_progress(
          [tty](const ProgressReport& pr) {
            fmt::print(stderr,
                       "{}{:.1f} s  level {}  {} positions  {:.2f} M/s  {} at most per rank{}",
                       tty ? "\r" : "", pr.seconds, pr.level, pr.positions,
                       static_cast<double>(pr.positions) / std::max(pr.seconds, 1e-9) / 1e6,
                       cli::mib(pr.memory_bytes), tty ? "   " : "\n");
          },
          0);
    CensusResult r =
        mpi::distributed_census(p, o, MPI_COMM_WORLD, ledger, checkpoint, rank_options);
    if (rank == 0) {
      if (tty && r.seconds >= 0.5) fmt::print(stderr, "\r{:70}\r", "");
      if (json)
        fmt::print("{}\n", dump_json(census_json(p, r, cli::option_for)));
      else
        fmt::print("{}", cli::census_text(p, r, cli::terminal_columns()));
      if (r.stop != StopReason::None)
        fmt::print(stderr, "pegsol-mpi: census {}\n", census_stop_reason(r, cli::option_for));
    }
    if (r.stop == StopReason::Signal)
      rc = 128 + g_signal.load();
    else if (r.stop != StopReason::None)
      rc = cli::kStopped;
  } catch (const InputError& e) {
    return rank == 0
               ? cli::finish_output(cli::report_error("input", cli::input_error_text(e), json))
               : cli::kBadInput;
  } catch (const CensusError& e) {
    rc = rank == 0
             ? cli::report_error("internal", "census stopped: " + cli::option_words(e.what()), json)
             : cli::kInternal;
  }
  print_ledgers(ledger, rank, size);
  return rank == 0 ? cli::finish_output(rc) : rc;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rc = run(argc, argv, rank, size);
  // No rank leaves before rank 0 has written everything: mpirun takes the job down as soon as
  // one rank exits with a status other than 0.
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return rc;
}
