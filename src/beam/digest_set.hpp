// SPDX-License-Identifier: MIT
// The beam levels' position sets: a set of digests (duplicate children), its sizing from the
// levels' fan-out, and an exact index of one level's positions (the report's pairs).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../core/bits.hpp"
#include "../core/probe.hpp"

namespace pegsol::beam_detail {

// Set of 64-bit position digests, open addressing with linear probing (core/probe.hpp); 0 marks an
// empty slot (a zero digest is stored as 1). Two positions with one digest count as one: at 2^-64
// per pair the loss of a candidate is negligible, and a solution never depends on it (solve()
// replays it).
class DigestSet {
 public:
  // Empties the set, sized for `expected` digests, clearing it in slices with stop() polled
  // between them; false when stop() asked to stop (the set is then left unusable until the next
  // clear). A set kept within 4x of the size wanted is reused, so a search that clears it every
  // level allocates only when the levels grow or shrink a lot.
  template <class Stop>
  bool clear(std::size_t expected, Stop&& stop) {
    const std::size_t want = std::bit_ceil(std::max<std::size_t>(2 * expected, 1024));
    used_ = 0;
    const bool fresh = slots_.size() < want || slots_.size() > 4 * want;
    if (fresh) {
      std::vector<std::uint64_t>().swap(slots_);
      slots_.reserve(want);
    }
    const std::size_t size = fresh ? want : slots_.size();
    constexpr std::size_t kSlice = std::size_t{1} << 22;  // 32 MiB a slice
    for (std::size_t at = 0; at < size; at += kSlice) {
      if (stop()) {
        if (fresh) std::vector<std::uint64_t>().swap(slots_);  // no partial size left behind
        return false;
      }
      const std::size_t end = std::min(size, at + kSlice);
      if (fresh)
        slots_.resize(end, 0);
      else
        std::fill(slots_.begin() + static_cast<std::ptrdiff_t>(at),
                  slots_.begin() + static_cast<std::ptrdiff_t>(end), 0);
    }
    return true;
  }
  std::size_t size() const { return used_; }
  bool contains(std::uint64_t d) const {
    if (d == 0) d = 1;
    return slots_[probe_slot(slots_.data(), slots_.size() - 1, d, vacant,
                             [d](std::uint64_t s) { return s == d; })] != 0;
  }
  // True when d was not present (and is now). Always inlined: the searches call it once per
  // child, and the compiler left it out of line once the set had a header of its own.
  [[gnu::always_inline]] bool insert(std::uint64_t d) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    return place(d == 0 ? 1 : d);
  }

 private:
  static bool vacant(std::uint64_t s) { return s == 0; }
  // Adds d (not 0); true when it was not present.
  [[gnu::always_inline]] bool place(std::uint64_t d) {
    std::uint64_t& s = slots_[probe_slot(slots_.data(), slots_.size() - 1, d, vacant,
                                         [d](std::uint64_t x) { return x == d; })];
    if (s == d) return false;
    s = d;
    ++used_;
    return true;
  }
  void grow() {
    std::vector<std::uint64_t> old(slots_.size() * 2, 0);
    old.swap(slots_);
    rehash_into(
        old.data(), old.size(), slots_.data(), slots_.size() - 1, vacant,
        [](std::uint64_t d) { return d; }, [] {});
  }
  std::vector<std::uint64_t> slots_;
  std::size_t used_ = 0;
};

// Distinct children a level's parents had, to size the next level's digest set: the largest
// ratio seen so far, times a quarter more (the set grows when a level needs more).
class Fanout {
 public:
  void record(std::size_t parents, std::size_t children) {
    if (parents > 0)
      ratio_ = std::max(ratio_, static_cast<double>(children) / static_cast<double>(parents));
  }
  std::size_t expect(std::size_t parents) const {
    return static_cast<std::size_t>(static_cast<double>(parents) * ratio_ * 1.25) + 64;
  }

 private:
  double ratio_ = 4;
};

// Index of a level's positions for exact lookups (pairs): slots hold position indices.
template <int W>
class LevelIndex {
 public:
  using Pos = Bits<W>;
  explicit LevelIndex(const std::vector<Pos>& level) : level_(level) {
    slots_.assign(std::bit_ceil(std::max<std::size_t>(2 * level.size(), 16)), kEmpty);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t k = 0; k < level.size(); ++k)
      slots_[probe_empty(slots_.data(), mask, level[k].digest(), vacant)] =
          static_cast<std::uint32_t>(k);
  }
  // Index of p in the level, or -1.
  long find(const Pos& p) const {
    const std::uint32_t s = slots_[probe_slot(slots_.data(), slots_.size() - 1, p.digest(), vacant,
                                              [&](std::uint32_t k) { return level_[k] == p; })];
    return s == kEmpty ? -1 : static_cast<long>(s);
  }

 private:
  static constexpr std::uint32_t kEmpty = ~std::uint32_t{0};
  static bool vacant(std::uint32_t s) { return s == kEmpty; }
  const std::vector<Pos>& level_;
  std::vector<std::uint32_t> slots_;
};

}  // namespace pegsol::beam_detail
