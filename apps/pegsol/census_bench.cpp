// `pegsol bench --census`: the exact census on fixed problems.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "census_cmd.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"

namespace pegsol::cli {

int run_census_bench(int repeats, int threads, bool json) {
  struct Case {
    const char* name;
    const char* board;
    const char* vacancy;
    const char* end;
    bool on_path;
    bool chance;  // the random player's chances too
  };
  // The English central game is the yardstick: reachable set, solution-path set,
  // solution and game counts (no reordering classes), with and without the random player.
  const Case cases[] = {
      {"triangle:6 1 -> any, every figure", "triangle:6", "1", "", true, true},
      {"english d4 -> d4 reachable + counts", "english", "d4", "d4", false, true},
      {"english d4 -> d4 full census", "english", "d4", "d4", true, true},
      {"english d4 -> d4 full, no chances", "english", "d4", "d4", true, false},
  };
  nlohmann::json rows = nlohmann::json::array();
  std::uint64_t signature = 0;
  if (!json)
    fmt::print("{:<38} {:>13} {:>11} {:>12} {:>10}\n", "census", "reachable", "on path", "median s",
               "peak MiB");
  for (const Case& c : cases) {
    BoardPtr b = make_board(c.board);
    Problem p{b, single_vacancy(*b, *b->find(c.vacancy)), Goal{}};
    if (*c.end) p.goal = Goal{Goal::Kind::Hole, *b->find(c.end), {}};
    CensusOptions o;
    o.threads = threads;
    o.on_path = c.on_path;
    o.random_player = c.chance;
    o.distinct = false;
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
      rows.push_back({{"census", c.name},
                      {"reachable", r.reachable_raw},
                      {"on_solution_path", r.on_path_raw},
                      {"solutions", count_text(r.solutions)},
                      {"median_seconds", median},
                      {"peak_bytes", r.peak_bytes},
                      {"threads", r.threads}});
    else
      fmt::print("{:<38} {:>13} {:>11} {:>12.3f} {:>10.1f}\n", c.name, r.reachable_raw,
                 r.on_path_raw, median, mib);
  }
  if (json)
    fmt::print("{}\n", nlohmann::json{{"cases", rows}, {"signature", signature}}.dump());
  else
    fmt::print("signature: {} positions\n", signature);
  return 0;
}

}  // namespace pegsol::cli
