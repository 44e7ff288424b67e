// SPDX-License-Identifier: MIT
// Beam search (include/pegsol/beam.hpp; design and measurements in docs/beam.md): the entry point,
// which picks the method and the capacities, runs the attempts on their threads and doubles the
// capacities until one succeeds or a limit is reached. The attempts themselves: meet.cpp (the
// bidirectional meet), sweep.cpp (the forward beam); their levels' selection: select.cpp.
#include "pegsol/beam.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/checks.hpp"
#include "../core/geometry.hpp"
#include "../core/hash.hpp"
#include "../core/layout.hpp"
#include "../core/pool.hpp"
#include "../core/symmetry.hpp"
#include "../core/widths.hpp"
#include "attempt.hpp"
#include "meet.hpp"
#include "pegsol/control.hpp"
#include "pegsol/invariants.hpp"
#include "sweep.hpp"

namespace pegsol {

namespace {

using beam_detail::AttemptControl;
using beam_detail::Link;
using beam_detail::Outcome;
using beam_detail::SweepGoal;
using beam_detail::SweepTables;
using beam_detail::SweepWeights;

constexpr std::size_t kReportCapacity = 10000;  // the report's smallest successful 12-row figure
constexpr std::size_t kMeetCapacity = 1000;     // first capacity of the improved meet
constexpr std::size_t kSweepCapacity = 32;      // first capacity of the forward sweep

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

// The sweep's problem: its goal, its cost tables, where it starts and whether it runs reversed.
template <int W>
struct SweepPlan {
  SweepGoal<W> goal;
  std::optional<SweepTables<W>> tables;
  Bits<W> start;
  bool reverse = false;
};

// The sweep thrives on contracting to few pegs. For a whole-position goal with more pegs than
// the start has holes, it runs on the reversed problem, from the complement of the goal to the
// complement of the start (a jump on the complemented board is the same jump backwards), and
// its moves are then played in reverse order. `goal` is goal_positions(p)'s first.
template <int W>
SweepPlan<W> plan_sweep(const Geometry<W>& g, const Problem& p, const Bits<W>& start,
                        const HoleSet& goal) {
  const Board& board = *p.board;
  SweepPlan<W> plan;
  SweepGoal<W>& sgoal = plan.goal;
  plan.start = start;
  std::vector<int> goal_holes;
  if (p.goal.kind == Goal::Kind::Any) {
    sgoal.is_exact = false;
    sgoal.allowed = g.to_bits(admissible_finals(board, p.start));
    for (const Bits<W>& m : g.type_masks())
      if ((m & sgoal.allowed).any()) sgoal.any_type |= m;
  } else {
    sgoal.exact = g.to_bits(goal);
    if (p.goal.kind == Goal::Kind::Position && g.complement(start).count() < sgoal.exact.count()) {
      plan.reverse = true;
      plan.start = g.complement(sgoal.exact);
      sgoal.exact = g.complement(start);
    }
    sgoal.pegs = sgoal.exact.count();
    for (const Bits<W>& m : g.type_masks())
      if ((sgoal.exact & m).any()) sgoal.need.push_back({m, (sgoal.exact & m).count()});
    for (int h = 0; h < board.size(); ++h)
      if (sgoal.exact.test(layout(board).bit(h))) goal_holes.push_back(h);
  }
  plan.tables.emplace(g, SweepWeights{}, goal_holes);
  return plan;
}

// The first capacities of the search and the largest one the memory holds.
struct Capacities {
  std::size_t first = 0;         // the report's, the sweep's, or the meet's when it runs alone
  std::size_t meet = 0;          // the meet's after a sweep
  std::size_t max = 0;           // the largest the memory allows, per thread
  std::size_t clamped_from = 0;  // the capacity asked for, when the memory could not hold it
};

// Capacities from the options: --capacity sets both, otherwise the method's defaults; a capacity
// the memory budget cannot hold is clamped to the largest it holds. `levels`: jumps to the goal.
template <int W>
Capacities plan_capacities(const SolveOptions& o, const Control& control, bool report,
                           bool use_sweep, int levels, int threads) {
  Capacities c;
  // Memory per unit of capacity and thread: a link per level, two levels of positions, and the
  // children of a level (about 32 per survivor at 16 bytes, plus the digest set).
  const std::size_t per_capacity =
      static_cast<std::size_t>(levels) * sizeof(Link) + 2 * sizeof(Bits<W>) + 32 * 32;
  const std::size_t budget = control.memory_budget();
  const std::size_t bytes = budget ? budget : kSolveMemory;
  c.max = std::max<std::size_t>(1000, bytes / per_capacity / static_cast<std::size_t>(threads));
  c.first = o.capacity  ? o.capacity
            : report    ? kReportCapacity
            : use_sweep ? kSweepCapacity
                        : kMeetCapacity;
  c.meet = o.capacity ? o.capacity : kMeetCapacity;
  if (c.first > c.max || c.meet > c.max) {
    c.clamped_from = std::max(c.first, c.meet);
    c.first = std::min(c.first, c.max);
    c.meet = std::min(c.meet, c.max);
  }
  return c;
}

// The reason of a search that stopped without a solution.
std::string stopped_reason(const std::string& how, StopReason stop, std::size_t capacity,
                           std::uint64_t nodes) {
  const std::string why = stop == StopReason::Time   ? "time limit"
                          : stop == StopReason::None ? "stopped"
                                                     : std::string(stop_reason_name(stop));
  return how + " stopped (" + why + ")" + " at capacity " + std::to_string(capacity) + " after " +
         std::to_string(nodes) +
         " positions; no solution found yet (the search is incomplete: this proves nothing)";
}

template <int W>
SolveResult beam_width(const Problem& p, const SolveOptions& o) {
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
  // The search's control, under the caller's.
  Control control(o.control);
  AttemptControl ctl;
  ctl.control = &control;
  const Bits<W> start = g.to_bits(p.start);
  // The portfolio runs one seed per thread, by default on at most two of the cores.
  const int threads = report ? 1 : (o.threads > 0 ? o.threads : std::min(2, default_threads()));
  WorkerPool team(threads);  // the attempts' threads, made once
  // The improved search runs the forward beam (Sweep), from capacity 32; for a goal that is a
  // whole position, where a forward beam has little to aim at, each sweep is followed by the
  // bidirectional meet, from capacity 1000 (--capacity sets both). Then the capacities double.
  // BeamMethod::Sweep runs the sweep alone, BeamMethod::Meet the meet alone.
  const bool use_sweep = !report && o.beam_method != BeamMethod::Meet;
  const bool meet_too =
      use_sweep && o.beam_method == BeamMethod::Auto && p.goal.kind == Goal::Kind::Position;
  const int levels = std::max(1, p.start.count() - goals[0].count());
  const Capacities caps = plan_capacities<W>(o, control, report, use_sweep, levels, threads);
  std::size_t capacity = caps.first, meet_capacity = caps.meet;
  if (caps.clamped_from) stats.clamped_from = caps.clamped_from;
  std::optional<SweepPlan<W>> plan;
  if (use_sweep) plan.emplace(plan_sweep(g, p, start, goals[0]));

  for (int attempt = 0, meet_round = 0;; ++attempt) {
    const bool sweep = use_sweep && (!meet_too || attempt % 2 == 0);
    std::atomic<int> found_by{threads};
    std::vector<Outcome> outs(static_cast<std::size_t>(threads));
    std::vector<std::atomic<std::uint64_t>> counts(static_cast<std::size_t>(threads));
    auto work = [&](int t) {
      AttemptControl c = ctl;
      c.found_by = &found_by;
      c.index = t;
      c.nodes_before = r.nodes;
      c.counts = &counts;
      const std::uint64_t seed = o.seed + kGolden * static_cast<std::uint64_t>(t);
      Outcome out;
      if (sweep) {
        out = beam_detail::run_sweep(g, *plan->tables, plan->goal, plan->start, capacity, seed, c);
        if (plan->reverse) std::reverse(out.moves.begin(), out.moves.end());
      } else {
        const HoleSet& goal =
            goals[static_cast<std::size_t>(meet_round * threads + t) % goals.size()];
        out = beam_detail::run_meet(g, start, g.to_bits(goal), report,
                                    report ? capacity : meet_capacity, seed, c);
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
      r.reason = stopped_reason(how, r.stop, stats.capacity, r.nodes);
      break;
    }
    if (report) {
      r.reason = how + " found no complement pair at capacity " + std::to_string(capacity) + " (" +
                 std::to_string(r.nodes) +
                 " positions); the search is incomplete: this proves nothing, a larger capacity "
                 "(SolveOptions::capacity) or another seed (SolveOptions::seed) may succeed";
      break;
    }
    if (meet_too && sweep) continue;  // the meet follows
    const std::size_t reached = meet_too ? std::max(capacity, meet_capacity) : capacity;
    if (reached * 2 > caps.max) {
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
  check_problem(p);
  checks::threads(o.threads, "SolveOptions::threads");
  if (o.algorithm == Algorithm::Dfs)
    throw InputError("SolveOptions::algorithm",
                     "Dfs is not a beam search (Beam, BeamReport, or Auto for Beam)");
  return with_width(p.board->width(), [&](auto w) { return beam_width<decltype(w)::value>(p, o); });
}

}  // namespace pegsol
