// SPDX-License-Identifier: MIT
// `pegsol bench` (bench.hpp): its options, and the solve, beam and census benches, each a loop of
// repeats over fixed cases, the median time and a signature of counts that only the search changes.
#include "bench.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bench_cases.hpp"
#include "cli.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"
#include "pegsol/json.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::cli {

namespace {

// The median of `repeats` runs' seconds (the upper one of the middle two for an even count);
// `run` makes one run and returns its seconds.
template <class Run>
double median_seconds(int repeats, Run run) {
  std::vector<double> times;
  for (int rep = 0; rep < repeats; ++rep) times.push_back(run());
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// A bench's last line: the JSON of its rows, or the signature in `unit`.
template <class Row>
void print_signature(bool json, const std::vector<Row>& rows, std::uint64_t signature,
                     std::string_view unit) {
  if (json)
    fmt::print("{}\n", dump_json(bench_json(rows, signature)));
  else
    fmt::print("signature: {} {}\n", signature, unit);
}

}  // namespace

int run_bench(int repeats, bool json) {
  std::uint64_t signature = 0;
  std::vector<SolveBenchRow> rows;
  if (!json) fmt::print("{:<36} {:>6} {:>12} {:>12}\n", "problem", "solved", "nodes", "median ms");
  for (const SolveBenchCase& c : solve_bench_cases()) {
    std::uint64_t nodes = 0;
    int solved = 0;
    const double median = median_seconds(repeats, [&] {
      double t = 0;
      std::uint64_t n = 0;
      int s = 0;
      for (const Problem& p : c.problems) {
        Control limit;
        limit.set_time_limit(60);  // a regression must not hang the bench
        SolveOptions o;
        o.control = &limit;
        SolveResult r = solve(p, o);
        t += r.seconds;
        n += r.nodes;
        s += r.status == Status::Solved;
      }
      nodes = n;
      solved = s;
      return t;
    });
    signature += nodes;
    if (json)
      rows.push_back({c.name, c.problems.size(), solved, nodes, median});
    else
      fmt::print("{:<36} {:>3}/{:<2} {:>12} {:>12.3f}\n", c.name, solved, c.problems.size(), nodes,
                 median * 1e3);
  }
  print_signature(json, rows, signature, "nodes");
  return 0;
}

int run_beam_bench(int repeats, bool json) {
  std::uint64_t signature = 0;
  std::vector<BeamBenchRow> rows;
  if (!json)
    fmt::print("{:<40} {:>7} {:>6} {:>9} {:>12} {:>10}\n", "problem", "status", "pairs", "capacity",
               "positions", "median s");
  for (const BeamBenchCase& c : beam_bench_cases()) {
    SolveResult r;
    const double median = median_seconds(repeats, [&] {
      r = solve(c.problem, c.options);
      return r.seconds;
    });
    const std::uint64_t pairs = r.beam ? r.beam->pairs : 0;
    const std::size_t capacity = r.beam ? r.beam->capacity : 0;
    signature += r.nodes;
    if (json)
      rows.push_back({c.name, r.status, pairs, capacity, r.nodes, median});
    else
      fmt::print("{:<40} {:>7} {:>6} {:>9} {:>12} {:>10.2f}\n", c.name, status_name(r.status),
                 pairs, capacity, r.nodes, median);
  }
  print_signature(json, rows, signature, "positions");
  return 0;
}

int run_census_bench(int repeats, int threads, bool json) {
  std::vector<CensusBenchRow> rows;
  std::uint64_t signature = 0;
  if (!json)
    fmt::print("{:<38} {:>13} {:>11} {:>12} {:>10}\n", "census", "reachable", "on path", "median s",
               "peak MiB");
  for (const CensusBenchCase& c : census_bench_cases()) {
    CensusOptions o = c.options;
    o.threads = threads;
    CensusResult r;
    const double median = median_seconds(repeats, [&] {
      r = census(c.problem, o);
      return r.seconds;
    });
    signature += r.reachable_raw + r.on_path_raw;
    const double mib = static_cast<double>(r.peak_bytes) / (1 << 20);
    if (json)
      rows.push_back(
          {c.name, r.reachable_raw, r.on_path_raw, r.solutions, median, r.peak_bytes, r.threads});
    else
      fmt::print("{:<38} {:>13} {:>11} {:>12.3f} {:>10.1f}\n", c.name, r.reachable_raw,
                 r.on_path_raw, median, mib);
  }
  print_signature(json, rows, signature, "positions");
  return 0;
}

BenchCommand::BenchCommand(CLI::App& app) {
  cmd_ = app.add_subcommand("bench", "Solve fixed problems; print nodes, times, signature");
  cmd_->add_option("--repeat", repeats_, "Runs per problem (median time)")
      ->check(CLI::Range(1, 1000));
  cmd_->add_flag("--json", json_, "Print JSON");
  auto* beam = cmd_->add_flag("--beam", beam_, "Benchmark the beam searches on large boards");
  auto* census =
      cmd_->add_flag("--census", census_, "Benchmark the exact census (English included)");
  cmd_->add_option("--threads", threads_, "Census worker threads (default: one per core)")
      ->check(whole_number_check(0, max_threads()))
      ->needs(census);
  auto* play = cmd_->add_flag(
      "--play", play_, "Benchmark the analysis after each move of random games (docs/play.md)");
  // One bench at a time, and each bench's options with it alone.
  beam->excludes(census)->excludes(play);
  census->excludes(play);
  cmd_->add_option("--games", games_, "--play: random games per problem")
      ->check(whole_number_check(1, 1000000))
      ->needs(play);
  cmd_->add_option("--think", think_, "--play: seconds of analysis per move")
      ->check(seconds_check())
      ->needs(play);
  cmd_->add_option("--only", only_, "--play: the problems whose name holds this")->needs(play);
  cmd_->add_option("--memo", memo_mb_,
                   "--play: megabytes of each analyzer's search memo, per verdict (as pegsol "
                   "play's --memo; the server keeps 64 a verdict)")
      ->check(positive_check())
      ->needs(play);
  cmd_->add_option("--unknown-out", unknown_out_,
                   "--play: write the positions whose verdict stayed unknown to this file")
      ->needs(play);
  cmd_->add_option("--positions", positions_,
                   "--play: analyse the positions of this file (as --unknown-out writes them) "
                   "instead of random games")
      ->needs(play);
}

std::optional<int> BenchCommand::run(const Control& control) const {
  if (!*cmd_) return std::nullopt;
  if (play_) {
    if (json_) throw InputError("bench --play prints a table; --json is not available");
    if (!positions_.empty())
      return run_play_positions(positions_, think_, only_, unknown_out_, megabytes(memo_mb_),
                                control);
    return run_play_bench(games_, think_, only_, unknown_out_, megabytes(memo_mb_), control);
  }
  if (census_) return run_census_bench(repeats_, threads_, json_);
  return beam_ ? run_beam_bench(repeats_, json_) : run_bench(repeats_, json_);
}

}  // namespace pegsol::cli
