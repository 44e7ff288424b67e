// SPDX-License-Identifier: MIT
// The processes a pass's levels are spread over (FewestRanks, include/pegsol/fewest.hpp): which
// one holds a position, the one-process identity, and the collective steps the passes build on it.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <exception>
#include <span>
#include <vector>

#include "pegsol/fewest.hpp"
#include "pegsol/play.hpp"

namespace pegsol::fewest_detail {

// The process of `size` that holds a position of hash `hash` (level_map.hpp's mix): bits 28..59,
// apart from the shard's top bits and the slot's low ones, so that each process's positions fill
// its shards and slots evenly.
//   | shard (4) | owner (32) | slot (28) |
inline int owner_of(std::uint64_t hash, int size) {
  return static_cast<int>(((hash >> 28) & 0xffffffffull) * static_cast<std::uint64_t>(size) >> 32);
}

// One process: every collective step is the identity.
class OneProcess final : public FewestRanks {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void all_gather(const void* mine, std::size_t bytes, void* all) override {
    if (bytes > 0) std::memcpy(all, mine, bytes);
  }
  void all_to_all(std::span<const std::span<const std::byte>> out,
                  std::vector<std::byte>& in) override {
    in.assign(out[0].begin(), out[0].end());
  }
  void agree(std::exception_ptr failure) override {
    if (failure) std::rethrow_exception(failure);
  }
};

// Every process's `mine`, in rank order (collective).
template <class T>
std::vector<T> gather(FewestRanks& ranks, const T& mine) {
  std::vector<T> all(static_cast<std::size_t>(ranks.size()));
  ranks.all_gather(&mine, sizeof(T), all.data());
  return all;
}

// Leaves in `best` the solution with the fewest moves of every process's (the lowest rank's
// among equals; empty: none), the same everywhere (collective).
inline void agree_best(FewestRanks& ranks, std::vector<Jump>& best) {
  const std::vector<int> moves =
      gather(ranks, best.empty() ? INT_MAX : static_cast<int>(count_moves(best)));
  const auto win =
      static_cast<std::size_t>(std::min_element(moves.begin(), moves.end()) - moves.begin());
  const std::vector<std::size_t> sizes = gather(ranks, best.size());
  const std::size_t longest = *std::max_element(sizes.begin(), sizes.end());
  std::vector<Jump> mine = best;
  mine.resize(longest);
  std::vector<Jump> all(longest * sizes.size());
  ranks.all_gather(mine.data(), longest * sizeof(Jump), all.data());
  if (moves[win] == INT_MAX) {
    best.clear();
    return;
  }
  const auto at = all.begin() + static_cast<std::ptrdiff_t>(win * longest);
  best.assign(at, at + static_cast<std::ptrdiff_t>(sizes[win]));
}

}  // namespace pegsol::fewest_detail
