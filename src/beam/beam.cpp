// SPDX-License-Identifier: MIT
// Bidirectional beam search (include/pegsol/beam.hpp; design and measurements in docs/beam.md).
#include "pegsol/beam.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "../core/geometry.hpp"
#include "../core/pool.hpp"
#include "../core/symmetry.hpp"
#include "../core/widths.hpp"
#include "pegsol/control.hpp"
#include "pegsol/invariants.hpp"
#include "survivors.hpp"

namespace pegsol {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kReportCapacity = 10000;  // the report's smallest successful 12-row figure
constexpr std::size_t kMeetCapacity = 1000;     // first capacity of the improved meet
constexpr std::size_t kSweepCapacity = 32;      // first capacity of the forward sweep
constexpr std::chrono::seconds kQuiet{1};       // no progress reports before this

using beam_detail::Child;
using beam_detail::mix64;
using beam_detail::select_survivors;
using beam_detail::survivor_key;

// Set of 64-bit position digests, open addressing with linear probing; 0 marks an empty slot (a
// zero digest is stored as 1). Two positions with one digest count as one: at 2^-64 per pair the
// loss of a candidate is negligible, and a solution never depends on it (solve() replays it).
class DigestSet {
 public:
  // Empties the set, sized for `expected` digests, clearing it in slices with stop() polled
  // between them; false when stop() asked to stop (the set is then left unusable until the next
  // clear). A set kept within 4x of the size wanted is reused, so a search that clears it every
  // level allocates only when the levels grow or shrink a lot.
  template <class Stop>
  bool clear(std::size_t expected, Stop&& stop) {
    const std::size_t want = std::bit_ceil(std::max<std::size_t>(2 * expected, 1024));
    used_ = 0;
    const bool fresh = slots_.size() < want || slots_.size() > 4 * want;
    if (fresh) {
      std::vector<std::uint64_t>().swap(slots_);
      slots_.reserve(want);
    }
    const std::size_t size = fresh ? want : slots_.size();
    constexpr std::size_t kSlice = std::size_t{1} << 22;  // 32 MiB a slice
    for (std::size_t at = 0; at < size; at += kSlice) {
      if (stop()) {
        if (fresh) std::vector<std::uint64_t>().swap(slots_);  // no partial size left behind
        return false;
      }
      const std::size_t end = std::min(size, at + kSlice);
      if (fresh)
        slots_.resize(end, 0);
      else
        std::fill(slots_.begin() + static_cast<std::ptrdiff_t>(at),
                  slots_.begin() + static_cast<std::ptrdiff_t>(end), 0);
    }
    return true;
  }
  std::size_t size() const { return used_; }
  bool contains(std::uint64_t d) const {
    if (d == 0) d = 1;
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = d & mask; slots_[i]; i = (i + 1) & mask)
      if (slots_[i] == d) return true;
    return false;
  }
  // True when d was not present (and is now).
  bool insert(std::uint64_t d) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    return place(d == 0 ? 1 : d);
  }

 private:
  bool place(std::uint64_t d) {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = d & mask;; i = (i + 1) & mask) {
      if (slots_[i] == d) return false;
      if (slots_[i] == 0) {
        slots_[i] = d;
        ++used_;
        return true;
      }
    }
  }
  void grow() {
    std::vector<std::uint64_t> old(slots_.size() * 2, 0);
    old.swap(slots_);
    used_ = 0;
    for (std::uint64_t d : old)
      if (d) place(d);
  }
  std::vector<std::uint64_t> slots_;
  std::size_t used_ = 0;
};

// Distinct children a level's parents had, to size the next level's digest set: the largest
// ratio seen so far, times a quarter more (the set grows when a level needs more).
class Fanout {
 public:
  void record(std::size_t parents, std::size_t children) {
    if (parents > 0)
      ratio_ = std::max(ratio_, static_cast<double>(children) / static_cast<double>(parents));
  }
  std::size_t expect(std::size_t parents) const {
    return static_cast<std::size_t>(static_cast<double>(parents) * ratio_ * 1.25) + 64;
  }

 private:
  double ratio_ = 4;
};

