// SPDX-License-Identifier: MIT
// The compact engine's avx2 kernel on square boards within 8x8 (run when this CPU has avx2).
#include <immintrin.h>

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
PEGSOL_TARGET_BEGIN(PEGSOL_ISA_AVX2)
#include "census/kernels_avx2.hpp"
#include "census/kernels_grid.hpp"

PEGSOL_TARGET_END
#endif

namespace pegsol {
namespace {

TEST(CensusKernels, AVX2GridKernel) {
#if defined(__x86_64__)
  if (kernel_info().cpu < Isa::Avx2) GTEST_SKIP() << "this CPU has no avx2";
  kernel_check::check_all([](const Board& b, const std::vector<int>& syms, int twist, auto run) {
    auto k = census_detail::Avx2GridKernel::make(b, syms, twist);
    if (k) run(*k);
    auto scalar = census_detail::ScalarGridKernel<true>::make(b, syms, twist);
    if (scalar) run(*scalar);
    EXPECT_EQ(k.has_value(), scalar.has_value());
    return k.has_value();
  });
#else
  GTEST_SKIP() << "not an x86-64 build";
#endif
}

// The kernel compares keys below bit 62 as doubles, most of them denormal; a caller whose thread
// treats denormals as zero (DAZ, as -ffast-math sets) must get the same answers.
TEST(CensusKernels, AVX2GridKernelWithDenormalsAsZero) {
#if defined(__x86_64__)
  if (kernel_info().cpu < Isa::Avx2) GTEST_SKIP() << "this CPU has no avx2";
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved | 0x0040);
  kernel_check::check_all([](const Board& b, const std::vector<int>& syms, int twist, auto run) {
    auto k = census_detail::Avx2GridKernel::make(b, syms, twist);
    if (k) run(*k);
    return k.has_value();
  });
  _mm_setcsr(saved);
#else
  GTEST_SKIP() << "not an x86-64 build";
#endif
}

}  // namespace
}  // namespace pegsol
