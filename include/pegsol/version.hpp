// SPDX-License-Identifier: MIT
/// @file
/// The library's version, and which CPU-specific kernels it runs on this machine.
///
/// The library is built for any CPU of its architecture; the census's fast kernels are chosen at
/// run time from what the CPU has: `avx512` (AVX-512 with VBMI2, BITALG and VPOPCNTDQ, and GFNI),
/// `avx2` (x86-64-v3: AVX2, BMI2, LZCNT) or `portable` (plain C++, any CPU). The environment
/// variable PEGSOL_KERNELS (`auto`, `portable`, `avx2`, `avx512`) caps the choice, so that the
/// portable kernels can be run and tested on a CPU that has more.
#pragma once

#include <string>
#include <string_view>

#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/version_macros.hpp"  // PEGSOL_VERSION_MAJOR/MINOR/PATCH/STRING

namespace pegsol {

/// The version the library was built as: "0.2.0" (PEGSOL_VERSION_STRING), the version linked
/// where the macro gives the one compiled against.
PEGSOL_API std::string_view version();

/// Instruction-set tiers of the census's kernels, from the baseline up.
enum class Isa {
  Portable,  ///< Plain C++, any CPU.
  Avx2,      ///< x86-64-v3: AVX2, BMI2, LZCNT.
  Avx512,    ///< AVX-512 with VBMI2, BITALG, VPOPCNTDQ, and GFNI.
};
/// The tier's name: "portable", "avx2" or "avx512".
PEGSOL_API std::string_view isa_name(Isa isa);

/// The kernels this machine gets.
struct PEGSOL_API KernelInfo {
  Isa cpu = Isa::Portable;     ///< The best tier this CPU and this build support.
  Isa census = Isa::Portable;  ///< The tier the census runs: cpu, capped by PEGSOL_KERNELS.
  std::string cap;             ///< PEGSOL_KERNELS as set ("" when unset).
};

/// What this machine gets, PEGSOL_KERNELS read now.
/// @throws InputError when PEGSOL_KERNELS is set to neither `auto` nor a tier's name.
PEGSOL_API KernelInfo kernel_info();

}  // namespace pegsol
