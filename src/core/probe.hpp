// SPDX-License-Identifier: MIT
// The one open-addressing probe of the engines' position tables: linear probing over a
// power-of-two array of slots, an empty slot marked by its contents. The tables keep their own
// storage (a vector, the census's booked memory) and growth (the load they allow, a memory budget,
// polling while they copy); they share how a key finds its slot and how slots move when they grow.
//
//   slots:  | . | a | b | . | c | d | e | . |      hash h: home slot h & mask, then h+1, h+2, ...
//                 ^ home of a, b                   a probe ends at its key or at the first empty
//
// Tables of another shape say why at their top: the compact census's buckets of eight keys (one
// cache line, compared eight at a time), the depth-first search's bounded runs of eight.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pegsol {

// The index of the first slot from hash's home slot on that is empty or for which match() holds.
// `mask` is the array's size minus one (a power of two); the array holds an empty slot.
template <class Slot, class Empty, class Match>
constexpr std::size_t probe_slot(const Slot* slots, std::size_t mask, std::uint64_t hash,
                                 Empty&& empty, Match&& match) {
  std::size_t i = static_cast<std::size_t>(hash) & mask;
  while (!empty(slots[i]) && !match(slots[i])) i = (i + 1) & mask;
  return i;
}

// The index of the first empty slot from hash's home slot on (the array holds one).
template <class Slot, class Empty>
constexpr std::size_t probe_empty(const Slot* slots, std::size_t mask, std::uint64_t hash,
                                  Empty&& empty) {
  std::size_t i = static_cast<std::size_t>(hash) & mask;
  while (!empty(slots[i])) i = (i + 1) & mask;
  return i;
}

// Of the `n` slots of `from`, copies those not empty into `to` (mask + 1 empty slots, room for
// them all), each at the first empty slot from its hash's home, in the order of `from`; `each()`
// is called before each copy (a table polls its control there).
template <class Slot, class Empty, class Hash, class Each>
void rehash_into(const Slot* from, std::size_t n, Slot* to, std::size_t mask, Empty&& empty,
                 Hash&& hash, Each&& each) {
  for (std::size_t k = 0; k < n; ++k) {
    if (empty(from[k])) continue;
    each();
    to[probe_empty(to, mask, hash(from[k]), empty)] = from[k];
  }
}

}  // namespace pegsol
