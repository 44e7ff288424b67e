// Google Benchmark: move generation, first-solution search, census.
#include <benchmark/benchmark.h>

#include <random>

#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/geometry.hpp"
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

}  // namespace

BENCHMARK_MAIN();
