// SPDX-License-Identifier: MIT
// The census's disk spill: a run over its memory limit with a spill directory gives the figures
// of the run in memory.
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
#include "pegsol/error.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {
namespace {

using namespace census_test;
using reference::vacancy;

// The disk spill: under a memory limit the levels do not fit in, a census with a spill
// directory gives every figure of the census in memory (the complement join, the backward pass,
// 64- and 128-bit counts, reachable sets alone), and leaves nothing in the directory.
TEST(Census, SpilledRunEqualsInMemory) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pegsol-spill-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  struct Case {
    Problem p;
    std::size_t limit_mib;
    int count_bits = 64;
    bool sets = false;
  };
  const std::vector<Case> cases = {
      {vacancy("english", "d4", "d4"), 96},            // the complement join
      {after_jumps(vacancy("english", "d4"), 8), 32},  // the backward pass
      {after_jumps(vacancy("english", "d4", "d4"), 8), 24, 0},
      {after_jumps(vacancy("english", "d4"), 6), 24, 64, true},
  };
  for (const Case& c : cases) {
    // One case under the sanitizers or the portable kernels: the backward pass, spilled.
    if (small_cases_only() && c.limit_mib != 32) continue;
    SCOPED_TRACE(describe(c.p) + ", " + std::to_string(c.limit_mib) + " MiB");
    CensusOptions o = c.sets ? sets_only() : small_options();
    const CensusResult r = census_detail::compact_census(c.p, o, c.count_bits);
    EXPECT_EQ(r.spill_peak_bytes, 0u);
    // Without a spill directory the limit stops the census; with one it completes.
    Control budget;
    budget.set_memory_budget(c.limit_mib << 20);
    o.control = &budget;
    EXPECT_EQ(census_detail::compact_census(c.p, o, c.count_bits).stop, StopReason::Memory);
    o.spill_dir = dir.string();
    const CensusResult s = census_detail::compact_census(c.p, o, c.count_bits);
    ASSERT_EQ(s.stop, StopReason::None) << s.stop_note;
    EXPECT_GT(s.spill_peak_bytes, 0u);
    EXPECT_LE(s.peak_bytes, budget.memory_budget());
    check_same_figures(s, r);
    EXPECT_EQ(s.reachable_raw, r.reachable_raw);
    EXPECT_EQ(s.on_path_raw, r.on_path_raw);
    EXPECT_TRUE(std::filesystem::is_empty(dir));
  }
  // A directory that is not there is a clear error naming it.
  CensusOptions o = small_options();
  o.spill_dir = (dir / "missing").string();
  try {
    census(vacancy("english", "d4"), o);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(o.spill_dir), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pegsol
