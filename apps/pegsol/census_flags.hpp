// SPDX-License-Identifier: MIT
// The census's own options on the command line, registered once for `pegsol count` and
// `pegsol-mpi count`.
#pragma once

#include <cstdint>

#include <CLI/CLI.hpp>

#include "pegsol/census.hpp"

namespace pegsol::cli {

// What the census counts: --no-symmetry, --no-distinct, --no-random-player, --distinct-limit.
struct CountFlags {
  bool no_symmetry = false, no_distinct = false, no_random_player = false;
  std::uint64_t distinct_limit = CensusOptions{}.distinct_max_positions;
  // Registers them on `cmd` (--distinct-limit excludes --no-distinct).
  void add(CLI::App* cmd);
  // Sets o's symmetry, distinct and random-player fields from them.
  void apply(CensusOptions& o) const;
};

}  // namespace pegsol::cli
