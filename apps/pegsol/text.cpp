// SPDX-License-Identifier: MIT
// The commands' text pieces (text.hpp).
#include "text.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace pegsol::cli {

std::string grouped(const std::string& digits) {
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}
std::string grouped(Count c) {
  return grouped(count_text(c));
}
std::string grouped(std::uint64_t c) {
  return grouped(std::to_string(c));
}

std::string mib(std::size_t b) {
  return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1 << 20));
}

std::string side_by_side(const std::vector<std::vector<std::string>>& grids, int columns) {
  std::string out;
  std::size_t w = 0;
  for (const auto& g : grids)
    for (const auto& l : g) w = std::max(w, l.size());
  w += 3;
  std::size_t per_row = std::max<std::size_t>(1, static_cast<std::size_t>(columns) / w);
  for (std::size_t i = 0; i < grids.size(); i += per_row) {
    std::size_t end = std::min(grids.size(), i + per_row), rows = 0;
    for (std::size_t j = i; j < end; ++j) rows = std::max(rows, grids[j].size());
    for (std::size_t r = 0; r < rows; ++r) {
      std::string line;
      for (std::size_t j = i; j < end; ++j) {
        std::string cell = r < grids[j].size() ? grids[j][r] : "";
        if (j + 1 < end) cell.resize(w, ' ');
        line += cell;
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    out += "\n";
  }
  return out;
}

std::string wrapped(const std::vector<std::string>& words, int columns, int gap) {
  const std::string space(static_cast<std::size_t>(gap), ' ');
  std::string out, line;
  for (const std::string& w : words) {
    if (!line.empty() && static_cast<int>(line.size() + space.size() + w.size()) > columns) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : space) + w;
  }
  if (!line.empty()) out += line + "\n";
  return out;
}

}  // namespace pegsol::cli
