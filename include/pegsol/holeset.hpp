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

#include "pegsol/error.hpp"
#include "pegsol/export.hpp"

namespace pegsol {

class PEGSOL_API HoleSet {
 public:
  HoleSet() = default;
  // n holes, all empty (or all full). Throws InputError (field "n") for a negative n.
  explicit HoleSet(int n, bool full = false);

  int size() const { return n_; }
  // Whether hole i is in the set. test, set and flip throw InputError (field "hole") unless
  // 0 <= i < size().
  bool test(int i) const {
    check(i);
    return (w_[static_cast<std::size_t>(i >> 6)] >> (i & 63)) & 1;
  }
  void set(int i, bool v = true);
  void flip(int i) {
    check(i);
    w_[static_cast<std::size_t>(i >> 6)] ^= std::uint64_t{1} << (i & 63);
  }
  int count() const;
  // The complement within the n holes.
  HoleSet complement() const;
  std::vector<int> members() const;
  bool operator==(const HoleSet& o) const = default;

  // "1" for a peg, "0" for a hole, over the holes in reading order.
  std::string to_bits() const;
  // Inverse of to_bits; throws InputError (field "bits") naming the offending character.
  static HoleSet from_bits(std::string_view bits);

 private:
  void check(int i) const {
    if (i < 0 || i >= n_) out_of_range(i);
  }
  [[noreturn]] void out_of_range(int i) const;

  int n_ = 0;
  std::vector<std::uint64_t> w_;
};

}  // namespace pegsol
