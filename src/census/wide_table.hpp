// SPDX-License-Identifier: MIT
// The wide census engine's storage (internal to src/census, wide.cpp; the MPI census's ranks build
// their levels in it too, src/mpi): a level's entries and the hash table that sums a level's
// children, for keys of any width.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

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

// Adds e's count and chance to x's (an entry of the same key).
template <int W>
inline void absorb(Entry<W>& x, const Entry<W>& e) {
  Count c = x.count();
  add_count(c, e.count());
  x.set_count(c);
  x.prob += e.prob;
}

// Orders entries by key.
template <int W>
inline bool by_key(const Entry<W>& a, const Entry<W>& b) {
  return a.key < b.key;
}

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

  // Room for about `expect` entries, in at least 1,024 slots (before the first add).
  void reserve(std::size_t expect) {
    std::size_t cap = 1024;
    while (cap * 7 < expect * 10) cap *= 2;
    rehash(cap);
  }
  // Adds e, whose key's digest() is h: a new key takes a slot, a known one gets e's count and
  // chance added to its own.
  void add(const Entry<W>& e, std::uint64_t h) {
    if (grows_next()) grow();
    auto& s = slots_.vec();
    Entry<W>& x = s[probe_slot(s.data(), cap_ - 1, h, empty,
                               [&](const Entry<W>& y) { return same(y.key, e.key); })];
    if (x.key.none()) {
      x = e;
      ++size_;
      return;
    }
    absorb(x, e);
  }
  std::size_t size() const { return size_; }
  // Brings the line of the first slot of digest h into the cache (an add of it follows soon).
  void prefetch(std::uint64_t h) const { __builtin_prefetch(&slots_.vec()[h & (cap_ - 1)]); }
  // Whether the next add of a new key doubles the table, and the bytes the doubled one takes.
  bool grows_next() const { return (size_ + 1) * 10 > cap_ * 7; }
  std::size_t grow_bytes() const {
    return TableAllocator<Entry<W>>::footprint((cap_ ? cap_ * 2 : 16) * sizeof(Entry<W>));
  }

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
  // The entries sorted by key; the table is released.
  Booked<Entry<W>> take_sorted() {
    Booked<Entry<W>> out = take_entries();
    std::sort(out.vec().begin(), out.vec().end(), by_key<W>);
    return out;
  }
  // The entries sorted by key at the front of the table's own storage (no adds after it; then
  // release()).
  std::pair<const Entry<W>*, std::size_t> sorted_in_place() {
    auto& v = slots_.vec();
    std::size_t n = 0;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i].key.any()) v[n++] = v[i];
    std::sort(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n), by_key<W>);
    return {v.data(), n};
  }
  void release() {
    slots_.release();
    cap_ = size_ = 0;
  }

 private:
  void grow() {
    // Tables start small: a level has kShards of them, and a first size of 1,024 slots made
    // every small level map and zero that many slots in each shard it touched (docs/census.md).
    rehash(cap_ ? cap_ * 2 : 16);
  }
  void rehash(std::size_t ncap) {
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
