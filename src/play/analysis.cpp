// SPDX-License-Identifier: MIT
// Position analysis (include/pegsol/analysis.hpp): a memoised count of every jump sequence from a
// position for boards of up to 64 bits, and solve() for what the count cannot reach.
//
// Large because the analyzer is one idea: one verdict for a position, settled by the cheapest of
// several means (a remembered solution, short searches, the census look-ups, the memoised count,
// the search to its end), which all read and feed the state of one Analyzer::Impl (the memo, what
// the searches learnt, the look-ups); apart, each part would reach into that state.
#include "pegsol/analysis.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "../core/checks.hpp"
#include "../core/geometry.hpp"
#include "../core/layout.hpp"
#include "../core/pagodas.hpp"
#include "../solve/dfs.hpp"
#include "explain.hpp"
#include "pegsol/error.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/path_index.hpp"
#include "settled.hpp"

namespace pegsol {

// Named, not anonymous: Analyzer::Impl (external linkage) holds Entry in its memo (gcc's
// -Wsubobject-linkage in unity builds).
namespace analysis_detail {

// What the count knows of one position: jump sequences to the goal and to one peg anywhere, and
// the layout bits a single last peg can end on.
struct Entry {
  Count goal = 0;
  Count one = 0;
  std::uint64_t ends = 0;
};

}  // namespace analysis_detail

namespace {

using analysis_detail::Entry;
using Pos = Bits<64>;

// The count gave up: its memo would pass the options' bound.
struct TooMany {};

void add(Count& a, Count b) {
  if (b > ~Count{0} - a) throw CensusError("analysis: a count overflows 128 bits");
  a += b;
}

// A control for one call: the caller's, with the options' time limit added.
struct CallControl {
  explicit CallControl(const AnalysisOptions& o) : ctl(o.control) {
    checks::seconds(o.time_limit, "AnalysisOptions::time_limit");
    checks::seconds(o.count_seconds, "AnalysisOptions::count_seconds");
    checks::seconds(o.beam_seconds, "AnalysisOptions::beam_seconds");
    checks::seconds(o.lookup_seconds, "AnalysisOptions::lookup_seconds");
    ctl.set_time_limit(o.time_limit);
  }
  Control ctl;
};

// The explanations' control: the call's, with a moment past its deadline (enough for the few
// small linear programs of boards up to 45 holes), and stopped by its cancel.
struct Words {
  explicit Words(const Control& call) : ctl(&call, Control::ParentDeadline::Ignore) {
    if (call.has_deadline()) ctl.set_time_limit(std::max(call.remaining_seconds(), 0.05));
  }
  Control ctl;
};

}  // namespace

struct Analyzer::Impl {
  BoardPtr board;
  Goal goal;
  int goal_pegs = 1;
  std::optional<Geometry<64>> geo;  // boards whose layout fits 64 bits
  Pos goal_bits;                    // Goal::Position and Goal::Hole, in the layout
  mutable std::mutex mutex;
  mutable std::unordered_map<std::uint64_t, Entry> memo;
  // The fewest pegs from which a count went over its bound (time or positions): positions with
  // as many pegs or more skip the count, which would only spend its time again.
  mutable int count_ceiling = 1 << 30;
  // Positions on a solution found by a search: the solution's next jump from each, so that a
  // player following it is answered without searching again.
  mutable std::unordered_map<std::string, int> known_goal, known_one;
  // The analyzer's own look-ups, built in the caller's thread, when the options name no cache.
  mutable std::unique_ptr<PathIndexCache> own_paths;
  // What the depth-first searches towards the goal and towards one peg anywhere learnt (failed
  // positions, pruning pagodas), kept across calls: a game's successive positions share most of
  // their subtrees, and a position proved lost settles every position after it.
  // At most memo_bytes of table each (Analyzer's constructor).
  explicit Impl(std::size_t memo_bytes) : memo_goal(memo_bytes), memo_one(memo_bytes) {}
  mutable solve_detail::DfsMemo memo_goal, memo_one;
  // The pagoda functions that proved a hole out of reach of a single last peg (one_peg_pagodas),
  // by hole: one that separates a position from that peg separates every position after it, so
  // a game's later positions are proved by a sum instead of linear programs.
  mutable std::vector<std::vector<Pagoda>> final_proofs;
  // The last position the proofs without search left open, towards the goal and towards one peg
  // (one_peg_pagodas, impossibility()): they depend on the position alone, so the searches of
  // one call that ask again are answered at once.
  mutable std::optional<HoleSet> unproved_goal, unproved_one;
  // The last position one_peg_pagodas() did not prove lost, and the holes its last peg could
  // still end on (those without a pagoda proof): the search towards one peg anywhere from there
  // aims at those alone, each with its tight pagodas (solve_detail::run_dfs).
  mutable std::optional<HoleSet> open_at;
  mutable HoleSet open_finals;

