// SPDX-License-Identifier: MIT
// Streaming solutions (or complete games) one at a time: depth first, jumps in index order.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "../core/layout.hpp"
#include "../core/probe.hpp"
#include "../core/widths.hpp"
#include "engine.hpp"
#include "pegsol/error.hpp"
#include "pegsol/invariants.hpp"

namespace pegsol {

namespace {

// The positions known to reach no goal: an open-addressing set (linear probing, core/probe.hpp;
// an empty position marks a free slot, and a dead end always has pegs). One allocation, so that
// it goes at once when the enumeration stops; it grows by doubling, polling the control while it
// copies, and only while the old and the new slots fit the memory budget.
template <class Pos>
class DeadEnds {
 public:
  bool contains(const Pos& x) const {
    if (slots_.empty()) return false;
    return !empty(slots_[probe_slot(slots_.data(), mask_, x.digest(), empty,
                                    [&](const Pos& y) { return y == x; })]);
  }

  // Adds x (not in the set, not empty). Throws Stopped when the control stops during a growth,
  // or for the memory budget (0: none) when the grown set would not fit it.
  void insert(const Pos& x, const Control& ctl, std::size_t budget) {
    if (4 * (size_ + 1) > 3 * slots_.size()) grow(ctl, budget);
    slots_[probe_empty(slots_.data(), mask_, x.digest(), empty)] = x;
    ++size_;
  }

 private:
  void grow(const Control& ctl, std::size_t budget) {
    const std::size_t n = slots_.empty() ? std::size_t{1} << 12 : 2 * slots_.size();
    if (budget && (n + slots_.size()) * sizeof(Pos) > budget) throw Stopped(StopReason::Memory);
    ctl.throw_if_stopped();
    std::vector<Pos> old(n);
    old.swap(slots_);
    mask_ = n - 1;
    std::size_t k = 0;
    rehash_into(
        old.data(), old.size(), slots_.data(), mask_, empty,
        [](const Pos& x) { return x.digest(); },
        [&] {
          if ((++k & 65535) == 0) ctl.throw_if_stopped();
        });
  }

  static bool empty(const Pos& x) { return x.none(); }

  std::vector<Pos> slots_;
  std::size_t mask_ = 0, size_ = 0;
};

template <int W>
class Enumerator {
 public:
  using Pos = Bits<W>;

  Enumerator(const Problem& p, const EnumerateOptions& o,
             const std::function<bool(const std::vector<Jump>&)>& emit)
      : p_(p), o_(o), emit_(emit), b_(*p.board), g_(*p.board), ctl_(o.control) {
    budget_ = ctl_.memory_budget();
    legal_.resize(static_cast<std::size_t>(b_.size()) + 1);
    goal_pegs_ = goal_pegs(p);
    if (p.goal.kind == Goal::Kind::Position) goal_pos_ = g_.to_bits(p.goal.position);
    if (p.goal.kind == Goal::Kind::Hole) goal_pos_ = Pos::single(layout(b_).bit(p.goal.hole));
  }

  EnumerateResult run() {
    EnumerateResult r;
    try {
      search(g_.to_bits(p_.start), 0);
    } catch (const Stopped& s) {
      r.stop = s.reason;
    } catch (const std::bad_alloc&) {
      r.stop = StopReason::Memory;  // refused before the budget was reached; keeps the count
    }
    r.emitted = emitted_;
    return r;
  }

 private:
  bool is_goal(const Pos& x) const {
    return p_.goal.kind == Goal::Kind::Any ? x.count() == 1 : x == goal_pos_;
  }

