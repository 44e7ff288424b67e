// SPDX-License-Identifier: MIT
// The compact engine's portable kernels: the table kernel on every board, the scalar grid kernel
// on square boards within 8x8 (the tiers with AVX2 and AVX-512 in test_kernels_simd*.cpp).
#include "kernel_check.hpp"

#include "census/kernels_grid.hpp"

namespace pegsol {
namespace {

TEST(CensusKernels, TableKernel) {
  for (const kernel_check::Case& c : kernel_check::cases()) {
    BoardPtr b = make_board(c.board, c.lattice);
    SCOPED_TRACE(std::string(c.board) + " vacancy " + c.vacancy);
    const Problem p{b, single_vacancy(*b, *b->find(c.vacancy)), Goal{}};
    const std::vector<int> syms = kernel_check::group_of(*b, p);
    const int twist = kernel_check::some_twist(*b);
    kernel_check::check(census_detail::TableKernel(*b, syms, twist), *b, syms, twist);
  }
}

TEST(CensusKernels, PortableGridKernel) {
  kernel_check::check_all([](const Board& b, const std::vector<int>& syms, int twist, auto run) {
    auto k = census_detail::ScalarGridKernel<false>::make(b, syms, twist);
    if (k) run(*k);
    return k.has_value();
  });
}

// The word tricks against bit-by-bit definitions.
TEST(CensusKernels, GridWordTransforms) {
  std::uint64_t seed = 7;
  for (int i = 0; i < 1000; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint64_t x = seed ^ (seed >> 29);
    std::uint64_t flip = 0, mirror = 0, transpose = 0;
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c)
        if (x >> (8 * r + c) & 1) {
          flip |= std::uint64_t{1} << (8 * (7 - r) + c);
          mirror |= std::uint64_t{1} << (8 * r + 7 - c);
          transpose |= std::uint64_t{1} << (8 * c + r);
        }
    EXPECT_EQ(census_detail::grid_flip(x), flip);
    EXPECT_EQ(census_detail::grid_mirror(x), mirror);
    EXPECT_EQ(census_detail::grid_transpose(x), transpose);
  }
}

}  // namespace
}  // namespace pegsol
