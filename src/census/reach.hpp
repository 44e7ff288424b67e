// SPDX-License-Identifier: MIT
// The census's pagoda filter (CensusOptions::reach, internal to src/census): a position is kept
// when, for some goal, every pagoda given for it is worth at least its value at that goal. The
// goals and their pagodas are closed under the census group here, so a position passes exactly
// when its images do, and a child may be tested in its parent's frame, before its canonical form.
#pragma once

#include <bit>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "pegsol/board.hpp"
#include "pegsol/census.hpp"

namespace pegsol::census_detail {

// The popcount of a key: std::popcount for 64-bit keys, Bits<W>::count for wider ones.
inline int key_count(std::uint64_t x) {
  return std::popcount(x);
}
template <class Key>
int key_count(const Key& x) {
  return x.count();
}

template <class Key>
class ReachFilter {
 public:
  ReachFilter() = default;
  // syms: the census group (indices into b.symmetries()); bit_of(h): the key of hole h alone.
  template <class BitOf>
  ReachFilter(const Board& b, const std::vector<int>& syms, const std::vector<CensusReach>& reach,
              BitOf&& bit_of) {
    // Each goal's pagodas under each symmetry s: weight w at hole h moves to s(h).
    std::set<std::vector<std::vector<long long>>> seen;
    for (const CensusReach& r : reach) {
      for (int s : syms) {
        const std::vector<int>& perm = b.symmetries()[static_cast<std::size_t>(s)];
        std::vector<std::vector<long long>> image;  // the goal's image, then its pagodas'
        std::vector<long long> goal(static_cast<std::size_t>(b.size()), 0);
        for (int h = 0; h < b.size(); ++h)
          if (r.goal.test(h)) goal[static_cast<std::size_t>(perm[static_cast<std::size_t>(h)])] = 1;
        image.push_back(goal);
        for (const Pagoda& p : r.pagodas) {
          std::vector<long long> w(static_cast<std::size_t>(b.size()), 0);
          for (int h = 0; h < b.size(); ++h)
            w[static_cast<std::size_t>(perm[static_cast<std::size_t>(h)])] =
                p.weight[static_cast<std::size_t>(h)];
          image.push_back(std::move(w));
        }
        if (!seen.insert(image).second) continue;
        Target t{static_cast<std::uint32_t>(bounds_.size()), 0};
        for (std::size_t q = 1; q < image.size(); ++q) {
          // The pagoda as planes: one mask per distinct nonzero weight.
          std::map<long long, Key> planes;
          long long floor = 0;
          for (int h = 0; h < b.size(); ++h) {
            const long long w = image[q][static_cast<std::size_t>(h)];
            if (w == 0) continue;
            planes[w] |= bit_of(h);
            if (image[0][static_cast<std::size_t>(h)]) floor += w;
          }
          Bound bd{static_cast<std::uint32_t>(planes_.size()), 0, floor};
          for (const auto& [w, mask] : planes) planes_.push_back({mask, w});
          bd.last = static_cast<std::uint32_t>(planes_.size());
          bounds_.push_back(bd);
        }
        t.last = static_cast<std::uint32_t>(bounds_.size());
        targets_.push_back(t);
      }
    }
  }

  bool active() const { return !targets_.empty(); }

  // Whether x might still reach one of the goals (always, when the filter is not active).
  bool keep(const Key& x) const {
    if (targets_.empty()) return true;
    for (const Target& t : targets_) {
      std::uint32_t q = t.first;
      for (; q < t.last; ++q) {
        const Bound& bd = bounds_[q];
        long long v = 0;
        for (std::uint32_t i = bd.first; i < bd.last; ++i)
          v += planes_[i].weight * key_count(x & planes_[i].mask);
        if (v < bd.floor) break;
      }
      if (q == t.last) return true;
    }
    return false;
  }

  // Keeps the keys of k[0, n) that pass, in order; returns how many.
  std::size_t filter(Key* k, std::size_t n) const {
    std::size_t m = 0;
    for (std::size_t i = 0; i < n; ++i) {
      k[m] = k[i];
      m += keep(k[i]);
    }
    return m;
  }

  // A word for the checkpoints' fingerprint: what the filter keeps.
  template <class Put>
  void fingerprint(Put&& put) const {
    for (const Target& t : targets_) {
      put(0x7a7267ULL ^ (std::uint64_t{t.last - t.first} << 32));
      for (std::uint32_t q = t.first; q < t.last; ++q) {
        put(static_cast<std::uint64_t>(bounds_[q].floor));
        for (std::uint32_t i = bounds_[q].first; i < bounds_[q].last; ++i) {
          put(static_cast<std::uint64_t>(planes_[i].weight));
          put(key_hash(planes_[i].mask));
        }
      }
    }
  }

 private:
  struct Plane {
    Key mask;
    long long weight;
  };
  struct Bound {  // planes_[first, last), summed by weight, at least `floor`
    std::uint32_t first, last;
    long long floor;
  };
  struct Target {  // bounds_[first, last): all of them
    std::uint32_t first, last;
  };
  static std::uint64_t key_hash(std::uint64_t x) { return x; }
  template <class K>
  static std::uint64_t key_hash(const K& x) {
    return x.digest();
  }
  std::vector<Plane> planes_;
  std::vector<Bound> bounds_;
  std::vector<Target> targets_;
};

}  // namespace pegsol::census_detail
