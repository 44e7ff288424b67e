// SPDX-License-Identifier: MIT
// The fewest-moves search's board as key masks and the symmetry group it keeps, as byte tables.
//
// Its own rather than Geometry<W>'s (core/geometry.hpp): the keys number holes as the board does
// (keys.hpp), where Geometry<W> works in the layout's bits and by shift class, and the search
// needs what Geometry<W> has no use for: the jumps into each hole, each group element's inverse
// and the images of each jump's holes. The byte tables come from the one builder,
// core/byte_images.hpp.
//
// Nor Geometry<W>::apply for the images (issue 45, looked at and left): on keys in the layout's
// numbering the least image of a position is another key, so the level files (PEGFEWL2) and
// checkpoints would hold other keys and the meeting chosen among equal ones could change; on
// the hole-numbered keys its tables are the wrong ones (the layout's bits, every symmetry of the
// board, W / 8 bytes), where the search applies the kept group and its inverses over
// (n + 7) / 8 bytes. Its byte loop, which skips zero bytes, run on these tables cost 1.4% more
// instructions on the triangle:6 board minimum (callgrind), so apply() keeps its own loop
// (Geometry<W>::apply on this one would change the solve and census engines' counts: not tried).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

#include "../core/byte_images.hpp"
#include "jump_grid.hpp"
#include "keys.hpp"
#include "pegsol/board.hpp"
#include "pegsol/holeset.hpp"

namespace pegsol::fewest_detail {

// The board as W-bit masks and the symmetry group the search keeps, as byte tables.
template <int W>
struct KeyGeometry {
  int n = 0;
  std::vector<Jump> jumps;
  std::vector<Bits<W>> fo, t, all;          // per jump: from|over, to, from|over|to
  std::vector<std::vector<int>> perm, inv;  // group elements and their inverses (perm[0]: identity)
  // table[g][b * 256 + v]: image under g of byte b holding v.
  std::vector<std::vector<Bits<W>>> table, inv_table;
  int bytes = 0;
  // Images of each jump's three holes and of each hole: a jump's child has the images
  // image(g, parent) ^ jump_image[g * jumps + j], eight XORs instead of a table walk per child.
  std::vector<Bits<W>> jump_image, hole_image;  // [g * jumps.size() + j], [g * W + h]
  // The jumps landing on each hole: into[into_begin[h] .. into_begin[h + 1]), and their from|over
  // masks in the same order (into_fo[k] = fo[into[k]]).
  std::vector<int> into, into_begin;
  std::vector<Bits<W>> into_fo;
  Bits<W> full;      // every hole
  JumpGrid<W> grid;  // the legal jumps by shifts (boxes of at most 128 cells)

  KeyGeometry(const Board& b, const std::vector<std::vector<int>>& group) : n(b.size()) {
    if (n > kHoles<W>)
      throw std::logic_error("fewest moves: board " + b.name() + " is wider than its keys");
    jumps = b.jumps();
    grid = JumpGrid<W>(b, jumps);
    for (const Jump& j : jumps) {
      fo.push_back(Bits<W>::single(j.from) | Bits<W>::single(j.over));
      t.push_back(Bits<W>::single(j.to));
      all.push_back(Bits<W>::single(j.from) | Bits<W>::single(j.over) | Bits<W>::single(j.to));
    }
    perm = group;
    bytes = (n + 7) / 8;
    for (const auto& p : perm) {
      std::vector<int> q(p.size());
      for (std::size_t h = 0; h < p.size(); ++h)
        q[static_cast<std::size_t>(p[h])] = static_cast<int>(h);
      inv.push_back(q);
    }
    auto build = [&](const std::vector<int>& p) {
      std::vector<Bits<W>> tab(static_cast<std::size_t>(bytes) * 256);
      byte_images(bytes, n, tab.data(),
                  [&](int h) { return Bits<W>::single(p[static_cast<std::size_t>(h)]); });
      return tab;
    };
    for (std::size_t g = 0; g < perm.size(); ++g) {
      table.push_back(build(perm[g]));
      inv_table.push_back(build(inv[g]));
    }
    full = Bits<W>::low(n);
    into_begin.assign(static_cast<std::size_t>(n) + 1, 0);
    for (int h = 0; h < n; ++h) {
      into_begin[static_cast<std::size_t>(h)] = static_cast<int>(into.size());
      for (std::size_t j = 0; j < jumps.size(); ++j)
        if (jumps[j].to == h) {
          into.push_back(static_cast<int>(j));
          into_fo.push_back(fo[j]);
        }
    }
    into_begin[static_cast<std::size_t>(n)] = static_cast<int>(into.size());
    hole_image.assign(perm.size() * W, Bits<W>{});
    for (std::size_t g = 0; g < perm.size(); ++g) {
      for (const Jump& j : jumps)
        jump_image.push_back(Bits<W>::single(perm[g][static_cast<std::size_t>(j.from)]) |
                             Bits<W>::single(perm[g][static_cast<std::size_t>(j.over)]) |
                             Bits<W>::single(perm[g][static_cast<std::size_t>(j.to)]));
      for (int h = 0; h < n; ++h)
        hole_image[g * W + static_cast<std::size_t>(h)] =
            Bits<W>::single(perm[g][static_cast<std::size_t>(h)]);
    }
  }

