// SPDX-License-Identifier: MIT
// The library's version (include/pegsol/version.hpp); the CPU's kernels are cpu.cpp's.
#include "pegsol/version.hpp"

namespace pegsol {

std::string_view version() {
  return PEGSOL_VERSION_STRING;
}

}  // namespace pegsol
