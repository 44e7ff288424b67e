// SPDX-License-Identifier: MIT
// A solution-path index's storage and look-ups (internal to src/play): its levels of canonical
// keys with their directories, ways and end holes, and how a position finds its entry.
// path_index.cpp builds one (the census, then the backward pass) and answers PathIndex's
// questions from it.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "../core/geometry.hpp"
#include "pegsol/census.hpp"
#include "pegsol/path_index.hpp"

namespace pegsol {

// Named, not anonymous: PathIndex::Impl (external linkage) holds Counts (gcc's
// -Wsubobject-linkage in unity builds).
namespace path_index_detail {

using u64 = std::uint64_t;
using u32 = std::uint32_t;

// Exact counts of one level: 64-bit words, and the high words apart when a count needs them.
struct Counts {
  std::vector<u64> lo;
  std::vector<u64> hi;  // empty when every count fits 64 bits
  Count at(std::size_t i) const {
    return hi.empty() ? Count{lo[i]} : (static_cast<Count>(hi[i]) << 64 | lo[i]);
  }
  void assign(const std::vector<Count>& c) {
    lo.resize(c.size());
    bool wide = false;
    for (std::size_t i = 0; i < c.size(); ++i) {
      lo[i] = static_cast<u64>(c[i]);
      wide |= (c[i] >> 64) != 0;
    }
    hi.clear();
    if (wide) {
      hi.resize(c.size());
      for (std::size_t i = 0; i < c.size(); ++i) hi[i] = static_cast<u64>(c[i] >> 64);
    }
    lo.shrink_to_fit();
    hi.shrink_to_fit();
  }
  std::size_t bytes() const { return (lo.capacity() + hi.capacity()) * sizeof(u64); }
};

// A level's directory has about a bucket per two keys: a search reads a bucket and a line or two.
constexpr int kDirSlack = 1;

}  // namespace path_index_detail

// The board's tables and the levels. Level k holds the census's solution-path positions with k
// pegs, one per orbit under the census group: canonical layouts (the least image read as a 64-bit
// integer), sorted; a directory over their high bits narrows each binary search to a bucket.
// Beside each key: its ways to the census's target (and to the goal, when the census is towards
// one peg anywhere and the goal is a hole), and for one peg anywhere the holes the last peg can
// end on, as an index into a table of layout masks (of the canonical position: another member of
// the orbit ends on the masks' images).
struct PathIndex::Impl {
  using u64 = path_index_detail::u64;
  using u32 = path_index_detail::u32;
  using Counts = path_index_detail::Counts;

  explicit Impl(const Board& b) : geo(b) {}

  struct Level {
    std::vector<u64> keys;
    std::vector<u32> dir;  // bucket (key >> shift) holds keys [dir[b], dir[b + 1])
    int shift = 64;
    Counts ways;            // to the census's target
    Counts goal;            // to the goal hole (combined only)
    std::vector<u32> ends;  // into end_masks (census towards one peg anywhere)

    // The bucket of c: keys [lo, lo + len) (every key when there is no directory).
    void bucket(u64 c, u32& lo, u32& len) const {
      if (dir.empty()) {
        lo = 0;
        len = static_cast<u32>(keys.size());
        return;
      }
      const u64 b = c >> shift;
      if (b + 1 >= dir.size()) {
        lo = len = 0;
        return;
      }
      lo = dir[b];
      len = dir[b + 1] - lo;
    }
    void prefetch_bucket(u64 c) const {
      if (!dir.empty() && (c >> shift) + 1 < dir.size()) __builtin_prefetch(&dir[c >> shift]);
    }
    // The index of c among keys [lo, lo + len), or -1: a branch-free lower bound.
    long search(u64 c, u32 lo, u32 len) const {
      if (len == 0) return -1;
      const u64* base = keys.data() + lo;
      while (len > 1) {
        const u32 half = len / 2;
        base += static_cast<std::size_t>(base[half - 1] < c) * half;
        len -= half;
      }
      return *base == c ? static_cast<long>(base - keys.data()) : -1;
    }
    long find(u64 c) const {
      u32 lo = 0, len = 0;
      bucket(c, lo, len);
      return search(c, lo, len);
    }
    void index() {
      dir.clear();
      if (keys.size() < 256) return;
      const int top = std::bit_width(keys.back());
      const int d = std::min(24, std::max(1, static_cast<int>(std::bit_width(keys.size())) -
                                                 path_index_detail::kDirSlack));
      shift = std::max(0, top - d);
      const std::size_t buckets = static_cast<std::size_t>((keys.back() >> shift) + 1);
      dir.assign(buckets + 1, 0);
      for (u64 k : keys) ++dir[static_cast<std::size_t>(k >> shift) + 1];
      for (std::size_t b = 1; b < dir.size(); ++b) dir[b] += dir[b - 1];
    }
    std::size_t bytes() const {
      return keys.capacity() * sizeof(u64) + dir.capacity() * sizeof(u32) + ways.bytes() +
             goal.bytes() + ends.capacity() * sizeof(u32);
    }
  };

  Geometry<64> geo;
  std::vector<int> syms;  // the census group: indices into the board's symmetries, 0 first
  std::vector<int> inv;   // inverse of each board symmetry
  std::vector<Level> levels;
  std::vector<u64> end_masks;
  bool to_any = false;    // the census is towards one peg anywhere
  bool combined = false;  // ... and the problem's goal is a hole it answers too (Level::goal)
  int base = 1;           // pegs at the census's target
  u64 goal_bit = 0;       // combined: the goal hole's layout bit

  u64 image(int s, u64 x) const {
    Bits<64> b;
    b.w[0] = x;
    return geo.apply(s, b).w[0];
  }
  // The least image of x under the group, and the symmetry (a board index) giving it.
  u64 canonical(u64 x, int& sym) const {
    u64 best = x;
    sym = 0;
    for (int s : syms)
      if (s != 0) {
        const u64 q = image(s, x);
        if (q < best) {
          best = q;
          sym = s;
        }
      }
    return best;
  }
  struct Found {
    const Level* level = nullptr;
    std::size_t i = 0;
    int sym = 0;  // maps the position asked about to its level's key
  };
  std::optional<Found> locate(u64 x) const {
    const auto k = static_cast<std::size_t>(std::popcount(x));
    if (k >= levels.size()) return std::nullopt;
    Found f;
    const u64 c = canonical(x, f.sym);
    const long i = levels[k].find(c);
    if (i < 0) return std::nullopt;
    f.level = &levels[k];
    f.i = static_cast<std::size_t>(i);
    return f;
  }
  Count ways(const Found& f, PathTarget t) const {
    if (t == PathTarget::Goal && combined) return f.level->goal.at(f.i);
    return f.level->ways.at(f.i);
  }
};

}  // namespace pegsol
