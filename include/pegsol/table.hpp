// SPDX-License-Identifier: MIT
/// @file
/// The solvability table of a board: which single survivors each single vacancy can reach,
/// settled by proofs, short searches and forward census passes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {

/// How solvability_table settles a pair (vacancy v, last peg on h). Both methods first rule out
/// the pairs the position class and peg types forbid. Passes: then a forward census pass from
/// every start class with a pair left (the census alone decides). Auto: before any pass, each
/// open pair up to symmetry and transposition (by the complement trick v can end on h exactly
/// when h can end on v) gets a short solution search, whose solution solve() replays, or whose
/// "impossible" is a pagoda proof or a completed search; passes then run only for start classes
/// with a pair still open, each settling its row and, transposed, its column.
enum class TableMethod {
  Auto,   ///< short searches first, then passes for what stays open
  Passes  ///< census passes alone
};

/// How solvability_table settles its pairs, beside the census options it takes.
struct PEGSOL_API TableOptions {
  TableMethod method = TableMethod::Auto;  ///< searches then passes, or passes alone
  double search_seconds = 2;               ///< Auto: time for one pair's solution search
  int max_searches = -1;  ///< Auto: search at most this many pairs (-1: every open pair)
  /// With a checkpoint directory: each pass also checkpoints its levels (false: the table's state
  /// after each pass alone; a level's files can take tens of GB on the 41-hole boards).
  bool level_checkpoints = true;
  /// Each forward pass stores only the positions that the pruning pagodas of its open pairs
  /// (find_pruning_pagodas) allow to reach one of their goals (false: every reachable position;
  /// a cross-check).
  bool pagodas = true;
};

/// A pair the search settled, with its certificate: the solution (replayed by solve()), or the
/// proof that there is none (a pagoda function, or the search completed).
struct PEGSOL_API TableCertificate {
  int vacancy = 0;          ///< the start's one empty hole
  int end = 0;              ///< the hole of the last peg
  bool solvable = false;    ///< whether the pair has a solution
  std::vector<Jump> moves;  ///< solvable: from the single vacancy to one peg on `end`
  std::string reason;       ///< not solvable: the proof
};

/// Solvability matrix: finals[v] is the set of holes h such that the board with only hole v vacant
/// can be reduced to one peg on h. When a pass cannot run (the memory limit, a board too wide for
/// the census), the table keeps every pair settled so far: open[v] holds the holes still
/// undecided for v, and `stopped` says why.
struct PEGSOL_API SolvabilityTable {
  std::vector<HoleSet> finals;  ///< indexed by vacant hole
  std::vector<HoleSet> open;    ///< indexed by vacant hole; empty sets when the table is complete
  std::string stopped;          ///< why pairs stayed open; empty when the table is complete
  StopReason stop = StopReason::None;  ///< set when the control (or memory) stopped the table
  int passes = 0;                      ///< forward passes run
  /// of those, passes that stopped half way at the middle join (CensusOptions::meet): a row with
  /// one open pair whose problem is its own complement
  int half_passes = 0;
  int proved = 0;  ///< start classes answered by the position class and peg types
  /// Auto: pairs searched (one per class under symmetry and transposition).
  int searched = 0;
  int solved_by_search = 0;      ///< of those, pairs settled by a solution found
  int impossible_by_search = 0;  ///< of those, pairs settled by a proof of impossibility
  /// One per pair a search settled, and one per pair a half pass found reachable when its two
  /// halves were then found (a solution through the middle join's witness).
  std::vector<TableCertificate> certificates;
  double seconds = 0;                ///< the table's time
  std::size_t peak_bytes = 0;        ///< the passes' census tables at their largest
  std::size_t spill_peak_bytes = 0;  ///< the passes' spill files at their largest (0: none)
  /// Every pair is settled (no pass was cut short).
  bool complete() const { return stopped.empty(); }
};

/// The solvability table of `board`, under options.control (searches and passes alike); a stop
/// keeps every pair settled before it (SolvabilityTable::stop, open). With
/// options.checkpoint_dir, the pairs settled go to table.state there after the searches and after
/// each forward pass, and a pass keeps its census checkpoint in a subdirectory while it runs
/// (boards of up to 64 bits); with options.resume, the table goes on from that state (searches
/// done are not run again, a pass goes on from its last level) to the same matrix.
/// @throws InputError when the directory holds no table state, one of another board, or a damaged
/// one, for a null board (field "board"), census options as census() refuses them, a negative
/// TableOptions::search_seconds or TableOptions::max_searches below -1.
PEGSOL_API SolvabilityTable solvability_table(const BoardPtr& board,
                                              const CensusOptions& options = {},
                                              const TableOptions& table = {});

}  // namespace pegsol
