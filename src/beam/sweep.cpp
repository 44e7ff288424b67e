// SPDX-License-Identifier: MIT
// The forward beam ("sweep"): its levels chosen by the compactness cost, and the depth-first
// endgame from the cheapest positions of a saved level.
#include "sweep.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "digest_set.hpp"

namespace pegsol::beam_detail {

namespace {

// One attempt of the sweep (run_sweep).
template <int W>
class Sweep {
 public:
  using Pos = Bits<W>;
  static constexpr std::size_t kEndgameStarts = 256;
  static constexpr std::uint64_t kEndgameNodes = 2000;

  Sweep(const Geometry<W>& g, const SweepTables<W>& t, const SweepGoal<W>& goal, const Pos& start,
        std::size_t capacity, std::uint64_t seed, const AttemptControl& ctl)
      : g_(g), t_(t), goal_(goal), capacity_(capacity), seed_(seed), ctl_(ctl) {
    level_.push_back(start);
    hash_.push_back(0);
    cost_.push_back(t.cost(start));
    total_ = start.count() - goal.pegs;
  }

  Outcome run() {
    if (total_ < 0) return out_;
    if (total_ == 0 && goal_.reached(level_[0])) {
      out_.found = true;
      return out_;
    }
    const int endgame_at = std::min(total_, std::max(0, t_.w.endgame));  // pegs above the goal's
    for (int d = 0; d < total_; ++d) {
      if (total_ - d == endgame_at) {
        saved_ = level_;
        saved_cost_ = cost_;
        saved_depth_ = d;
      }
      if (!step(d + 1 == total_)) break;
      if (out_.found) return out_;
    }
    if (!out_.stopped && saved_depth_ >= 0) endgame();
    return out_;
  }

 private:
  bool stop_requested() {
    return poll(ctl_, out_.expanded, [&](ProgressReport& pr, BeamProgress& beam) {
      pr.level = static_cast<int>(links_.size());
      beam.levels = total_;
      beam.capacity = capacity_;
      beam.method = "sweep";
    });
  }

  // Jumps from the start to survivor i of level d.
  std::vector<int> path(int d, std::size_t i) const { return path_to(links_, d, i); }

  void finish(const std::vector<int>& jumps) {
    const auto& all = g_.board().jumps();
    for (int j : jumps) out_.moves.push_back(all[static_cast<std::size_t>(j)]);
    out_.found = true;  // pairs stay 0: the sweep has no meeting
  }

  // Grows one level. `last`: the children have the goal's peg count, so the first one that
  // reaches the goal ends the search. False when the level is empty or the search was stopped.
  bool step(bool last) {
    children_.clear();
    if (!seen_.clear(fanout_.expect(level_.size()), [&] { return stop_requested(); })) {
      out_.stopped = true;
      return false;
    }
    for (std::size_t i = 0; i < level_.size(); ++i) {
      if ((i & 63) == 0 && stop_requested()) {
        out_.stopped = true;
        return false;
      }
      const Pos& p = level_[i];
      g_.for_each_jump(p, [&](int j) {
        if (out_.found) return;
        ++out_.expanded;
        const Pos c = p ^ g_.jump_mask(j);
        if (!goal_.feasible(c)) return;
        if (last) {
          if (goal_.reached(c)) {
            std::vector<int> jumps = path(static_cast<int>(links_.size()), i);
            jumps.push_back(j);
            finish(jumps);
          }
          return;
        }
        const std::uint64_t h = hash_[i] ^ t_.zjump[static_cast<std::size_t>(j)];
        if (!seen_.insert(h)) return;
        // The lower the cost, the higher the key.
        const std::int32_t cost = cost_[i] + t_.delta(p, c, j);
        children_.push_back({survivor_key(-cost, h, seed_), static_cast<std::uint32_t>(i),
                             static_cast<std::uint32_t>(j)});
      });
      if (out_.found) return true;
    }
    fanout_.record(level_.size(), seen_.size());
    if (children_.empty()) return false;
    if (!select_survivors(children_, capacity_, [&] { return stop_requested(); })) {
      out_.stopped = true;
      return false;
    }
    std::vector<Pos> next;
    std::vector<std::uint64_t> nhash;
    std::vector<std::int32_t> ncost;
    std::vector<Link> links;
    next.reserve(children_.size());
    nhash.reserve(children_.size());
    ncost.reserve(children_.size());
    links.reserve(children_.size());
    const bool whole = for_each_survivor(
        children_, [&] { return stop_requested(); },
        [&](const Child& c) {
          const int j = static_cast<int>(c.jump);
          next.push_back(level_[c.parent] ^ g_.jump_mask(j));
          nhash.push_back(hash_[c.parent] ^ t_.zjump[static_cast<std::size_t>(j)]);
          ncost.push_back(-score_of_key(c.key));
          links.push_back({c.parent, c.jump});
        });
    if (!whole) {
      out_.stopped = true;
      return false;
    }
    level_ = std::move(next);
    hash_ = std::move(nhash);
    cost_ = std::move(ncost);
    links_.push_back(std::move(links));
    return true;
  }

