// Bidirectional beam search for boards far too large for exhaustive search.
//
// Two capacity-limited breadth-first searches grow level by level: side A forward from the start,
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

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pegsol/bits.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"

namespace pegsol {

// Runs the beam search `o.algorithm` selects (Beam or BeamReport) on p. Returns "solved" with a
// solution (replayed by solve()), or "unknown" with a reason and SolveResult::stop; never
// "impossible". Honours o.control, o.time_limit and o.cancel; o.capacity 0 picks the default
// (report: 10000; improved: the sweep from 32 and the meet from 1000, doubling). Called by solve(),
// which dispatches here after its impossibility tests.
SolveResult beam_solve(const Problem& p, const SolveOptions& o);

namespace beam_detail {

// The report's "average board" of a level: for every hole count the positions of `level` with a
// peg there, then place pegs on the most frequent holes until the board has as many pegs as the
// level's positions (ties go to the lower bit). `level` is non-empty and its positions have equal
// peg counts.
template <int W>
Bits<W> average_board(const std::vector<Bits<W>>& level);

// Orders survivors: a higher key survives first. The score sits in the high 32 bits; the low 32
// bits are a hash of the position and the seed, so ties break the same way on every run and a
// different seed breaks them differently.
template <int W>
std::uint64_t survivor_key(std::int32_t score, const Bits<W>& pos, std::uint64_t seed);

// The report's survivor rule applied to a whole set of children: the indices of at most
// `capacity` distinct positions (the first copy of each), those differing from `average` in the
// most holes, ties by survivor_key. The result is sorted by index.
template <int W>
std::vector<std::size_t> report_survivors(const std::vector<Bits<W>>& children,
                                          const Bits<W>& average, std::size_t capacity,
                                          std::uint64_t seed);

// The forward beam's compactness cost of position p (lower is better; docs/beam.md): adjacent
// (peg, empty hole) pairs, pegs beside the rim, isolated pegs and, when goal_hole >= 0, each
// peg's lattice distance from goal_hole, with the default weights. For tests; the search keeps
// its tables.
template <int W>
std::int32_t sweep_cost(const Board& board, const Bits<W>& p, int goal_hole);

// sweep_cost(p ^ jump j) - sweep_cost(p) as the search computes it, from the terms jump j can
// change. Jump j is legal in p.
template <int W>
std::int32_t sweep_delta(const Board& board, const Bits<W>& p, int jump, int goal_hole);

}  // namespace beam_detail

}  // namespace pegsol
