// SPDX-License-Identifier: MIT
// Bits<W> against std::bitset, a deliberately simple reference.
#include <gtest/gtest.h>

#include <bitset>
#include <random>

#include "core/bits.hpp"
#include "core/widths.hpp"

namespace {

template <int W>
std::bitset<W> ref(const pegsol::Bits<W>& b) {
  std::bitset<W> r;
  for (int i = 0; i < W; ++i) r[static_cast<std::size_t>(i)] = b.test(i);
  return r;
}

template <int W>
pegsol::Bits<W> random_bits(std::mt19937_64& rng) {
  pegsol::Bits<W> b;
  for (auto& w : b.w) w = rng() & rng();  // sparse-ish
  return b;
}

template <int W>
void check_width() {
  std::mt19937_64 rng(W);
  for (int iter = 0; iter < 300; ++iter) {
    auto a = random_bits<W>(rng), b = random_bits<W>(rng);
    auto ra = ref(a), rb = ref(b);
    EXPECT_EQ(ref(a & b), ra & rb);
    EXPECT_EQ(ref(a | b), ra | rb);
    EXPECT_EQ(ref(a ^ b), ra ^ rb);
    EXPECT_EQ(ref(~a), ~ra);
    EXPECT_EQ(ref(andnot(a, b)), ra & ~rb);
    EXPECT_EQ(a.count(), static_cast<int>(ra.count()));
    int s = static_cast<int>(rng() % W);
    EXPECT_EQ(ref(a.shl(s)), ra << static_cast<std::size_t>(s)) << "shl " << s;
    EXPECT_EQ(ref(a.shr(s)), ra >> static_cast<std::size_t>(s)) << "shr " << s;
    EXPECT_EQ(ref(a.shift_down(-s)), ra << static_cast<std::size_t>(s));
    EXPECT_EQ(ref(a.shift_up(-s)), ra >> static_cast<std::size_t>(s));
    int low = W;
    for (int i = W - 1; i >= 0; --i)
      if (ra[static_cast<std::size_t>(i)]) low = i;
    EXPECT_EQ(a.lowest(), low);
    std::vector<int> seen;
    pegsol::for_each_bit(a, [&](int i) { seen.push_back(i); });
    EXPECT_EQ(static_cast<int>(seen.size()), a.count());
    for (std::size_t k = 1; k < seen.size(); ++k) EXPECT_LT(seen[k - 1], seen[k]);
    // Ordering agrees with the highest differing bit.
    int hi = -1;
    for (int i = W - 1; i >= 0 && hi < 0; --i)
      if (ra[static_cast<std::size_t>(i)] != rb[static_cast<std::size_t>(i)]) hi = i;
    if (hi < 0)
      EXPECT_TRUE(a == b);
    else
      EXPECT_EQ(a < b, rb[static_cast<std::size_t>(hi)]);
  }
  EXPECT_EQ(pegsol::Bits<W>::low(W - 3).count(), W - 3);
  EXPECT_EQ(pegsol::Bits<W>::single(W - 1).lowest(), W - 1);
}

}  // namespace

TEST(Bits, Width64) {
  check_width<64>();
}
TEST(Bits, Width128) {
  check_width<128>();
}
TEST(Bits, Width256) {
  check_width<256>();
}
TEST(Bits, Width1024) {
  check_width<1024>();
}

// fold(): the word itself at 64 bits; at 128 bits the fold the fewest-moves search took of its
// unsigned __int128 keys before they were Bits<128> (its checkpoints' problem names hold it).
TEST(Bits, FoldKeepsTheWideKeysFold) {
  __extension__ typedef unsigned __int128 U128;
  std::mt19937_64 rng(45);
  for (int iter = 0; iter < 100; ++iter) {
    const auto a = random_bits<64>(rng);
    EXPECT_EQ(a.fold(), a.w[0]);
    const auto b = random_bits<128>(rng);
    const U128 x = static_cast<U128>(b.w[1]) << 64 | b.w[0];
    EXPECT_EQ(b.fold(), static_cast<std::uint64_t>(x) ^
                            (static_cast<std::uint64_t>(x >> 64) * 0xD6E8FEB86659FD93ull));
  }
}

// The one width dispatch: every width of kWidths reaches its own W, the cap stops the wider ones,
// anything else throws.
TEST(Bits, WithWidthDispatchesEveryWidth) {
  for (int w : pegsol::kWidths) {
    EXPECT_EQ(pegsol::with_width(w, [](auto c) { return decltype(c)::value; }), w);
    EXPECT_EQ(
        pegsol::with_width(w, [](auto c) { return pegsol::Bits<decltype(c)::value>::kWords; }),
        w / 64);
  }
  int seen = 0;
  pegsol::with_width(256, [&](auto c) { seen = c; });
  EXPECT_EQ(seen, 256);
  EXPECT_EQ(pegsol::with_width<128>(128, [](auto c) { return decltype(c)::value; }), 128);
  EXPECT_THROW(pegsol::with_width<128>(256, [](auto c) { return decltype(c)::value; }),
               std::logic_error);
  EXPECT_THROW(pegsol::with_width(96, [](auto c) { return decltype(c)::value; }), std::logic_error);
  EXPECT_THROW(pegsol::with_width(2048, [](auto) {}), std::logic_error);
}
