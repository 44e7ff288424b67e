#include <algorithm>
#include <chrono>
#include <string>
#include <string_view>

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
  if (!json) fmt::print("{:<36} {:>6} {:>12} {:>12}\n", "problem", "solved", "nodes", "median ms");
  for (const Case& c : bench_cases()) {
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

int run_beam_bench(int repeats, bool json) {
  struct BeamCase {
    const char* name;
    const char* board;
    const char* start;
    const char* end;  // a hole, "any", or "last:K": a whole position, a peg on each of the last
                      // K holes in reading order (the bottom row of a triangle of K rows)
    Algorithm algorithm;
    std::size_t capacity;
    BeamMethod method = BeamMethod::Auto;
  };
  // Fixed seeds (SolveOptions' default): status, pairs and positions repeat run to run (a
  // second thread stopped when the first succeeds is left out of the count), so the signature
  // (total positions) changes only with the search.
  const BeamCase cases[] = {
      {"triangle:12 12->24 beam-report C=10000", "triangle:12", "12", "24", Algorithm::BeamReport,
       10000},
      {"triangle:15 12->24 beam", "triangle:15", "12", "24", Algorithm::Beam, 0},
      {"triangle:15 12->24 beam meet C=1000", "triangle:15", "12", "24", Algorithm::Beam, 1000,
       BeamMethod::Meet},
      {"triangle:20 1->any beam", "triangle:20", "1", "any", Algorithm::Beam, 0},
      {"triangle:20 1->1 beam", "triangle:20", "1", "1", Algorithm::Beam, 0},
      {"triangle:20 1->bottom row beam", "triangle:20", "1", "last:20", Algorithm::Beam, 0},
      {"triangle:25 2->any beam", "triangle:25", "2", "any", Algorithm::Beam, 0},
      {"triangle:25 2->3 beam", "triangle:25", "2", "3", Algorithm::Beam, 0},
      {"triangle:30 1->any beam", "triangle:30", "1", "any", Algorithm::Beam, 0},
  };
  std::uint64_t signature = 0;
  nlohmann::json rows = nlohmann::json::array();
  if (!json)
    fmt::print("{:<40} {:>7} {:>6} {:>9} {:>12} {:>10}\n", "problem", "status", "pairs", "capacity",
               "positions", "median s");
  for (const BeamCase& c : cases) {
    BoardPtr b = make_board(c.board);
    Problem p{b, single_vacancy(*b, *b->find(c.start)), {}};
    const std::string_view end = c.end;
    if (end == "any") {
      p.goal.kind = Goal::Kind::Any;
    } else if (end.starts_with("last:")) {
      p.goal.kind = Goal::Kind::Position;
      p.goal.position = HoleSet(b->size());
      const int k = std::stoi(std::string(end.substr(5)));
      for (int h = b->size() - k; h < b->size(); ++h) p.goal.position.set(h);
    } else {
      p.goal.kind = Goal::Kind::Hole;
      p.goal.hole = *b->find(c.end);
    }
    SolveOptions o;
    o.algorithm = c.algorithm;
    o.capacity = c.capacity;
    o.beam_method = c.method;
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
      rows.push_back({{"problem", c.name},
                      {"status", std::string(status_name(r.status))},
                      {"pairs", pairs},
                      {"capacity", capacity},
                      {"positions", r.nodes},
                      {"median_seconds", median}});
    else
      fmt::print("{:<40} {:>7} {:>6} {:>9} {:>12} {:>10.2f}\n", c.name, status_name(r.status),
                 pairs, capacity, r.nodes, median);
  }
  if (json)
    fmt::print("{}\n", nlohmann::json{{"cases", rows}, {"signature", signature}}.dump());
  else
    fmt::print("signature: {} positions\n", signature);
  return 0;
}

}  // namespace pegsol::cli
