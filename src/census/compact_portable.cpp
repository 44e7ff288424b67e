// SPDX-License-Identifier: MIT
// The compact census engine for any CPU (compact_tier.hpp with the baseline instruction set).
#include "compact_tier.hpp"

namespace pegsol::census_detail {
namespace {

// The baseline tier: no instruction beyond the architecture's baseline, the scalar grid kernel.
struct PortableTier {
  static constexpr bool avx512 = false, avx2 = false, bmi2 = false;
  using Grid = ScalarGridKernel<bmi2>;
};

}  // namespace

CensusResult compact_census_portable(const Problem& p, const CensusOptions& o,
                                     const std::vector<int>& syms, int twist, int count_bits) {
  return compact_census_tier<PortableTier>(p, o, syms, twist, count_bits);
}

}  // namespace pegsol::census_detail