// Index of a level's positions for exact lookups (pairs): slots hold position indices.
template <int W>
class LevelIndex {
 public:
  using Pos = Bits<W>;
  explicit LevelIndex(const std::vector<Pos>& level) : level_(level) {
    slots_.assign(std::bit_ceil(std::max<std::size_t>(2 * level.size(), 16)), kEmpty);
    std::size_t mask = slots_.size() - 1;
    for (std::size_t k = 0; k < level.size(); ++k) {
      std::size_t i = level[k].digest() & mask;
      while (slots_[i] != kEmpty) i = (i + 1) & mask;
      slots_[i] = static_cast<std::uint32_t>(k);
    }
  }
  // Index of p in the level, or -1.
  long find(const Pos& p) const {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = p.digest() & mask; slots_[i] != kEmpty; i = (i + 1) & mask)
      if (level_[slots_[i]] == p) return static_cast<long>(slots_[i]);
    return -1;
  }

 private:
  static constexpr std::uint32_t kEmpty = ~std::uint32_t{0};
  const std::vector<Pos>& level_;
  std::vector<std::uint32_t> slots_;
};

// How a survivor was reached: its parent's index in the previous level and the jump.
struct Link {
  std::uint32_t parent;
  std::uint32_t jump;
};

template <int W>
struct Side {
  using Pos = Bits<W>;
  std::vector<Pos> level;                 // survivors of the deepest level
  std::vector<std::vector<Link>> links;   // links[d][i]: how survivor i of level d + 1 was reached
  std::vector<std::pair<Pos, int>> need;  // per peg type: mask, pegs this side's target keeps
  int target = 0;                         // levels this side grows
  int depth() const { return static_cast<int>(links.size()); }
  // Jumps from the root to survivor i of level d.
  std::vector<int> path(int d, std::size_t i) const {
    std::vector<int> jumps;
    for (int k = d - 1; k >= 0; --k) {
      const Link& l = links[static_cast<std::size_t>(k)][i];
      jumps.push_back(static_cast<int>(l.jump));
      i = l.parent;
    }
    std::reverse(jumps.begin(), jumps.end());
    return jumps;
  }
};

// What stops an attempt, and who hears of its progress.
struct AttemptControl {
  const Control* control = nullptr;  // the search's: deadline, cancel, pause
  // Portfolio: the lowest index of an attempt that succeeded; attempts above it give up.
  std::atomic<int>* found_by = nullptr;
  int index = 0;
  Clock::time_point start;
  const std::function<void(const Progress&)>* progress = nullptr;  // thread 0 only
  Clock::time_point* next_report = nullptr;  // with progress: when to report next, over attempts
  // Positions for the progress rate: those of earlier attempts, and one slot per thread where
  // each attempt publishes its own count when it polls.
  std::uint64_t nodes_before = 0;
  std::vector<std::atomic<std::uint64_t>>* counts = nullptr;
};

// Polls an attempt's stop conditions (cancel, a lower-numbered attempt's success, the deadline)
// and publishes its position count; the attempt with a progress callback reports about twice a
// second once the search has run for a second, `fill` setting the search's own fields. True when
// the attempt should stop.
template <class Fill>
bool poll(const AttemptControl& ctl, std::uint64_t expanded, Fill&& fill) {
  if (ctl.counts)
    (*ctl.counts)[static_cast<std::size_t>(ctl.index)].store(expanded, std::memory_order_relaxed);
  if (ctl.control->checkpoint()) return true;
  if (ctl.found_by && ctl.found_by->load(std::memory_order_relaxed) < ctl.index) return true;
  const auto now = Clock::now();
  if (ctl.progress && *ctl.progress && now >= *ctl.next_report) {
    *ctl.next_report = now + std::chrono::milliseconds(500);
    Progress pr;
    pr.nodes = ctl.nodes_before;
    if (ctl.counts)
      for (const auto& c : *ctl.counts) pr.nodes += c.load(std::memory_order_relaxed);
    else
      pr.nodes += expanded;
    pr.seconds = std::chrono::duration<double>(now - ctl.start).count();
    fill(pr);
    (*ctl.progress)(pr);
  }
  if (ctl.index == 0 && ctl.control->wants_progress()) {
    Progress pr;
    fill(pr);
    ProgressReport rep;
    rep.phase = "beam";
    rep.positions = ctl.nodes_before + expanded;
    rep.level = pr.level;
    ctl.control->report(rep);
  }
  return false;
}

