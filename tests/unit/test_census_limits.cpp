// SPDX-License-Identifier: MIT
// The census under its limits: the reordering count skipped, the memory limit, cancellation,
// and checkpoints resumed to an uninterrupted run's figures.
#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "census_helpers.hpp"
#include "reference/reference.hpp"

#include "census/engine.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {
namespace {

using namespace census_test;
using reference::vacancy;

TEST(Census, ReorderingCountSkippedOverItsLimit) {
  CensusOptions o = small_options();
  o.distinct_max_positions = 10;
  for (CensusEngine e : {CensusEngine::Compact, CensusEngine::Wide}) {
    o.engine = e;
    CensusResult r = census(vacancy("triangle:5", "1"), o);
    EXPECT_FALSE(r.distinct_solutions.has_value());
    EXPECT_NE(r.distinct_note.find("skipped"), std::string::npos) << r.distinct_note;
    EXPECT_EQ(count_text(r.solutions), "29760");
  }
}

// The limit is the control's budget, and the stop names it there (Control::memory_budget), also
// when the control is a child of the one holding the budget.
TEST(Census, MemoryLimitIsAStopWithAClearNote) {
  Control parent;
  parent.set_memory_budget(64 << 10);
  Control c(&parent);
  CensusOptions o = small_options();
  o.control = &c;
  CensusResult r = census(vacancy("triangle:6", "1"), o);
  EXPECT_EQ(r.stop, StopReason::Memory);
  EXPECT_NE(r.stop_note.find("memory limit of 1 MiB (Control::memory_budget)"), std::string::npos)
      << r.stop_note;
  EXPECT_EQ(r.stop_field, "Control::memory_budget");
  EXPECT_EQ(r.stop_limit, std::size_t{64} << 10);
  // The same census under a budget it fits in finishes (its levels alone: no reordering count).
  parent.set_memory_budget(std::size_t{256} << 20);
  o.distinct = false;
  EXPECT_EQ(census(vacancy("triangle:6", "1"), o).stop, StopReason::None);
}

TEST(Census, Cancelled) {
  std::atomic<bool> stop{true};
  Control ctl;
  ctl.watch(&stop);
  CensusOptions o = small_options();
  o.control = &ctl;
  CensusResult r = census(vacancy("triangle:6", "1"), o);
  EXPECT_EQ(r.stop, StopReason::Cancelled);
  EXPECT_EQ(r.solutions, 0u);
}

// Checkpoint and resume: a census stopped by its memory limit with a checkpoint directory goes
// on from the last level saved there to every figure of an uninterrupted census (the complement
// join, the backward pass, 128-bit counts, reachable sets alone, and spilled); a directory with
// no checkpoint, or one of another problem, is an input error naming it.
TEST(Census, ResumedRunEqualsUninterrupted) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pegsol-ckpt-test-" + std::to_string(getpid()));
  struct Case {
    Problem p;
    std::size_t stop_mib;
    int count_bits = 64;
    bool sets = false, spill = false;
  };
  // stop_mib 0: stopped at half the census's peak (the case the sanitizers run, smaller still).
  const std::vector<Case> cases = {
      {after_jumps(vacancy("english", "d4"), 8), 0},
      {after_jumps(vacancy("english", "d4"), 6), 12},
      {after_jumps(vacancy("english", "d4", "d4"), 6), 40, 0},
      {after_jumps(vacancy("english", "d4", "d4"), 6), 40, 24},  // widened after the resume
      {after_jumps(vacancy("english", "d4"), 4), 30, 64, true},
      {vacancy("english", "d4", "d4"), 100, 64, false, true},
  };
  for (const Case& c : cases) {
    if (small_cases_only() && c.stop_mib != 0) continue;  // the larger cases
    SCOPED_TRACE(describe(c.p) + ", stopped at " + std::to_string(c.stop_mib) + " MiB");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    CensusOptions o = c.sets ? sets_only() : small_options();
    const CensusResult r = census_detail::compact_census(c.p, o, c.count_bits);
    o.checkpoint_dir = dir.string();
    Control budget;
    o.control = &budget;
    budget.set_memory_budget(c.stop_mib ? c.stop_mib << 20 : r.peak_bytes / 2);
    const CensusResult stopped = census_detail::compact_census(c.p, o, c.count_bits);
    ASSERT_EQ(stopped.stop, StopReason::Memory);
    ASSERT_TRUE(std::filesystem::exists(dir / "census.state"));
    budget.set_memory_budget(kSmallBudget);
    if (c.spill) {
      budget.set_memory_budget(128 << 20);
      o.spill_dir = std::filesystem::temp_directory_path().string();
    }
    o.resume = true;
    // While the resumed run goes on, it holds none of the files it resumed from open (a removed
    // level's disk space would stay taken until the run ends).
    int reports = 0, held = 0;
    Control watcher(&budget);
    o.control = &watcher;
    watcher.set_progress(
        [&](const ProgressReport&) {
          ++reports;
          for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) {
            std::error_code ec;
            const std::string to = std::filesystem::read_symlink(e.path(), ec).string();
            if (!ec && to.rfind(dir.string(), 0) == 0 && to.find(".lock") == std::string::npos &&
                to.find(".tmp") == std::string::npos)
              ++held;
          }
        },
        0);
    const CensusResult s = census_detail::compact_census(c.p, o, c.count_bits);
    EXPECT_GT(reports, 0);
    EXPECT_EQ(held, 0);
    o.control = nullptr;
    ASSERT_EQ(s.stop, StopReason::None) << s.stop_note;
    check_same_figures(s, r);
    EXPECT_EQ(s.reachable_raw, r.reachable_raw);
    EXPECT_EQ(s.on_path_raw, r.on_path_raw);
    EXPECT_EQ(s.p_one_peg, r.p_one_peg);  // the same sums in the same order: the same bits
  }
  // A state of another problem is refused (the last one left is not of c4), as is no state.
  CensusOptions o = small_options();
  o.checkpoint_dir = dir.string();
  o.resume = true;
  EXPECT_THROW(census(vacancy("english", "c4"), o), InputError);
  o.checkpoint_dir = (dir / "empty").string();
  std::filesystem::create_directories(o.checkpoint_dir);
  try {
    census(vacancy("english", "d4"), o);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no census checkpoint"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pegsol
