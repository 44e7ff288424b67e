// SPDX-License-Identifier: MIT
// The control model (deadline, budget, cancel, pause, progress) and the worker pool; the
// engines' use of them.
#include <gtest/gtest.h>

#include "reference/reference.hpp"
#include "ticking_clock.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/control_access.hpp"
#include "core/pool.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"

namespace pegsol {
namespace {

// A clock the test moves by hand.
struct ManualClock {
  std::atomic<std::int64_t> ns{1'000'000'000};
  Control::ClockFn fn() {
    return [this] { return Control::Clock::time_point(std::chrono::nanoseconds(ns.load())); };
  }
  void advance(double seconds) { ns += static_cast<std::int64_t>(seconds * 1e9); }
};

TEST(Control, StopReasonNames) {
  EXPECT_EQ(stop_reason_name(StopReason::None), "finished");
  EXPECT_EQ(stop_reason_name(StopReason::Time), "time");
  EXPECT_EQ(stop_reason_name(StopReason::Memory), "memory");
  EXPECT_EQ(stop_reason_name(StopReason::Cancelled), "cancelled");
  EXPECT_EQ(stop_reason_name(StopReason::Signal), "signal");
}

TEST(Control, DeadlineByTheInjectedClock) {
  ManualClock clock;
  Control c(clock.fn());
  c.set_time_limit(10);
  EXPECT_TRUE(c.has_deadline());
  EXPECT_FALSE(c.should_stop());
  clock.advance(9.5);
  EXPECT_FALSE(c.should_stop());
  EXPECT_NEAR(c.remaining_seconds(), 0.5, 1e-9);
  clock.advance(0.5);
  EXPECT_TRUE(c.should_stop());
  EXPECT_EQ(c.stop_reason(), StopReason::Time);
  clock.advance(-5);  // latched: the stop stays
  EXPECT_TRUE(c.should_stop());
}

TEST(Control, HugeInfiniteAndZeroLimitsMeanNoLimit) {
  ManualClock clock;
  for (double s : {0.0, -1.0, 1e300, std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::max()}) {
    Control c(clock.fn());
    c.set_time_limit(s);
    EXPECT_FALSE(c.has_deadline()) << s;
    clock.advance(1e6);
    EXPECT_FALSE(c.should_stop()) << s;
    EXPECT_TRUE(std::isinf(c.remaining_seconds()));
  }
  Control c;
  EXPECT_THROW(c.set_time_limit(std::nan("")), InputError);
}

TEST(Control, PausedTimeDoesNotCountAgainstTheDeadline) {
  ManualClock clock;
  Control c(clock.fn());
  c.set_time_limit(10);
  clock.advance(4);
  c.pause();
  EXPECT_TRUE(c.paused());
  clock.advance(100);
  c.resume();
  EXPECT_FALSE(c.paused());
  EXPECT_FALSE(c.should_stop());
  EXPECT_NEAR(c.remaining_seconds(), 6, 1e-9);
  EXPECT_NEAR(c.elapsed_seconds(), 4, 1e-9);
  clock.advance(6);
  EXPECT_TRUE(c.should_stop());
}

TEST(Control, CancelFirstReasonWinsAndFlagsAreWatched) {
  Control c;
  EXPECT_FALSE(c.should_stop());
  EXPECT_EQ(c.stop_reason(), StopReason::None);
  c.cancel(StopReason::Signal);
  c.cancel(StopReason::Cancelled);
  EXPECT_TRUE(c.should_stop());
  EXPECT_EQ(c.stop_reason(), StopReason::Signal);

  std::atomic<bool> flag{false};
  Control w;
  w.watch(&flag, StopReason::Signal);
  EXPECT_FALSE(w.should_stop());
  flag.store(true);
  EXPECT_TRUE(w.should_stop());
  EXPECT_EQ(w.stop_reason(), StopReason::Signal);
  EXPECT_THROW(w.throw_if_stopped(), Stopped);
}

TEST(Control, ChildObeysItsParent) {
  ManualClock clock;
  Control parent(clock.fn());
  parent.set_time_limit(10);
  parent.set_memory_budget(1000);
  Control child(&parent);
  child.set_time_limit(3);
  child.set_memory_budget(5000);
  EXPECT_EQ(child.memory_budget(), 1000u);
  EXPECT_NEAR(child.remaining_seconds(), 3, 1e-9);
  clock.advance(3);
  EXPECT_TRUE(child.should_stop());
  EXPECT_FALSE(parent.should_stop());
  Control other(&parent);
  parent.cancel();
  EXPECT_TRUE(other.should_stop());
  EXPECT_EQ(other.stop_reason(), StopReason::Cancelled);
}

// A deadline-blind child sees its parents' cancel and flags, never their deadlines; a cancel that
// comes after a parent's deadline has passed (and been latched) still reaches it.
TEST(Control, ADeadlineBlindChildSeesACancelAfterTheParentsDeadline) {
  ManualClock clock;
  Control parent(clock.fn());
  parent.set_time_limit(1);
  Control middle(&parent);
  Control blind(&middle, Control::ParentDeadline::Ignore);
  Control blind_below(&blind, Control::ParentDeadline::Ignore);
  EXPECT_FALSE(blind.has_deadline());
  clock.advance(2);
  EXPECT_TRUE(parent.should_stop());
  EXPECT_EQ(parent.stop_reason(), StopReason::Time);
  EXPECT_TRUE(middle.should_stop());
  EXPECT_FALSE(blind.should_stop());
  EXPECT_EQ(blind.stop_reason(), StopReason::None);
  EXPECT_TRUE(std::isinf(blind.remaining_seconds()));
  parent.cancel(StopReason::Signal);
  EXPECT_EQ(parent.stop_reason(), StopReason::Time);  // the first reason latched stays
  EXPECT_TRUE(blind.should_stop());
  EXPECT_EQ(blind.stop_reason(), StopReason::Signal);
  EXPECT_TRUE(blind_below.should_stop());
  EXPECT_EQ(blind_below.stop_reason(), StopReason::Signal);

  // The same through a middle control that latched its own deadline first.
  Control top(clock.fn());
  Control timed(&top);
  timed.set_time_limit(1);
  Control under(&timed, Control::ParentDeadline::Ignore);
  clock.advance(2);
  EXPECT_TRUE(timed.should_stop());
  EXPECT_FALSE(under.should_stop());
  timed.cancel();
  EXPECT_TRUE(under.should_stop());
  EXPECT_EQ(under.stop_reason(), StopReason::Cancelled);
  // A cancel with the reason Time is a deadline's: the blind child does not take it.
  Control top2(clock.fn());
  Control under2(&top2, Control::ParentDeadline::Ignore);
  top2.cancel(StopReason::Time);
  EXPECT_FALSE(under2.should_stop());
}

TEST(Control, PauseBlocksWorkersUntilResume) {
  Control c;
  c.pause();
  std::atomic<int> passed{0};
  std::thread worker([&] {
    EXPECT_FALSE(c.checkpoint());
    passed.store(1);
  });
  while (ControlAccess::waiting(c) == 0) std::this_thread::yield();
  EXPECT_EQ(passed.load(), 0);
  c.resume();
  worker.join();
  EXPECT_EQ(passed.load(), 1);
  // A cancel releases a paused worker too.
  c.pause();
  std::thread again([&] { EXPECT_TRUE(c.checkpoint()); });
  while (ControlAccess::waiting(c) == 0) std::this_thread::yield();
  c.cancel();
  again.join();
}

TEST(Control, ProgressIsThrottledByTheClockAndEstimatesTheRest) {
  ManualClock clock;
  Control c(clock.fn());
  std::vector<ProgressReport> seen;
  c.set_progress([&](const ProgressReport& r) { seen.push_back(r); }, 1.0);
  ProgressReport r;
  r.total = 10;
  r.done = 1;
  c.report(r);  // before the first interval: dropped
  EXPECT_TRUE(seen.empty());
  clock.advance(2);
  r.done = 4;
  c.report(r);
  c.report(r);  // within the interval: dropped
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_DOUBLE_EQ(seen[0].fraction, 0.4);
  EXPECT_DOUBLE_EQ(seen[0].seconds, 2);
  EXPECT_DOUBLE_EQ(seen[0].eta_seconds, 3);
  r.done = 10;
  c.report(r, true);  // forced
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_DOUBLE_EQ(seen[1].fraction, 1);
  EXPECT_DOUBLE_EQ(seen[1].eta_seconds, 0);
  r.total = 0;  // size unknown
  clock.advance(2);
  c.report(r);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[2].fraction, 0);
  EXPECT_EQ(seen[2].eta_seconds, 0);
}

TEST(Pool, RunsOnNThreadsAndReusesThem) {
  WorkerPool pool(4);
  EXPECT_EQ(pool.size(), 4);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::thread::id> ids(4);
    std::atomic<int> arrived{0};
    pool.run(4, [&](int t) {
      ids[static_cast<std::size_t>(t)] = std::this_thread::get_id();
      // All four calls run at once: each waits for the others.
      arrived.fetch_add(1);
      while (arrived.load() < 4) std::this_thread::yield();
    });
    EXPECT_EQ(ids[0], std::this_thread::get_id());
    EXPECT_EQ(std::set<std::thread::id>(ids.begin(), ids.end()).size(), 4u);
  }
  std::atomic<int> calls{0};
  pool.run(2, [&](int t) {
    EXPECT_LT(t, 2);
    calls.fetch_add(1);
  });
  EXPECT_EQ(calls.load(), 2);
  EXPECT_GE(default_threads(), 1);
}

TEST(Pool, PropagatesExceptions) {
  WorkerPool pool(3);
  EXPECT_THROW(pool.run(3,
                        [](int t) {
                          if (t == 2) throw std::runtime_error("worker 2");
                        }),
               std::runtime_error);
  EXPECT_THROW(pool.run(3,
                        [](int t) {
                          if (t == 0) throw std::logic_error("caller");
                        }),
               std::logic_error);
  std::atomic<std::size_t> sum{0};
  pool.parallel_for(3, 1000, [&](std::size_t i, int) { sum.fetch_add(i); });
  EXPECT_EQ(sum.load(), 999u * 1000 / 2);
  EXPECT_THROW(pool.parallel_for(3, 1000,
                                 [](std::size_t i, int) {
                                   if (i == 500) throw std::runtime_error("item");
                                 }),
               std::runtime_error);
  // Still usable after an exception.
  std::atomic<int> calls{0};
  pool.run(3, [&](int) { calls.fetch_add(1); });
  EXPECT_EQ(calls.load(), 3);
}

// ---- The engines under a control ----

using reference::vacancy;

// The figures of two censuses agree (a paused run against an uninterrupted one).
void expect_same_census(const CensusResult& a, const CensusResult& b) {
  ASSERT_EQ(a.levels.size(), b.levels.size());
  for (std::size_t k = 0; k < a.levels.size(); ++k) {
    EXPECT_EQ(a.levels[k].reachable_raw, b.levels[k].reachable_raw) << k;
    EXPECT_EQ(a.levels[k].reachable_sym, b.levels[k].reachable_sym) << k;
    EXPECT_EQ(a.levels[k].on_path_raw, b.levels[k].on_path_raw) << k;
    EXPECT_TRUE(a.levels[k].games == b.levels[k].games) << k;
  }
  EXPECT_TRUE(a.solutions == b.solutions);
  EXPECT_TRUE(a.games == b.games);
  EXPECT_EQ(a.p_one_peg, b.p_one_peg);
  EXPECT_EQ(a.stop, StopReason::None);
  EXPECT_EQ(b.stop, StopReason::None);
}

TEST(ControlEngines, PresetCancelStopsEveryEngineNeverImpossible) {
  Control c;
  c.cancel();
  Problem hard = vacancy("diamond41", "e4");
  hard.goal.kind = Goal::Kind::Any;
  for (Algorithm a : {Algorithm::Auto, Algorithm::Dfs, Algorithm::Beam, Algorithm::BeamReport}) {
    SolveOptions o;
    o.algorithm = a;
    o.control = &c;
    SolveResult r = solve(hard, o);
    EXPECT_EQ(r.status, Status::Unknown) << static_cast<int>(a);
    EXPECT_EQ(r.stop, StopReason::Cancelled) << static_cast<int>(a) << " " << r.reason;
  }
  for (CensusEngine e : {CensusEngine::Compact, CensusEngine::Wide}) {
    CensusOptions o;
    o.threads = 2;
    o.engine = e;
    o.control = &c;
    CensusResult r = census(vacancy("triangle:6", "1"), o);
    EXPECT_EQ(r.stop, StopReason::Cancelled);
    EXPECT_TRUE(r.solutions == 0);
  }
  CensusOptions o;
  o.control = &c;
  SolvabilityTable t = solvability_table(make_board("triangle:5"), o);
  EXPECT_EQ(t.stop, StopReason::Cancelled);
  EXPECT_FALSE(t.complete());
  EnumerateOptions eo;
  eo.control = &c;
  EnumerateResult n = enumerate_solutions(vacancy("english", "d4"), eo,
                                          [](const std::vector<Jump>&) { return true; });
  EXPECT_EQ(n.stop, StopReason::Cancelled);
}

TEST(ControlEngines, DeadlineByTheInjectedClock) {
  Control c(ticking_clock());
  c.set_time_limit(0.5);  // 500 reads of the ticking clock
  Problem hard = vacancy("diamond41", "e4");
  hard.goal.kind = Goal::Kind::Any;
  SolveOptions o;
  o.algorithm = Algorithm::Dfs;
  o.control = &c;
  SolveResult r = solve(hard, o);
  EXPECT_EQ(r.status, Status::Unknown);
  EXPECT_EQ(r.stop, StopReason::Time);
  EXPECT_NE(r.reason.find("time limit"), std::string::npos) << r.reason;

  // A census stopped by its deadline keeps the levels it completed.
  for (CensusEngine e : {CensusEngine::Compact, CensusEngine::Wide}) {
    Control d(ticking_clock());
    d.set_time_limit(0.005);
    CensusOptions co;
    co.threads = 2;
    co.engine = e;
    co.control = &d;
    CensusResult part = census(vacancy("english", "d4"), co);
    EXPECT_EQ(part.stop, StopReason::Time);
    EXPECT_EQ(part.levels[32].reachable_raw, 1u);
    EXPECT_LT(part.reachable_raw, 187'636'299u);
  }
}

TEST(ControlEngines, MemoryBudgetStops) {
  Control c;
  c.set_memory_budget(64 << 10);
  CensusOptions o;
  o.threads = 2;
  o.control = &c;
  CensusResult r = census(vacancy("triangle:6", "1"), o);
  EXPECT_EQ(r.stop, StopReason::Memory);
  EXPECT_NE(r.stop_note.find("memory limit"), std::string::npos) << r.stop_note;
  EnumerateOptions eo;
  eo.control = &c;
  Problem p = vacancy("english", "d4");
  EnumerateResult n = enumerate_solutions(p, eo, [](const std::vector<Jump>&) { return true; });
  EXPECT_EQ(n.stop, StopReason::Memory);
}

// Pauses the computation `run` at its first progress report (from inside the worker), waits
// until a worker is blocked at its next poll, then resumes; returns what run returned.
template <class F>
auto run_paused(Control& c, F&& run) {
  std::atomic<bool> once{false}, done{false};
  c.set_progress(
      [&](const ProgressReport&) {
        if (!once.exchange(true)) c.pause();
      },
      0);
  decltype(run()) out{};
  std::thread worker([&] {
    out = run();
    done.store(true);
  });
  bool blocked = false;
  while (!done.load() && !(blocked = ControlAccess::waiting(c) > 0)) std::this_thread::yield();
  EXPECT_TRUE(blocked) << "the computation never waited";
  c.resume();
  worker.join();
  return out;
}

TEST(ControlEngines, PauseAndResumeGiveTheUninterruptedFigures) {
  for (CensusEngine e : {CensusEngine::Compact, CensusEngine::Wide}) {
    CensusOptions o;
    o.threads = 2;
    o.engine = e;
    o.distinct = false;  // seconds on this board, and not what is tested
    const Problem p = vacancy("triangle:6", "1");
    CensusResult plain = census(p, o);
    Control c;
    o.control = &c;
    CensusResult paused = run_paused(c, [&] { return census(p, o); });
    expect_same_census(plain, paused);
  }
  SolveOptions so;
  so.algorithm = Algorithm::Dfs;
  const Problem p = vacancy("english", "d4");
  SolveResult plain = solve(p, so);
  Control c;
  so.control = &c;
  SolveResult paused = run_paused(c, [&] { return solve(p, so); });
  EXPECT_EQ(paused.status, Status::Solved);
  EXPECT_EQ(paused.nodes, plain.nodes);
  EXPECT_EQ(paused.moves.size(), plain.moves.size());
  for (std::size_t i = 0; i < plain.moves.size() && i < paused.moves.size(); ++i)
    EXPECT_TRUE(paused.moves[i].from == plain.moves[i].from &&
                paused.moves[i].to == plain.moves[i].to)
        << i;
}

TEST(ControlEngines, CensusProgressIsMonotoneAndReachesOne) {
  for (CensusEngine e : {CensusEngine::Compact, CensusEngine::Wide}) {
    Control c;
    std::vector<ProgressReport> seen;
    c.set_progress([&](const ProgressReport& r) { seen.push_back(r); }, 0);
    CensusOptions o;
    o.threads = 2;
    o.engine = e;
    o.distinct = false;
    o.control = &c;
    CensusResult r = census(vacancy("triangle:6", "1"), o);
    ASSERT_EQ(r.stop, StopReason::None);
    ASSERT_GE(seen.size(), 2u);
    for (std::size_t i = 1; i < seen.size(); ++i) {
      EXPECT_GE(seen[i].fraction, seen[i - 1].fraction) << i << " " << seen[i].phase;
      EXPECT_EQ(seen[i].total, seen[0].total);
    }
    EXPECT_DOUBLE_EQ(seen.back().fraction, 1.0);
    EXPECT_EQ(seen.back().eta_seconds, 0);
  }
}

TEST(ControlEngines, TableProgressIsMonotoneAndReachesOne) {
  for (TableMethod m : {TableMethod::Auto, TableMethod::Passes}) {
    Control c;
    std::vector<ProgressReport> seen;
    c.set_progress([&](const ProgressReport& r) { seen.push_back(r); }, 0);
    CensusOptions o;
    o.threads = 2;
    o.control = &c;
    TableOptions to;
    to.method = m;
    SolvabilityTable t = solvability_table(make_board("triangle:6"), o, to);
    ASSERT_TRUE(t.complete()) << t.stopped;
    ASSERT_FALSE(seen.empty());
    for (std::size_t i = 1; i < seen.size(); ++i)
      EXPECT_GE(seen[i].fraction, seen[i - 1].fraction) << i << " " << seen[i].phase;
    EXPECT_DOUBLE_EQ(seen.back().fraction, 1.0);
  }
}

TEST(ControlProgress, AMutedChildAndItsChildrenReportNothing) {
  Control parent;
  int calls = 0;
  parent.set_progress([&](const ProgressReport&) { ++calls; }, 0);
  Control child(&parent), muted(&parent);
  ControlAccess::mute(muted);
  Control under_muted(&muted);
  EXPECT_TRUE(ControlAccess::wants_progress(child));
  EXPECT_FALSE(ControlAccess::wants_progress(muted));
  EXPECT_FALSE(ControlAccess::wants_progress(under_muted));
  muted.report(ProgressReport{}, true);
  under_muted.report(ProgressReport{}, true);
  EXPECT_EQ(calls, 0);
  child.report(ProgressReport{}, true);
  EXPECT_EQ(calls, 1);
}

TEST(ControlEngines, FewestReportsCarryTheBounds) {
  // The passes report through the control with their bounds; the first-solution search reports
  // as a solve does, without them.
  Control c;
  std::vector<ProgressReport> seen;
  c.set_progress([&](const ProgressReport& r) { seen.push_back(r); }, 0);
  FewestOptions o;
  o.control = &c;
  const FewestResult r = fewest_solve(vacancy("triangle:5", "4"), o);
  ASSERT_EQ(r.status, Status::Solved);
  int bounds = 0;
  for (const ProgressReport& p : seen) {
    EXPECT_EQ(p.phase == "fewest", p.fewest.has_value()) << p.phase;
    if (!p.fewest) continue;
    ++bounds;
    EXPECT_LE(p.fewest->lower_bound, r.moves);
    if (p.fewest->best_found >= 0) {
      EXPECT_GE(p.fewest->best_found, r.moves);
    }
    EXPECT_FALSE(p.beam || p.table);
  }
  EXPECT_GT(bounds, 0);
}

}  // namespace
}  // namespace pegsol
