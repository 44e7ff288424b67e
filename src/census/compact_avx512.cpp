// SPDX-License-Identifier: MIT
// The compact census engine for x86-64 CPUs with AVX-512 (VBMI2, BITALG, VPOPCNTDQ) and GFNI.
#if defined(__x86_64__) && !defined(PEGSOL_PORTABLE_ONLY)
#include "target.hpp"
#define PEGSOL_CENSUS_ISA avx512
#define PEGSOL_CENSUS_TARGET PEGSOL_ISA_AVX512
#define PEGSOL_AVX512 1
#define PEGSOL_AVX2 1
#define PEGSOL_BMI2 1
#include "compact_tier.hpp"
#endif