  // The census look-ups of a game from `start`: the index answering the goal, and the one
  // answering one peg anywhere (the same index when one census answers both), each null while
  // it is not built; `note` says how they answer or why they do not.
  struct Lookups {
    std::shared_ptr<const PathIndex> goal, one;
    std::string note;
  };

  PathIndexCache& cache_for(const AnalysisOptions& o) const {
    if (o.paths) return *o.paths;
    if (!own_paths) {
      PathIndexCache::Options co;
      co.background = false;
      co.build_memory = o.lookup_memory;
      co.build_seconds = o.lookup_seconds;
      own_paths = std::make_unique<PathIndexCache>(co);
    }
    return *own_paths;
  }

  // The problem whose index answers towards the goal (to_goal) or one peg anywhere.
  Problem lookup_problem(const HoleSet& start, bool to_goal) const {
    const Problem pg{board, start, goal};
    if (to_goal || PathIndex::answers_one_peg(pg)) return pg;
    return Problem{board, start, Goal{}};
  }

  // The look-ups from `start`: the goal's, and with `want_one` one peg anywhere's too. A shared
  // cache with a background thread builds there: one peg anywhere's, which a lost goal asks
  // next, is queued with the goal's. The analyzer's own, and a shared cache without a background
  // thread (the Python module's), build here, stopped by the call's cancel but not by its
  // deadline (the look-ups serve the calls after it; the cache's bounds limit them).
  Lookups lookups(const HoleSet& start, const AnalysisOptions& o, bool want_one,
                  const Control& call) const {
    Lookups l;
    if (!geo) {
      l.note = "no census look-up: the board's layout is wider than 64 bits";
      return l;
    }
    PathIndexCache& cache = cache_for(o);
    const bool background = cache.options().background;
    const Control build(&call, Control::ParentDeadline::Ignore);
    auto fetch = [&](const Problem& q, std::string* note) {
      return background ? cache.get(q, note) : cache.wait(q, note, &build);
    };
    const Problem pg{board, start, goal};
    l.goal = fetch(pg, &l.note);
    const bool two = !PathIndex::answers_one_peg(pg);
    std::string one_note = "not asked";
    if (!two)
      l.one = l.goal;
    else if (want_one || background)
      l.one = fetch(lookup_problem(start, false), &one_note);
    if (l.goal) {
      std::uint64_t kept = l.goal->kept();
      double seconds = l.goal->seconds();
      if (two && l.one) {
        kept += l.one->kept();
        seconds += l.one->seconds();
      }
      l.note = "census look-up: " + std::to_string(l.goal->positions()) +
               " positions on solution paths up to symmetry, " + std::to_string(kept) +
               " kept (built in " + std::to_string(static_cast<int>(seconds * 1000)) + " ms)";
      if (two && !l.one) l.note += "; towards one peg anywhere, " + one_note;
    }
    return l;
  }
  Problem problem(const Position& p, const Goal& g) const { return Problem{board, p.pegs(), g}; }

  bool is_goal(const Pos& x) const {
    switch (goal.kind) {
      case Goal::Kind::Any:
        return x.count() == 1;
      case Goal::Kind::Hole:
      case Goal::Kind::Position:
        return x == goal_bits;
    }
    return false;
  }

  // The entry of x, counted with the memo; throws Stopped or TooMany.
  Entry count(const Pos& x, const Control& ctl, std::size_t cap, std::uint64_t& expanded) const {
    const int c = x.count();
    if (c <= 1) {
      Entry e;
      if (c == 1) {
        e.one = 1;
        e.ends = x.w[0];
        e.goal = is_goal(x) ? 1 : 0;
      }
      return e;
    }
    auto it = memo.find(x.w[0]);
    if (it != memo.end()) return it->second;
    if ((++expanded & 1023) == 0) ctl.throw_if_stopped();
    if (memo.size() >= cap) throw TooMany{};
    Entry e;
    geo->for_each_jump(x, [&](int j) {
      Entry ch = count(x ^ geo->jump_mask(j), ctl, cap, expanded);
      add(e.goal, ch.goal);
      add(e.one, ch.one);
      e.ends |= ch.ends;
    });
    if (c == goal_pegs) e.goal = is_goal(x) ? 1 : 0;  // a goal of c pegs ends its paths here
    if (c < goal_pegs) e.goal = 0;
    memo.emplace(x.w[0], e);
    return e;
  }

