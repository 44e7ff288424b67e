// SPDX-License-Identifier: MIT
// The depth-first engine (dfs.cpp) as solve() (solve.cpp) calls it; internal to src/solve.
#pragma once

#include <chrono>

#include "pegsol/control.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"

namespace pegsol::solve_detail {

// The complete DFS of p at its board's width (forward, or backward on the complemented board),
// under `ctl`, progress timed from t0: "solved" with the moves (solve() replays them),
// "impossible" after a completed search, "unknown" when stopped by o.node_limit or by `ctl`
// (SolveResult::stop), each but "solved" with the reason text of its verdict. Reads
// o.direction, o.memory_limit, o.symmetry, o.peg_types, o.node_limit and o.progress.
SolveResult run_dfs(const Problem& p, const SolveOptions& o, const Control& ctl,
                    std::chrono::steady_clock::time_point t0);

}  // namespace pegsol::solve_detail
