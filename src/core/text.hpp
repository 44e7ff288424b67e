// SPDX-License-Identifier: MIT
// Small text helpers shared by the readers of positions and game files.
#pragma once

#include <string_view>

namespace pegsol::text {

// True when `s` is a non-empty string of '0' and '1'.
inline bool is_bits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("01") == std::string_view::npos;
}

// `s` without leading and trailing blanks (spaces, tabs, line ends).
inline std::string_view trim(std::string_view s) {
  auto a = s.find_first_not_of(" \t\r\n");
  if (a == std::string_view::npos) return {};
  auto z = s.find_last_not_of(" \t\r\n");
  return s.substr(a, z - a + 1);
}

}  // namespace pegsol::text
