// SPDX-License-Identifier: MIT
// The bidirectional beam ("meet"): the sides' levels, the scoring against the other side, the
// meeting of the two frontiers, and the report's average board.
#include "meet.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <utility>
#include <vector>

#include "../core/layout.hpp"
#include "../core/probe.hpp"
#include "digest_set.hpp"
#include "survivors.hpp"

namespace pegsol::beam_detail {

namespace {

// One side of the meet: its deepest level and the links back to its root.
template <int W>
struct Side {
  using Pos = Bits<W>;
  std::vector<Pos> level;                 // survivors of the deepest level
  std::vector<std::vector<Link>> links;   // links[d][i]: how survivor i of level d + 1 was reached
  std::vector<std::pair<Pos, int>> need;  // per peg type: mask, pegs this side's target keeps
  int target = 0;                         // levels this side grows
  int depth() const { return static_cast<int>(links.size()); }
  // Jumps from the root to survivor i of level d.
  std::vector<int> path(int d, std::size_t i) const { return path_to(links, d, i); }
};

// One attempt of the meet (run_meet).
template <int W>
class Meet {
 public:
  using Pos = Bits<W>;

  Meet(const Geometry<W>& g, const Pos& start, const Pos& goal, bool report, std::size_t capacity,
       std::uint64_t seed, const AttemptControl& ctl)
      : g_(g), report_(report), capacity_(capacity), seed_(seed), ctl_(ctl) {
    const auto& lay = layout(g.board());
    for (const Jump& j : g.board().jumps())
      jbits_.push_back({lay.bit(j.from), lay.bit(j.over), lay.bit(j.to)});
    a_.level.push_back(start);
    b_.level.push_back(g.complement(goal));
    total_ = start.count() - goal.count();
    a_.target = (total_ + 1) / 2;
    b_.target = total_ - a_.target;
    if (!report_) {
      // Peg-type counts never increase: each side must keep the pegs its target has.
      const Pos b_goal = g.complement(start);
      for (const Pos& m : g.type_masks()) {
        a_.need.push_back({m, (goal & m).count()});
        b_.need.push_back({m, (b_goal & m).count()});
      }
    }
  }

  Outcome run() {
    if (total_ < 0) return out_;
    if (total_ == 0) {
      out_.found = a_.level[0] == g_.complement(b_.level[0]);
      out_.pairs = out_.found;
      return out_;
    }
    // Sides alternate, A first. The report grows both sides to the meeting level and compares
    // the two final levels. The improved rule stops short of it and meets wider: B's final level
    // is only generated (all children, deduplicated, never cut to the capacity) and indexed, and
    // A's last kMeetA levels are walked depth-first from every survivor, each leaf looked up.
    // That compares about C*b^2 positions with C*b (b: jumps per position) instead of C with C.
    int meet_a = 0, meet_b = 0;
    if (!report_) {
      meet_a = std::min(kMeetA, a_.target);
      meet_b = std::min(1, b_.target);
      a_.target -= meet_a;
      b_.target -= meet_b;
    }
    while (a_.depth() < a_.target || b_.depth() < b_.target) {
      for (int s = 0; s < 2; ++s) {
        Side<W>& x = s == 0 ? a_ : b_;
        Side<W>& y = s == 0 ? b_ : a_;
        if (x.depth() >= x.target) continue;
        if (!step(x, y)) return out_;
      }
    }
    if (report_)
      count_pairs();
    else
      meet(meet_a, meet_b);
    return out_;
  }

 private:
  static constexpr int kMeetA = 2;

  // B's frontier for the meeting: B's deepest level expanded `eb` (0 or 1) more jumps, indexed by
  // the digest of each position's complement. Entries: 16 bytes, digest 0 marks an empty slot.
  struct Entry {
    std::uint64_t digest;
    std::uint32_t parent;
    std::uint32_t jump;  // kNoJump for eb = 0
  };
  static constexpr std::uint32_t kNoJump = ~std::uint32_t{0};

  Pos frontier_pos(const Entry& e) const {
    const Pos& q = b_.level[e.parent];
    return e.jump == kNoJump ? q : q ^ g_.jump_mask(static_cast<int>(e.jump));
  }

