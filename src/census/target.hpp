// SPDX-License-Identifier: MIT
// Regions of code compiled for an instruction set the build does not assume (internal).
//
//   PEGSOL_TARGET_BEGIN("avx2,bmi2")  ...functions...  PEGSOL_TARGET_END
//
// Every function defined between the two, lambdas and member functions included, may use those
// instructions; templates defined before the region (the standard library's) stay baseline. Such
// code runs only after the CPU was checked (src/core/cpu.cpp).
#pragma once

#define PEGSOL_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define PEGSOL_TARGET_BEGIN(isa) \
  PEGSOL_PRAGMA(clang attribute push(__attribute__((target(isa))), apply_to = function))
#define PEGSOL_TARGET_END PEGSOL_PRAGMA(clang attribute pop)
#else
#define PEGSOL_TARGET_BEGIN(isa) PEGSOL_PRAGMA(GCC push_options) PEGSOL_PRAGMA(GCC target(isa))
#define PEGSOL_TARGET_END PEGSOL_PRAGMA(GCC pop_options)
#endif

// The instruction sets of the census's tiers (src/core/cpu.hpp checks the same features).
#define PEGSOL_ISA_AVX2 "avx2,bmi,bmi2,popcnt,lzcnt,fma,movbe,f16c"
#define PEGSOL_ISA_AVX512                                                                  \
  "avx2,bmi,bmi2,popcnt,lzcnt,fma,movbe,f16c,avx512f,avx512bw,avx512vl,avx512dq,avx512cd," \
  "avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512vbmi2,gfni"
