// SPDX-License-Identifier: MIT
// The compact census engine's count of solutions up to reordering of independent jumps
// (compiled per CPU tier: compact_common.hpp), over the solution paths the other passes kept.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "compact_engine.hpp"
#include "paths.hpp"
#include "pegsol/census.hpp"
#include "skeleton.hpp"

namespace pegsol::census_detail {
namespace {

// Solutions up to reordering of independent jumps (paths.hpp), over the solution paths.
template <class Tier, class Kernel>
inline void Engine<Tier, Kernel>::distinct(CensusResult& r) {
  count_distinct(
      r, o_, o_.on_path, g_, g_.to_bits(p_.start), goal_pegs_, k0_, mem_, run_.control,
      [&](const Pos& x, int k) {
        const auto& v = paths_[static_cast<std::size_t>(k)];
        return std::binary_search(v.begin(), v.end(), kern_.canon(to_key(x)));
      },
      [&](const Pos& x) { return is_goal(x); });
  paths_.clear();
}

}  // namespace
}  // namespace pegsol::census_detail