  void meet(int ea, int eb) {
    // Sized from the fan-out the levels had (it grows when B's frontier needs more).
    const std::size_t expect = eb ? fanout_.expect(b_.level.size()) : b_.level.size();
    std::vector<Entry> table(std::bit_ceil(std::max<std::size_t>(2 * expect, 1024)),
                             Entry{0, 0, 0});
    std::size_t used = 0;
    auto vacant = [](const Entry& e) { return e.digest == 0; };
    auto insert = [&](std::uint32_t parent, std::uint32_t jump, const Pos& q) {
      if (2 * (used + 1) > table.size()) {
        std::vector<Entry> old(table.size() * 2, Entry{0, 0, 0});
        old.swap(table);
        rehash_into(
            old.data(), old.size(), table.data(), table.size() - 1, vacant,
            [](const Entry& e) { return e.digest; }, [] {});
      }
      std::uint64_t d = g_.complement(q).digest();
      if (d == 0) d = 1;
      Entry& e = table[probe_slot(table.data(), table.size() - 1, d, vacant,
                                  [d](const Entry& x) { return x.digest == d; })];
      if (e.digest == d) return;  // the same position reached twice
      e = {d, parent, jump};
      ++used;
    };
    for (std::size_t i = 0; i < b_.level.size(); ++i) {
      if ((i & 63) == 0 && stop_requested()) {
        out_.stopped = true;
        return;
      }
      const Pos& q = b_.level[i];
      const auto parent = static_cast<std::uint32_t>(i);
      if (eb == 0) {
        insert(parent, kNoJump, q);
        continue;
      }
      g_.for_each_jump(q, [&](int j) {
        ++out_.expanded;
        const Pos c = q ^ g_.jump_mask(j);
        if (feasible(b_, c)) insert(parent, static_cast<std::uint32_t>(j), c);
      });
    }
    std::vector<std::uint8_t> matched(table.size(), 0);
    std::vector<int> stack;
    std::size_t a_index = 0;
    // Depth-first over A's last `left` levels from p; each leaf is looked up in the table.
    auto walk = [&](auto&& self, const Pos& p, int left) -> void {
      if (left == 0) {
        std::uint64_t d = p.digest();
        if (d == 0) d = 1;
        std::size_t mask = table.size() - 1, k = d & mask;
        for (; table[k].digest; k = (k + 1) & mask) {
          if (table[k].digest != d || matched[k]) continue;
          if (g_.complement(frontier_pos(table[k])) != p) continue;
          matched[k] = 1;
          if (out_.pairs++ == 0) {
            std::vector<int> apath = a_.path(a_.depth(), a_index);
            apath.insert(apath.end(), stack.begin(), stack.end());
            std::vector<int> bpath = b_.path(b_.depth(), table[k].parent);
            if (table[k].jump != kNoJump) bpath.push_back(static_cast<int>(table[k].jump));
            assemble(apath, bpath);
          }
        }
        return;
      }
      g_.for_each_jump(p, [&](int j) {
        ++out_.expanded;
        const Pos c = p ^ g_.jump_mask(j);
        if (!feasible(a_, c)) return;
        stack.push_back(j);
        self(self, c, left - 1);
        stack.pop_back();
      });
    };
    for (a_index = 0; a_index < a_.level.size(); ++a_index) {
      if ((a_index & 15) == 0 && stop_requested()) {
        out_.stopped = true;
        return;
      }
      walk(walk, a_.level[a_index], ea);
    }
    out_.found = out_.pairs > 0;
  }

  bool stop_requested() {
    return poll(ctl_, out_.expanded, [&](ProgressReport& pr, BeamProgress& beam) {
      pr.level = a_.depth() + b_.depth();
      beam.levels = total_;
      beam.capacity = capacity_;
      beam.pairs = out_.pairs;
      beam.method = report_ ? "report" : "meet";
    });
  }

  bool feasible(const Side<W>& x, const Pos& p) const {
    for (const auto& [mask, need] : x.need)
      if ((p & mask).count() < need) return false;
    return true;
  }

  // Grows side x by one level, choosing survivors against y's deepest level. False when the
  // attempt is over (stopped, or the level came out empty).
  bool step(Side<W>& x, const Side<W>& y) {
    // Scoring: a child's score is its parent's plus the change its jump makes.
    //   report:   the number of holes where the child differs from y's average board
    //   improved: the log-likelihood that the child is the complement of a position drawn from
    //             y's level, holes taken as independent: with f the fraction of y's positions
    //             holding a peg on a hole, a peg there weighs log((1 - f) / f) (scaled by 64).
    //             Tried and lost: the plain frequency, -f (the average board without rounding):
    //             it needs about twice the capacity on triangle:15.
    std::vector<std::int32_t> weight(W, 0);
    Pos avg;
    if (report_) {
      avg = average_board(y.level);
    } else {
      std::vector<std::uint32_t> freq(W, 0);
      for (const Pos& q : y.level) for_each_bit(q, [&](int bit) { ++freq[bit]; });
      const double n = static_cast<double>(y.level.size()), eps = 0.5 / n;
      for (int bit = 0; bit < W; ++bit) {
        const double f = freq[bit] / n;
        weight[bit] =
            static_cast<std::int32_t>(std::lround(64 * std::log((1 - f + eps) / (f + eps))));
      }
    }

    children_.clear();
    if (!seen_.clear(fanout_.expect(x.level.size()), [&] { return stop_requested(); })) {
      out_.stopped = true;
      return false;
    }
    for (std::size_t i = 0; i < x.level.size(); ++i) {
      if ((i & 63) == 0 && stop_requested()) {
        out_.stopped = true;
        return false;
      }
      const Pos& p = x.level[i];
      std::int32_t base = 0;
      Pos px;
      if (report_) {
        px = p ^ avg;
        base = px.count();
      } else {
        for_each_bit(p, [&](int bit) { base += weight[bit]; });
      }
      g_.for_each_jump(p, [&](int j) {
        ++out_.expanded;
        const Pos c = p ^ g_.jump_mask(j);
        if (!report_ && !feasible(x, c)) return;
        if (!seen_.insert(c.digest())) return;
        const auto& jb = jbits_[static_cast<std::size_t>(j)];
        std::int32_t s;
        if (report_)
          s = base + 3 - 2 * (px.test(jb[0]) + px.test(jb[1]) + px.test(jb[2]));
        else
          s = base - weight[jb[0]] - weight[jb[1]] + weight[jb[2]];
        children_.push_back({survivor_key(s, c.digest(), seed_), static_cast<std::uint32_t>(i),
                             static_cast<std::uint32_t>(j)});
      });
    }
    fanout_.record(x.level.size(), seen_.size());
    if (children_.empty()) return false;
    if (!select_survivors(children_, capacity_, [&] { return stop_requested(); })) {
      out_.stopped = true;
      return false;
    }
    std::vector<Pos> next;
    next.reserve(children_.size());
    std::vector<Link> links;
    links.reserve(children_.size());
    const bool whole = for_each_survivor(
        children_, [&] { return stop_requested(); },
        [&](const Child& c) {
          next.push_back(x.level[c.parent] ^ g_.jump_mask(static_cast<int>(c.jump)));
          links.push_back({c.parent, c.jump});
        });
    if (!whole) {
      out_.stopped = true;
      return false;
    }
    x.level = std::move(next);
    x.links.push_back(std::move(links));
    return true;
  }

