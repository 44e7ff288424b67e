// SPDX-License-Identifier: MIT
/// @file
/// Solving a problem: solve() finds a first solution (replayed before it is returned) or proves
/// there is none, by the algorithm chosen: the depth-first search with its table of failed
/// positions, the beam searches, or Auto (both in turn, see Algorithm).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {

/// Which way the DFS searches.
enum class Direction {
  Forward,  ///< from the start towards the goal
  Backward  ///< from the goal back towards the start (reversed jumps)
};
/// A search's outcome.
enum class Status {
  Solved,      ///< a solution, replayed and checked
  Impossible,  ///< no solution: a proof or a completed search
  Unknown      ///< stopped, or an incomplete search gave up
};
/// Dfs: complete first-solution search. Beam: the bidirectional beam search for huge boards
/// (incomplete; src/beam). BeamReport: the same search with the 2022 report's selection rule.
/// Auto: a DFS bounded to `auto_dfs_nodes` positions, then the beam search (incomplete, strong on
/// boards with many solutions), then the DFS to completion, so "impossible" still comes only from
/// a proof or a completed search.
enum class Algorithm {
  Auto,       ///< a bounded DFS, the beam search, then the complete DFS
  Dfs,        ///< the complete first-solution search
  Beam,       ///< the beam searches (incomplete)
  BeamReport  ///< the beam search with the 2022 report's selection rule
};
/// Which searches Algorithm::Beam runs (docs/beam.md). Auto: the forward sweep; for a goal that is
/// a whole position, the sweep and the bidirectional meet in turn. Sweep: the sweep alone. Meet:
/// the bidirectional meet alone (log-likelihood scoring, complement pairs), for comparisons with
/// the report's rule.
enum class BeamMethod {
  Auto,   ///< the sweep; for a whole-position goal, the sweep and the meet in turn
  Sweep,  ///< the forward sweep alone
  Meet    ///< the bidirectional meet alone
};

/// "solved", "impossible" or "unknown".
PEGSOL_API std::string_view status_name(Status s);

/// The bytes a solve's failed-position table (and the beam's levels) may hold when its control
/// has no memory budget.
inline constexpr std::size_t kSolveMemory = std::size_t{1} << 30;

/// How solve() searches, and within which bounds.
struct PEGSOL_API SolveOptions {
  Direction direction = Direction::Forward;  ///< the DFS's direction
  /// Deadline, memory budget (the failed-position table's and the beam's; kSolveMemory when the
  /// control has none), cancel, pause, progress for the whole solve, Auto's phases included
  /// (docs/control.md): the DFS reports phase "dfs" with ProgressReport::table_entries, the beam
  /// searches phase "beam" with ProgressReport::beam. May be null: no limits.
  const Control* control = nullptr;
  bool symmetry = true;   ///< canonicalise table keys under the goal's symmetries
  bool peg_types = true;  ///< prune positions short of pegs of a needed type
  /// DFS towards a whole position at least this many jumps away: only the jumps that lose
  /// nothing on the problem's tight pagodas (find_tight_pagodas: no solution makes another).
  /// -1: every jump (a cross-check; the answer is the same).
  int pagoda_jumps = 16;
  Algorithm algorithm = Algorithm::Auto;  ///< which search runs
  std::uint64_t node_limit = 0;           ///< DFS: stop after this many positions (0: none)
  std::uint64_t auto_dfs_nodes = 200000;  ///< Auto: the first DFS phase's budget
  double auto_beam_seconds = 10;          ///< Auto: the beam phase's time when there is no limit
  std::size_t capacity = 0;  ///< beam: positions kept per level (0: the algorithm's default)
  std::uint64_t seed = 1;    ///< beam: fixed seed for tie-breaking, so runs repeat
  int threads = 0;           ///< beam: worker threads (0: up to 2, the hardware's count)
  BeamMethod beam_method = BeamMethod::Auto;  ///< Algorithm::Beam (and Auto's beam phase)
};

/// Figures of a beam search.
struct PEGSOL_API BeamStats {
  std::uint64_t pairs = 0;   ///< complement pairs found where the two sides meet
  std::size_t capacity = 0;  ///< capacity of the last attempt
  /// The --capacity asked for when the memory budget could not hold it (then `capacity` is at most
  /// the largest that fits); 0 when nothing was clamped.
  std::size_t clamped_from = 0;
  int attempts = 0;  ///< attempts run (the improved search raises the capacity)
  /// The last attempt's search: "sweep" (forward beam), "meet" (bidirectional) or "report".
  std::string method;
};

/// What solve() found.
struct PEGSOL_API SolveResult {
  Status status = Status::Unknown;  ///< solved, impossible or unknown
  std::string reason;               ///< why impossible or unknown; empty when solved
  std::vector<Jump> moves;          ///< the solution, replayed and checked before it is returned
  HoleSet final;                    ///< position after the moves (the start when not solved)
  std::uint64_t nodes = 0;          ///< positions searched
  double seconds = 0;               ///< search time
  int width = 0;                    ///< bitset width used
  std::optional<BeamStats> beam;    ///< set by the beam searches
  /// Why the search stopped short (status unknown): time, memory, cancelled, signal. None when
  /// it finished, or gave up within its own budget (node limit, an incomplete beam).
  StopReason stop = StopReason::None;
};

/// Solves p: a proof of impossibility found without search, a solution, or (after a completed
/// search) "impossible"; "unknown" when stopped (SolveResult::stop says why) or when an incomplete
/// search gave up. A stop never gives "impossible".
/// @throws InputError as check_problem, or naming the option: a negative or NaN
/// SolveOptions::auto_beam_seconds, threads below 0 or above 1024, pagoda_jumps below -1.
PEGSOL_API SolveResult solve(const Problem& p, const SolveOptions& options = {});

}  // namespace pegsol