  int group_size() const { return static_cast<int>(perm.size()); }

  static Bits<W> apply(const std::vector<Bits<W>>& tab, int bytes, Bits<W> x) {
    Bits<W> r;
    // A word at a time, shifted a byte a step (one word, one loop, at W = 64).
    for (int k = 0; k < Bits<W>::kWords; ++k) {
      std::uint64_t v = x.w[static_cast<std::size_t>(k)];
      const int end = std::min(bytes, 8 * (k + 1));
      for (int by = 8 * k; by < end; ++by, v >>= 8)
        r |= tab[static_cast<std::size_t>(by * 256 + static_cast<int>(v & 255))];
    }
    return r;
  }
  Bits<W> image(int g, Bits<W> x) const {
    return apply(table[static_cast<std::size_t>(g)], bytes, x);
  }
  Bits<W> preimage(int g, Bits<W> x) const {
    return apply(inv_table[static_cast<std::size_t>(g)], bytes, x);
  }

  // The canonical form of (pegs, land): the least image of the pegs, and the union of the landing
  // sets' images under every element giving it (so the stored L is closed under the key's own
  // symmetries: a symmetric path reaches the same key with the mirrored L).
  std::pair<Bits<W>, Bits<W>> canonical(Bits<W> pegs, Bits<W> land) const {
    if (perm.size() == 1) return {pegs, land};
    std::array<Bits<W>, 48> img{};
    Bits<W> best = pegs;
    for (int g = 0; g < group_size(); ++g) {
      img[static_cast<std::size_t>(g)] = g == 0 ? pegs : image(g, pegs);
      best = std::min(best, img[static_cast<std::size_t>(g)]);
    }
    Bits<W> l;
    for (int g = 0; g < group_size(); ++g)
      if (img[static_cast<std::size_t>(g)] == best) l |= g == 0 ? land : image(g, land);
    return {best, l};
  }

  // The canonical key of `pegs` and an element g with image(g, pegs) == key.
  std::pair<Bits<W>, int> canonical_key(Bits<W> pegs) const {
    Bits<W> best = pegs;
    int arg = 0;
    for (int g = 1; g < group_size(); ++g) {
      Bits<W> i = image(g, pegs);
      if (i < best) {
        best = i;
        arg = g;
      }
    }
    return {best, arg};
  }
};

template <int W>
Bits<W> to_bits(const HoleSet& s) {
  Bits<W> b;
  for (int h : s.members()) b.set(h);
  return b;
}

// The symmetries of `b` that map each of the sets to itself.
template <int W>
std::vector<std::vector<int>> keeping(const Board& b, const std::vector<std::vector<Bits<W>>>& sets,
                                      bool symmetry) {
  std::vector<std::vector<int>> out;
  for (const auto& p : b.symmetries()) {
    if (!out.empty() && !symmetry) break;
    // Each set's images hole by hole (a KeyGeometry of each symmetry, built for this before
    // 2026-11-30, cost more than the whole search of a small window).
    auto image = [&](Bits<W> x) {
      Bits<W> y;
      for (; x.any(); x.pop_lowest()) y.set(p[static_cast<std::size_t>(x.lowest())]);
      return y;
    };
    bool keeps = true;
    for (const auto& set : sets) {
      std::vector<Bits<W>> img;
      for (Bits<W> x : set) img.push_back(image(x));
      std::vector<Bits<W>> a = set;
      std::sort(a.begin(), a.end());
      std::sort(img.begin(), img.end());
      keeps = keeps && a == img;
    }
    if (keeps) out.push_back(p);
  }
  return out;
}

}  // namespace pegsol::fewest_detail
