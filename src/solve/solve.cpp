// SPDX-License-Identifier: MIT
// solve(): the entry point of the first-solution searches. Proofs without search first, then the
// search the options name (the DFS of dfs.cpp, the beam of src/beam, or Auto: the two in turn),
// and every solution replayed before it is returned.
#include "pegsol/solve.hpp"

#include <chrono>
#include <new>
#include <stdexcept>
#include <string>

#include "../core/checks.hpp"
#include "../core/pagodas.hpp"
#include "dfs.hpp"
#include "pegsol/beam.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {

std::string_view status_name(Status s) {
  switch (s) {
    case Status::Solved:
      return "solved";
    case Status::Impossible:
      return "impossible";
    case Status::Unknown:
      return "unknown";
  }
  return "?";
}

namespace {

using Clock = std::chrono::steady_clock;
using solve_detail::run_dfs;

// The beam search under `ctl` (solve() has made it from the options).
SolveResult run_beam(const Problem& p, const SolveOptions& o, const Control& ctl) {
  SolveOptions b = o;
  b.control = &ctl;
  return beam_solve(p, b);
}

// Auto: a bounded DFS, the beam with part of the time, then the complete DFS, all under the one
// deadline of `ctl`.
SolveResult solve_auto(const Problem& p, const SolveOptions& o, const Control& ctl,
                       Clock::time_point t0) {
  SolveOptions dfs = o;
  dfs.algorithm = Algorithm::Dfs;
  dfs.node_limit = o.auto_dfs_nodes;
  SolveResult first = run_dfs(p, dfs, ctl, t0);
  if (first.status != Status::Unknown || ctl.should_stop()) return first;
  // The beam phase: half the time left, or auto_beam_seconds when there is no deadline.
  Control phase(&ctl);
  phase.set_time_limit(ctl.has_deadline() ? ctl.remaining_seconds() / 2 : o.auto_beam_seconds);
  SolveOptions beam = o;
  beam.algorithm = Algorithm::Beam;
  SolveResult second = run_beam(p, beam, phase);
  second.nodes += first.nodes;
  if (second.status == Status::Solved) return second;
  if (ctl.should_stop()) {
    second.stop = ctl.stop_reason();
    return second;
  }
  dfs.node_limit = o.node_limit;
  SolveResult third = run_dfs(p, dfs, ctl, t0);
  third.nodes += second.nodes;
  return third;
}

}  // namespace

SolveResult solve(const Problem& p, const SolveOptions& o) {
  check_problem(p);
  checks::seconds(o.auto_beam_seconds, "SolveOptions::auto_beam_seconds");
  checks::threads(o.threads, "SolveOptions::threads");
  if (o.pagoda_jumps < -1)
    throw InputError("SolveOptions::pagoda_jumps",
                     std::to_string(o.pagoda_jumps) + "; -1 (every jump) or more");
  const auto t0 = Clock::now();
  // The one control of this solve, under the caller's.
  Control ctl(o.control);
  const Board& board = *p.board;
  SolveResult r;
  r.width = board.width();
  if (auto why = detail::impossibility(p, &ctl)) {
    r.status = Status::Impossible;
    r.reason = *why;
  } else {
    try {
      if (o.algorithm == Algorithm::Beam || o.algorithm == Algorithm::BeamReport)
        r = run_beam(p, o, ctl);  // incomplete: "solved" or "unknown" with its own reason
      else if (o.algorithm == Algorithm::Auto)
        r = solve_auto(p, o, ctl, t0);
      else
        r = run_dfs(p, o, ctl, t0);
    } catch (const std::bad_alloc&) {
      // The machine (or `ulimit -v`) refused memory before the budget did: a memory stop.
      r = SolveResult{};
      r.width = board.width();
      r.stop = StopReason::Memory;
      r.reason = "out of memory (an allocation failed); no solution found yet: this proves nothing";
    }
  }
  r.final = p.start;
  if (r.status == Status::Solved) {
    Replay check = replay(board, p.start, r.moves);
    if (!check.ok || !goal_reached(p, check.final))
      throw InternalError("solve: the solver returned an invalid solution: " +
                          (check.ok ? std::string("goal not reached") : check.error));
    r.final = check.final;
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

}  // namespace pegsol
