// SPDX-License-Identifier: MIT
// Google Benchmark: move generation, first-solution search, census, fewest moves, position
// analysis.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include "core/geometry.hpp"
#include "pegsol/analysis.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/solve.hpp"

namespace {

using namespace pegsol;

// Counts every legal jump of a fixed set of random English positions.
void BM_MoveGenEnglish(benchmark::State& state) {
  BoardPtr b = make_board("english");
  Geometry<64> g(*b);
  std::mt19937_64 rng(12345);
  std::vector<Bits<64>> positions(1024);
  for (auto& p : positions) {
    p.w[0] = rng() & g.holes().w[0];
  }
  std::size_t i = 0;
  for (auto _ : state) {
    int n = 0;
    g.for_each_jump(positions[i++ & 1023], [&](int) { ++n; });
    benchmark::DoNotOptimize(n);
  }
}
BENCHMARK(BM_MoveGenEnglish);

void BM_SolveDefault(benchmark::State& state, const char* spec) {
  Problem p = default_problem(make_board(spec));
  for (auto _ : state) {
    SolveResult r = solve(p);
    benchmark::DoNotOptimize(r.nodes);
  }
}
BENCHMARK_CAPTURE(BM_SolveDefault, english, "english")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SolveDefault, diamond41, "diamond41")->Unit(benchmark::kMillisecond);

// Fewest moves found and proven: the default problem, or with `board` the board's minimum over
// every single-vacancy problem. The moves and the positions stored go out as counters.
void BM_Fewest(benchmark::State& state, const char* spec, bool board) {
  BoardPtr b = make_board(spec);
  for (auto _ : state) {
    FewestResult r = board ? fewest_board(b).result : fewest_solve(default_problem(b));
    if (!r.proven) state.SkipWithError("not proven");
    state.counters["moves"] = r.moves;
    state.counters["positions"] = static_cast<double>(r.positions);
  }
}
BENCHMARK_CAPTURE(BM_Fewest, english, "english", false)->Unit(benchmark::kSecond)->Iterations(1);
// issue 46's other targets: French 20 moves (some 30 s), Diamond 41 e3 -> e7 26 (some 110 s).
BENCHMARK_CAPTURE(BM_Fewest, french, "french", false)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Fewest, diamond41, "diamond41", false)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_Fewest, triangle7_board, "triangle:7", true)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

// The exact census of a triangle from its corner (every figure but the reordering classes).
void BM_Census(benchmark::State& state, const char* spec) {
  BoardPtr b = make_board(spec);
  Problem p{b, single_vacancy(*b, 0), Goal{}};
  CensusOptions o;
  o.distinct = false;
  for (auto _ : state) {
    CensusResult r = census(p, o);
    benchmark::DoNotOptimize(r.reachable_raw);
  }
}
BENCHMARK_CAPTURE(BM_Census, triangle5, "triangle:5")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Census, triangle6, "triangle:6")->Unit(benchmark::kMillisecond);

// The recorded English games (bench/data/english-random-games.txt), one position list per game;
// the first 10 of the 40 unless PEGSOL_BENCH_GAMES says how many.
std::vector<std::vector<std::string>> recorded_games() {
  const char* env = std::getenv("PEGSOL_BENCH_GAMES");
  const std::size_t want = env ? static_cast<std::size_t>(std::atoi(env)) : 10;
  std::ifstream f(PEGSOL_BENCH_DATA "/english-random-games.txt");
  std::vector<std::vector<std::string>> games(1);
  for (std::string line; std::getline(f, line);) {
    if (line.starts_with("#")) continue;
    if (line.empty()) {
      if (!games.back().empty()) games.emplace_back();
      continue;
    }
    games.back().push_back(line);
  }
  if (games.back().empty()) games.pop_back();
  if (games.size() > want) games.resize(want);
  return games;
}

// Asks `query` about every recorded position and reports the per-position times: p50, p90, p95,
// max (milliseconds). One Analyzer serves every game, as the server's analyzer cache does: the
// first question builds its census look-ups (first_ms, counted in the figures too).
template <class Query>
void analysis_bench(benchmark::State& state, Query query) {
  BoardPtr b = make_board("english");
  const Problem p = default_problem(b);
  const auto games = recorded_games();
  std::vector<double> ms;
  for (auto _ : state) {
    ms.clear();
    Analyzer an(b, p.goal);
    for (const auto& game : games) {
      for (const std::string& bits : game) {
        Position pos = Position::parse(b, bits);
        const auto t0 = std::chrono::steady_clock::now();
        query(an, pos, p.start);
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
      }
    }
  }
  state.counters["first_ms"] = ms.empty() ? 0 : ms.front();
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) {
    return ms[static_cast<std::size_t>(q * static_cast<double>(ms.size() - 1))];
  };
  state.counters["positions"] = static_cast<double>(ms.size());
  state.counters["p50_ms"] = at(0.5);
  state.counters["p95_ms"] = at(0.95);
  state.counters["max_ms"] = ms.back();
  auto share_under = [&](double limit) {
    return static_cast<double>(std::lower_bound(ms.begin(), ms.end(), limit) - ms.begin()) /
           static_cast<double>(ms.size());
  };
  state.counters["p90_ms"] = at(0.9);
  state.counters["under_50ms"] = share_under(50);
  state.counters["under_100ms"] = share_under(100);
}

// "Still solvable?" to the goal (the count when cheap, else a search), as live feedback asks.
void BM_AnalysisSolvable(benchmark::State& state) {
  analysis_bench(state, [](const Analyzer& an, const Position& pos, const HoleSet& start) {
    AnalysisOptions o;
    o.start = start;  // the positions were reached from the start, as a server's games are
    benchmark::DoNotOptimize(an.solvable(pos, o).verdict);
  });
}
BENCHMARK(BM_AnalysisSolvable)->Unit(benchmark::kMillisecond)->Iterations(1);

// A hint: the next move of a solution (to the goal, else to one peg); the count only where the
// short searches did not settle the position.
void BM_AnalysisHint(benchmark::State& state) {
  analysis_bench(state, [](const Analyzer& an, const Position& pos, const HoleSet& start) {
    AnalysisOptions o;
    o.start = start;
    o.ways = false;
    benchmark::DoNotOptimize(an.analyze(pos, o).hint);
  });
}
BENCHMARK(BM_AnalysisHint)->Unit(benchmark::kMillisecond)->Iterations(1);

// Everything: both verdicts, the count and end holes where cheap, the hint.
void BM_AnalysisFull(benchmark::State& state) {
  analysis_bench(state, [](const Analyzer& an, const Position& pos, const HoleSet& start) {
    AnalysisOptions o;
    o.start = start;
    benchmark::DoNotOptimize(an.analyze(pos, o).counted);
  });
}
BENCHMARK(BM_AnalysisFull)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
