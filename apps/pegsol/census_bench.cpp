// SPDX-License-Identifier: MIT
// `pegsol bench --census`: the exact census on fixed problems.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "bench_cases.hpp"
#include "census_cmd.hpp"
#include "pegsol/census.hpp"
#include "pegsol/json.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::cli {

int run_census_bench(int repeats, int threads, bool json) {
  std::vector<CensusBenchRow> rows;
  std::uint64_t signature = 0;
  if (!json)
    fmt::print("{:<38} {:>13} {:>11} {:>12} {:>10}\n", "census", "reachable", "on path", "median s",
               "peak MiB");
  for (const CensusBenchCase& c : census_bench_cases()) {
    const Problem& p = c.problem;
    CensusOptions o = c.options;
    o.threads = threads;
    std::vector<double> times;
    CensusResult r;
    for (int rep = 0; rep < repeats; ++rep) {
      r = census(p, o);
      times.push_back(r.seconds);
    }
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    signature += r.reachable_raw + r.on_path_raw;
    const double mib = static_cast<double>(r.peak_bytes) / (1 << 20);
    if (json)
      rows.push_back(
          {c.name, r.reachable_raw, r.on_path_raw, r.solutions, median, r.peak_bytes, r.threads});
    else
      fmt::print("{:<38} {:>13} {:>11} {:>12.3f} {:>10.1f}\n", c.name, r.reachable_raw,
                 r.on_path_raw, median, mib);
  }
  if (json)
    fmt::print("{}\n", dump_json(bench_json(rows, signature)));
  else
    fmt::print("signature: {} positions\n", signature);
  return 0;
}

}  // namespace pegsol::cli