  // The entry of a position whose count completed (memoised, or a leaf).
  Entry known(const Pos& x) const {
    std::uint64_t unused = 0;
    Control none;
    return count(x, none, ~std::size_t{0}, unused);
  }

  // A solution from x read off the memo: the first jump (in board order) that keeps a way to the
  // target open, until the target. to_goal: the goal; else one peg anywhere.
  std::vector<Jump> walk(Pos x, bool to_goal) const {
    std::vector<Jump> moves;
    for (;;) {
      if (to_goal ? (x.count() == goal_pegs && is_goal(x)) : x.count() == 1) return moves;
      int next = -1;
      geo->for_each_jump(x, [&](int j) {
        if (next >= 0) return;
        Entry e = known(x ^ geo->jump_mask(j));
        if ((to_goal ? e.goal : e.one) > 0) next = j;
      });
      if (next < 0) throw InternalError("analysis: the count lost its way");
      moves.push_back(board->jumps()[static_cast<std::size_t>(next)]);
      x ^= geo->jump_mask(next);
    }
  }

  // The answer the count gives for `p` towards `g` (the goal, or Any when !to_goal).
  SolvabilityAnswer from_count(const Position& p, const Entry& e, bool to_goal, const Goal& g,
                               const Control* ctl) const {
    SolvabilityAnswer a;
    const Count ways = to_goal ? e.goal : e.one;
    if (ways > 0) {
      a.verdict = Solvability::Solvable;
      a.solution = walk(geo->to_bits(p.pegs()), to_goal);
      Position q = p;
      for (const Jump& j : a.solution) q.apply(j);  // an illegal jump would be a bug
      if (!goal_reached(problem(p, g), q.pegs()))
        throw InternalError("analysis: the counted solution misses the target");
    } else {
      a.verdict = Solvability::NotSolvable;
      const Problem pr = problem(p, g);
      if (auto settled = play_detail::settled_without_search(pr, p))
        a.reason = settled->reason;
      else if (auto why = detail::impossibility(pr, ctl))
        a.reason = *why;
      else
        a.reason = "no solution exists (searched: every jump sequence from this position)";
    }
    return a;
  }

  // Remembers the positions along a found solution from p.
  void learn(std::unordered_map<std::string, int>& known_map, const Position& p,
             const std::vector<Jump>& solution) const {
    if (known_map.size() > 1'000'000) known_map.clear();
    Position q = p;
    for (const Jump& j : solution) {
      known_map[q.to_string()] = index_of(j);
      q.apply(j);
    }
  }

  int index_of(const Jump& j) const {
    const auto& js = board->jumps();
    for (std::size_t i = 0; i < js.size(); ++i)
      if (js[i] == j) return static_cast<int>(i);
    throw InternalError("analysis: a jump that is not the board's");
  }

  // The rest of a remembered solution from p, if p lies on one.
  std::optional<std::vector<Jump>> recall(const std::unordered_map<std::string, int>& known_map,
                                          const Position& p, const Goal& g) const {
    Position q = p;
    std::vector<Jump> moves;
    const Problem pr = problem(p, g);
    while (!goal_reached(pr, q.pegs())) {
      auto it = known_map.find(q.to_string());
      if (it == known_map.end()) return std::nullopt;
      const Jump& j = board->jumps()[static_cast<std::size_t>(it->second)];
      moves.push_back(j);
      q.apply(j);
    }
    return moves;
  }

  // How far search() goes: a depth-first search of a few positions, a short beam search (strong
  // where solutions are many, never "not solvable"), or solve()'s Auto to its end.
  struct Bound {
    std::uint64_t dfs_nodes;  // Dfs bounded to this many positions (0: not this; kComplete: none)
    double beam_seconds;      // Beam for this long (0: not this)
  };
  static constexpr std::uint64_t kComplete = ~std::uint64_t{0};  // Bound{0, 0}: beam, then Dfs

