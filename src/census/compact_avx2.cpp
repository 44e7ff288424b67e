// SPDX-License-Identifier: MIT
// The compact census engine for x86-64 CPUs with AVX2 and BMI2 (x86-64-v3).
#if defined(__x86_64__) && !defined(PEGSOL_PORTABLE_ONLY)
#include "target.hpp"
#define PEGSOL_CENSUS_TARGET PEGSOL_ISA_AVX2
#include "compact_tier.hpp"

PEGSOL_TARGET_BEGIN(PEGSOL_ISA_AVX2)
#include "kernels_avx2.hpp"

namespace pegsol::census_detail {
namespace {

// The AVX2 tier: AVX2 vectors and pext/pdep, the AVX2 grid kernel.
struct Avx2Tier {
  static constexpr bool avx512 = false, avx2 = true, bmi2 = true;
  using Grid = Avx2GridKernel;
};

}  // namespace

CensusResult compact_census_avx2(const Problem& p, const CensusOptions& o,
                                 const std::vector<int>& syms, int twist, int count_bits) {
  return compact_census_tier<Avx2Tier>(p, o, syms, twist, count_bits);
}

}  // namespace pegsol::census_detail
PEGSOL_TARGET_END
#endif
