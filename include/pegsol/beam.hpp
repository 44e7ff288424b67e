// SPDX-License-Identifier: MIT
/// @file
/// Bidirectional beam search for boards far too large for exhaustive search.
///
/// Two capacity-limited breadth-first searches grow level by level: side A forward from the start,
// side B forward from the complement of the goal (a forward jump on the complemented board is a
// backward jump on the original). When A has made k moves and B has made m moves with
// k + m = pegs(start) - pegs(goal), a position P of A whose complement is a position of B is a
// "complement pair": the solution is A's path to P, then B's jumps in reverse order, each jump
// unchanged (a jump that takes Q' to Q on the complemented board takes ~Q to ~Q' on the
// original). The search is incomplete: a failed beam proves nothing.
//
// Two selection rules:
//   Algorithm::BeamReport  the rule of "Peg Solitaire: A New Algorithm for an Old Game" (Starego,
//                          2022): build the "average board" of the other side's last level and keep
//                          the C children that differ from it in the most holes. One attempt, one
//                          thread, pairs counted between the two final levels.
//   Algorithm::Beam        the improved default (docs/beam.md): first a one-sided beam (the
//                          "sweep": survivors by a compactness cost, a depth-first endgame; on the
//                          reversed problem for a whole-position goal with more pegs than the
//                          start has holes), then, for goals that are whole positions, the meet
//                          with log-likelihood scoring and peg-type pruning; several seeds on
//                          the machine's cores, capacity raised until success.
//                          SolveOptions::beam_method runs the sweep alone or the meet alone.
#pragma once

#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"

namespace pegsol {

/// Runs the beam search `o.algorithm` selects (Beam or BeamReport; Auto means Beam) on `p`. Returns
/// "solved" with a solution (replayed by solve()), or "unknown" with a reason and
/// SolveResult::stop; never "impossible". Honours o.control; o.capacity 0 picks
/// the default (report: 10000; improved: the sweep from 32 and the meet from 1000, doubling).
/// Called by solve(), which dispatches here after its impossibility tests.
/// @throws InputError as check_problem(), for a limit out of range, or for Algorithm::Dfs.
PEGSOL_API SolveResult beam_solve(const Problem& p, const SolveOptions& o);

}  // namespace pegsol