  // The depth-first search of p towards g under `ctl` (at most `nodes` positions; 0: none) with
  // the verdict's memo: is_solvable()'s answer (proofs without search first, the solution
  // replayed), from a search that starts where the earlier ones stopped learning.
  SolvabilityAnswer dfs(const Position& p, const Goal& g, bool to_goal, const Control& ctl,
                        std::uint64_t nodes) const {
    const Problem pr = problem(p, g);
    if (auto settled = play_detail::settled_without_search(pr, p)) return *settled;
    SolvabilityAnswer a;
    std::optional<HoleSet>& unproved = to_goal ? unproved_goal : unproved_one;
    if (unproved != p.pegs()) {
      if (auto why = detail::impossibility(pr, &ctl)) {
        a.verdict = Solvability::NotSolvable;
        a.reason = *why;
        return a;
      }
      if (!ctl.should_stop()) unproved = p.pegs();
    }
    SolveOptions o;
    o.algorithm = Algorithm::Dfs;
    o.node_limit = nodes;
    SolveResult r;
    try {
      r = solve_detail::run_dfs(pr, o, ctl, Control::Clock::now(), to_goal ? &memo_goal : &memo_one,
                                !to_goal && open_at == p.pegs() ? &open_finals : nullptr);
    } catch (const std::bad_alloc&) {
      a.reason = "out of memory (an allocation failed); no solution found yet: this proves nothing";
      return a;
    }
    a.nodes = r.nodes;
    a.reason = r.reason;
    if (r.status == Status::Solved) {
      Position q = p;
      for (const Jump& j : r.moves) q.apply(j);  // an illegal jump would be a solver bug
      if (!goal_reached(pr, q.pegs()))
        throw InternalError("analysis: the search's solution does not reach the goal");
      a.verdict = Solvability::Solvable;
      a.solution = std::move(r.moves);
      a.reason.clear();
    } else if (r.status == Status::Impossible) {
      a.verdict = Solvability::NotSolvable;
    }
    return a;
  }

  // The answer from a remembered solution; else from a search under `ctl` and `bound` (Unknown
  // when the bound stops it): the depth-first search with the verdict's memo, the beam, or
  // both (the beam for half the time left, then the depth-first search to its end).
  SolvabilityAnswer search(const Position& p, bool to_goal, const Control& ctl, Bound bound) const {
    const Goal g = to_goal ? goal : Goal{};
    auto& known_map = to_goal ? known_goal : known_one;
    if (auto moves = recall(known_map, p, g)) {
      SolvabilityAnswer a;
      a.verdict = Solvability::Solvable;
      a.solution = std::move(*moves);
      return a;
    }
    SolvabilityAnswer a;
    if (bound.dfs_nodes) {
      a = dfs(p, g, to_goal, ctl, bound.dfs_nodes == kComplete ? 0 : bound.dfs_nodes);
    } else {
      Control beam_ctl(&ctl);
      beam_ctl.set_time_limit(bound.beam_seconds > 0 ? bound.beam_seconds
                              : ctl.has_deadline()   ? ctl.remaining_seconds() / 2
                                                     : SolveOptions{}.auto_beam_seconds);
      SolveOptions o;
      o.control = &beam_ctl;
      o.algorithm = Algorithm::Beam;
      o.threads = 1;
      a = is_solvable(p, g, o);
      if (bound.beam_seconds <= 0 && a.verdict == Solvability::Unknown && !ctl.should_stop()) {
        const std::uint64_t before = a.nodes;
        a = dfs(p, g, to_goal, ctl, 0);
        a.nodes += before;
      }
    }
    if (a.verdict == Solvability::Solvable) learn(known_map, p, a.solution);
    return a;
  }

  // The answer of the look-up `l` for p, reached from the look-up's start, towards the goal or
  // one peg anywhere: on a solution path, the solution along the paths (replayed); else not
  // solvable.
  SolvabilityAnswer from_lookup(const Position& p, const PathIndex& l, bool to_goal) const {
    const PathTarget t = to_goal ? PathTarget::Goal : PathTarget::OnePeg;
    SolvabilityAnswer a;
    if (!l.on_path(p.pegs(), t)) {
      a.verdict = Solvability::NotSolvable;
      a.reason =
          "no solution exists (the census from the start: this position lies on no "
          "solution path, and every position reached from the start that can reach the " +
          std::string(to_goal ? "goal" : "one peg") + " lies on one)";
      return a;
    }
    a.solution = l.solution_from(p.pegs(), t);
    Position q = p;
    for (const Jump& j : a.solution) q.apply(j);  // an illegal jump would be a bug
    if (!goal_reached(problem(p, to_goal ? goal : Goal{}), q.pegs()))
      throw InternalError("analysis: the look-up's solution misses the target");
    a.verdict = Solvability::Solvable;
    return a;
  }

