// SPDX-License-Identifier: MIT
/// @file
/// HoleSet: a runtime-sized set of holes indexed in reading order (0 .. n-1).
///
/// This is the position type of the public API (problems, results, file I/O). Searches convert it
/// once to their fixed-width bit layout and back; nothing hot touches it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/error.hpp"
#include "pegsol/export.hpp"

namespace pegsol {

/// A set of holes of a board: a position (the holes with a peg), a goal, a mask. Compares by
/// value; a copy is independent.
class PEGSOL_API HoleSet {
 public:
  /// The empty set of no holes.
  HoleSet() = default;
  /// `n` holes, all empty (or all full).
  /// @throws InputError (field "n") for a negative `n`.
  explicit HoleSet(int n, bool full = false);

  /// The number of holes (members or not).
  int size() const { return n_; }
  /// Whether hole `i` is in the set.
  /// @throws InputError (field "hole") unless 0 <= i < size(); so do set() and flip().
  bool test(int i) const {
    check(i);
    return (w_[static_cast<std::size_t>(i >> 6)] >> (i & 63)) & 1;
  }
  /// Puts hole `i` in the set (`v` true) or takes it out.
  void set(int i, bool v = true);
  /// Puts hole `i` in the set or takes it out, whichever it is not.
  void flip(int i) {
    check(i);
    w_[static_cast<std::size_t>(i >> 6)] ^= std::uint64_t{1} << (i & 63);
  }
  /// The number of members (pegs, for a position).
  int count() const;
  /// The complement within the size() holes.
  HoleSet complement() const;
  /// The members in increasing order.
  std::vector<int> members() const;
  /// Same size and same members.
  bool operator==(const HoleSet& o) const = default;

  /// "1" for a member (a peg), "0" for the others, over the holes in reading order.
  std::string to_bits() const;
  /// The inverse of to_bits(): a set of `bits.size()` holes.
  /// @throws InputError (field "bits") naming the first character that is not '0' or '1'.
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
