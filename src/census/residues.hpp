// SPDX-License-Identifier: MIT
// The census's residues (internal to src/census and src/mpi): the linear function of a position's
// pegs that splits a level, the same for the compact engine and the MPI census's owners.
//
//      residue(x) = sum over the pegs h of x of weight(h)  (mod 2^16),   weight constant on orbits
//
// (compact_tier.hpp says why a level is split so). The weights depend on the board, the census
// group and the complement trick's twist only, so every engine that splits a level by them splits
// it the same way.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "pegsol/board.hpp"

namespace pegsol::census_detail {

constexpr int kResidueBits = 16;
constexpr std::uint32_t kResidues = std::uint32_t{1} << kResidueBits;
constexpr std::uint32_t kResidueMask = kResidues - 1;

// The residue weights of a board: hole h weighs weight[orbit[h]] (16 bits).
struct ResidueWeights {
  std::vector<int> orbit;             // [hole]: its weight class
  std::vector<std::uint32_t> weight;  // [class]: the weight of its holes
  std::uint32_t of(int hole) const {
    return weight[static_cast<std::size_t>(orbit[static_cast<std::size_t>(hole)])];
  }
  // The residue of the full board.
  std::uint32_t total(int holes) const {
    std::uint32_t t = 0;
    for (int h = 0; h < holes; ++h) t += of(h);
    return t & kResidueMask;
  }
  // (mask, weight) per class in a bit layout, bit_of(h) being hole h's bit: a position's residue
  // is then the sum of weight * popcount(x & mask).
  template <class BitOf>
  std::vector<std::pair<std::uint64_t, std::uint32_t>> classes(BitOf bit_of) const {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> c(weight.size(), {0, 0});
    for (std::size_t h = 0; h < orbit.size(); ++h) {
      auto& x = c[static_cast<std::size_t>(orbit[h])];
      x.first |= bit_of(static_cast<int>(h));
      x.second = weight[static_cast<std::size_t>(orbit[h])];
    }
    return c;
  }
};

// The weights for the census group `syms` of b and the complement trick's twist (a board symmetry,
// or -1): constant on the orbits of the group the two generate (then the complement's residue is
// the full board's less the position's, whatever the twist), or, when those give more than 24
// jump classes (small groups), on the orbits of all the board's symmetries: fewer classes for a
// coarser split. Fixed random weights: runs repeat.
inline ResidueWeights residue_weights(const Board& b, const std::vector<int>& syms, int twist) {
  const int n = b.size();
  auto orbits_of = [&](const std::vector<std::vector<int>>& perms) {
    std::vector<int> orbit(static_cast<std::size_t>(n), -1);
    int count = 0;
    for (int h = 0; h < n; ++h) {
      if (orbit[static_cast<std::size_t>(h)] >= 0) continue;
      for (const auto& perm : perms)
        orbit[static_cast<std::size_t>(perm[static_cast<std::size_t>(h)])] = count;
      ++count;
    }
    return orbit;
  };
  std::vector<std::vector<int>> group, all = b.symmetries();
  for (int s : syms) group.push_back(b.symmetries()[static_cast<std::size_t>(s)]);
  if (twist >= 0) {
    group.push_back(b.symmetries()[static_cast<std::size_t>(twist)]);
    for (std::size_t i = 0; i < group.size(); ++i)  // closed under composition
      for (std::size_t j = 0; j <= i; ++j)
        for (const auto& [x, y] : {std::pair{i, j}, std::pair{j, i}}) {
          std::vector<int> c(static_cast<std::size_t>(n));
          for (int h = 0; h < n; ++h)
            c[static_cast<std::size_t>(h)] =
                group[x][static_cast<std::size_t>(group[y][static_cast<std::size_t>(h)])];
          if (std::find(group.begin(), group.end(), c) == group.end()) group.push_back(c);
        }
  }
  std::vector<int> orbit = orbits_of(group);
  auto classes = [&](const std::vector<int>& orb) {
    std::vector<std::array<int, 3>> seen;
    for (const Jump& j : b.jumps()) {
      std::array<int, 3> t{orb[static_cast<std::size_t>(j.from)],
                           orb[static_cast<std::size_t>(j.over)],
                           orb[static_cast<std::size_t>(j.to)]};
      if (std::find(seen.begin(), seen.end(), t) == seen.end()) seen.push_back(t);
    }
    return seen.size();
  };
  if (classes(orbit) > 24) orbit = orbits_of(all);
  const int norb = *std::max_element(orbit.begin(), orbit.end()) + 1;
  std::mt19937 rng(20261124);
  ResidueWeights rw;
  rw.weight.resize(static_cast<std::size_t>(norb));
  for (std::uint32_t& x : rw.weight) x = static_cast<std::uint32_t>(rng()) & kResidueMask;
  rw.orbit = std::move(orbit);
  return rw;
}

}  // namespace pegsol::census_detail
