// SPDX-License-Identifier: MIT
// The depth-first engine (dfs.cpp) as solve() (solve.cpp) calls it; internal to src/solve.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>

#include "pegsol/control.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"

namespace pegsol::solve_detail {

// What forward depth-first searches towards one target learn, kept from one search to the next
// (the Analyzer keeps one per verdict): the failed positions (each one lost absolutely, so a
// later search from any start uses them) and pruning pagodas, at most `max_bytes` of table.
// A search towards another target starts it afresh. Not thread-safe: one search at a time.
class DfsMemo {
 public:
  explicit DfsMemo(std::size_t max_bytes);
  ~DfsMemo();
  DfsMemo(const DfsMemo&) = delete;
  DfsMemo& operator=(const DfsMemo&) = delete;
  // The failed positions held (0 before the first search).
  std::size_t size() const;

  struct State;  // dfs.cpp: the table and the pagodas, at the board's width
  std::unique_ptr<State> state;
  std::size_t max_bytes_;
};

// The complete DFS of p at its board's width (forward, or backward on the complemented board),
// under `ctl`, progress timed from t0: "solved" with the moves (solve() replays them),
// "impossible" after a completed search, "unknown" when stopped by o.node_limit or by `ctl`
// (SolveResult::stop), each but "solved" with the reason text of its verdict. Reads
// o.direction, o.symmetry, o.peg_types and o.node_limit; reports to `ctl`.
// With `memo` (forward searches only): its failed positions, and pruning pagodas at every
// position (a position worth less than the target on one of them is lost), kept for the next
// search; a one-peg target's table keys are canonical under every symmetry of the board, and
// each final's pagodas tight from p.start prune the search (a jump that loses on one rules that
// final out). With `finals` (a one-peg target and a memo): the last peg aims at these holes alone,
// the caller having proved every other admissible hole out of reach from p.start.
SolveResult run_dfs(const Problem& p, const SolveOptions& o, const Control& ctl,
                    std::chrono::steady_clock::time_point t0, DfsMemo* memo = nullptr,
                    const HoleSet* finals = nullptr);

}  // namespace pegsol::solve_detail
