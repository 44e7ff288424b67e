// SPDX-License-Identifier: MIT
/// @file
/// Fewest moves: solutions with the fewest moves, where a move is a chain of jumps by one peg, and
/// the proof that none is shorter (docs/fewest.md).
///
/// The search is exact: a bidirectional level-by-level pass (a level is every position with the
/// same peg count) whose state per position is the fewest moves that reach it and the set of holes
/// the last jump could have landed on at that cost. A result is proven by the completed search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/play.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"

namespace pegsol {

/// What a split board minimum (FewestOptions::split) settled in one sweep, as the processes that
/// share it (FewestOptions::split_merge) exchange it: each pair's floor, the best solution, the
/// stop and the positions stored.
struct PEGSOL_API FewestSweep {
  static constexpr int kImpossible = 0x7fffffff;  ///< a floor: the pair has no solution
  std::vector<int> floors;                        ///< per pair, in the split's order
  std::vector<Jump> best;                         ///< empty: none found yet
  StopReason stop = StopReason::None;             ///< a process stopped, and why
  std::uint64_t positions = 0;                    ///< stored since the last exchange
};

/// The processes a fewest-moves pass's levels are spread over (pegsol-mpi: the ranks of an MPI
/// job). A process holds the positions whose hash falls in its share, expands them, and sends each
/// child to the process that holds it; the collective steps below, which every process calls in
/// the same order, carry that and what the pass decides together. FewestOptions::ranks null: one
/// process (these steps are then the identity).
class PEGSOL_API FewestRanks {
 public:
  virtual ~FewestRanks() = default;
  virtual int rank() const = 0;  ///< this process, 0 .. size() - 1
  virtual int size() const = 0;  ///< the processes
  /// Every process's `bytes` bytes at `mine`, in rank order, into `all` (size() * bytes).
  virtual void all_gather(const void* mine, std::size_t bytes, void* all) = 0;
  /// out[r] (size() parts) to process r; `in` becomes what every process sent this one, in
  /// rank order.
  virtual void all_to_all(std::span<const std::span<const std::byte>> out,
                          std::vector<std::byte>& in) = 0;
  /// Returns when no process failed (failure null everywhere) and none is to stop; otherwise
  /// throws on every process: Stopped with the worst stop, or the failing process's exception
  /// there and an Error on the others.
  virtual void agree(std::exception_ptr failure) = 0;
};

/// The bytes a fewest-moves search may hold when its control has no memory budget.
inline constexpr std::size_t kFewestMemory = std::size_t{8} << 30;

/// How a fewest-moves search runs. Its bounds in time and memory are the control's alone;
/// spill_limit bounds the disk.
struct PEGSOL_API FewestOptions {
  /// Deadline, memory budget (kFewestMemory when the control has none), cancel, pause, progress
  /// (reports with ProgressReport::fewest, phase "fewest"). May be null: no deadline.
  const Control* control = nullptr;
  bool symmetry = true;  ///< store positions up to the symmetries the problem keeps
  /// Bound the moves left by regions that cost a move each (docs/fewest.md) and search under a
  /// rising limit, dropping positions that cannot lie on a solution within it. Off: one pass
  /// that stores every position both sides reach. The answer is the same.
  bool prune = true;
  /// With the bound, between one start and one goal at least this many jumps apart: tight
  /// pagodas (find_tight_pagodas), then pruning ones (find_pruning_pagodas), four in all at
  /// most, drop the positions on no solution. -1: never (a cross-check; the answer is the same).
  /// The linear programs cost milliseconds, hence the floor.
  int pagoda_jumps = 16;
  /// With the bound, on the triangular lattice, between starts and goals at least this many
  /// jumps apart: the pattern tables (docs/fewest.md), the fewest move starts each part of the
  /// board needs, summed. -1: never (a cross-check; the answer is the same). The default takes
  /// the triangles from 8 rows (docs/fewest.md says why not smaller problems yet).
  int pattern_jumps = 34;
  /// Before the passes, a beam down the forward side keeping this many positions a level (the
  /// least cost plus bound): its solution, close to the fewest, sets the passes' limit. 0: none.
  std::size_t beam = 20000;
  /// Positions as 128-bit keys even on boards of at most 64 holes (they take 128 bits past 64
  /// holes): for tests and comparisons. The answer is the same.
  bool wide_keys = false;
  int threads = 0;  ///< worker threads (0: the hardware's count); the answer is the same
  /// A pass that runs short of memory releases the levels it has expanded (kept to walk a
  /// solution back) and goes on with each side's last levels. If it then meets, its solution is
  /// rebuilt by two searches through the meeting position; where that fails, the result is the
  /// fewest as lower_bound with the best solution known (status Unknown, stop Memory).
  /// true: every pass releases from its start (for tests).
  bool release_levels = false;
  /// When memory runs out before the proof, the rest of the run shortens the best solution by
  /// windows anchored at its ends (docs/fewest.md); false: return at once with it as it is.
  bool shorten_ends = true;
  /// A solution known before the search (fewest_solve: of its problem; fewest_board: from a
  /// single vacancy to one peg), replayed and checked first: the best found until a shorter one
  /// turns up, so that the passes stop once their floor reaches its moves. With `resume`, it
  /// replaces the state's best solution when it has fewer moves (the state is written back).
  /// Empty: none. The searches throw InputError (field FewestOptions::known_solution) naming the
  /// jump that fails, or the goal it misses.
  std::vector<Jump> known_solution;
  /// A directory for the search's state after each completed pass (fewest_solve and
  /// fewest_board): the floor its passes proved and the best solution, in DIR/fewest.state
  /// (docs/fewest.md). Empty: none. With `resume`, the search goes on from the state there (a
  /// run of the same problem killed at any moment; none there yet: from the beginning).
  /// The searches throw InputError when that state is damaged or of another problem.
  std::string checkpoint_dir;
  bool resume = false;  ///< go on from the state in checkpoint_dir
  /// A pass part way is saved after a level at most this often (seconds; 0: after every level),
  /// and, with spill_dir, a level made in groups of shards after a group (the groups done, in a
  /// file of checkpoint_dir). Each save writes the sides' last levels that moved, so long runs
  /// space them out.
  double level_checkpoint_seconds = 0;
  /// Called after each state written to checkpoint_dir, with its floor (tests stop a run there
  /// and resume it).
  std::function<void(int)> checkpointed;
  /// A directory for the passes' levels on disk: once the tables held reach half the memory
  /// budget, every level made and sorted goes to an unnamed file there (nothing is left after
  /// the search, even after a kill), and a level too large for the budget is made in groups of
  /// its shards, each from a walk of the level before. Empty: levels stay in memory. The answer
  /// is the same.
  std::string spill_dir;
  std::uint64_t spill_limit = 0;  ///< the most the spill files may hold, in bytes (0: the disk's)
  bool spill_always = false;  ///< with spill_dir: every level to disk, one shard a walk (for tests)
  /// fewest_board: one search per start class and end class (the classes of holes under the
  /// board's symmetries) instead of one over every pair, each under a cap that rises with the
  /// least floor of the pairs and stops at the best solution found so far. Each search holds
  /// less; the answer is the same. Its checkpoints say which pairs are settled.
  bool split = false;
  /// A split board minimum shared by `split_parts` processes (pegsol-mpi fewest): this one
  /// searches the pairs numbered split_part, split_part + split_parts, ... of each sweep's open
  /// pairs, and `split_merge`, called by every process at the start and after each sweep (a
  /// collective), must leave in each one's FewestSweep the greatest floor of each pair over the
  /// processes, a best solution with the fewest moves of theirs, a stop when any stopped, and the
  /// positions summed. The answer is the same for any number of processes.
  int split_part = 0;
  int split_parts = 1;                            ///< processes sharing the split search
  std::function<void(FewestSweep&)> split_merge;  ///< the processes' exchange, as said above
  /// Smaller levels run on the calling thread (under a memory budget whose tables get 256 MiB or
  /// more, levels below a quarter of it: the first beam's levels are then shared).
  std::size_t shared_level = std::size_t{1} << 15;
  /// The processes the passes' levels are spread over (collective: each passes its own, the
  /// same problem and options); null: one process. Every process ends with the same fewest
  /// moves, proof and lower bound. Not with checkpoints, spill_dir or split (InputError).
  FewestRanks* ranks = nullptr;
};

/// A fewest-moves answer. status: Solved (a solution; `proven` when no shorter one exists),
/// Impossible (the completed search found no solution), Unknown (stopped: `stop` says why).
struct PEGSOL_API FewestResult {
  Status status = Status::Unknown;  ///< solved, impossible or unknown
  std::string reason;               ///< why impossible or unknown; empty when solved
  std::vector<Jump> jumps;      ///< the solution, replayed and checked; empty when none was found
  int moves = -1;               ///< its number of moves (chains of jumps by one peg); -1 when none
  int lower_bound = 0;          ///< proven: every solution has at least this many moves
  bool proven = false;          ///< moves == lower_bound, so the solution has the fewest moves
  std::uint64_t positions = 0;  ///< positions stored (up to symmetry), both directions
  double seconds = 0;           ///< the search's time
  StopReason stop = StopReason::None;  ///< why it stopped short (None: it finished)
  std::uint64_t spill_peak_bytes = 0;  ///< the most a pass held on disk (FewestOptions::spill_dir)

