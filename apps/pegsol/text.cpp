// SPDX-License-Identifier: MIT
// The commands' text pieces (text.hpp).
#include "text.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace pegsol::cli {

std::string grouped(Count c) {
  return grouped_count_text(c);
}
std::string grouped(std::uint64_t c) {
  return grouped_count_text(c);
}

std::string mib(std::size_t b) {
  return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1 << 20));
}

namespace {

// The columns `s` takes on a terminal: its characters less its colour codes ("\x1b[...m").
std::size_t visible_width(const std::string& s) {
  std::size_t n = 0;
  for (std::size_t c = 0; c < s.size(); ++c) {
    if (s[c] == '\x1b')
      c = std::min(s.find('m', c), s.size());
    else
      ++n;
  }
  return n;
}

}  // namespace

std::string side_by_side(const std::vector<std::vector<std::string>>& grids, int columns,
                         GridWidth widths) {
  constexpr std::size_t kGap = 3;
  std::vector<std::size_t> w(grids.size(), 0);
  for (std::size_t j = 0; j < grids.size(); ++j)
    for (const auto& l : grids[j]) w[j] = std::max(w[j], visible_width(l));
  if (widths == GridWidth::Widest && !w.empty())
    w.assign(w.size(), *std::max_element(w.begin(), w.end()));
  const std::size_t room = static_cast<std::size_t>(std::max(columns, 0));
  std::string out;
  for (std::size_t i = 0, end = 0; i < grids.size(); i = end) {
    // As many grids as fit, the first one in any case.
    std::size_t used = w[i];
    for (end = i + 1; end < grids.size() && used + kGap + w[end] <= room; ++end)
      used += kGap + w[end];
    std::size_t rows = 0;
    for (std::size_t j = i; j < end; ++j) rows = std::max(rows, grids[j].size());
    for (std::size_t r = 0; r < rows; ++r) {
      std::string line;
      for (std::size_t j = i; j < end; ++j) {
        const std::string cell = r < grids[j].size() ? grids[j][r] : "";
        line += cell;
        if (j + 1 < end) line.append(w[j] + kGap - visible_width(cell), ' ');
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
