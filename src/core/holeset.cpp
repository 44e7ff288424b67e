// SPDX-License-Identifier: MIT
#include "pegsol/holeset.hpp"

#include <bit>
#include <stdexcept>

#include "pegsol/error.hpp"

namespace pegsol {

namespace {

int checked_size(int n) {
  if (n < 0) throw InputError("n", "a set of " + std::to_string(n) + " holes");
  return n;
}

}  // namespace

HoleSet::HoleSet(int n, bool full)
    : n_(checked_size(n)), w_(static_cast<std::size_t>((n + 63) / 64), 0) {
  if (full)
    for (int i = 0; i < n; ++i) set(i);
}

void HoleSet::out_of_range(int i) const {
  throw InputError("hole", "hole " + std::to_string(i) + " is not in a set of " +
                               std::to_string(n_) + " holes (0 to " + std::to_string(n_ - 1) + ")");
}

void HoleSet::set(int i, bool v) {
  check(i);
  auto& word = w_[static_cast<std::size_t>(i >> 6)];
  std::uint64_t m = std::uint64_t{1} << (i & 63);
  word = v ? (word | m) : (word & ~m);
}

int HoleSet::count() const {
  int c = 0;
  for (std::uint64_t x : w_) c += std::popcount(x);
  return c;
}

HoleSet HoleSet::complement() const {
  HoleSet r(n_);
  for (int i = 0; i < n_; ++i) r.set(i, !test(i));
  return r;
}

std::vector<int> HoleSet::members() const {
  std::vector<int> m;
  for (int i = 0; i < n_; ++i)
    if (test(i)) m.push_back(i);
  return m;
}

std::string HoleSet::to_bits() const {
  std::string s(static_cast<std::size_t>(n_), '0');
  for (int i = 0; i < n_; ++i)
    if (test(i)) s[static_cast<std::size_t>(i)] = '1';
  return s;
}

HoleSet HoleSet::from_bits(std::string_view s) {
  if (s.size() > (std::size_t{1} << 30))
    throw InputError("bits", "a string of " + std::to_string(s.size()) + " characters");
  HoleSet r(static_cast<int>(s.size()));
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '1')
      r.set(static_cast<int>(i));
    else if (s[i] != '0')
      throw InputError("bits", "character " + std::to_string(i + 1) + " is not '0' or '1'");
  }
  return r;
}

}  // namespace pegsol
