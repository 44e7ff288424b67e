// SPDX-License-Identifier: MIT
// A rank's part of a census level (docs/mpi.md, "One census engine"): the compact engine's level
// store (census/level_store.hpp) over the rank's residues, its keys in layout bits, each with the
// orbit's count and chance.
//
//   one array each for the level:   key[d]   count[d]   share[d]   (d = 0 .. n-1)
//   segments, views into them:      residues [lo, hi), off[r - lo] .. off[r - lo + 1] the
//                                   positions of residue r, by key
//
// The segments cover the residues that hold positions, split where more than kGap residues in a
// row hold none: one segment over the whole range cost 4 bytes a residue a level, which for small
// problems (whose levels are sparser than the 2^16 residues) is more than their positions.
//
// With a spill directory the pool spills (Pool::spill_to): every level's arrays are then the
// pool's chunks, which past half the memory limit are in its file, their pages dropped by shed().
//
// The segments' share array holds each position's chance, not the compact engine's share (the
// chance over the position's jumps): the expansion counts the jumps anyway and divides there,
// while dividing at the build cost a second jump enumeration per position (tried and lost:
// docs/mpi.md has the instruction counts).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "../census/checkpoint.hpp"
#include "../census/level_file.hpp"
#include "../census/level_store.hpp"
#include "../census/memory.hpp"
#include "pegsol/census.hpp"

namespace pegsol::mpi {

// A stored level's keys, sorted (for the solution-path pass's searches and the checkpoint): one
// array in the pool's chunks (in its spill file past half the limit), or from the heap, booked
// exactly, for a small level whether or not the pool spills (as the compact engine's stored
// levels: a 2 MiB chunk of the file for each small level wasted most of it; docs/mpi.md).
class StoredKeys {
 public:
  using u64 = std::uint64_t;
  StoredKeys(census_detail::Pool& p, census_detail::Memory& m) : store_(p, m) {}
  // Room for n keys, to be written before any is read.
  u64* assign(std::size_t n) {
    release();
    if (n == 0) return nullptr;
    census_detail::Bump b;
    b.begin(store_, n < kSmall);
    taking_chunks([&] { key_ = b.alloc<u64>(n); });
    n_ = n;
    return key_;
  }
  const u64* begin() const { return key_; }
  const u64* end() const { return key_ + n_; }
  std::size_t size() const { return n_; }
  void release() {
    store_.clear();
    key_ = nullptr;
    n_ = 0;
  }
  // Drops the keys' pages in the pool's spill file from the process's memory.
  void shed() const { store_.shed(); }

  // Levels of fewer positions take their arrays from the heap, booked exactly (in memory).
  static constexpr std::size_t kSmall = 200000;
  // Runs f, which takes pool chunks: the spill file's full disk (a memory stop in the compact
  // engine, which keeps what it settled) is an I/O error here, status 3, on every rank.
  template <class F>
  static void taking_chunks(F&& f) {
    try {
      f();
    } catch (const census_detail::MemoryExceeded& e) {
      if (e.field != census_detail::SpillFile::kDirField) throw;
      throw CensusError(std::string("spill: ") + e.what());
    }
  }

 private:
  census_detail::Store store_;
  u64* key_ = nullptr;
  std::size_t n_ = 0;
};

// Sorts keys[0, n) ascending: by bytes, least significant first, through `copy` (room for n
// keys), skipping the bytes every key shares (the layout's unused bits); by std::sort without a
// copy (nullptr) or under 1,024 keys (std::sort of a rank's stored keys took a tenth of the
// forward pass on triangle:6; docs/mpi.md).
inline void sort_keys(std::uint64_t* keys, std::size_t n, std::uint64_t* copy) {
  using u64 = std::uint64_t;
  if (n < 1024 || !copy) {
    std::sort(keys, keys + n);
    return;
  }
  std::vector<std::array<std::size_t, 256>> count(8, std::array<std::size_t, 256>{});
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t b = 0; b < 8; ++b) ++count[b][(keys[i] >> (8 * b)) & 0xff];
  u64* from = keys;
  u64* to = copy;
  for (std::size_t b = 0; b < 8; ++b) {
    std::array<std::size_t, 256>& at = count[b];
    if (at[(keys[0] >> (8 * b)) & 0xff] == n) continue;
    std::size_t sum = 0;
    for (std::size_t& c : at) sum += std::exchange(c, sum);
    for (std::size_t i = 0; i < n; ++i) to[at[(from[i] >> (8 * b)) & 0xff]++] = from[i];
    std::swap(from, to);
  }
  if (from != keys) std::copy(from, from + n, keys);
}

class RankLevel {
 public:
  using u32 = std::uint32_t;
  using u64 = std::uint64_t;
  using Store = census_detail::Level<Count>;

  RankLevel(census_detail::Pool& p, census_detail::Memory& m)
      : pool_(&p), mem_(m), lv_(p, m), at_(m) {}
  RankLevel(const RankLevel&) = delete;
  RankLevel& operator=(const RankLevel&) = delete;

