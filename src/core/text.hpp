// SPDX-License-Identifier: MIT
// Small text helpers shared by the readers of positions and game files.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/error.hpp"

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

// The words of a move list: its text split at spaces, tabs, line ends and commas (views into
// `s`, so each one knows where it stands).
inline std::vector<std::string_view> move_list_words(std::string_view s) {
  constexpr std::string_view kSeparators = " \t\r\n\v\f,";
  std::vector<std::string_view> words;
  for (std::size_t i = s.find_first_not_of(kSeparators); i != std::string_view::npos;) {
    const std::size_t j = std::min(s.find_first_of(kSeparators, i), s.size());
    words.push_back(s.substr(i, j - i));
    i = s.find_first_not_of(kSeparators, j);
  }
  return words;
}

// A word of a move list without its number, as the command prints moves ("12.d2-d4" gives
// "d2-d4"; "12." the empty view just after the '.').
// Throws InputError when what stands before a '.' is not a number.
inline std::string_view without_move_number(std::string_view word) {
  const std::size_t dot = word.find('.');
  if (dot == std::string_view::npos) return word;
  const std::string_view number = word.substr(0, dot);
  if (number.empty() || number.find_first_not_of("0123456789") != std::string_view::npos)
    throw InputError("move '" + std::string(word) +
                     "': a move number is written as digits and a '.'");
  return word.substr(dot + 1);
}

}  // namespace pegsol::text
