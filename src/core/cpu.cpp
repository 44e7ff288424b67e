// SPDX-License-Identifier: MIT
// Which census kernels this machine gets (include/pegsol/version.hpp): the CPU's tier read once
// from cpuid, capped by PEGSOL_KERNELS.
#include <cstdlib>

#if defined(__x86_64__) && defined(__clang__)
#include <cpuid.h>
#endif

#include "pegsol/error.hpp"
#include "pegsol/version.hpp"

namespace pegsol {

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::Avx512:
      return "avx512";
    case Isa::Avx2:
      return "avx2";
    case Isa::Portable:
      break;
  }
  return "portable";
}

namespace {

// The best tier the CPU has (the features of src/census/target.hpp; the OS's support for the
// wider registers is part of __builtin_cpu_supports' answer).
Isa detect() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
#if defined(__clang__)
  // clang 14's __builtin_cpu_supports knows no "lzcnt", "movbe" or "f16c": read them from cpuid
  // (leaf 1 ECX bits 22 and 29, leaf 0x80000001 ECX bit 5).
  unsigned a = 0, b = 0, c1 = 0, d = 0, c8 = 0;
  const bool leaf1 = __get_cpuid(1, &a, &b, &c1, &d) != 0;
  const bool leaf8 = __get_cpuid(0x80000001u, &a, &b, &c8, &d) != 0;
  const bool lzcnt = leaf8 && (c8 >> 5 & 1), movbe = leaf1 && (c1 >> 22 & 1),
             f16c = leaf1 && (c1 >> 29 & 1);
#else
  const bool lzcnt = __builtin_cpu_supports("lzcnt"), movbe = __builtin_cpu_supports("movbe"),
             f16c = __builtin_cpu_supports("f16c");
#endif
  const bool v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                  __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") && lzcnt &&
                  __builtin_cpu_supports("fma") && movbe && f16c;
  if (!v3) return Isa::Portable;
  const bool v4 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                  __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
                  __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512vpopcntdq") &&
                  __builtin_cpu_supports("avx512bitalg") && __builtin_cpu_supports("avx512vbmi") &&
                  __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("gfni");
  return v4 ? Isa::Avx512 : Isa::Avx2;
#else
  return Isa::Portable;
#endif
}

}  // namespace

KernelInfo kernel_info() {
  KernelInfo k;
  k.cpu = detect();
#ifdef PEGSOL_PORTABLE_ONLY
  k.census = Isa::Portable;  // the other tiers were not compiled (PEGSOL_CPU_TIERS=OFF)
#else
  k.census = k.cpu;
#endif
  if (const char* env = std::getenv("PEGSOL_KERNELS"); env && *env) {
    k.cap = env;
    Isa cap;
    if (k.cap == "auto")
      cap = Isa::Avx512;
    else if (k.cap == "portable")
      cap = Isa::Portable;
    else if (k.cap == "avx2")
      cap = Isa::Avx2;
    else if (k.cap == "avx512")
      cap = Isa::Avx512;
    else
      throw InputError("PEGSOL_KERNELS=" + k.cap +
                       ": expected auto, portable, avx2 or avx512 (the kernels to use at most)");
    if (cap < k.census) k.census = cap;
  }
  return k;
}

}  // namespace pegsol