  // The look-up `index` when given; else a remembered solution, a short depth-first search, a
  // short beam search: most positions a player meets are settled there. Then the count when
  // asked, then the search to its end. With `want_count`, the count runs even after a decisive
  // short search or a look-up (for the ways and end holes).
  SolvabilityAnswer decide(const Position& p, bool to_goal, const AnalysisOptions& o,
                           const Control& call, bool want_count, std::optional<Entry>& counted,
                           std::string& note, std::uint64_t& expanded, const PathIndex* index,
                           std::string* lookup_note = nullptr) const {
    const bool lookups = o.lookup && o.start && geo;
    // The look-up's answer, with the count when asked for.
    auto answered = [&](const PathIndex& l, const std::string* how) {
      if (lookup_note && how) *lookup_note = *how;
      SolvabilityAnswer a = from_lookup(p, l, to_goal);
      if (want_count) counted = try_count(p, o, call, note, expanded);
      return a;
    };
    if (index) return answered(*index, nullptr);
    std::uint64_t nodes = 0;
    bool pagodas_tried = false;
    for (Bound b : {Bound{o.quick_nodes, 0}, Bound{0, o.beam_seconds}}) {
      if (!b.dfs_nodes && b.beam_seconds <= 0) continue;
      // After the short depth-first search, before the beam: a position that can leave no
      // single peg (pagoda functions, one per hole the last peg could stand on) cannot reach a
      // one-peg goal either; a few linear programs, far cheaper than a search that cannot end.
      if (!b.dfs_nodes && !pagodas_tried && one_peg_target(to_goal)) {
        pagodas_tried = true;
        if (auto why = one_peg_pagodas(p, call)) {
          SolvabilityAnswer a;
          a.verdict = Solvability::NotSolvable;
          a.reason = *why;
          a.nodes = nodes;
          if (want_count) counted = try_count(p, o, call, note, expanded);
          return a;
        }
      }
      SolvabilityAnswer quick = search(p, to_goal, call, b);
      nodes += quick.nodes;
      if (quick.verdict != Solvability::Unknown || call.should_stop()) {
        if (want_count) counted = try_count(p, o, call, note, expanded);
        quick.nodes = nodes;
        return quick;
      }
    }
    // The short searches did not decide (a lost position, mostly): a shared look-up being built
    // answers such a position sooner than a search to the end. Half the time left goes to it.
    if (lookups && o.paths) {
      Control wait(&call);
      wait.set_time_limit(call.has_deadline() ? call.remaining_seconds() / 2 : 1.0);
      std::string why;
      if (auto l = o.paths->await(lookup_problem(*o.start, to_goal), wait, &why)) {
        const std::string how = "census look-up (waited for its build)";
        return answered(*l, &how);
      }
    }
    // The count decides what a complete search would, and is there for the ways: a quarter of the
    // time left at most, so that a count cut short by the call's deadline (which does not lower
    // count_ceiling) leaves the search its time, position after position.
    counted = try_count(p, o, call, note, expanded,
                        call.has_deadline() ? call.remaining_seconds() / 4 : o.count_seconds);
    if (counted) return from_count(p, *counted, to_goal, to_goal ? goal : Goal{}, &call);
    // The search to the end. The short searches failed, which a lost position does: a
    // complete depth-first search with all the time left (it proves a lost position or finds a
    // solution; the short beam search above already looked for solutions where they are many).
    SolvabilityAnswer a = search(p, to_goal, call, Bound{kComplete, 0});
    a.nodes += nodes;
    return a;
  }

  // Whether the target (the goal, or one peg anywhere) is a single peg.
  bool one_peg_target(bool to_goal) const {
    return !to_goal || goal.kind == Goal::Kind::Any || goal.kind == Goal::Kind::Hole;
  }

  // A proof that p can leave no single peg: for each hole a last peg could stand on (its
  // position class and peg type allow it), a pagoda function worth less on p than on that one
  // peg. nullopt when a hole has none (or none can be found before `ctl` says to stop); then
  // open_at/open_finals say which holes had none, when every hole was tried.
  std::optional<std::string> one_peg_pagodas(const Position& p, const Control& ctl) const {
    if (p.peg_count() <= 1 || open_at == p.pegs()) return std::nullopt;
    const HoleSet finals = admissible_finals(*board, p.pegs());
    if (finals.count() == 0) return std::nullopt;  // impossibility() says so
    final_proofs.resize(static_cast<std::size_t>(board->size()));
    std::string names;
    HoleSet open(board->size());
    for (int f : finals.members()) {
      HoleSet one(board->size());
      one.set(f);
      auto& known = final_proofs[static_cast<std::size_t>(f)];
      const bool proved = std::any_of(known.begin(), known.end(), [&](const Pagoda& pg) {
        return pg.value(p.pegs()) < pg.value(one);
      });
      if (!proved) {
        auto pg = detail::find_separating_pagoda(*board, p.pegs(), one, &ctl);
        if (ctl.should_stop()) return std::nullopt;
        if (!pg) {
          open.set(f);
          continue;
        }
        if (known.size() < 8) known.push_back(std::move(*pg));
      }
      names += (names.empty() ? "" : " ") + board->hole_name(f);
    }
    if (open.count() > 0) {
      open_at = p.pegs();
      open_finals = open;
      return std::nullopt;
    }
    return std::string(play_detail::kOnePegPagodas) + " (" + names +
           ") a pagoda function (w(from)+w(over) >= w(to) for every jump, so the weighted peg "
           "sum never increases) is worth less on this position than on that one peg";
  }

