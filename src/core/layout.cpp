// SPDX-License-Identifier: MIT
// The layout search: the bit of each hole and the shift classes (layout.hpp).
#include "layout.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>

#include "bits.hpp"
#include "pegsol/error.hpp"

namespace pegsol {

namespace {

// The least bitset width holding `span` bits; 0 when none does.
int width_for(int span) {
  for (int w : kWidths)
    if (span <= w) return w;
  return 0;
}

}  // namespace

namespace layout_detail {

// Candidates and preference as layout.hpp says.
Layout::Layout(const Board& board) {
  const int n = board.size();
  const std::vector<Jump>& jumps = board.jumps();
  const Coord min = board.min_coord(), max = board.max_coord();
  std::vector<Coord> cells(static_cast<std::size_t>(n));
  for (int h = 0; h < n; ++h) cells[static_cast<std::size_t>(h)] = board.coord(h);
  auto count_classes = [&](const std::vector<int>& bits) {
    std::map<std::pair<int, int>, int> seen;
    for (const Jump& j : jumps) {
      int f = bits[static_cast<std::size_t>(j.from)];
      seen[{bits[static_cast<std::size_t>(j.over)] - f, bits[static_cast<std::size_t>(j.to)] - f}] =
          1;
    }
    return static_cast<int>(seen.size());
  };
  std::vector<int> best(static_cast<std::size_t>(n));
  std::iota(best.begin(), best.end(), 0);
  int best_span = n, best_width = width_for(n), best_classes = count_classes(best);
  if (best_width == 0)
    throw InputError("cells", "a board of " + std::to_string(n) + " holes; at most " +
                                  std::to_string(kMaxWidth) + " are supported");
  const int limit = std::min(2 * std::max(max.r - min.r, max.c - min.c) + 3, 80);
  std::vector<int> cand(static_cast<std::size_t>(n));
  std::vector<char> used;
  for (int b = 0; b <= limit; ++b) {
    for (int a = -limit; a <= limit; ++a) {
      if (b == 0 && a <= 0) continue;
      int lo = 1 << 30, hi = -(1 << 30);
      for (const Coord& p : cells) {
        int v = a * p.r + b * p.c;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      int span = hi - lo + 1;
      int width = width_for(span);
      if (width == 0 || width > best_width) continue;
      used.assign(static_cast<std::size_t>(span), 0);
      bool injective = true;
      for (int h = 0; h < n && injective; ++h) {
        const Coord& p = cells[static_cast<std::size_t>(h)];
        int v = a * p.r + b * p.c - lo;
        if (used[static_cast<std::size_t>(v)]) injective = false;
        used[static_cast<std::size_t>(v)] = 1;
        cand[static_cast<std::size_t>(h)] = v;
      }
      if (!injective) continue;
      int classes = count_classes(cand);
      if (std::tie(width, classes, span) < std::tie(best_width, best_classes, best_span)) {
        best = cand;
        best_width = width;
        best_classes = classes;
        best_span = span;
      }
    }
  }
  bits_ = best;
  span_ = best_span;
  width_ = best_width;
  bit_hole_.assign(static_cast<std::size_t>(width_), -1);
  for (int h = 0; h < n; ++h)
    bit_hole_[static_cast<std::size_t>(bits_[static_cast<std::size_t>(h)])] = h;

  std::map<std::pair<int, int>, std::size_t> index;
  std::vector<std::size_t> order(jumps.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return bit(jumps[x].from) < bit(jumps[y].from); });
  for (std::size_t j : order) {
    const Jump& jp = jumps[j];
    std::pair<int, int> key{bit(jp.over) - bit(jp.from), bit(jp.to) - bit(jp.from)};
    auto [it, fresh] = index.try_emplace(key, classes_.size());
    if (fresh) classes_.push_back({key.first, key.second, {}});
    classes_[it->second].jumps.push_back(static_cast<int>(j));
  }
}

void Layout::out_of_range(int v, const char* what) const {
  const std::size_t n = std::string_view(what) == "bit" ? bit_hole_.size() : bits_.size();
  throw InputError(what, std::string(what) + " " + std::to_string(v) +
                             " is outside the layout (0 to " +
                             std::to_string(static_cast<long long>(n) - 1) + ")");
}

}  // namespace layout_detail

}  // namespace pegsol
