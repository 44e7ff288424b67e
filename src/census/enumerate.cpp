// Streaming solutions (or complete games) one at a time: depth first, jumps in index order.
#include <algorithm>
#include <unordered_set>

#include "../core/widths.hpp"
#include "engine.hpp"
#include "pegsol/error.hpp"

namespace pegsol {

namespace {

template <int W>
class Enumerator {
 public:
  using Pos = Bits<W>;

  Enumerator(const Problem& p, const EnumerateOptions& o,
             const std::function<bool(const std::vector<Jump>&)>& emit)
      : p_(p), o_(o), emit_(emit), b_(*p.board), g_(*p.board), ctl_(o.control) {
    ctl_.watch(o.cancel, StopReason::Cancelled);
    goal_pegs_ = goal_pegs(p);
    if (p.goal.kind == Goal::Kind::Position) goal_pos_ = g_.to_bits(p.goal.position);
    if (p.goal.kind == Goal::Kind::Hole) goal_pos_ = Pos::single(b_.bit(p.goal.hole));
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
  struct Hash {
    std::size_t operator()(const Pos& x) const { return x.digest(); }
  };

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
      // The dead-end set is all the memory the enumeration holds: a node and a bucket each.
      const std::size_t budget = ctl_.memory_budget();
      if (budget && dead_.size() * (sizeof(Pos) + 32) > budget) throw Stopped(StopReason::Memory);
      ProgressReport pr;
      pr.done = emitted_;
      pr.total = o_.limit;
      pr.phase = "solutions";
      pr.positions = nodes_;
      ctl_.report(pr);
    }
    std::vector<int> legal;
    g_.for_each_jump(x, [&](int j) { legal.push_back(j); });
    std::sort(legal.begin(), legal.end());
    if (o_.games ? legal.empty() : is_goal(x)) {
      emit();
      return true;
    }
    if (!o_.games && (x.count() <= goal_pegs_ || dead_.count(x))) return false;
    if (o_.distinct && legal.size() > 64)
      throw CensusError("a position has more than 64 legal jumps; --distinct cannot order them");
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
    if (!any && !stop_ && forbid == 0 && !o_.games) dead_.insert(x);
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
  std::unordered_set<Pos, Hash> dead_;
  Control ctl_;
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
  if (p.board->width() > 128)
    throw InputError("solutions: board " + p.board->name() +
                     " is wider than the 128-bit layouts this command handles");
  return with_width<128>(p.board->width(),
                         [&](auto w) { return run_enumerate<decltype(w)::value>(p, o, emit); });
}

}  // namespace pegsol
