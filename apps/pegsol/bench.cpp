// SPDX-License-Identifier: MIT
#include <algorithm>
#include <chrono>
#include <string>

#include <fmt/format.h>

#include "bench_cases.hpp"
#include "cli.hpp"
#include "pegsol/json.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::cli {

int run_bench(int repeats, bool json) {
  std::uint64_t signature = 0;
  std::vector<SolveBenchRow> rows;
  if (!json) fmt::print("{:<36} {:>6} {:>12} {:>12}\n", "problem", "solved", "nodes", "median ms");
  for (const SolveBenchCase& c : solve_bench_cases()) {
    std::vector<double> times;
    std::uint64_t nodes = 0;
    int solved = 0;
    for (int rep = 0; rep < repeats; ++rep) {
      double t = 0;
      std::uint64_t n = 0;
      int s = 0;
      for (const Problem& p : c.problems) {
        SolveOptions o;
        o.time_limit = 60;  // a regression must not hang the bench
        SolveResult r = solve(p, o);
        t += r.seconds;
        n += r.nodes;
        s += r.status == Status::Solved;
      }
      times.push_back(t);
      nodes = n;
      solved = s;
    }
    std::sort(times.begin(), times.end());
    double median = times[times.size() / 2];
    signature += nodes;
    if (json)
      rows.push_back({c.name, c.problems.size(), solved, nodes, median});
    else
      fmt::print("{:<36} {:>3}/{:<2} {:>12} {:>12.3f}\n", c.name, solved, c.problems.size(), nodes,
                 median * 1e3);
  }
  if (json)
    fmt::print("{}\n", dump_json(bench_json(rows, signature)));
  else
    fmt::print("signature: {} nodes\n", signature);
  return 0;
}

int run_beam_bench(int repeats, bool json) {
  std::uint64_t signature = 0;
  std::vector<BeamBenchRow> rows;
  if (!json)
    fmt::print("{:<40} {:>7} {:>6} {:>9} {:>12} {:>10}\n", "problem", "status", "pairs", "capacity",
               "positions", "median s");
  for (const BeamBenchCase& c : beam_bench_cases()) {
    const Problem& p = c.problem;
    const SolveOptions& o = c.options;
    std::vector<double> times;
    SolveResult r;
    for (int rep = 0; rep < repeats; ++rep) {
      r = solve(p, o);
      times.push_back(r.seconds);
    }
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    const std::uint64_t pairs = r.beam ? r.beam->pairs : 0;
    const std::size_t capacity = r.beam ? r.beam->capacity : 0;
    signature += r.nodes;
    if (json)
      rows.push_back({c.name, r.status, pairs, capacity, r.nodes, median});
    else
      fmt::print("{:<40} {:>7} {:>6} {:>9} {:>12} {:>10.2f}\n", c.name, status_name(r.status),
                 pairs, capacity, r.nodes, median);
  }
  if (json)
    fmt::print("{}\n", dump_json(bench_json(rows, signature)));
  else
    fmt::print("signature: {} positions\n", signature);
  return 0;
}

}  // namespace pegsol::cli
