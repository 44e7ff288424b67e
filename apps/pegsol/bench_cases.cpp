// SPDX-License-Identifier: MIT
// The bench's fixed problems (first solutions, beam searches, census runs) and their rows' JSON.
#include <string>
#include <string_view>

#include "bench_cases.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/spec.hpp"

namespace pegsol {

std::vector<SolveBenchCase> solve_bench_cases() {
  std::vector<SolveBenchCase> cases;
  for (const char* spec : {"english", "diamond41", "french", "wiegleb"})
    cases.push_back({std::string(spec) + " default", {default_problem(make_board(spec))}});
  for (int n : {5, 6, 7, 8}) {
    SolveBenchCase c{"triangle:" + std::to_string(n) + " every vacancy -> any", {}};
    BoardPtr b = make_board("triangle:" + std::to_string(n));
    for (int h = 0; h < b->size(); ++h) {
      Problem p{b, single_vacancy(*b, h), {}};
      p.goal.kind = Goal::Kind::Any;
      c.problems.push_back(p);
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<BeamBenchCase> beam_bench_cases() {
  struct Row {
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
  const Row rows[] = {
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
  std::vector<BeamBenchCase> cases;
  for (const Row& c : rows) {
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
    cases.push_back({c.name, p, o});
  }
  return cases;
}

std::vector<CensusBenchCase> census_bench_cases() {
  struct Row {
    const char* name;
    const char* board;
    const char* vacancy;
    const char* end;
    bool on_path;
    bool chance;  // the random player's chances too
  };
  // The English central game is the yardstick: reachable set, solution-path set,
  // solution and game counts (no reordering classes), with and without the random player.
  const Row rows[] = {
      {"triangle:6 1 -> any, every figure", "triangle:6", "1", "", true, true},
      {"english d4 -> d4 reachable + counts", "english", "d4", "d4", false, true},
      {"english d4 -> d4 full census", "english", "d4", "d4", true, true},
      {"english d4 -> d4 full, no chances", "english", "d4", "d4", true, false},
  };
  std::vector<CensusBenchCase> cases;
  for (const Row& c : rows) {
    BoardPtr b = make_board(c.board);
    Problem p{b, single_vacancy(*b, *b->find(c.vacancy)), Goal{}};
    if (*c.end) p.goal = Goal{Goal::Kind::Hole, *b->find(c.end), {}};
    CensusOptions o;
    o.on_path = c.on_path;
    o.random_player = c.chance;
    o.distinct = false;
    cases.push_back({c.name, p, o});
  }
  return cases;
}

nlohmann::json bench_json(const std::vector<SolveBenchRow>& rows, std::uint64_t signature) {
  nlohmann::json cases = nlohmann::json::array();
  for (const SolveBenchRow& r : rows)
    cases.push_back({{"problem", r.name},
                     {"instances", r.instances},
                     {"solved", r.solved},
                     {"nodes", r.nodes},
                     {"median_seconds", r.median_seconds}});
  return {{"cases", cases}, {"signature", signature}};
}

nlohmann::json bench_json(const std::vector<BeamBenchRow>& rows, std::uint64_t signature) {
  nlohmann::json cases = nlohmann::json::array();
  for (const BeamBenchRow& r : rows)
    cases.push_back({{"problem", r.name},
                     {"status", std::string(status_name(r.status))},
                     {"pairs", r.pairs},
                     {"capacity", r.capacity},
                     {"positions", r.positions},
                     {"median_seconds", r.median_seconds}});
  return {{"cases", cases}, {"signature", signature}};
}

nlohmann::json bench_json(const std::vector<CensusBenchRow>& rows, std::uint64_t signature) {
  nlohmann::json cases = nlohmann::json::array();
  for (const CensusBenchRow& r : rows)
    cases.push_back({{"census", r.name},
                     {"reachable", r.reachable},
                     {"on_solution_path", r.on_solution_path},
                     {"solutions", count_text(r.solutions)},
                     {"median_seconds", r.median_seconds},
                     {"peak_bytes", r.peak_bytes},
                     {"threads", r.threads}});
  return {{"cases", cases}, {"signature", signature}};
}

}  // namespace pegsol
