// SPDX-License-Identifier: MIT
// The beam searches' internal pieces that the tests call directly: the survivor key, the one
// survivor selection every beam level goes through, the report's average board and the sweep's
// compactness cost. Not installed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "../core/bits.hpp"
#include "../core/hash.hpp"
#include "pegsol/board.hpp"

namespace pegsol::beam_detail {

// A child while a level is being chosen. 16 bytes: key, parent's index in the level, jump.
struct Child {
  std::uint64_t key;
  std::uint32_t parent;
  std::uint32_t jump;
  friend bool operator==(const Child&, const Child&) = default;
};
static_assert(sizeof(Child) == 16);

// Orders survivors: a higher key survives first. The score sits in the high 32 bits; the low 32
// bits mix the position's hash and the seed, so ties break the same way on every run and a
// different seed breaks them differently. score_of_key() gives the score back.
//   bits 63..32: score + 2^31    bits 31..0: splitmix64(hash ^ seed) >> 32
inline std::uint64_t survivor_key(std::int32_t score, std::uint64_t hash, std::uint64_t seed) {
  const std::uint64_t biased =
      static_cast<std::uint64_t>(static_cast<std::int64_t>(score) + (std::int64_t{1} << 31));
  return (biased << 32) | (splitmix64(hash ^ seed) >> 32);
}
inline std::int32_t score_of_key(std::uint64_t key) {
  return static_cast<std::int32_t>(static_cast<std::int64_t>(key >> 32) - (std::int64_t{1} << 31));
}

// The survivor selection of every beam search (the report's, the meet's and the sweep's levels):
// keeps the `capacity` children with the highest keys (all of them when there are fewer; among
// equal keys at the cut, the earliest), then orders them by parent and jump, so that the next
// level's memory walk is sequential. Calls `stop` every 2^16 children or so; false, with the
// children left unspecified, as soon as it returns true. Linear when the children come in parent
// order, as the searches make them.
bool select_survivors(std::vector<Child>& children, std::size_t capacity,
                      const std::function<bool()>& stop);

// Calls f(child) for each of `children` in order, polling `stop` every 2^16 children; false as
// soon as it returns true (the level the survivors make is then left part way).
template <class Stop, class F>
bool for_each_survivor(const std::vector<Child>& children, Stop&& stop, F&& f) {
  for (std::size_t i = 0; i < children.size(); ++i) {
    if ((i & 0xFFFF) == 0 && stop()) return false;
    f(children[i]);
  }
  return true;
}

// The report's "average board" of a level: for every hole count the positions of `level` with a
// peg there, then place pegs on the most frequent holes until the board has as many pegs as the
// level's positions (ties go to the lower bit). `level` is non-empty and its positions have equal
// peg counts.
template <int W>
Bits<W> average_board(const std::vector<Bits<W>>& level);

// The forward beam's compactness cost of position p (lower is better; docs/beam.md): adjacent
// (peg, empty hole) pairs, pegs beside the rim, isolated pegs and, when goal_hole >= 0, each
// peg's lattice distance from goal_hole, with the default weights. Built on the search's tables.
template <int W>
std::int32_t sweep_cost(const Board& board, const Bits<W>& p, int goal_hole);

// sweep_cost(p ^ jump j) - sweep_cost(p) as the search computes it, from the terms jump j can
// change. Jump j is legal in p.
template <int W>
std::int32_t sweep_delta(const Board& board, const Bits<W>& p, int jump, int goal_hole);

}  // namespace pegsol::beam_detail
