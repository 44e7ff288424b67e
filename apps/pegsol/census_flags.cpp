// SPDX-License-Identifier: MIT
#include "census_flags.hpp"

#include "cli.hpp"

namespace pegsol::cli {

void CountFlags::add(CLI::App* cmd) {
  cmd->add_flag("--no-symmetry", no_symmetry, "Store raw positions (a cross-check)");
  auto* distinct = cmd->add_flag("--no-distinct", no_distinct,
                                 "Skip counting solutions up to reordering of independent jumps");
  cmd->add_flag("--no-random-player", no_random_player,
                "Skip the random player's chances (8 bytes less per position and edge)");
  cmd->add_option("--distinct-limit", distinct_limit,
                  "Count up to reordering only when at most this many positions lie on "
                  "solution paths (default 2000000)")
      ->check(whole_number_check(0, UINT64_MAX))
      ->excludes(distinct);
}

void CountFlags::apply(CensusOptions& o) const {
  o.symmetry = !no_symmetry;
  o.distinct = !no_distinct;
  o.random_player = !no_random_player;
  o.distinct_max_positions = distinct_limit;
}

}  // namespace pegsol::cli
