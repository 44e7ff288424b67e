// SPDX-License-Identifier: MIT
// The census's memory pool (src/census/compact_memory.hpp): chunks kept from level to level, and
// arrays over a chunk assembled from free chunks and given back to them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "census/compact_memory.hpp"

namespace {

using pegsol::census_detail::Memory;
using pegsol::census_detail::MemoryExceeded;
using pegsol::census_detail::Pool;

constexpr std::size_t kC = Pool::kChunk;
constexpr std::size_t kPage = Pool::kPage;

bool on_chunk_boundary(const char* p) {
  return reinterpret_cast<std::uintptr_t>(p) % kC == 0;
}

TEST(CensusPool, ArraysOverAChunkAreBuiltFromFreeChunksAndGoBackToThem) {
  Memory mem(std::size_t{1} << 30);
  Pool pool(mem);
  std::vector<Pool::Chunk> small;
  for (int i = 0; i < 4; ++i) {
    small.push_back(pool.take(100));
    ASSERT_EQ(small.back().size, kC);
    std::memset(small.back().p, 0x11 * (i + 1), kC);
  }
  EXPECT_EQ(mem.used(), 4 * kC);
  for (const Pool::Chunk& c : small) pool.give(c);
  EXPECT_EQ(mem.used(), 4 * kC);  // kept for the next level

  // Three whole chunks and ten pages: three free chunks moved into place, the tail fresh.
  const std::size_t size = 3 * kC + 10 * kPage;
  const Pool::Chunk big = pool.take(size - 100);
  ASSERT_EQ(big.size, size);
  EXPECT_FALSE(big.spilled);
  EXPECT_TRUE(on_chunk_boundary(big.p));
  EXPECT_EQ(mem.used(), 4 * kC + 10 * kPage);
  // The moved chunks keep their pages (and so what was written to them): three of the four
  // patterns, one per chunk.
  std::set<int> patterns;
  for (std::size_t i = 0; i < 3; ++i)
    patterns.insert(static_cast<unsigned char>(big.p[i * kC + 12345]));
  EXPECT_EQ(patterns.size(), 3u);
  for (int v : patterns) EXPECT_EQ(v % 0x11, 0);
  std::memset(big.p, 0x5A, size);  // every byte of it is there

  pool.give(big);
  EXPECT_EQ(mem.used(), 4 * kC);  // the tail unmapped, its whole chunks free again
  // Four chunks need no new memory (the array's three and the one left); a fifth does.
  std::set<const char*> from_big;
  for (std::size_t i = 0; i < 3; ++i) from_big.insert(big.p + i * kC);
  int reused = 0;
  for (Pool::Chunk& c : small) {
    c = pool.take(kC);
    EXPECT_EQ(mem.used(), 4 * kC);
    EXPECT_TRUE(on_chunk_boundary(c.p));
    std::memset(c.p, 0x77, kC);
    reused += static_cast<int>(from_big.count(c.p));
  }
  EXPECT_EQ(reused, 3);
  const Pool::Chunk fifth = pool.take(1);
  EXPECT_EQ(mem.used(), 5 * kC);
  pool.give(fifth);
  for (const Pool::Chunk& c : small) pool.give(c);
}

TEST(CensusPool, AFreshArrayOverAChunkGivesItsWholeChunksToThePool) {
  Memory mem(std::size_t{1} << 30);
  Pool pool(mem);
  const Pool::Chunk big = pool.take(5 * kC);  // no chunk free: mapped fresh
  ASSERT_EQ(big.size, 5 * kC);
  EXPECT_TRUE(on_chunk_boundary(big.p));
  EXPECT_EQ(mem.used(), 5 * kC);
  std::memset(big.p, 1, big.size);
  pool.give(big);
  EXPECT_EQ(mem.used(), 5 * kC);
  std::vector<Pool::Chunk> got;
  for (int i = 0; i < 5; ++i) {
    got.push_back(pool.take(kC));
    got.back().p[kC - 1] = 2;
  }
  EXPECT_EQ(mem.used(), 5 * kC);
  for (const Pool::Chunk& c : got) pool.give(c);
}

TEST(CensusPool, ChunksComeFromSlabsOfOneMappingEach) {
  Memory mem(std::size_t{1} << 30);
  Pool pool(mem);
  // Sixteen chunks from an empty pool: one slab, one chunk after another, each booked alone.
  std::vector<Pool::Chunk> got;
  for (int i = 0; i < 16; ++i) {
    got.push_back(pool.take(1));
    EXPECT_EQ(mem.used(), got.size() * kC);
  }
  for (std::size_t i = 1; i < got.size(); ++i) EXPECT_EQ(got[i].p, got[0].p + i * kC);
  for (const Pool::Chunk& c : got) std::memset(c.p, 3, kC);
  for (const Pool::Chunk& c : got) pool.give(c);
}

TEST(CensusPool, AnArrayPastTheLimitThrowsAndLeavesTheFreeChunks) {
  Memory mem(3 * kC);
  Pool pool(mem);
  const Pool::Chunk a = pool.take(1), b = pool.take(1);
  pool.give(a);
  pool.give(b);
  // Two chunks moved and two fresh would hold four chunks: past the limit of three.
  EXPECT_THROW(pool.take(4 * kC), MemoryExceeded);
  EXPECT_EQ(mem.used(), 2 * kC);
  // Both free chunks are still there, and still usable.
  const Pool::Chunk x = pool.take(1), y = pool.take(1);
  EXPECT_EQ(mem.used(), 2 * kC);
  x.p[0] = y.p[0] = 1;
  // One chunk more than the two fits the limit: two moved, one fresh page.
  pool.give(x);
  pool.give(y);
  const Pool::Chunk z = pool.take(2 * kC + 1);
  EXPECT_EQ(z.size, 2 * kC + kPage);
  EXPECT_EQ(mem.used(), 2 * kC + kPage);
  z.p[z.size - 1] = 3;
  pool.give(z);
  EXPECT_EQ(mem.used(), 2 * kC);
}

}  // namespace