  // Counts p when the options allow and the bounds hold; fills `note` when it does not.
  std::optional<Entry> try_count(const Position& p, const AnalysisOptions& o, const Control& call,
                                 std::string& note, std::uint64_t& expanded,
                                 double seconds = -1) const {
    if (!o.count) {
      note = "not asked";
      return std::nullopt;
    }
    if (!geo) {
      note = "the board's layout is wider than 64 bits";
      return std::nullopt;
    }
    if (p.peg_count() >= count_ceiling) {
      note = "skipped: a count from " + std::to_string(count_ceiling) +
             " pegs went over its bound before";
      return std::nullopt;
    }
    if (memo.size() >= o.count_positions) memo.clear();
    Control ctl(&call);
    ctl.set_time_limit(seconds < 0 ? o.count_seconds : std::min(seconds, o.count_seconds));
    try {
      return count(geo->to_bits(p.pegs()), ctl, o.count_positions, expanded);
    } catch (const TooMany&) {
      note = "more than " + std::to_string(o.count_positions) +
             " positions to count from here (the bound)";
      count_ceiling = std::min(count_ceiling, p.peg_count());
    } catch (const Stopped& s) {
      note = "stopped after " + std::to_string(expanded) + " positions (" +
             std::string(stop_reason_name(s.reason)) + ")";
      if (!call.should_stop()) count_ceiling = std::min(count_ceiling, p.peg_count());
    }
    return std::nullopt;
  }

