#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "cli.hpp"
#include "pegsol/catalogue.hpp"

namespace pegsol::cli {

namespace {

struct Case {
  std::string name;
  std::vector<Problem> problems;  // solved one after another; times and nodes add up
};

std::vector<Case> bench_cases() {
  std::vector<Case> cases;
  for (const char* spec : {"english", "diamond41", "french", "wiegleb"})
    cases.push_back({std::string(spec) + " default", {default_problem(make_board(spec))}});
  for (int n : {5, 6, 7, 8}) {
    Case c{fmt::format("triangle:{} every vacancy -> any", n), {}};
    BoardPtr b = make_board(fmt::format("triangle:{}", n));
    for (int h = 0; h < b->size(); ++h) {
      Problem p{b, single_vacancy(*b, h), {}};
      p.goal.kind = Goal::Kind::Any;
      c.problems.push_back(p);
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace

int run_bench(int repeats, bool json) {
  std::uint64_t signature = 0;
  nlohmann::json rows = nlohmann::json::array();
  if (!json)
    fmt::print("{:<36} {:>6} {:>12} {:>12}\n", "problem", "solved", "nodes", "median ms");
  for (const Case& c : bench_cases()) {
    std::vector<double> times;
    std::uint64_t nodes = 0;
    int solved = 0;
    for (int rep = 0; rep < repeats; ++rep) {
      double t = 0;
      std::uint64_t n = 0;
      int s = 0;
      for (const Problem& p : c.problems) {
        SolveResult r = solve(p);
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
      rows.push_back({{"problem", c.name},
                      {"instances", c.problems.size()},
                      {"solved", solved},
                      {"nodes", nodes},
                      {"median_seconds", median}});
    else
      fmt::print("{:<36} {:>3}/{:<2} {:>12} {:>12.3f}\n", c.name, solved, c.problems.size(), nodes,
                 median * 1e3);
  }
  if (json)
    fmt::print("{}\n", nlohmann::json{{"cases", rows}, {"signature", signature}}.dump());
  else
    fmt::print("signature: {} nodes\n", signature);
  return 0;
}

}  // namespace pegsol::cli
