// SPDX-License-Identifier: MIT
// Solution counts both census engines share: up to symmetry (Burnside) and up to reordering of
// independent jumps. Internal to src/census.
#pragma once

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "../core/geometry.hpp"
#include "../core/hash.hpp"
#include "engine.hpp"

namespace pegsol::census_detail {

// Why the reordering count is skipped for a census with these levels, or "" to run it: it walks
// (position, forbidden jumps) states over the raw positions on solution paths, far more states
// than positions, so it runs only up to options.distinct_max_positions of them.
inline std::string distinct_skip_reason(const std::vector<CensusLevel>& levels,
                                        const CensusOptions& o) {
  std::uint64_t on_path = 0;
  for (const CensusLevel& l : levels) on_path += l.on_path_raw;
  if (on_path <= o.distinct_max_positions) return "";
  return "skipped: " + std::to_string(on_path) +
         " positions lie on solution paths, over the limit of " +
         std::to_string(o.distinct_max_positions) + " (CensusOptions::distinct_max_positions)";
}

// Solutions up to the group `syms` (indices into the board's symmetries, 0 first), by Burnside's
// lemma: a solution is fixed by a symmetry exactly when every position on it is, so count the
// paths through each symmetry's fixed positions (few: a reflection fixes about 2^(n/2)) and
// average. `solutions` is the identity's count; is_goal(x) tells a goal position; positions with
// at most goal_pegs pegs that are not goals end a path.
template <int W, class IsGoal>
Count solutions_up_to_symmetry(const Geometry<W>& g, const std::vector<int>& syms,
                               const Bits<W>& start, int goal_pegs, Count solutions,
                               IsGoal&& is_goal) {
  using Pos = Bits<W>;
  struct Hash {
    std::size_t operator()(const Pos& p) const { return p.digest(); }
  };
  Count total = solutions;
  for (int s : syms) {
    if (s == 0) continue;
    std::unordered_map<Pos, Count, Hash> memo;
    auto paths = [&](auto&& self, const Pos& x) -> Count {
      if (is_goal(x)) return 1;
      if (x.count() <= goal_pegs) return 0;
      auto it = memo.find(x);
      if (it != memo.end()) return it->second;
      Count sum = 0;
      g.for_each_jump(x, [&](int j) {
        Pos y = x ^ g.jump_mask(j);
        if (g.apply(s, y) == y) add_count(sum, self(self, y));
      });
      memo.emplace(x, sum);
      return sum;
    };
    add_count(total, paths(paths, start));
  }
  return total / static_cast<Count>(syms.size());
}

// Solutions up to reordering of independent jumps: count the sequences that are the
// lexicographically least (by jump index) of their class. A sequence w is least exactly when no
// jump a follows a larger jump b with a independent of b and of everything between them. So the
// jumps forbidden next are F(wc) = {a indep c : a < c or a in F(w)}, and a jump in F stays
// forbidden until something it depends on is played; since a forbidden jump can only become
// legal through a jump it depends on, F can be kept as a subset of the legal jumps. The pass
// counts (position, F) states over positions on solution paths: on_path(x, k) tells whether x
// (k pegs) lies on one. Throws Stopped when `ctl` says to stop, and CensusError with a reason
// the count was skipped (memory, more than 64 legal jumps).
template <int W, class OnPath, class IsGoal>
Count distinct_solutions(const Geometry<W>& g, const Bits<W>& start, int goal_pegs, Memory& mem,
                         const Control& ctl, OnPath&& on_path, IsGoal&& is_goal) {
  using Pos = Bits<W>;
  struct Key {
    Pos p;
    std::uint64_t f;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const { return k.p.digest() ^ (k.f * kGolden); }
  };
  using Map = std::unordered_map<Key, Count, KeyHash>;
  constexpr std::size_t kNodeBytes = sizeof(Key) + sizeof(Count) + 32;
  auto legal = [&](const Pos& x, std::vector<int>& out) {
    out.clear();
    g.for_each_jump(x, [&](int j) { out.push_back(j); });
    std::sort(out.begin(), out.end());
    if (out.size() > 64)
      throw CensusError("a position has more than 64 legal jumps; distinct count skipped");
  };
  std::size_t booked = 0, booked_cur = 0;  // all bytes taken; those of the current level
  struct Release {
    Memory& m;
    std::size_t& b;
    ~Release() { m.give(b); }
  } release{mem, booked};
  Map cur;
  cur.emplace(Key{start, 0}, Count{1});
  std::vector<int> lp, lc;
  for (int k = start.count(); k > goal_pegs; --k) {
    mem.set_level(k - 1);
    ctl.throw_if_stopped();
    Map next;
    std::size_t booked_next = 0;
    for (const auto& [key, cnt] : cur) {
      legal(key.p, lp);
      for (std::size_t i = 0; i < lp.size(); ++i) {
        if ((key.f >> i) & 1) continue;
        int c = lp[i];
        const Pos& mc = g.jump_mask(c);
        Pos child = key.p ^ mc;
        if (!on_path(child, k - 1)) continue;
        legal(child, lc);
        std::uint64_t f = 0;
        for (std::size_t q = 0; q < lc.size(); ++q) {
          int a = lc[q];
          if ((g.jump_mask(a) & mc).any()) continue;
          bool forbid = a < c;
          if (!forbid) {
            auto it = std::lower_bound(lp.begin(), lp.end(), a);
            forbid = (key.f >> (it - lp.begin())) & 1;
          }
          if (forbid) f |= std::uint64_t{1} << q;
        }
        auto [it, fresh] = next.try_emplace(Key{child, f}, 0);
        add_count(it->second, cnt);
        if (fresh && next.size() % 4096 == 0) {
          ctl.throw_if_stopped();
          mem.take(4096 * kNodeBytes);
          booked += 4096 * kNodeBytes;
          booked_next += 4096 * kNodeBytes;
        }
      }
    }
    mem.give(booked_cur);
    booked -= booked_cur;
    booked_cur = booked_next;
    cur = std::move(next);
  }
  Count total = 0;
  for (const auto& [key, cnt] : cur)
    if (is_goal(key.p)) add_count(total, cnt);
  return total;
}

// The reordering count of a finished census into r: distinct_solutions, or distinct_note saying
// why it was not counted (over options.distinct_max_positions, the solution-path pass not run
// (`paths_ran` false), the count's own limits). None without a goal below a non-empty start or
// without solutions. The arguments after r are distinct_solutions' own.
template <int W, class OnPath, class IsGoal>
void count_distinct(CensusResult& r, const CensusOptions& o, bool paths_ran, const Geometry<W>& g,
                    const Bits<W>& start, int goal_pegs, int k0, Memory& mem, const Control& ctl,
                    OnPath&& on_path, IsGoal&& is_goal) {
  if (goal_pegs > k0 || k0 == 0 || r.solutions == 0) {
    r.distinct_solutions = 0;
    return;
  }
  r.distinct_note = distinct_skip_reason(r.levels, o);
  if (r.distinct_note.empty() && !paths_ran)
    r.distinct_note = "skipped: the solution-path pass did not run";
  if (!r.distinct_note.empty()) return;
  try {
    r.distinct_solutions = distinct_solutions(g, start, goal_pegs, mem, ctl, on_path, is_goal);
  } catch (const CensusError& e) {
    r.distinct_note = e.what();
  }
}

}  // namespace pegsol::census_detail
