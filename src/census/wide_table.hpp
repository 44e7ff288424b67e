// SPDX-License-Identifier: MIT
// The wide census engine's storage (internal to src/census, wide.cpp): a level's entries and the
// hash tables of a level's shards, for keys of any width.
#pragma once

#include <cstdint>

#include "../core/bits.hpp"
#include "../core/probe.hpp"
#include "engine.hpp"

namespace pegsol::census_detail::wide {

// One stored position: canonical key, the number of jump sequences reaching its orbit (128 bits
// as two words, so the entry stays 8-byte aligned: 32 bytes at W = 64), and the chance that the
// random player passes through the orbit.
template <int W>
struct Entry {
  Bits<W> key;
  std::uint64_t lo = 0, hi = 0;
  double prob = 0;
  Count count() const { return (static_cast<Count>(hi) << 64) | lo; }
  void set_count(Count c) {
    lo = static_cast<std::uint64_t>(c);
    hi = static_cast<std::uint64_t>(c >> 64);
  }
};
static_assert(sizeof(Entry<64>) == 32);

// Word-by-word equality (the defaulted Bits::operator== compiles to a memcmp call here).
template <int W>
inline bool same(const Bits<W>& a, const Bits<W>& b) {
  std::uint64_t d = 0;
  for (int k = 0; k < Bits<W>::kWords; ++k) d |= a.w[k] ^ b.w[k];
  return d == 0;
}

template <int W>
int shard_of(std::uint64_t h) {
  return static_cast<int>(h >> (64 - kShardBits));
}

// Open addressing with linear probing (core/probe.hpp); the empty key (no pegs) marks a free slot,
// since no level the engine builds contains the empty position. Load factor at most 0.7.
template <int W>
class Table {
 public:
  explicit Table(Memory& m) : mem_(&m), slots_(m) {}

  void add(const Entry<W>& e, std::uint64_t h) {
    if ((size_ + 1) * 10 > cap_ * 7) grow();
    auto& s = slots_.vec();
    Entry<W>& x = s[probe_slot(s.data(), cap_ - 1, h, empty,
                               [&](const Entry<W>& y) { return same(y.key, e.key); })];
    if (x.key.none()) {
      x = e;
      ++size_;
      return;
    }
    Count c = x.count();
    add_count(c, e.count());
    x.set_count(c);
    x.prob += e.prob;
  }
  std::size_t size() const { return size_; }

  // The entries, densely, in slot order; the table is released.
  Booked<Entry<W>> take_entries() {
    Booked<Entry<W>> out(*mem_);
    out.reserve(size_);
    for (const Entry<W>& x : slots_.vec())
      if (x.key.any()) out.push_back(x);
    slots_.release();
    cap_ = size_ = 0;
    return out;
  }

 private:
  void grow() {
    // Tables start small: a level has kShards of them, and a first size of 1,024 slots made
    // every small level map and zero that many slots in each shard it touched (docs/census.md).
    std::size_t ncap = cap_ ? cap_ * 2 : 16;
    Booked<Entry<W>> n(*mem_);
    n.assign(ncap, Entry<W>{});
    rehash_into(
        slots_.vec().data(), slots_.vec().size(), n.vec().data(), ncap - 1, empty,
        [](const Entry<W>& x) { return x.key.digest(); }, [] {});
    slots_ = std::move(n);
    cap_ = ncap;
  }

  static bool empty(const Entry<W>& x) { return x.key.none(); }

  Memory* mem_;
  Booked<Entry<W>> slots_;
  std::size_t cap_ = 0, size_ = 0;
};

}  // namespace pegsol::census_detail::wide
