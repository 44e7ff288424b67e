// SPDX-License-Identifier: MIT
// The survivor selection every beam level goes through (survivors.hpp): a radix select of the
// highest keys, then the survivors in parent order.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "survivors.hpp"

namespace pegsol::beam_detail {

namespace {

constexpr std::size_t kSelectPoll = std::size_t{1} << 16;  // children between two polls

// Calls `f(key)` on every child's key in order, polling `stop` between slices. False when
// stopped.
template <class F>
bool each_key(const std::vector<Child>& children, const std::function<bool()>& stop, F&& f) {
  const Child* c = children.data();
  for (std::size_t at = 0, n = children.size(); at < n; at += kSelectPoll) {
    if (stop()) return false;
    for (const Child* end = c + std::min(kSelectPoll, n - at); c < end; ++c) f(c->key);
  }
  return true;
}

// Keeps, in order, the children whose keys pass `keep` (called once per child, in order).
// False when stopped.
template <class Keep>
bool compact(std::vector<Child>& children, const std::function<bool()>& stop, Keep&& keep) {
  Child* out = children.data();
  const Child* c = children.data();
  for (std::size_t at = 0, n = children.size(); at < n; at += kSelectPoll) {
    if (stop()) return false;
    for (const Child* end = c + std::min(kSelectPoll, n - at); c < end; ++c)
      if (keep(c->key)) *out++ = *c;
  }
  children.resize(static_cast<std::size_t>(out - children.data()));
  return true;
}

// Where a level is cut: every key above `key` survives, and the first `ties` keys equal to it.
struct Cut {
  std::uint64_t key = 0;
  std::size_t ties = 0;
};

// The cut that keeps the `capacity` highest keys of `children` (more than that many). Few
// children: an nth_element over their keys. Otherwise a radix select, 16 bits a round from the
// highest bit where the keys differ; the children stay those above the digits chosen so far (all
// surviving) and those equal to them (candidates), and once a round leaves few of those, the rest
// are dropped in place, so that the later rounds read fewer. Empty when stopped.
std::optional<Cut> find_cut(std::vector<Child>& children, std::size_t capacity,
                            const std::function<bool()>& stop) {
  if (children.size() <= kSelectPoll) {  // few: the histograms would cost more than the keys
    std::vector<std::uint64_t> keys(children.size());
    for (std::size_t i = 0; i < children.size(); ++i) keys[i] = children[i].key;
    const auto at = keys.begin() + static_cast<std::ptrdiff_t>(capacity - 1);
    std::nth_element(keys.begin(), at, keys.end(), std::greater<>());
    const std::uint64_t cut = *at;
    const auto higher = static_cast<std::size_t>(
        std::count_if(keys.begin(), at, [&](std::uint64_t k) { return k > cut; }));
    return Cut{cut, capacity - higher};
  }
  std::uint64_t all = ~std::uint64_t{0}, any = 0;
  if (!each_key(children, stop, [&](std::uint64_t k) {
        all &= k;
        any |= k;
      }))
    return std::nullopt;
  const int differ = std::bit_width(all ^ any);  // the keys agree on every bit from here up
  if (differ == 0) return Cut{all, capacity};    // one key: the first `capacity`
  int shift = std::max(differ - 16, 0);
  std::uint64_t prefix = differ == 64 ? 0 : all >> differ << differ;     // the digits chosen
  std::uint64_t above = differ == 64 ? 0 : ~std::uint64_t{0} << differ;  // their bits
  std::size_t need = capacity;                                           // candidates still to keep
  std::vector<std::size_t> hist(std::size_t{1} << 16);
  for (;;) {
    std::fill(hist.begin(), hist.end(), 0);
    std::size_t* count = hist.data();
    if (!each_key(children, stop, [=](std::uint64_t k) {
          if ((k & above) == prefix) ++count[(k >> shift) & 0xFFFF];
        }))
      return std::nullopt;
    std::size_t higher = 0;
    std::size_t digit = hist.size() - 1;
    while (higher + hist[digit] < need) higher += hist[digit--];  // stops: need <= candidates
    need -= higher;
    // A candidate's digit: where it overlaps bits chosen before, it holds the same bits.
    prefix |= static_cast<std::uint64_t>(digit) << shift;
    above = ~std::uint64_t{0} << shift;
    if (shift == 0) return Cut{prefix, need};
    if (capacity - need + hist[digit] <= children.size() / 2 &&
        !compact(children, stop, [&](std::uint64_t k) { return (k & above) >= prefix; }))
      return std::nullopt;
    shift = std::max(shift - 16, 0);
  }
}

}  // namespace

bool select_survivors(std::vector<Child>& children, std::size_t capacity,
                      const std::function<bool()>& stop) {
  if (capacity == 0) {
    children.clear();
    return true;
  }
  if (children.size() > capacity) {
    const std::optional<Cut> cut = find_cut(children, capacity, stop);
    if (!cut ||
        !compact(children, stop, [key = cut->key, ties = cut->ties](std::uint64_t k) mutable {
          return k > key || (k == key && ties > 0 && ties-- > 0);
        }))
      return false;
  }
  auto before = [](const Child& u, const Child& v) {
    return u.parent != v.parent ? u.parent < v.parent : u.jump < v.jump;
  };
  // Each parent's few children by jump; the whole by parent and jump when they are not in parent
  // order.
  for (std::size_t i = 0, next_poll = kSelectPoll; i < children.size();) {
    if (i >= next_poll) {
      if (stop()) return false;
      next_poll = i + kSelectPoll;
    }
    std::size_t end = i + 1;
    while (end < children.size() && children[end].parent == children[i].parent) ++end;
    if (end < children.size() && children[end].parent < children[i].parent) {
      std::sort(children.begin(), children.end(), before);
      return true;
    }
    std::sort(children.begin() + static_cast<std::ptrdiff_t>(i),
              children.begin() + static_cast<std::ptrdiff_t>(end), before);
    i = end;
  }
  return true;
}

}  // namespace pegsol::beam_detail