struct Outcome {
  bool found = false;
  bool stopped = false;
  std::vector<Jump> moves;  // start to goal
  std::uint64_t pairs = 0;
  std::uint64_t expanded = 0;
};

template <int W>
class Attempt {
 public:
  using Pos = Bits<W>;

  Attempt(const Geometry<W>& g, const Pos& start, const Pos& goal, bool report,
          std::size_t capacity, std::uint64_t seed, const AttemptControl& ctl)
      : g_(g), report_(report), capacity_(capacity), seed_(seed), ctl_(ctl) {
    const Board& b = g.board();
    for (const Jump& j : b.jumps()) jbits_.push_back({b.bit(j.from), b.bit(j.over), b.bit(j.to)});
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
    auto insert = [&](std::uint32_t parent, std::uint32_t jump, const Pos& q) {
      if (2 * (used + 1) > table.size()) {
        std::vector<Entry> old(table.size() * 2, Entry{0, 0, 0});
        old.swap(table);
        for (const Entry& e : old)
          if (e.digest) {
            std::size_t mask = table.size() - 1, k = e.digest & mask;
            while (table[k].digest) k = (k + 1) & mask;
            table[k] = e;
          }
      }
      std::uint64_t d = g_.complement(q).digest();
      if (d == 0) d = 1;
      std::size_t mask = table.size() - 1, k = d & mask;
      for (; table[k].digest; k = (k + 1) & mask)
        if (table[k].digest == d) return;  // the same position reached twice
      table[k] = {d, parent, jump};
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
    return poll(ctl_, out_.expanded, [&](Progress& pr) {
      pr.level = a_.depth() + b_.depth();
      pr.levels = total_;
      pr.capacity = capacity_;
      pr.pairs = out_.pairs;
      pr.method = report_ ? "report" : "meet";
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
      avg = beam_detail::average_board(y.level);
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
    for (std::size_t i = 0; i < children_.size(); ++i) {
      if ((i & 0xFFFF) == 0 && stop_requested()) {
        out_.stopped = true;
        return false;
      }
      const Child& c = children_[i];
      next.push_back(x.level[c.parent] ^ g_.jump_mask(static_cast<int>(c.jump)));
      links.push_back({c.parent, c.jump});
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

// ---------------------------------------------------------------------------------------------
// Forward beam ("sweep"): one capacity-limited breadth-first search from the start, survivors
// chosen by a compactness cost, finished by a depth-first endgame. No meeting is needed, so it
// suits "one peg anywhere" and single-hole goals on boards where the bidirectional meet starves,
// and, run on the reversed problem, whole-position goals from a start with few holes.

// Weights of the compactness cost (lower is better); see SweepTables::cost.
struct SweepWeights {
  int boundary = 2;  // per adjacent (peg, empty hole) pair on the board
  int edge = 2;      // per (peg, off-board) pair: pegs on the rim are the hardest to remove
  int isolated = 8;  // per peg with no peg beside it
  int goal = 1;      // per peg and lattice step from the nearest goal peg (not for "any")
  int endgame = 18;  // pegs (above the goal's) at which the depth-first endgame takes over
};

// Board tables for the cost, by layout bit: neighbours, off-board counts and, per jump, the
// holes and adjacent pairs whose terms a jump can change. Built once per search.
template <int W>
struct SweepTables {
  using Pos = Bits<W>;
  SweepWeights w;
  std::vector<std::array<std::int16_t, 8>> nbr;  // per bit: neighbour bits, -1 after the last
  std::vector<std::int32_t> peg_cost;            // per bit: edge and goal terms of a peg there
  std::vector<std::array<int, 3>> jbits;         // per jump: from, over, to bits
  // Per jump: holes whose isolation may change (from, over, to and their neighbours) and the
  // adjacent pairs that touch from, over or to, each listed once.
  std::vector<std::vector<std::int16_t>> touched;
  std::vector<std::vector<std::array<std::int16_t, 2>>> pairs;
  std::vector<std::uint64_t> zjump;  // per jump: XOR of the Zobrist keys of its three bits

  // goal_holes: the holes of the target's pegs (empty: no goal term).
  SweepTables(const Geometry<W>& g, const SweepWeights& weights, const std::vector<int>& goal_holes)
      : w(weights) {
    const Board& b = g.board();
    nbr.assign(W, {-1, -1, -1, -1, -1, -1, -1, -1});
    peg_cost.assign(W, 0);
    for (int h = 0; h < b.size(); ++h) {
      const int bit = b.bit(h);
      int n = 0, off = 0;
      for (const Coord& d : b.directions()) {
        auto o = b.at({b.coord(h).r + d.r, b.coord(h).c + d.c});
        if (o)
          nbr[static_cast<std::size_t>(bit)][static_cast<std::size_t>(n++)] =
              static_cast<std::int16_t>(b.bit(*o));
        else
          ++off;
      }
      std::int32_t c = w.edge * off;
      if (!goal_holes.empty() && w.goal) {
        int nearest = std::numeric_limits<int>::max();
        for (int t : goal_holes) nearest = std::min(nearest, lattice_distance(b, h, t));
        c += w.goal * nearest;
      }
      peg_cost[static_cast<std::size_t>(bit)] = c;
    }
    std::vector<std::uint64_t> z(W);
    for (int i = 0; i < W; ++i) z[static_cast<std::size_t>(i)] = mix64(0x5EED0000ull + i);
    for (const Jump& j : b.jumps()) {
      std::array<int, 3> t = {b.bit(j.from), b.bit(j.over), b.bit(j.to)};
      jbits.push_back(t);
      zjump.push_back(z[static_cast<std::size_t>(t[0])] ^ z[static_cast<std::size_t>(t[1])] ^
                      z[static_cast<std::size_t>(t[2])]);
      std::vector<std::int16_t> hs;
      std::vector<std::array<std::int16_t, 2>> ps;
      for (int x : t) {
        hs.push_back(static_cast<std::int16_t>(x));
        for (std::int16_t y : nbr[static_cast<std::size_t>(x)]) {
          if (y < 0) break;
          hs.push_back(y);
          std::array<std::int16_t, 2> e = {static_cast<std::int16_t>(std::min<int>(x, y)),
                                           static_cast<std::int16_t>(std::max<int>(x, y))};
          ps.push_back(e);
        }
      }
      std::sort(hs.begin(), hs.end());
      hs.erase(std::unique(hs.begin(), hs.end()), hs.end());
      std::sort(ps.begin(), ps.end());
      ps.erase(std::unique(ps.begin(), ps.end()), ps.end());
      touched.push_back(std::move(hs));
      pairs.push_back(std::move(ps));
    }
  }

  // Steps between two holes on the board's lattice (hexagonal distance on the triangular one).
  static int lattice_distance(const Board& b, int u, int v) {
    const int dr = b.coord(u).r - b.coord(v).r, dc = b.coord(u).c - b.coord(v).c;
    if (b.lattice() == Lattice::Triangular)
      return (dr >= 0) == (dc >= 0) ? std::max(std::abs(dr), std::abs(dc))
                                    : std::abs(dr) + std::abs(dc);
    return std::abs(dr) + std::abs(dc);
  }

  bool isolated(const Pos& p, int bit) const {
    if (!p.test(bit)) return false;
    for (std::int16_t y : nbr[static_cast<std::size_t>(bit)]) {
      if (y < 0) break;
      if (p.test(y)) return false;
    }
    return true;
  }

  // The whole cost of p: boundary pairs, rim and goal terms of its pegs, isolated pegs.
  std::int32_t cost(const Pos& p) const {
    std::int32_t c = 0;
    for_each_bit(p, [&](int x) {
      c += peg_cost[static_cast<std::size_t>(x)];
      bool alone = true;
      for (std::int16_t y : nbr[static_cast<std::size_t>(x)]) {
        if (y < 0) break;
        if (p.test(y))
          alone = false;
        else
          c += w.boundary;
      }
      if (alone) c += w.isolated;
    });
    return c;
  }

  // cost(child) - cost(parent), where child = parent ^ jump_mask(j), from the touched terms.
  std::int32_t delta(const Pos& parent, const Pos& child, int j) const {
    const auto& t = jbits[static_cast<std::size_t>(j)];
    std::int32_t d = peg_cost[static_cast<std::size_t>(t[2])] -
                     peg_cost[static_cast<std::size_t>(t[0])] -
                     peg_cost[static_cast<std::size_t>(t[1])];
    for (const auto& e : pairs[static_cast<std::size_t>(j)])
      d += w.boundary *
           ((child.test(e[0]) != child.test(e[1])) - (parent.test(e[0]) != parent.test(e[1])));
    if (w.isolated)
      for (std::int16_t x : touched[static_cast<std::size_t>(j)])
        d += w.isolated * (isolated(child, x) - isolated(parent, x));
    return d;
  }
};

// What the forward beam aims at: an exact position, or one peg on any hole of `allowed`.
template <int W>
struct SweepGoal {
  Bits<W> exact, allowed;
  bool is_exact = true;
  int pegs = 1;
  std::vector<std::pair<Bits<W>, int>> need;  // per peg type: mask, pegs the goal keeps
  Bits<W> any_type;                           // "any" goals: holes of a type that may finish

  bool reached(const Bits<W>& p) const { return is_exact ? p == exact : (p & allowed).any(); }
  bool feasible(const Bits<W>& p) const {
    for (const auto& [mask, n] : need)
      if ((p & mask).count() < n) return false;
    return is_exact || (p & any_type).any();
  }
};

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
    return poll(ctl_, out_.expanded, [&](Progress& pr) {
      pr.level = static_cast<int>(links_.size());
      pr.levels = total_;
      pr.capacity = capacity_;
      pr.method = "sweep";
    });
  }

  // Jumps from the start to survivor i of level d.
  std::vector<int> path(int d, std::size_t i) const {
    std::vector<int> jumps;
    for (int k = d - 1; k >= 0; --k) {
      const Link& l = links_[static_cast<std::size_t>(k)][i];
      jumps.push_back(static_cast<int>(l.jump));
      i = l.parent;
    }
    std::reverse(jumps.begin(), jumps.end());
    return jumps;
  }

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
    for (std::size_t i = 0; i < children_.size(); ++i) {
      if ((i & 0xFFFF) == 0 && stop_requested()) {
        out_.stopped = true;
        return false;
      }
      const Child& c = children_[i];
      const int j = static_cast<int>(c.jump);
      next.push_back(level_[c.parent] ^ g_.jump_mask(j));
      nhash.push_back(hash_[c.parent] ^ t_.zjump[static_cast<std::size_t>(j)]);
      ncost.push_back(-beam_detail::score_of_key(c.key));
      links.push_back({c.parent, c.jump});
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

// Final positions to aim at: the goal's, or for "one peg anywhere" every hole the position class
// and peg types allow, one per orbit of the symmetries that fix the start.
std::vector<HoleSet> goal_positions(const Problem& p) {
  const Board& board = *p.board;
  std::vector<HoleSet> out;
  auto single = [&](int h) {
    HoleSet s(board.size());
    s.set(h);
    return s;
  };
  if (p.goal.kind == Goal::Kind::Position) return {p.goal.position};
  if (p.goal.kind == Goal::Kind::Hole) return {single(p.goal.hole)};
  for (int h : final_holes(board, p.start)) out.push_back(single(h));
  return out;
}

template <int W>
SolveResult beam_width(const Problem& p, const SolveOptions& o, Clock::time_point t0) {
  const Board& board = *p.board;
  const Geometry<W> g(board);
  const bool report = o.algorithm == Algorithm::BeamReport;
  const std::vector<HoleSet> goals = goal_positions(p);
  SolveResult r;
  r.width = W;
  BeamStats stats;
  if (goals.empty()) {
    r.reason = "beam search: no hole can hold the last peg";
    r.beam = stats;
    return r;
  }
  // The search's control: the caller's, with the options' time limit and flag added.
  Control control(o.control);
  control.set_time_limit(o.time_limit);
  control.watch(o.cancel, StopReason::Cancelled);
  AttemptControl ctl;
  ctl.control = &control;
  ctl.start = t0;
  Clock::time_point next_report = t0 + kQuiet;
  ctl.next_report = &next_report;
  const Bits<W> start = g.to_bits(p.start);
  // The portfolio runs one seed per thread, by default on at most two of the cores.
  const int threads = report ? 1 : (o.threads > 0 ? o.threads : std::min(2, default_threads()));
  WorkerPool team(threads);  // the attempts' threads, made once
  const int levels = std::max(1, p.start.count() - goals[0].count());
  // Memory per unit of capacity and thread: a link per level, two levels of positions, and the
  // children of a level (about 32 per survivor at 16 bytes, plus the digest set).
  const std::size_t per_capacity =
      static_cast<std::size_t>(levels) * sizeof(Link) + 2 * sizeof(Bits<W>) + 32 * 32;
  const std::size_t budget = control.memory_budget();
  const std::size_t bytes = budget ? std::min(o.memory_limit, budget) : o.memory_limit;
  const std::size_t max_capacity =
      std::max<std::size_t>(1000, bytes / per_capacity / static_cast<std::size_t>(threads));
  // The improved search runs the forward beam (Sweep), from capacity 32; for a goal that is a
  // whole position, where a forward beam has little to aim at, each sweep is followed by the
  // bidirectional meet, from capacity 1000 (--capacity sets both). Then the capacities double.
  // BeamMethod::Sweep runs the sweep alone, BeamMethod::Meet the meet alone.
  const bool use_sweep = !report && o.beam_method != BeamMethod::Meet;
  const bool meet_too =
      use_sweep && o.beam_method == BeamMethod::Auto && p.goal.kind == Goal::Kind::Position;
  std::size_t capacity = o.capacity  ? o.capacity
                         : report    ? kReportCapacity
                         : use_sweep ? kSweepCapacity
                                     : kMeetCapacity;
  std::size_t meet_capacity = o.capacity ? o.capacity : kMeetCapacity;
  // A capacity the memory budget cannot hold is clamped to the largest it holds, and says so.
  if (capacity > max_capacity || meet_capacity > max_capacity) {
    stats.clamped_from = std::max(capacity, meet_capacity);
    capacity = std::min(capacity, max_capacity);
    meet_capacity = std::min(meet_capacity, max_capacity);
  }
  // The sweep thrives on contracting to few pegs. For a whole-position goal with more pegs than
  // the start has holes, it runs on the reversed problem, from the complement of the goal to the
  // complement of the start (a jump on the complemented board is the same jump backwards), and
  // its moves are then played in reverse order.
  SweepGoal<W> sgoal;
  std::optional<SweepTables<W>> tables;
  Bits<W> sweep_start = start;
  bool reverse = false;
  if (use_sweep) {
    std::vector<int> goal_holes;
    if (p.goal.kind == Goal::Kind::Any) {
      sgoal.is_exact = false;
      sgoal.allowed = g.to_bits(admissible_finals(board, p.start));
      for (const Bits<W>& m : g.type_masks())
        if ((m & sgoal.allowed).any()) sgoal.any_type |= m;
    } else {
      sgoal.exact = g.to_bits(goals[0]);
      if (p.goal.kind == Goal::Kind::Position &&
          g.complement(start).count() < sgoal.exact.count()) {
        reverse = true;
        sweep_start = g.complement(sgoal.exact);
        sgoal.exact = g.complement(start);
      }
      sgoal.pegs = sgoal.exact.count();
      for (const Bits<W>& m : g.type_masks())
        if ((sgoal.exact & m).any()) sgoal.need.push_back({m, (sgoal.exact & m).count()});
      for (int h = 0; h < board.size(); ++h)
        if (sgoal.exact.test(board.bit(h))) goal_holes.push_back(h);
    }
    tables.emplace(g, SweepWeights{}, goal_holes);
  }

  for (int attempt = 0, meet_round = 0;; ++attempt) {
    const bool sweep = use_sweep && (!meet_too || attempt % 2 == 0);
    std::atomic<int> found_by{threads};
    std::vector<Outcome> outs(static_cast<std::size_t>(threads));
    std::vector<std::atomic<std::uint64_t>> counts(static_cast<std::size_t>(threads));
    auto work = [&](int t) {
      AttemptControl c = ctl;
      c.found_by = &found_by;
      c.index = t;
      c.progress = t == 0 ? &o.progress : nullptr;
      c.nodes_before = r.nodes;
      c.counts = &counts;
      const std::uint64_t seed = o.seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(t);
      Outcome out;
      if (sweep) {
        Sweep<W> s(g, *tables, sgoal, sweep_start, capacity, seed, c);
        out = s.run();
        if (reverse) std::reverse(out.moves.begin(), out.moves.end());
      } else {
        const HoleSet& goal =
            goals[static_cast<std::size_t>(meet_round * threads + t) % goals.size()];
        Attempt<W> a(g, start, g.to_bits(goal), report, report ? capacity : meet_capacity, seed, c);
        out = a.run();
      }
      if (out.found) {
        int cur = found_by.load();
        while (t < cur && !found_by.compare_exchange_weak(cur, t)) {
        }
      }
      outs[static_cast<std::size_t>(t)] = std::move(out);
    };
    team.run(threads, work);
    if (!sweep) ++meet_round;

    ++stats.attempts;
    stats.capacity = sweep || report ? capacity : meet_capacity;
    stats.method = report ? "report" : sweep ? "sweep" : "meet";
    const int winner = found_by.load();
    // Threads above the winner stop at a moment that depends on timing: leave them out of the
    // count so that it (and `pegsol bench`'s signature) repeats run to run.
    for (int t = 0; t < threads && t <= winner; ++t)
      r.nodes += outs[static_cast<std::size_t>(t)].expanded;
    if (winner < threads) {
      const Outcome& out = outs[static_cast<std::size_t>(winner)];
      r.status = Status::Solved;
      r.moves = out.moves;
      stats.pairs = out.pairs;
      break;
    }
    stats.pairs = 0;
    const bool stopped =
        std::any_of(outs.begin(), outs.end(), [](const Outcome& x) { return x.stopped; });
    const std::string how = report ? "beam search (the report's rule)" : "beam search";
    if (stopped) {
      r.stop = control.stop_reason();
      const std::string why = r.stop == StopReason::Time   ? "time limit"
                              : r.stop == StopReason::None ? "stopped"
                                                           : std::string(stop_reason_name(r.stop));
      r.reason = how + " stopped (" + why + ")" + " at capacity " + std::to_string(stats.capacity) +
                 " after " + std::to_string(r.nodes) +
                 " positions; no solution found yet (the search is incomplete: this proves "
                 "nothing)";
      break;
    }
    if (report) {
      r.reason = how + " found no complement pair at capacity " + std::to_string(capacity) + " (" +
                 std::to_string(r.nodes) +
                 " positions); the search is incomplete: this proves nothing, a larger "
                 "--capacity or another --seed may succeed";
      break;
    }
    if (meet_too && sweep) continue;  // the meet follows
    const std::size_t reached = meet_too ? std::max(capacity, meet_capacity) : capacity;
    if (reached * 2 > max_capacity) {
      r.stop = StopReason::Memory;
      r.reason = how + " found no solution up to capacity " + std::to_string(reached) +
                 ", the most the memory limit allows (" + std::to_string(r.nodes) +
                 " positions); the search is incomplete: this proves nothing";
      break;
    }
    capacity *= 2;
    meet_capacity *= 2;
  }
  r.beam = stats;
  return r;
}

}  // namespace

SolveResult beam_solve(const Problem& p, const SolveOptions& o) {
  if (o.algorithm == Algorithm::Dfs)
    throw std::invalid_argument("beam_solve: not a beam algorithm");
  const auto t0 = Clock::now();
  return with_width(p.board->width(),
                    [&](auto w) { return beam_width<decltype(w)::value>(p, o, t0); });
}

namespace beam_detail {

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

#define PEGSOL_BEAM_INSTANTIATE(W)                                              \
  template std::int32_t sweep_cost<W>(const Board&, const Bits<W>&, int);       \
  template std::int32_t sweep_delta<W>(const Board&, const Bits<W>&, int, int); \
  template Bits<W> average_board<W>(const std::vector<Bits<W>>&);
PEGSOL_BEAM_INSTANTIATE(64)
PEGSOL_BEAM_INSTANTIATE(128)
PEGSOL_BEAM_INSTANTIATE(256)
PEGSOL_BEAM_INSTANTIATE(512)
PEGSOL_BEAM_INSTANTIATE(1024)
#undef PEGSOL_BEAM_INSTANTIATE

}  // namespace beam_detail

}  // namespace pegsol
