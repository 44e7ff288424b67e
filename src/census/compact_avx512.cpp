// SPDX-License-Identifier: MIT
// The compact census engine for x86-64 CPUs with AVX-512 (VBMI2, BITALG, VPOPCNTDQ) and GFNI.
#if defined(__x86_64__) && !defined(PEGSOL_PORTABLE_ONLY)
#include "target.hpp"
#define PEGSOL_CENSUS_TARGET PEGSOL_ISA_AVX512
#include "compact_tier.hpp"

PEGSOL_TARGET_BEGIN(PEGSOL_ISA_AVX512)
#include "kernels_avx512.hpp"

namespace pegsol::census_detail {
namespace {

// The AVX-512 tier: AVX-512 vectors (and everything of the AVX2 tier), the AVX-512 grid kernel.
struct Avx512Tier {
  static constexpr bool avx512 = true, avx2 = true, bmi2 = true;
  using Grid = GridKernel;
};

}  // namespace

CensusResult compact_census_avx512(const Problem& p, const CensusOptions& o,
                                   const std::vector<int>& syms, int twist, int count_bits) {
  return compact_census_tier<Avx512Tier>(p, o, syms, twist, count_bits);
}

}  // namespace pegsol::census_detail
PEGSOL_TARGET_END
#endif
