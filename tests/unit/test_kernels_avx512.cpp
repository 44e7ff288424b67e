// SPDX-License-Identifier: MIT
// The compact engine's avx512 kernel on square boards within 8x8 (run when this CPU has avx512).
// What the kernel headers include comes first, outside the target region: only the kernels
// themselves are compiled for the instruction set below.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include "census/kernels.hpp"
#include "census/simd_x86.hpp"
#include "census/target.hpp"
#include "kernel_check.hpp"
#include "pegsol/version.hpp"

#if defined(__x86_64__)
PEGSOL_TARGET_BEGIN(PEGSOL_ISA_AVX512)
#include "census/kernels_avx512.hpp"
#include "census/kernels_grid.hpp"
PEGSOL_TARGET_END
#endif

namespace pegsol {
namespace {

TEST(CensusKernels, AVX512GridKernel) {
#if defined(__x86_64__)
  if (kernel_info().cpu < Isa::Avx512) GTEST_SKIP() << "this CPU has no avx512";
  kernel_check::check_all([](const Board& b, const std::vector<int>& syms, int twist, auto run) {
    auto k = census_detail::GridKernel::make(b, syms, twist);
    if (k) run(*k);
    return k.has_value();
  });
#else
  GTEST_SKIP() << "not an x86-64 build";
#endif
}

}  // namespace
}  // namespace pegsol