  // Depth-first from the saved level's positions, cheapest first: at most kEndgameStarts of
  // them, kEndgameNodes positions each, with one table of failed positions (by digest) shared by
  // all of them. A position cut by the budget is not recorded as failed.
  void endgame() {
    std::vector<std::size_t> order(saved_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t u, std::size_t v) { return saved_cost_[u] < saved_cost_[v]; });
    if (order.size() > kEndgameStarts) order.resize(kEndgameStarts);
    failed_.clear(std::size_t{1} << 16, [] { return false; });
    const int depth = total_ - saved_depth_;
    stride_ = g_.board().jumps().size() + 1;
    kids_.assign(static_cast<std::size_t>(depth + 1) * stride_, {0, 0});
    for (std::size_t i : order) {
      if (stop_requested()) {
        out_.stopped = true;
        return;
      }
      budget_ = endgame_nodes_;
      stack_.clear();
      if (dfs(saved_[i], depth, 0)) {
        std::vector<int> jumps = path(saved_depth_, i);
        jumps.insert(jumps.end(), stack_.rbegin(), stack_.rend());
        finish(jumps);
        return;
      }
      if (out_.stopped) return;
    }
  }

  // True when p reaches the goal in `left` jumps; stack_ then holds them, last jump first.
  bool dfs(const Pos& p, int left, int ply) {
    if (left == 0) return goal_.reached(p);
    if (!goal_.feasible(p)) return false;
    const std::uint64_t key = p.digest();
    if (failed_.contains(key)) return false;
    if (budget_ == 0) return false;
    --budget_;
    if ((++out_.expanded & 1023) == 0 && stop_requested()) {
      out_.stopped = true;
      return false;
    }
    std::pair<std::int32_t, int>* kids = &kids_[static_cast<std::size_t>(ply) * stride_];
    int n = 0;
    g_.for_each_jump(p, [&](int j) { kids[n++] = {t_.delta(p, p ^ g_.jump_mask(j), j), j}; });
    std::sort(kids, kids + n);
    bool cut = false;
    for (int k = 0; k < n; ++k) {
      const int j = kids[k].second;
      if (dfs(p ^ g_.jump_mask(j), left - 1, ply + 1)) {
        stack_.push_back(j);
        return true;
      }
      if (out_.stopped) return false;
      if (budget_ == 0) cut = true;
    }
    if (!cut) failed_.insert(key);
    return false;
  }

  const Geometry<W>& g_;
  const SweepTables<W>& t_;
  const SweepGoal<W>& goal_;
  std::size_t capacity_;
  std::uint64_t seed_;
  const AttemptControl& ctl_;
  int total_ = 0;
  std::vector<Pos> level_;
  std::vector<std::uint64_t> hash_;  // Zobrist keys relative to the start
  std::vector<std::int32_t> cost_;
  std::vector<std::vector<Link>> links_;
  std::vector<Child> children_;
  DigestSet seen_;
  Fanout fanout_;
  std::vector<Pos> saved_;  // the level where the endgame starts
  std::vector<std::int32_t> saved_cost_;
  int saved_depth_ = -1;
  DigestSet failed_;
  std::vector<std::pair<std::int32_t, int>> kids_;
  std::size_t stride_ = 0;
  std::uint64_t budget_ = 0;
  std::uint64_t endgame_nodes_ = kEndgameNodes;
  std::vector<int> stack_;
  Outcome out_;
};

}  // namespace

template <int W>
Outcome run_sweep(const Geometry<W>& g, const SweepTables<W>& tables, const SweepGoal<W>& goal,
                  const Bits<W>& start, std::size_t capacity, std::uint64_t seed,
                  const AttemptControl& ctl) {
  return Sweep<W>(g, tables, goal, start, capacity, seed, ctl).run();
}

template <int W>
std::int32_t sweep_cost(const Board& board, const Bits<W>& p, int goal_hole) {
  const Geometry<W> g(board);
  return SweepTables<W>(g, SweepWeights{},
                        goal_hole >= 0 ? std::vector{goal_hole} : std::vector<int>{})
      .cost(p);
}

template <int W>
std::int32_t sweep_delta(const Board& board, const Bits<W>& p, int jump, int goal_hole) {
  const Geometry<W> g(board);
  return SweepTables<W>(g, SweepWeights{},
                        goal_hole >= 0 ? std::vector{goal_hole} : std::vector<int>{})
      .delta(p, p ^ g.jump_mask(jump), jump);
}

#define PEGSOL_SWEEP_INSTANTIATE(W)                                                             \
  template Outcome run_sweep<W>(const Geometry<W>&, const SweepTables<W>&, const SweepGoal<W>&, \
                                const Bits<W>&, std::size_t, std::uint64_t,                     \
                                const AttemptControl&);                                         \
  template std::int32_t sweep_cost<W>(const Board&, const Bits<W>&, int);                       \
  template std::int32_t sweep_delta<W>(const Board&, const Bits<W>&, int, int);
PEGSOL_SWEEP_INSTANTIATE(64)
PEGSOL_SWEEP_INSTANTIATE(128)
PEGSOL_SWEEP_INSTANTIATE(256)
PEGSOL_SWEEP_INSTANTIATE(512)
PEGSOL_SWEEP_INSTANTIATE(1024)
#undef PEGSOL_SWEEP_INSTANTIATE

}  // namespace pegsol::beam_detail
