// The control model (deadline, budget, cancel, pause, progress) and the worker pool; the
// engines' use of them.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/pool.hpp"
#include "pegsol/control.hpp"

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
  EXPECT_THROW(c.set_time_limit(std::nan("")), std::invalid_argument);
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

TEST(Control, PauseBlocksWorkersUntilResume) {
  Control c;
  c.pause();
  std::atomic<int> passed{0};
  std::thread worker([&] {
    EXPECT_FALSE(c.checkpoint());
    passed.store(1);
  });
  while (c.waiting() == 0) std::this_thread::yield();
  EXPECT_EQ(passed.load(), 0);
  c.resume();
  worker.join();
  EXPECT_EQ(passed.load(), 1);
  // A cancel releases a paused worker too.
  c.pause();
  std::thread again([&] { EXPECT_TRUE(c.checkpoint()); });
  while (c.waiting() == 0) std::this_thread::yield();
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

}  // namespace
}  // namespace pegsol