  // The report's count: pairs between the two final levels.
  void count_pairs() {
    LevelIndex<W> bindex(b_.level);
    for (std::size_t i = 0; i < a_.level.size(); ++i) {
      long k = bindex.find(g_.complement(a_.level[i]));
      if (k < 0) continue;
      if (out_.pairs++ == 0)
        assemble(a_.path(a_.depth(), i), b_.path(b_.depth(), static_cast<std::size_t>(k)));
    }
    out_.found = out_.pairs > 0;
  }

  // A's jumps, then B's jumps in reverse order. B's jump f-over-o-into-t takes Q' to Q on the
  // complemented board; on the original board the same jump takes ~Q to ~Q' (peg f, peg o, hole
  // t become hole, hole, peg), so each jump is kept as it is, only the order reverses.
  void assemble(const std::vector<int>& apath, const std::vector<int>& bpath) {
    const auto& jumps = g_.board().jumps();
    for (int j : apath) out_.moves.push_back(jumps[static_cast<std::size_t>(j)]);
    for (auto it = bpath.rbegin(); it != bpath.rend(); ++it)
      out_.moves.push_back(jumps[static_cast<std::size_t>(*it)]);
  }

  const Geometry<W>& g_;
  bool report_;
  std::size_t capacity_;
  std::uint64_t seed_;
  const AttemptControl& ctl_;
  std::vector<std::array<int, 3>> jbits_;
  Side<W> a_, b_;
  int total_ = 0;
  std::vector<Child> children_;
  DigestSet seen_;
  Fanout fanout_;
  Outcome out_;
};

}  // namespace

template <int W>
Outcome run_meet(const Geometry<W>& g, const Bits<W>& start, const Bits<W>& goal, bool report,
                 std::size_t capacity, std::uint64_t seed, const AttemptControl& ctl) {
  return Meet<W>(g, start, goal, report, capacity, seed, ctl).run();
}

template <int W>
Bits<W> average_board(const std::vector<Bits<W>>& level) {
  std::vector<std::uint32_t> freq(W, 0);
  for (const Bits<W>& q : level)
    for_each_bit(q, [&](int bit) { ++freq[static_cast<std::size_t>(bit)]; });
  std::vector<int> order(W);
  for (int i = 0; i < W; ++i) order[static_cast<std::size_t>(i)] = i;
  // Most frequent first, lower bit first among equals.
  std::stable_sort(order.begin(), order.end(), [&](int u, int v) {
    return freq[static_cast<std::size_t>(u)] > freq[static_cast<std::size_t>(v)];
  });
  Bits<W> avg;
  const int pegs = level.empty() ? 0 : level.front().count();
  for (int k = 0; k < pegs; ++k) avg.set(order[static_cast<std::size_t>(k)]);
  return avg;
}

#define PEGSOL_MEET_INSTANTIATE(W)                                                       \
  template Outcome run_meet<W>(const Geometry<W>&, const Bits<W>&, const Bits<W>&, bool, \
                               std::size_t, std::uint64_t, const AttemptControl&);       \
  template Bits<W> average_board<W>(const std::vector<Bits<W>>&);
PEGSOL_MEET_INSTANTIATE(64)
PEGSOL_MEET_INSTANTIATE(128)
PEGSOL_MEET_INSTANTIATE(256)
PEGSOL_MEET_INSTANTIATE(512)
PEGSOL_MEET_INSTANTIATE(1024)
#undef PEGSOL_MEET_INSTANTIATE

}  // namespace pegsol::beam_detail