  std::size_t size() const { return n_; }
  u64 key(std::size_t d) const { return key_[d]; }
  Count count(std::size_t d) const { return count_[d]; }
  // The random player's chance of passing through the orbit (held in the segments' share array).
  double chance(std::size_t d) const { return share_[d]; }
  // Brings position d's key, count and share into the cache (it is read soon).
  void prefetch(std::size_t d) const {
    __builtin_prefetch(key_ + d);
    __builtin_prefetch(count_ + d);
    __builtin_prefetch(share_ + d);
  }
  // The level's counts added up (at most 2^128 - 1).
  Count count_sum() const { return count_sum_; }
  // The keys, in storage order (by residue, each residue's by key).
  const u64* keys() const { return key_; }
  const Store& store() const { return lv_; }
  // Drops the level's pages in the pool's spill file from the process's memory (they stay in
  // the file); only while nothing writes to the level.
  void shed() const { lv_.shed(); }

  // Calls f(r, d0, d1) for every residue r that holds positions, in storage order: its
  // positions are the indices [d0, d1), by key.
  template <class F>
  void for_each_residue(F&& f) const {
    for (const census_detail::Segment<Count>& s : lv_.seg) {
      const auto base = static_cast<std::size_t>(s.key - key_);
      for (u32 r = s.lo; r < s.hi; ++r)
        if (s.off[r - s.lo] < s.off[r - s.lo + 1])
          f(r, base + s.off[r - s.lo], base + s.off[r - s.lo + 1]);
    }
  }

  // The index of `key`, whose residue is r, or -1.
  std::ptrdiff_t find(u64 key, u32 r) const {
    std::ptrdiff_t at = -1;
    lv_.for_range(r, r + 1,
                  [&](const census_detail::Segment<Count>& s, std::size_t i0, std::size_t i1) {
                    const u64* k = std::lower_bound(s.key + i0, s.key + i1, key);
                    if (k != s.key + i1 && *k == key) at = k - key_;
                  });
    return at;
  }

  void clear() {
    lv_.seg.clear();
    lv_.keys.clear();
    lv_.values.clear();
    key_ = nullptr;
    count_ = nullptr;
    share_ = nullptr;
    n_ = 0;
    count_sum_ = 0;
  }

  // Builds the level from its positions: keys(g) calls g(key) for every one, in any order, and
  // then entries(f) calls f(key, count, chance) for every one, each residue's in key order.
  // residue(key) is in [lo, hi) (the same at every build).
  template <class Keys, class Entries, class Residue>
  void build(u32 lo, u32 hi, Keys&& keys, Entries&& entries, Residue&& residue) {
    clear();
    // Positions per residue, then each residue's next index in the level: at_ and touched_ stay
    // from level to level, zero between builds (cleared whole after a build that threw), so that
    // a level costs its residues, not the range's (docs/mpi.md).
    if (at_.size() != hi - lo || dirty_) {
      at_.release();
      at_.assign(hi - lo, 0);
      touched_.assign((hi - lo + 63) / 64, 0);
    }
    dirty_ = true;
    std::size_t n = 0;
    keys([&](u64 key) {
      const u32 i = residue(key) - lo;
      ++at_[i];
      touched_[i / 64] |= u64{1} << (i % 64);
      ++n;
    });
    std::vector<std::pair<u32, u32>> spans;
    for (std::size_t t = 0; t < touched_.size(); ++t)
      for (u64 bits = std::exchange(touched_[t], 0); bits; bits &= bits - 1) {
        const u32 r = lo + static_cast<u32>(t * 64) + static_cast<u32>(std::countr_zero(bits));
        if (spans.empty() || r - spans.back().second > kGap)
          spans.emplace_back(r, r + 1);
        else
          spans.back().second = r + 1;
      }
    if (n == 0) {
      dirty_ = false;
      return;
    }
    std::size_t offsets = 0;
    for (const auto& [a, b] : spans) offsets += b - a + 1;
    u32* off = allocate(n, offsets);
    std::size_t base = 0;
    lv_.seg.reserve(spans.size());
    for (const auto& [a, b] : spans) {
      census_detail::Segment<Count> s;
      s.lo = a;
      s.hi = b;
      s.off = off;
      s.key = key_ + base;
      s.count = count_ + base;
      s.share = share_ + base;
      off[0] = 0;
      for (u32 r = a; r < b; ++r) {
        const u32 c = at_[r - lo];
        at_[r - lo] = static_cast<u32>(base + off[r - a]);
        off[r - a + 1] = off[r - a] + c;
      }
      s.n = off[b - a];
      base += s.n;
      off += b - a + 1;
      lv_.seg.push_back(s);
    }
    entries([&](u64 key, Count count, double chance) {
      const u32 d = at_[residue(key) - lo]++;
      key_[d] = key;
      count_[d] = count;
      share_[d] = chance;
      add_up(count);
    });
    n_ = n;
    for (const auto& [a, b] : spans)
      std::fill(at_.vec().begin() + (a - lo), at_.vec().begin() + (b - lo), 0u);
    dirty_ = false;
  }

