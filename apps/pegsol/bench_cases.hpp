// SPDX-License-Identifier: MIT
// `pegsol bench`'s fixed problems, its rows and their JSON: the command's own, not the library's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pegsol/census.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"

namespace pegsol {

// `pegsol bench`: a named group of problems solved one after another with SolveOptions{} but a
// 60 s time limit; nodes add up into the signature.
struct SolveBenchCase {
  std::string name;
  std::vector<Problem> problems;
};
// The solve bench's cases, in the order `pegsol bench` runs them.
std::vector<SolveBenchCase> solve_bench_cases();
// A solve bench case's figures: instances solved, nodes of one round, median seconds per round.
struct SolveBenchRow {
  std::string name;
  std::size_t instances = 0;
  int solved = 0;
  std::uint64_t nodes = 0;
  double median_seconds = 0;
};

// `pegsol bench --beam`: one problem and the options of its beam search (fixed seeds, so the
// positions searched, summed into the signature, change only with the search).
struct BeamBenchCase {
  std::string name;
  Problem problem;
  SolveOptions options;
};
// The beam bench's cases, in the order `pegsol bench --beam` runs them.
std::vector<BeamBenchCase> beam_bench_cases();
// A beam bench case's figures: the last run's status, pairs, capacity and positions, the median.
struct BeamBenchRow {
  std::string name;
  Status status = Status::Unknown;
  std::uint64_t pairs = 0;
  std::size_t capacity = 0;
  std::uint64_t positions = 0;
  double median_seconds = 0;
};

// `pegsol bench --census`: one problem and what its census computes (threads left at 0); the
// signature sums reachable and on-path positions.
struct CensusBenchCase {
  std::string name;
  Problem problem;
  CensusOptions options;
};
// The census bench's cases, in the order `pegsol bench --census` runs them.
std::vector<CensusBenchCase> census_bench_cases();
// A census bench case's figures: the last run's counts, peak bytes and threads, the median.
struct CensusBenchRow {
  std::string name;
  std::uint64_t reachable = 0, on_solution_path = 0;
  Count solutions = 0;
  double median_seconds = 0;
  std::size_t peak_bytes = 0;
  int threads = 0;
};

// `pegsol bench --json` (and --beam, --census): {"cases": [one object per row], "signature"}.
nlohmann::json bench_json(const std::vector<SolveBenchRow>& rows, std::uint64_t signature);
nlohmann::json bench_json(const std::vector<BeamBenchRow>& rows, std::uint64_t signature);
nlohmann::json bench_json(const std::vector<CensusBenchRow>& rows, std::uint64_t signature);

}  // namespace pegsol
