// SPDX-License-Identifier: MIT
// A stored position of the fewest-moves search and its fixed hash (src/fewest).
#pragma once

#include <cstdint>
#include <type_traits>

#include "../core/hash.hpp"
#include "keys.hpp"

namespace pegsol::fewest_detail {

// One stored position. key: the pegs (bit h = hole h, canonical under the search's group; 0 marks
// an empty slot, never a position with pegs). land(): the state's L in the key's frame; cost():
// its moves. Packed (kPacked: boards of at most kHoles = W - 6 holes, costs below 64), 16 bytes
// on 64-bit keys:
//   | key (W) | cost (6) | land (W - 6) |
// otherwise 48 bytes on 128-bit keys:
//   | key (W) | land (W) | cost (32) | pad |
// (Before 2026-11-27 the 64-bit keys' entries had the second layout too, 24 bytes.)
template <int W>
struct PackedEntry {
  static_assert(W == 64, "the cost packs into the top bits of one word");
  static constexpr int kLandBits = W - 6;
  static constexpr std::uint64_t kLandMask = (std::uint64_t{1} << kLandBits) - 1;
  Bits<W> key;
  std::uint64_t state = 0;  // cost << kLandBits | land
  Bits<W> land() const {
    Bits<W> l;
    l.w[0] = state & kLandMask;
    return l;
  }
  std::uint32_t cost() const { return static_cast<std::uint32_t>(state >> kLandBits); }
  void set(std::uint32_t cost, const Bits<W>& land) {
    state = std::uint64_t{cost} << kLandBits | land.w[0];
  }
  void add_land(const Bits<W>& land) { state |= land.w[0]; }
  static PackedEntry<W> make(const Bits<W>& key, std::uint32_t cost, const Bits<W>& land) {
    PackedEntry<W> e;
    e.key = key;
    e.set(cost, land);
    return e;
  }
};
// Aligned to 16 bytes as the unsigned __int128 keys before it were: 48 bytes on 128-bit keys, the
// size the level files and the memory budget count.
template <int W>
struct alignas(16) WideEntry {
  Bits<W> key;
  Bits<W> land_;
  std::uint32_t cost_ = 0;
  Bits<W> land() const { return land_; }
  std::uint32_t cost() const { return cost_; }
  void set(std::uint32_t cost, const Bits<W>& land) {
    cost_ = cost;
    land_ = land;
  }
  void add_land(const Bits<W>& land) { land_ |= land; }
  static WideEntry<W> make(const Bits<W>& key, std::uint32_t cost, const Bits<W>& land) {
    return {key, land, cost};
  }
};
template <int W>
using Entry = std::conditional_t<kPacked<W>, PackedEntry<W>, WideEntry<W>>;
static_assert(sizeof(Entry<64>) == 16 && sizeof(Entry<128>) == 48);

// The fixed hash of a position (core/hash.hpp's mixer): its low bits pick a slot, its top bits a
// shard. Neither the answer nor the solution found depends on it: a level's content is a set,
// and every choice among its entries (the meeting, a path's step, a beam's cut) goes by key.
// (Before 2026-11-27 it had a mixer of its own; the level files of a checkpoint say which.)
template <int W>
inline std::uint64_t mix(Bits<W> key) {
  return mix64(key.fold());
}

// An empty slot of a LevelMap.
template <int W>
inline bool vacant(const Entry<W>& e) {
  return e.key.none();
}

}  // namespace pegsol::fewest_detail