  // Writes the level to f in level_file.hpp's format (keys of 8 bytes, counts, the chances in
  // the shares' place, segments over the rank's residues with gaps).
  void write_to(census_detail::FileWriter& f) const {
    census_detail::write_level(
        f, lv_, false, shape(false),
        [](const u64* keys, std::size_t m, std::uint8_t* out) {
          std::memcpy(out, keys, m * sizeof(u64));
        },
        [] {});
  }

  // Makes the level write_to wrote to f's file this rank's level.
  void read_from(census_detail::FileReader& f) {
    clear();
    // The file's level, then copied into one array per field (which the level's indices need).
    Store file(*pool_, mem_);
    StoredKeys::taking_chunks([&] {
      census_detail::read_level(
          f, file, false, shape(small(f.size() / kFileBytes)),
          [](const std::uint8_t* in, std::size_t m, u64* out) {
            std::memcpy(out, in, m * sizeof(u64));
          },
          [] {});
    });
    const std::size_t n = file.size();
    if (n == 0) return;
    std::size_t offsets = 0;
    for (const auto& t : file.seg) offsets += t.hi - t.lo + 1;
    u32* off = allocate(n, offsets);
    std::size_t base = 0;
    lv_.seg.reserve(file.seg.size());
    for (const auto& t : file.seg) {
      census_detail::Segment<Count> s;
      s.lo = t.lo;
      s.hi = t.hi;
      s.n = t.n;
      s.off = off;
      s.key = key_ + base;
      s.count = count_ + base;
      s.share = share_ + base;
      std::copy(t.off, t.off + (t.hi - t.lo + 1), off);
      if (t.n > 0) {
        std::copy(t.key, t.key + t.n, s.key);
        std::copy(t.count, t.count + t.n, s.count);
        for (std::size_t i = 0; i < t.n; ++i) add_up(t.count[i]);
        std::copy(t.share, t.share + t.n, s.share);
      }
      base += t.n;
      off += t.hi - t.lo + 1;
      lv_.seg.push_back(s);
    }
    file.seg.clear();
    file.keys.clear();
    file.values.clear();
    file.kept.clear();
    n_ = n;
  }

 private:
  // Empty residues a segment spans before a new one starts: 4 bytes of offsets each, against a
  // new segment's own size.
  static constexpr u32 kGap = 16;
  // A level file's bytes a position, about (key, count, chance): which levels are small.
  static constexpr std::size_t kFileBytes = 32;
  // Levels of fewer positions take their arrays from the heap, booked exactly; larger ones from
  // the pool's chunks (as the compact engine's levels do).
  static constexpr std::size_t kSmall = StoredKeys::kSmall;
  // Whether a level of n positions takes its arrays from the heap: a small one, unless the pool
  // spills (then every level's arrays are the pool's, so that they can go to its file: the
  // tests' spilled levels are all small).
  bool small(std::size_t n) const { return n < kSmall && !pool_->spill(); }

  // The file's shape of a rank's level; `heap`: read into heap blocks (a small level).
  static census_detail::LevelFileShape shape(bool heap) {
    census_detail::LevelFileShape s;
    s.key_bytes = sizeof(u64);
    s.counts = true;
    s.shares = true;
    s.tiled = false;
    s.heap = heap;
    return s;
  }

  // The level's arrays for n positions and `offsets` offsets (the offsets' array returned), not
  // yet filled.
  u32* allocate(std::size_t n, std::size_t offsets) {
    census_detail::Bump kb, vb;
    kb.begin(lv_.keys, small(n));
    vb.begin(lv_.values, small(n));
    u32* off = nullptr;
    StoredKeys::taking_chunks([&] {
      off = kb.alloc<u32>(offsets);
      key_ = kb.alloc<u64>(n);
      count_ = vb.alloc<Count>(n);
      share_ = vb.alloc<double>(n);
    });
    return off;
  }

  // Adds c to count_sum_, saturating.
  void add_up(Count c) {
    if (__builtin_add_overflow(count_sum_, c, &count_sum_)) count_sum_ = ~Count{0};
  }

  census_detail::Pool* pool_;
  census_detail::Memory& mem_;
  Store lv_;
  u64* key_ = nullptr;
  Count* count_ = nullptr;
  double* share_ = nullptr;
  std::size_t n_ = 0;
  Count count_sum_ = 0;
  // build()'s positions per residue of the range, then next indices (zero between builds), and
  // a bit a residue that holds some (zero between builds); dirty_: a build did not finish.
  census_detail::Booked<u32> at_;
  std::vector<u64> touched_;
  bool dirty_ = false;
};

}  // namespace pegsol::mpi