  void check(const Position& p, const AnalysisOptions& o) const {
    if (p.board_ptr() != board && !p.board().same_shape(*board))
      throw InputError("p", "the position is on board " + p.board().name() +
                                "; the analysis is of " + board->name());
    if (o.start) check_position(*board, *o.start, "AnalysisOptions::start");
  }
};

Analyzer::Analyzer(BoardPtr board, Goal goal)
    : Analyzer(std::move(board), std::move(goal), kAnalyzerMemoBytes) {}

Analyzer::Analyzer(BoardPtr board, Goal goal, std::size_t memo_bytes)
    : impl_(std::make_unique<Impl>(memo_bytes)) {
  if (!board) throw InputError("board", "an analysis needs a board (the pointer is null)");
  check_goal(*board, goal);
  Impl& m = *impl_;
  m.board = std::move(board);
  m.goal = std::move(goal);
  m.goal_pegs = goal_pegs(Problem{m.board, HoleSet(m.board->size()), m.goal});
  if (m.board->width() == 64) {
    m.geo.emplace(*m.board);
    if (m.goal.kind == Goal::Kind::Hole) m.goal_bits.set(layout(*m.board).bit(m.goal.hole));
    if (m.goal.kind == Goal::Kind::Position) m.goal_bits = m.geo->to_bits(m.goal.position);
  }
}

Analyzer::~Analyzer() = default;

const Board& Analyzer::board() const {
  return *impl_->board;
}
const Goal& Analyzer::goal() const {
  return impl_->goal;
}
std::size_t Analyzer::memo_bytes() const {
  return impl_->memo_goal.max_bytes_;
}

Analysis Analyzer::analyze(const Position& p, const AnalysisOptions& options) const {
  const Impl& m = *impl_;
  m.check(p, options);
  CallControl call(options);
  std::lock_guard lock(m.mutex);
  Analysis a;
  const auto t0 = Control::Clock::now();
  std::uint64_t expanded = 0;
  Impl::Lookups l;
  if (options.lookup && options.start && m.geo)
    l = m.lookups(*options.start, options, true, call.ctl);
  if (options.lookup && options.start) a.lookup_note = l.note;
  // Both look-ups built: every figure is exact, and no count runs.
  const bool exact = l.goal && l.one;
  std::optional<Entry> e;
  const bool want_count = options.count && options.ways && !exact;
  AnalysisOptions no_count = options;
  no_count.count = false;
  std::optional<Entry> none;
  std::string unused;
  // A goal hole that no look-up answers: when the goal's short search fails (a lost position
  // makes it), one peg anywhere is asked first, with two thirds of the time left, since a
  // position that can leave no single peg is lost to every hole: one search settles both.
  std::optional<SolvabilityAnswer> one_first;
  bool goal_settled = false;
  if (!l.goal && m.goal.kind == Goal::Kind::Hole && options.quick_nodes > 0) {
    SolvabilityAnswer quick = m.search(p, true, call.ctl, Impl::Bound{options.quick_nodes, 0});
    if (quick.verdict != Solvability::Unknown) {
      a.goal = std::move(quick);
      goal_settled = true;
    } else if (!call.ctl.should_stop()) {
      Control one_call(&call.ctl);
      if (call.ctl.has_deadline()) one_call.set_time_limit(call.ctl.remaining_seconds() * 2 / 3);
      one_first =
          m.decide(p, false, no_count, one_call, false, none, unused, expanded, l.one.get());
      if (one_first->verdict == Solvability::NotSolvable) {
        a.goal.verdict = Solvability::NotSolvable;
        a.goal.reason = "no single peg can be left: " + one_first->reason;
        goal_settled = true;
      } else if (one_first->verdict == Solvability::Solvable) {
        Position q = p;
        for (const Jump& j : one_first->solution) q.apply(j);
        if (goal_reached(m.problem(p, m.goal), q.pegs())) {
          a.goal = *one_first;  // a solution to one peg that ends on the goal hole
          goal_settled = true;
        }
      }
    }
  }
  if (!goal_settled) {
    // Without the look-ups, when the one-peg verdict may still need a search of its own (a goal
    // other than one peg anywhere), the goal's searches get half the call's time, so that a lost
    // goal leaves the other half to one peg anywhere.
    Control goal_call(&call.ctl);
    if (!exact && !one_first && m.goal.kind != Goal::Kind::Any && call.ctl.has_deadline())
      goal_call.set_time_limit(call.ctl.remaining_seconds() / 2);
    a.goal = m.decide(p, true, options, goal_call, want_count, e, a.count_note, expanded,
                      l.goal.get(), &a.lookup_note);
  } else if (want_count) {
    e = m.try_count(p, options, call.ctl, a.count_note, expanded);
  }
  if (exact) {
    a.counted = true;
    a.exact = true;
    a.ways_goal = l.goal->ways(p.pegs(), PathTarget::Goal);
    a.ways_one_peg = l.one->ways(p.pegs(), PathTarget::OnePeg);
    a.end_holes = l.one->end_holes(p.pegs());
    a.one_peg = m.from_lookup(p, *l.one, false);
  } else if (e) {
    a.counted = true;
    a.ways_goal = e->goal;
    a.ways_one_peg = e->one;
    Pos ends;
    ends.w[0] = e->ends;
    a.end_holes = m.geo->to_holes(ends);
    a.one_peg = m.from_count(p, *e, false, Goal{}, &call.ctl);
  } else {
    a.end_holes = HoleSet(m.board->size());
    if (m.goal.kind == Goal::Kind::Any ||
        (m.goal.kind == Goal::Kind::Hole && a.goal.verdict == Solvability::Solvable)) {
      a.one_peg = a.goal;  // a solution to one peg on a hole is one to one peg anywhere
    } else if (one_first) {
      a.one_peg = *one_first;
    } else {
      a.one_peg =
          m.decide(p, false, no_count, call.ctl, false, none, unused, expanded, l.one.get());
      // A goal of one peg on a hole is lost with one peg anywhere, and reached by a solution to
      // one peg anywhere that ends there.
      if (m.goal.kind == Goal::Kind::Hole && a.goal.verdict == Solvability::Unknown) {
        if (a.one_peg.verdict == Solvability::NotSolvable) {
          a.goal.verdict = Solvability::NotSolvable;
          a.goal.reason = "no single peg can be left: " + a.one_peg.reason;
        } else if (a.one_peg.verdict == Solvability::Solvable) {
          Position q = p;
          for (const Jump& j : a.one_peg.solution) q.apply(j);
          if (goal_reached(m.problem(p, m.goal), q.pegs())) {
            a.goal.verdict = Solvability::Solvable;
            a.goal.solution = a.one_peg.solution;
            a.goal.reason.clear();
          }
        }
      }
    }
  }
  if (!a.counted && a.count_note.empty()) a.count_note = "not asked";
  if (a.counted) a.count_note.clear();
  std::optional<Count> ways_goal, ways_one;
  if (a.counted) {
    ways_goal = a.ways_goal;
    ways_one = a.ways_one_peg;
  }
  if (options.explain) {
    const Words words(call.ctl);
    a.goal_explanation = play_detail::explain(p, m.goal, a.goal, ways_goal, &words.ctl);
    a.one_peg_explanation = play_detail::explain(p, Goal{}, a.one_peg, ways_one, &words.ctl);
  }
  a.positions = expanded;
  if (options.hint) {
    const SolvabilityAnswer* s = a.goal.verdict == Solvability::Solvable      ? &a.goal
                                 : a.one_peg.verdict == Solvability::Solvable ? &a.one_peg
                                                                              : nullptr;
    if (s && !s->solution.empty()) {
      a.hint = group_moves(s->solution).front();
      a.hint_to_goal = s == &a.goal;
    }
  }
  a.seconds = std::chrono::duration<double>(Control::Clock::now() - t0).count();
  return a;
}

SolvabilityAnswer Analyzer::solvable(const Position& p, const AnalysisOptions& options) const {
  const Impl& m = *impl_;
  m.check(p, options);
  CallControl call(options);
  std::lock_guard lock(m.mutex);
  std::string note;
  std::uint64_t expanded = 0;
  std::optional<Entry> e;
  Impl::Lookups l;
  if (options.lookup && options.start && m.geo)
    l = m.lookups(*options.start, options, false, call.ctl);
  return m.decide(p, true, options, call.ctl, false, e, note, expanded, l.goal.get());
}

Mistake Analyzer::first_mistake(const Game& game, const AnalysisOptions& options) const {
  const Impl& m = *impl_;
  const Problem& pr = game.problem();
  if (pr.board != m.board && !pr.board->same_shape(*m.board))
    throw InputError("game", "the game is on board " + pr.board->name() + "; the analysis is of " +
                                 m.board->name());
  if (!(pr.goal.kind == m.goal.kind &&
        (pr.goal.kind != Goal::Kind::Hole || pr.goal.hole == m.goal.hole) &&
        (pr.goal.kind != Goal::Kind::Position || pr.goal.position == m.goal.position)))
    throw InputError("game", "the game's goal is not the analysis's");
  if (options.start) check_position(*m.board, *options.start, "AnalysisOptions::start");
  const auto t0 = Control::Clock::now();
  // One deadline for the whole search over the game's positions.
  CallControl call(options);
  AnalysisOptions each = options;
  each.control = &call.ctl;
  each.time_limit = 0;
  each.hint = false;
  if (!each.start) each.start = pr.start;  // the game's positions are reached from its start

  std::vector<Position> at{Position(pr.board, pr.start)};
  for (std::size_t i = 0; i < game.cursor(); ++i) {
    at.push_back(at.back());
    at.back().apply(game.moves()[i]);
  }
  Mistake r;
  auto finish = [&] {
    r.seconds = std::chrono::duration<double>(Control::Clock::now() - t0).count();
    return r;
  };
  auto undecided = [&](std::size_t i, const SolvabilityAnswer& s) {
    r.note = "the position after " + std::to_string(i) + " moves is undecided: " + s.reason;
  };
  std::size_t hi = at.size() - 1;
  SolvabilityAnswer last = solvable(at[hi], each);
  r.now = last.verdict;
  if (last.verdict != Solvability::NotSolvable) {
    if (last.verdict == Solvability::Unknown) undecided(hi, last);
    r.rewind_to = game.cursor();
    return finish();
  }
  SolvabilityAnswer first = hi == 0 ? last : solvable(at[0], each);
  if (first.verdict == Solvability::NotSolvable) {
    r.start_lost = true;
    r.reason = first.reason;
    const Words words(call.ctl);
    r.explanation = play_detail::explain(at[0], m.goal, first, std::nullopt, &words.ctl);
    return finish();
  }
  if (first.verdict == Solvability::Unknown) {
    undecided(0, first);
    return finish();
  }
  // at[lo] can reach the goal, at[hi] cannot; solvability never returns once lost.
  std::size_t lo = 0;
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    SolvabilityAnswer s = solvable(at[mid], each);
    if (s.verdict == Solvability::Unknown) {
      undecided(mid, s);
      return finish();
    }
    if (s.verdict == Solvability::Solvable) {
      lo = mid;
    } else {
      hi = mid;
      last = std::move(s);
    }
  }
  r.move = lo;
  r.rewind_to = lo;
  r.reason = last.reason;
  const Words words(call.ctl);
  r.explanation = play_detail::explain(at[hi], m.goal, last, std::nullopt, &words.ctl);
  return finish();
}

FinishResult finish_game(const Problem& p, const std::vector<Move>& kept,
                         const SolveOptions& options) {
  const Game game = game_after(p, kept);
  FinishResult f;
  const std::vector<Jump> played = flatten(kept);
  f.kept_jumps = played.size();
  f.result = solve(Problem{p.board, game.position().pegs(), p.goal}, options);
  f.result.moves.insert(f.result.moves.begin(), played.begin(), played.end());
  Replay check = replay(*p.board, p.start, f.result.moves);
  if (!check.ok) throw InternalError("finish_game: the moves do not replay: " + check.error);
  if (f.result.status == Status::Solved && !goal_reached(p, check.final))
    throw InternalError("finish_game: the finished game misses the goal");
  f.result.final = check.final;
  return f;
}

}  // namespace pegsol