  // Returns true when some sequence from x reached the goal (or, for games, always). `forbid`
  // (distinct mode) holds the jumps, as bits over x's legal jumps in index order, that would
  // break the lexicographically least order (see census.cpp, distinct()).
  bool search(const Pos& x, std::uint64_t forbid) {
    if (stop_) return true;
    if ((++nodes_ & 4095) == 0) {
      ctl_.throw_if_stopped();
      ProgressReport pr;
      pr.done = emitted_;
      pr.total = o_.limit;
      pr.phase = "solutions";
      pr.positions = nodes_;
      ctl_.report(pr);
    }
    // The legal jumps, in this depth's buffer (made once: a game has fewer jumps than holes).
    std::vector<int>& legal = legal_[path_.size()];
    legal.clear();
    g_.for_each_jump(x, [&](int j) { legal.push_back(j); });
    std::sort(legal.begin(), legal.end());
    if (o_.games ? legal.empty() : is_goal(x)) {
      emit();
      return true;
    }
    if (!o_.games && (x.count() <= goal_pegs_ || dead_.contains(x))) return false;
    if (o_.distinct && legal.size() > 64)
      throw CensusError(
          "a position has more than 64 legal jumps; the distinct enumeration "
          "(EnumerateOptions::distinct) cannot order them");
    bool any = false;
    for (std::size_t i = 0; i < legal.size() && !stop_; ++i) {
      if ((forbid >> i) & 1) continue;
      int c = legal[i];
      const Pos& mc = g_.jump_mask(c);
      Pos y = x ^ mc;
      std::uint64_t f = 0;
      if (o_.distinct) {
        std::size_t q = 0;
        g_.for_each_jump(y, [&](int a) { kids_.push_back(a); });
        std::sort(kids_.begin(), kids_.end());
        for (int a : kids_) {
          if ((g_.jump_mask(a) & mc).none()) {
            bool fb = a < c;
            if (!fb) {
              auto it = std::lower_bound(legal.begin(), legal.end(), a);
              fb = (forbid >> (it - legal.begin())) & 1;
            }
            if (fb) f |= std::uint64_t{1} << q;
          }
          ++q;
        }
        kids_.clear();
      }
      path_.push_back(b_.jumps()[static_cast<std::size_t>(c)]);
      any |= search(y, f);
      path_.pop_back();
    }
    // With nothing forbidden every continuation class is open, so "none found" means dead.
    // The dead-end set is all the memory the enumeration holds.
    if (!any && !stop_ && forbid == 0 && !o_.games) dead_.insert(x, ctl_, budget_);
    return any;
  }

  void emit() {
    ++emitted_;
    if (!emit_(path_) || (o_.limit && emitted_ >= o_.limit)) stop_ = true;
  }

  const Problem& p_;
  const EnumerateOptions& o_;
  const std::function<bool(const std::vector<Jump>&)>& emit_;
  const Board& b_;
  Geometry<W> g_;
  Pos goal_pos_;
  int goal_pegs_ = 1;
  std::vector<Jump> path_;
  std::vector<int> kids_;
  std::vector<std::vector<int>> legal_;  // by depth
  DeadEnds<Pos> dead_;
  Control ctl_;
  std::size_t budget_ = 0;  // bytes for the dead ends (0: no limit)
  std::uint64_t emitted_ = 0, nodes_ = 0;
  bool stop_ = false;
};

template <int W>
EnumerateResult run_enumerate(const Problem& p, const EnumerateOptions& o,
                              const std::function<bool(const std::vector<Jump>&)>& emit) {
  Enumerator<W> e(p, o, emit);
  return e.run();
}

}  // namespace

EnumerateResult enumerate_solutions(const Problem& p, const EnumerateOptions& o,
                                    const std::function<bool(const std::vector<Jump>&)>& emit) {
  check_problem(p);
  if (!emit) throw InputError("emit", "no function to call with the solutions");
  if (p.board->width() > 128)
    throw InputError("solutions: board " + p.board->name() +
                     " is wider than the 128-bit layouts this command handles");
  // Proofs first, as solve() does: an impossible problem is not searched through.
  if (!o.games)
    if (std::optional<std::string> why = impossibility(p)) {
      EnumerateResult r;
      r.reason = std::move(*why);
      return r;
    }
  return with_width<128>(p.board->width(),
                         [&](auto w) { return run_enumerate<decltype(w)::value>(p, o, emit); });
}

}  // namespace pegsol
