// SPDX-License-Identifier: MIT
// The compact engine's kernels against plain images of hole sets (shared by the kernel tests of
// every instruction-set tier): on random positions (eight at a time, as the engine asks), each
// canonical form is an image of its position and the same for all the position's images, and
// orbit sizes, legal-jump counts, twisted complements and packed keys are right, with the groups
// of central and off-centre vacancies.
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "census/engine.hpp"
#include "core/symmetry.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/problem.hpp"

namespace pegsol::kernel_check {

struct Case {
  const char* board;
  std::optional<Lattice> lattice;
  const char* vacancy;
};

inline const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"english", std::nullopt, "d4"},     {"english", std::nullopt, "d1"},
      {"english", Lattice::Square8, "d4"}, {"french", std::nullopt, "d2"},
      {"rect:4x6", std::nullopt, "b2"},    {"rect:5x5", std::nullopt, "c3"},
      {"rect:8x8", std::nullopt, "a1"},    {"rect:3x8", std::nullopt, "a2"},
      {"triangle:7", std::nullopt, "1"},   {"hexagon:3", std::nullopt, "10"}};
  return all;
}

// The census group of a single-vacancy problem: the symmetries fixing it, the identity first.
inline std::vector<int> group_of(const Board& b, const Problem& p) {
  return problem_symmetries(b, p);
}

// A board symmetry outside the identity, for the twist (the identity when there is none).
inline int some_twist(const Board& b) {
  return b.symmetries().size() > 1 ? 1 : 0;
}

// Runs every check on `kern`, built for board b, group syms and twist `twist`.
template <class Kernel>
void check(const Kernel& kern, const Board& b, const std::vector<int>& syms, int twist) {
  const int n = b.size();
  std::uint64_t seed = 2026;
  auto next = [&] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  auto image = [&](int q, const HoleSet& x) {
    HoleSet y(n);
    for (int h : x.members()) y.set(b.symmetries()[static_cast<std::size_t>(q)][h]);
    return y;
  };
  auto images = [&](const HoleSet& x) {
    std::set<std::string> out;
    for (int q : syms) out.insert(image(q, x).to_bits());
    return out;
  };
  auto legal = [&](const HoleSet& x) {
    std::uint32_t m = 0;
    for (const Jump& j : b.jumps()) m += x.test(j.from) && x.test(j.over) && !x.test(j.to);
    return m;
  };
  EXPECT_EQ(kern.group_size(), static_cast<int>(syms.size()));
  auto key = [&](const HoleSet& x) {
    std::uint64_t k = 0;
    for (int h : x.members()) k |= kern.bit(h);
    return k;
  };
  auto holes = [&](std::uint64_t k) {
    HoleSet x(n);
    for (; k; k &= k - 1) x.set(kern.hole_at(std::countr_zero(k)));
    return x;
  };
  for (int round = 0; round < 40; ++round) {
    std::vector<HoleSet> xs;
    alignas(64) std::uint64_t in[8], out[8], out2[8], tw[8];
    std::uint32_t orbit[8], orbit2[8], moves[8], tw_orbit[8];
    for (int u = 0; u < 8; ++u) {
      HoleSet x(n);
      for (int h = 0; h < n; ++h)
        if (next() % 3 != 0) x.set(h);
      xs.push_back(x);
      in[u] = key(x);
    }
    // Symmetric positions too: a position joined with one of its images.
    if (round % 5 == 0 && syms.size() > 1) {
      HoleSet x = xs[0];
      for (int h : image(syms[1], x).members()) x.set(h);
      xs[0] = x;
      in[0] = key(x);
    }
    kern.canon8(in, out);
    kern.canon8(in, out2, orbit2);
    kern.describe8(in, orbit, moves);
    kern.twist8(in, tw, tw_orbit);
    for (int u = 0; u < 8; ++u) {
      const HoleSet& x = xs[static_cast<std::size_t>(u)];
      const auto im = images(x);
      EXPECT_TRUE(im.count(holes(out[u]).to_bits())) << x.to_bits();
      EXPECT_EQ(out2[u], out[u]);
      EXPECT_EQ(orbit[u], im.size());
      EXPECT_EQ(orbit2[u], im.size());
      EXPECT_EQ(moves[u], legal(x));
      EXPECT_EQ(kern.canon(in[u]), out[u]);
      for (const std::string& y : im)
        EXPECT_EQ(kern.canon(key(HoleSet::from_bits(y))), out[u]) << y;
      // The twist: the canonical form of t(complement of x).
      const HoleSet t = image(twist, x.complement());
      EXPECT_EQ(tw[u], kern.canon(key(t))) << x.to_bits();
      EXPECT_EQ(tw_orbit[u], images(t).size());
      // Packing: n dense bits, and back.
      const std::uint64_t d = kern.pack(in[u]);
      EXPECT_EQ(kern.unpack(d), in[u]);
      EXPECT_LE(std::bit_width(d), static_cast<std::uint64_t>(n));
      EXPECT_EQ(std::popcount(d), std::popcount(in[u]));
      // images(): the identity first, then each group element's image.
      std::vector<std::uint64_t> all(syms.size());
      kern.images(in[u], all.data());
      EXPECT_EQ(all[0], in[u]);
      for (std::size_t q = 0; q < syms.size(); ++q)
        EXPECT_EQ(holes(all[q]).to_bits(), image(syms[q], x).to_bits()) << "element " << q;
    }
  }
}

// check() on the kernel `make(board, syms, twist)` builds for every case; square boards within
// 8x8 must get one (a grid kernel), triangular ones none.
template <class Make>
void check_all(Make make) {
  for (const Case& c : cases()) {
    BoardPtr b = make_board(c.board, c.lattice);
    SCOPED_TRACE(std::string(c.board) + " vacancy " + c.vacancy);
    const Problem p{b, single_vacancy(*b, *b->find(c.vacancy)), Goal{}};
    const std::vector<int> syms = group_of(*b, p);
    const int twist = some_twist(*b);
    const bool built =
        make(*b, syms, twist, [&](const auto& kern) { check(kern, *b, syms, twist); });
    const Coord lo = b->min_coord(), hi = b->max_coord();
    EXPECT_EQ(built, b->lattice() != Lattice::Triangular && hi.r - lo.r < 8 && hi.c - lo.c < 8);
  }
}

}  // namespace pegsol::kernel_check
