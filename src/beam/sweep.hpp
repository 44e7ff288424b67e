// SPDX-License-Identifier: MIT
// The forward beam ("sweep"): one capacity-limited breadth-first search from the start, survivors
// chosen by a compactness cost, finished by a depth-first endgame. No meeting is needed, so it
// suits "one peg anywhere" and single-hole goals on boards where the bidirectional meet starves,
// and, run on the reversed problem, whole-position goals from a start with few holes.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <utility>
#include <vector>

#include "../core/bits.hpp"
#include "../core/geometry.hpp"
#include "../core/hash.hpp"
#include "../core/layout.hpp"
#include "attempt.hpp"
#include "pegsol/board.hpp"
#include "survivors.hpp"

namespace pegsol::beam_detail {

// Weights of the compactness cost (lower is better); see SweepTables::cost.
struct SweepWeights {
  int boundary = 2;  // per adjacent (peg, empty hole) pair on the board
  int edge = 2;      // per (peg, off-board) pair: pegs on the rim are the hardest to remove
  int isolated = 8;  // per peg with no peg beside it
  int goal = 1;      // per peg and lattice step from the nearest goal peg (not for "any")
  int endgame = 18;  // pegs (above the goal's) at which the depth-first endgame takes over
};

// Board tables for the cost, by layout bit: neighbours, off-board counts and, per jump, the
// holes and adjacent pairs whose terms a jump can change. Built once per search.
template <int W>
struct SweepTables {
  using Pos = Bits<W>;
  SweepWeights w;
  std::vector<std::array<std::int16_t, 8>> nbr;  // per bit: neighbour bits, -1 after the last
  std::vector<std::int32_t> peg_cost;            // per bit: edge and goal terms of a peg there
  std::vector<std::array<int, 3>> jbits;         // per jump: from, over, to bits
  // Per jump: holes whose isolation may change (from, over, to and their neighbours) and the
  // adjacent pairs that touch from, over or to, each listed once.
  std::vector<std::vector<std::int16_t>> touched;
  std::vector<std::vector<std::array<std::int16_t, 2>>> pairs;
  std::vector<std::uint64_t> zjump;  // per jump: XOR of the Zobrist keys of its three bits

  // goal_holes: the holes of the target's pegs (empty: no goal term).
  SweepTables(const Geometry<W>& g, const SweepWeights& weights, const std::vector<int>& goal_holes)
      : w(weights) {
    const Board& b = g.board();
    const auto& lay = layout(b);
    nbr.assign(W, {-1, -1, -1, -1, -1, -1, -1, -1});
    peg_cost.assign(W, 0);
    for (int h = 0; h < b.size(); ++h) {
      const int bit = lay.bit(h);
      int n = 0, off = 0;
      for (const Coord& d : b.directions()) {
        auto o = b.at({b.coord(h).r + d.r, b.coord(h).c + d.c});
        if (o)
          nbr[static_cast<std::size_t>(bit)][static_cast<std::size_t>(n++)] =
              static_cast<std::int16_t>(lay.bit(*o));
        else
          ++off;
      }
      std::int32_t c = w.edge * off;
      if (!goal_holes.empty() && w.goal) {
        int nearest = std::numeric_limits<int>::max();
        for (int t : goal_holes) nearest = std::min(nearest, lattice_distance(b, h, t));
        c += w.goal * nearest;
      }
      peg_cost[static_cast<std::size_t>(bit)] = c;
    }
    std::vector<std::uint64_t> z(W);
    for (int i = 0; i < W; ++i) z[static_cast<std::size_t>(i)] = splitmix64(0x5EED0000ull + i);
    for (const Jump& j : b.jumps()) {
      std::array<int, 3> t = {lay.bit(j.from), lay.bit(j.over), lay.bit(j.to)};
      jbits.push_back(t);
      zjump.push_back(z[static_cast<std::size_t>(t[0])] ^ z[static_cast<std::size_t>(t[1])] ^
                      z[static_cast<std::size_t>(t[2])]);
      std::vector<std::int16_t> hs;
      std::vector<std::array<std::int16_t, 2>> ps;
      for (int x : t) {
        hs.push_back(static_cast<std::int16_t>(x));
        for (std::int16_t y : nbr[static_cast<std::size_t>(x)]) {
          if (y < 0) break;
          hs.push_back(y);
          std::array<std::int16_t, 2> e = {static_cast<std::int16_t>(std::min<int>(x, y)),
                                           static_cast<std::int16_t>(std::max<int>(x, y))};
          ps.push_back(e);
        }
      }
      std::sort(hs.begin(), hs.end());
      hs.erase(std::unique(hs.begin(), hs.end()), hs.end());
      std::sort(ps.begin(), ps.end());
      ps.erase(std::unique(ps.begin(), ps.end()), ps.end());
      touched.push_back(std::move(hs));
      pairs.push_back(std::move(ps));
    }
  }

