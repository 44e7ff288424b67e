// SPDX-License-Identifier: MIT
// HoleSet: a runtime-sized set of holes indexed in reading order (0 .. n-1).
//
// This is the position type of the public API (problems, results, file I/O). Searches convert it
// once to their fixed-width bit layout and back; nothing hot touches it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/export.hpp"

namespace pegsol {

class PEGSOL_API HoleSet {
 public:
  HoleSet() = default;
  explicit HoleSet(int n, bool full = false);

  int size() const { return n_; }
  bool test(int i) const { return (w_[static_cast<std::size_t>(i >> 6)] >> (i & 63)) & 1; }
  void set(int i, bool v = true);
  void flip(int i) { w_[static_cast<std::size_t>(i >> 6)] ^= std::uint64_t{1} << (i & 63); }
  int count() const;
  // The complement within the n holes.
  HoleSet complement() const;
  std::vector<int> members() const;
  bool operator==(const HoleSet& o) const = default;

  // "1" for a peg, "0" for a hole, over the holes in reading order.
  std::string to_bits() const;
  // Inverse of to_bits; throws std::invalid_argument naming the offending character.
  static HoleSet from_bits(std::string_view s);

 private:
  int n_ = 0;
  std::vector<std::uint64_t> w_;
};

}  // namespace pegsol
