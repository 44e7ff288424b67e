// SPDX-License-Identifier: MIT
// The library's access to the census's internals: the solution-path levels a PathIndex asks of
// census() (CensusOptions and CensusResult keep them private).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "pegsol/census.hpp"

namespace pegsol {
namespace census_detail {

// The positions on solution paths, one per orbit of the census group: levels[k] holds level k's,
// each the least of its images under `symmetries` read as 64-bit integers (the engines' layout,
// src/core/layout.hpp, not hole numbers), sorted.
struct KeptPaths {
  std::vector<int> symmetries;  // the census group: indices into Board::symmetries(), 0 first
  std::vector<std::vector<std::uint64_t>> levels;
};

}  // namespace census_detail

// What only the library does with a census's options and result.
class CensusAccess {
 public:
  // Whether the census is to keep its solution-path levels (the compact engine only: boards of up
  // to 64 bits; with counts and on_path).
  static bool keep_paths(const CensusOptions& o) { return o.keep_paths_; }
  static void set_keep_paths(CensusOptions& o, bool keep) { o.keep_paths_ = keep; }
  // The levels kept, taken out of `r` (null when none were: another engine, a stop before the
  // backward pass ended).
  static std::shared_ptr<census_detail::KeptPaths> take_paths(CensusResult& r) {
    return std::move(r.paths_);
  }
  static void set_paths(CensusResult& r, std::shared_ptr<census_detail::KeptPaths> p) {
    r.paths_ = std::move(p);
  }
};

}  // namespace pegsol
