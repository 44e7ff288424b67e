// SPDX-License-Identifier: MIT
// The bidirectional beam ("meet"): two capacity-limited searches, from the start and from the
// goal's complement, until a position of one is the complement of a position of the other; both
// the report's rule and the improved one (include/pegsol/beam.hpp, docs/beam.md).
#pragma once

#include <cstddef>
#include <cstdint>

#include "../core/bits.hpp"
#include "../core/geometry.hpp"
#include "attempt.hpp"

namespace pegsol::beam_detail {

// One attempt of the meet from `start` to `goal` (`report`: the report's rule, pairs counted
// between the two final levels; otherwise the improved rule), `capacity` survivors a level,
// ties broken by `seed`. Instantiated for every width of kWidths.
template <int W>
Outcome run_meet(const Geometry<W>& g, const Bits<W>& start, const Bits<W>& goal, bool report,
                 std::size_t capacity, std::uint64_t seed, const AttemptControl& ctl);

}  // namespace pegsol::beam_detail
