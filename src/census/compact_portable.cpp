// SPDX-License-Identifier: MIT
// The compact census engine for any CPU (compact_tier.hpp with the baseline instruction set).
#define PEGSOL_CENSUS_ISA portable
#define PEGSOL_AVX512 0
#define PEGSOL_AVX2 0
#define PEGSOL_BMI2 0
#include "compact_tier.hpp"
