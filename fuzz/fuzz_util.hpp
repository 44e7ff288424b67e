// SPDX-License-Identifier: MIT
// Shared by the fuzz targets: an input is either accepted or refused with InputError; anything
// else (another exception, a crash, a sanitizer report, a broken round trip) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace pegsol::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A property the library promises failed: stop here so that libFuzzer records the input.
[[noreturn]] inline void broken() {
  std::abort();
}

}  // namespace pegsol::fuzz