  // Steps between two holes on the board's lattice (hexagonal distance on the triangular one).
  static int lattice_distance(const Board& b, int u, int v) {
    const int dr = b.coord(u).r - b.coord(v).r, dc = b.coord(u).c - b.coord(v).c;
    if (b.lattice() == Lattice::Triangular)
      return (dr >= 0) == (dc >= 0) ? std::max(std::abs(dr), std::abs(dc))
                                    : std::abs(dr) + std::abs(dc);
    return std::abs(dr) + std::abs(dc);
  }

  bool isolated(const Pos& p, int bit) const {
    if (!p.test(bit)) return false;
    for (std::int16_t y : nbr[static_cast<std::size_t>(bit)]) {
      if (y < 0) break;
      if (p.test(y)) return false;
    }
    return true;
  }

  // The whole cost of p: boundary pairs, rim and goal terms of its pegs, isolated pegs.
  std::int32_t cost(const Pos& p) const {
    std::int32_t c = 0;
    for_each_bit(p, [&](int x) {
      c += peg_cost[static_cast<std::size_t>(x)];
      bool alone = true;
      for (std::int16_t y : nbr[static_cast<std::size_t>(x)]) {
        if (y < 0) break;
        if (p.test(y))
          alone = false;
        else
          c += w.boundary;
      }
      if (alone) c += w.isolated;
    });
    return c;
  }

  // cost(child) - cost(parent), where child = parent ^ jump_mask(j), from the touched terms.
  std::int32_t delta(const Pos& parent, const Pos& child, int j) const {
    const auto& t = jbits[static_cast<std::size_t>(j)];
    std::int32_t d = peg_cost[static_cast<std::size_t>(t[2])] -
                     peg_cost[static_cast<std::size_t>(t[0])] -
                     peg_cost[static_cast<std::size_t>(t[1])];
    for (const auto& e : pairs[static_cast<std::size_t>(j)])
      d += w.boundary *
           ((child.test(e[0]) != child.test(e[1])) - (parent.test(e[0]) != parent.test(e[1])));
    if (w.isolated)
      for (std::int16_t x : touched[static_cast<std::size_t>(j)])
        d += w.isolated * (isolated(child, x) - isolated(parent, x));
    return d;
  }
};

// What the forward beam aims at: an exact position, or one peg on any hole of `allowed`.
template <int W>
struct SweepGoal {
  Bits<W> exact, allowed;
  bool is_exact = true;
  int pegs = 1;
  std::vector<std::pair<Bits<W>, int>> need;  // per peg type: mask, pegs the goal keeps
  Bits<W> any_type;                           // "any" goals: holes of a type that may finish

  bool reached(const Bits<W>& p) const { return is_exact ? p == exact : (p & allowed).any(); }
  bool feasible(const Bits<W>& p) const {
    for (const auto& [mask, n] : need)
      if ((p & mask).count() < n) return false;
    return is_exact || (p & any_type).any();
  }
};

// One attempt of the sweep from `start` towards `goal` on the cost of `tables`, `capacity`
// survivors a level, ties broken by `seed`. Instantiated for every width of kWidths.
template <int W>
Outcome run_sweep(const Geometry<W>& g, const SweepTables<W>& tables, const SweepGoal<W>& goal,
                  const Bits<W>& start, std::size_t capacity, std::uint64_t seed,
                  const AttemptControl& ctl);

}  // namespace pegsol::beam_detail