  /// The solution's jumps grouped into moves.
  std::vector<Move> chains() const { return group_moves(jumps); }
};

/// The fewest moves of `p` (any goal kind; boards of at most 128 holes). A short first-solution DFS
/// runs first: its solution is the best found when a stop cuts the search short, and its
/// "impossible" (a proof or a completed search) is the answer.
/// @throws InputError for a problem it cannot take (a larger board, a goal that does not fit).
PEGSOL_API FewestResult fewest_solve(const Problem& p, const FewestOptions& o = {});

/// A solution of `p` with no more moves than `jumps`, which must solve it: each run of 4, 6 and
/// then 8 consecutive moves gives way to the fewest moves between the positions before and after
/// it, found by a search of its own under 1/32 of the control's memory budget (a run that budget
/// stops stays as it was), until no run shortens. fewest_solve does this to its first solution.
/// Not a proof: the result may still have more than the fewest moves.
/// @throws InputError when `jumps` does not replay from the start or does not reach the goal.
PEGSOL_API std::vector<Jump> shorten_moves(const Problem& p, const std::vector<Jump>& jumps,
                                           const FewestOptions& o = {});

/// A game finished with the fewest moves from where it stands, keeping the player's moves.
struct PEGSOL_API FewestFinish {
  HoleSet from;                ///< the position after the kept moves
  FewestResult rest;           ///< the fewest-moves search from it, to p's goal
  std::vector<Jump> jumps;     ///< the kept jumps then rest.jumps, replayed from p's start
  std::size_t kept_jumps = 0;  ///< the first kept_jumps of jumps are the player's
};
/// Plays `kept` from p.start, then runs fewest_solve from the position they leave.
/// @throws InputError naming the first kept move that is illegal ("move 3 (d2-d4): ...").
PEGSOL_API FewestFinish fewest_finish(const Problem& p, const std::vector<Move>& kept,
                                      const FewestOptions& o = {});

/// The board's fewest moves over every single-vacancy-to-one-peg problem, with a problem that
/// achieves it (`start` the vacancy, `end` the last peg) and its solution in `result`.
struct PEGSOL_API FewestBoardResult {
  FewestResult result;  ///< the search's answer for the pair below
  int start = -1;       ///< the vacancy; -1 when no single-vacancy problem is solvable or stopped
  int end = -1;         ///< the last peg's hole; -1 likewise
};
/// The board's fewest moves over its single-vacancy-to-one-peg problems (FewestOptions::split:
/// one search per pair of classes).
/// @throws InputError for a null board or one too large (as fewest_solve).
PEGSOL_API FewestBoardResult fewest_board(const BoardPtr& board, const FewestOptions& o = {});

/// Every single vacancy to every single survivor: the fewest moves of each pair.
struct PEGSOL_API FewestTable {
  static constexpr int kImpossible = -1;  ///< a pair without solution
  static constexpr int kUnknown = -2;     ///< a pair not settled
  int holes = 0;                          ///< the board's holes
  std::vector<int> moves;  ///< moves[start * holes + end]: fewest moves, kImpossible or kUnknown
  int fewest = -1;         ///< the minimum over the pairs (-1: none solvable or not settled)
  int start = -1;          ///< a pair achieving it: the vacancy
  int end = -1;            ///< and the last peg's hole
  bool complete = false;   ///< every pair settled
  std::uint64_t positions = 0;         ///< positions stored by the searches
  double seconds = 0;                  ///< the table's time
  StopReason stop = StopReason::None;  ///< why it stopped short (None: it finished)

  /// The fewest moves from the vacancy `start_hole` to one peg on `end_hole` (or kImpossible,
  /// kUnknown).
  int at(int start_hole, int end_hole) const {
    return moves[static_cast<std::size_t>(start_hole * holes + end_hole)];
  }
};
/// The fewest moves of every single-vacancy-to-one-peg pair of the board.
/// @throws InputError for a null board or one too large (as fewest_solve).
PEGSOL_API FewestTable fewest_table(const BoardPtr& board, const FewestOptions& o = {});

/// The same answer as a first-solution result (for the solve front ends): the solution's jumps, its
/// final position (the start when none), positions as nodes, the status, reason and stop.
PEGSOL_API SolveResult to_solve_result(const Problem& p, const FewestResult& r);

/// The number of moves of a jump list: consecutive jumps by the same peg count as one.
PEGSOL_API int count_moves(const std::vector<Jump>& jumps);

}  // namespace pegsol
