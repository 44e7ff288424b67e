// SPDX-License-Identifier: MIT
#pragma once
// What the census tests share: their options, a problem a few jumps in, figures compared.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "reference/reference.hpp"
#include "sanitized.hpp"

#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/problem.hpp"

namespace pegsol::census_test {

// The memory budget of the census tests' options (small_options), kSmallBudget.
inline constexpr std::size_t kSmallBudget = std::size_t{512} << 20;
inline const Control* small_budget() {
  struct Budget : Control {
    Budget() { set_memory_budget(kSmallBudget); }
  };
  static const Budget budget;
  return &budget;
}

// Two threads under small_budget(): a test that sets its own control sets its budget there too.
inline CensusOptions small_options() {
  CensusOptions o;
  o.control = small_budget();
  o.threads = 2;
  return o;
}

// The spill and checkpoint tests' larger cases are for the Release run with its own kernels:
// under the sanitizers, or with a tier forced (CI's portable and AVX2 steps), they take minutes
// or test nothing more of the spill or the checkpoint.
inline bool small_cases_only() {
  const char* k = std::getenv("PEGSOL_KERNELS");
  return kSanitized || (k && (std::string(k) == "portable" || std::string(k) == "avx2"));
}

// Reachable sets alone: what the solvability table's passes run.
inline CensusOptions sets_only() {
  CensusOptions o = small_options();
  o.counts = false;
  o.on_path = false;
  o.distinct = false;
  return o;
}

// The table's auto method with a pair's search time no loaded machine reaches on these boards
// (the default, 2 s, could leave a pair to the passes and change what the tests count).
inline TableOptions patient(int max_searches = -1) {
  TableOptions to;
  to.search_seconds = 600;
  to.max_searches = max_searches;
  return to;
}

// The larger boards start a few jumps into the game (the first legal jump each time), so that
// the brute force stays quick under the sanitizers.
inline Problem after_jumps(Problem p, int n) {
  for (int i = 0; i < n; ++i)
    p.start = reference::after(p.start, reference::legal_jumps(*p.board, p.start).front());
  return p;
}

// Every figure of census a equals census w's (chances within 1e-12).
inline void check_same_figures(const CensusResult& a, const CensusResult& w) {
  ASSERT_EQ(a.levels.size(), w.levels.size());
  for (std::size_t k = 0; k < a.levels.size(); ++k) {
    SCOPED_TRACE("pegs " + std::to_string(k));
    EXPECT_EQ(a.levels[k].reachable_raw, w.levels[k].reachable_raw);
    EXPECT_EQ(a.levels[k].reachable_sym, w.levels[k].reachable_sym);
    EXPECT_EQ(a.levels[k].on_path_raw, w.levels[k].on_path_raw);
    EXPECT_EQ(a.levels[k].on_path_sym, w.levels[k].on_path_sym);
    EXPECT_EQ(count_text(a.levels[k].games), count_text(w.levels[k].games));
  }
  EXPECT_EQ(count_text(a.solutions), count_text(w.solutions));
  EXPECT_EQ(count_text(a.games), count_text(w.games));
  EXPECT_EQ(count_text(a.solutions_up_to_symmetry), count_text(w.solutions_up_to_symmetry));
  ASSERT_EQ(a.distinct_solutions.has_value(), w.distinct_solutions.has_value());
  if (a.distinct_solutions) {
    EXPECT_EQ(count_text(*a.distinct_solutions), count_text(*w.distinct_solutions));
  }
  for (std::size_t h = 0; h < a.solutions_by_hole.size(); ++h) {
    EXPECT_EQ(count_text(a.solutions_by_hole[h]), count_text(w.solutions_by_hole[h]));
    EXPECT_NEAR(a.p_by_hole[h], w.p_by_hole[h], 1e-12);
  }
  EXPECT_NEAR(a.p_one_peg, w.p_one_peg, 1e-12);
  EXPECT_NEAR(a.p_goal, w.p_goal, 1e-12);
}

}  // namespace pegsol::census_test
