// SPDX-License-Identifier: MIT
/// @file
/// Exact census of a problem: every reachable position, every solution, every complete game.
///
/// The engine works level by level: level k is the set of positions with k pegs, and a jump always
/// leads from level k to level k-1, so each level only deduplicates against itself. Positions are
/// stored in canonical form under the census group (the board symmetries that fix the start and
/// the goal), each with the number of jump sequences reaching any member of its orbit (exact,
/// 128-bit, overflow is an error) and the chance that a uniformly random player passes through the
/// orbit. A level is split into parts with one owner each (by a residue of the position in the
/// compact engine, by a hash in the wide one), so the same layout spreads over threads today and
/// machines later.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {

/// The census engines' internals (src/census): declared here only so that a CensusResult can
/// carry the solution-path levels a PathIndex reads; not part of the API.
namespace census_detail {
/// @cond internal
struct KeptPaths;
/// @endcond
}  // namespace census_detail
class CensusAccess;  // the library's access to the census's internals (src/census/access.hpp)

/// Exact path counts. 2^128 is about 3.4e38: the English board's 5.8e20 games fit with room.
using Count = unsigned __int128;

/// Decimal text of a count.
PEGSOL_API std::string count_text(Count c);
/// Decimal text of a count with its digits grouped in threes by commas ("1,161,436"): the
/// library's one digit grouping, for text meant for people.
PEGSOL_API std::string grouped_count_text(Count c);

/// The name a census's own failures had before pegsol::Error: now InternalError (a count
/// overflow, a checkpoint file that cannot be written).
using CensusError = InternalError;

/// Which engine runs a census. Compact (src/census/compact_tier.hpp): layouts of up to 64 bits,
/// keys in 4 bytes where they fit, counts' high words apart, its kernels chosen at run time from
/// the CPU (docs/kernels.md). CompactPortable: the compact engine with its portable kernels on any
/// CPU. Wide: layouts of up to 128 bits, 32-byte entries. Auto: the compact engine when the layout
/// fits. All give the same figures.
enum class CensusEngine {
  Auto,             ///< the compact engine when the layout fits, else the wide one
  Compact,          ///< layouts of up to 64 bits, kernels chosen from the CPU
  CompactPortable,  ///< the compact engine with its portable kernels
  Wide              ///< layouts of up to 128 bits
};

/// A goal and pagoda functions for it (CensusOptions::reach): a position worth less than the goal
/// by any of them cannot reach it.
struct PEGSOL_API CensusReach {
  HoleSet goal;                 ///< the target position
  std::vector<Pagoda> pagodas;  ///< each worth at least as much at a position that reaches it
};

/// What a census computes. Its bounds (deadline, memory) are the control's alone.
struct PEGSOL_API CensusOptions {
  int threads = 0;       ///< 0: the hardware's thread count
  bool symmetry = true;  ///< store positions up to the census group
  bool on_path = true;   ///< backward pass: positions on some solution path
  bool distinct = true;  ///< solutions up to reordering of independent jumps
  /// The reordering count runs only when at most this many raw positions lie on solution paths
  /// (otherwise distinct_note says why it was skipped): its states outnumber the positions.
  std::uint64_t distinct_max_positions = 2'000'000;
  /// false: reachable sets only, no counts or chances (solutions_by_hole then holds 1 for every
  /// hole a single peg can be left on); what the solvability table needs.
  bool counts = true;
  /// Reachable sets only (counts false): when not empty, a position is stored only when, for some
  /// entry (or its image under the census group), each of its pagodas is worth at least its value
  /// at the goal; the others cannot reach any of these goals. The levels then hold fewer
  /// positions, and solutions_by_hole is exact for the entries' goals and their images alone.
  /// The solvability table's passes use it for their open pairs.
  std::vector<CensusReach> reach;
  /// Reachable sets only (counts false), the compact engine, a problem that is its own complement
  /// (complementary(p)): the pass stops once the two middle levels are joined, half way down.
  /// Reversed and complemented, a solution's second half is a first half, so the goal is
  /// reachable exactly when some middle position's complement (under the problem's symmetry) is
  /// reachable too; the levels below the middle are never built. CensusResult::met says so.
  bool meet = false;
  /// false: no random player's chance (p_one_peg, p_goal, p_by_hole stay 0 and random_player
  /// false); with counts, the compact engine then carries 8 bytes less per position and edge.
  bool random_player = true;
  CensusEngine engine = CensusEngine::Auto;  ///< which engine runs it
  /// A directory for the disk spill (the compact engine: boards of up to 64 holes): once the
  /// levels' arrays would pass half of the memory limit, the rest go to a file there (with no
  /// name: nothing is left behind), and the process keeps its resident memory under the limit by
  /// dropping spilled pages it is not using. Empty: no spill, the limit ends the run.
  std::string spill_dir;
  /// A directory for checkpoints (the compact engine): when a level of the forward pass is
  /// complete, before it is expanded, the level and the figures so far are written there
  /// (compact_checkpoint.hpp lists the files). With `resume`, the census goes on from the state
  /// in that directory instead of the start, to the same figures; census() throws InputError
  /// (field "CensusOptions::checkpoint_dir") when the directory holds no state, a damaged one, or
  /// one of another problem or other options.
  std::string checkpoint_dir;
  bool resume = false;  ///< go on from the state in checkpoint_dir
  /// Deadline, memory budget (the census's tables; without one, the machine's memory less a
  /// tenth, at least 1 GiB kept free), cancel, pause, progress (docs/control.md;
  /// solvability_table's reports carry ProgressReport::table). May be null: no deadline.
  const Control* control = nullptr;

 private:
  /// @cond internal
  friend class CensusAccess;
  bool keep_paths_ = false;  // PathIndex's census: keep the solution-path levels
  /// @endcond
};

/// Figures of one level (k pegs). "raw" counts positions, "sym" counts them up to the census group.
struct PEGSOL_API CensusLevel {
  std::uint64_t reachable_raw = 0;  ///< positions reachable from the start
  std::uint64_t reachable_sym = 0;  ///< the same up to the census group
  std::uint64_t on_path_raw = 0;    ///< of those, positions on some solution path
  std::uint64_t on_path_sym = 0;    ///< the same up to the census group
  Count games = 0;                  ///< complete games that end on this level (no jump left)
};

/// What a census found, and why it stopped if it did.
struct PEGSOL_API CensusResult {
  int group_size = 1;               ///< symmetries that fix the start and the goal
  std::vector<CensusLevel> levels;  ///< indexed by peg count, 0..holes
  std::uint64_t reachable_raw = 0;  ///< the levels' sum
  std::uint64_t reachable_sym = 0;  ///< the levels' sum
  std::uint64_t on_path_raw = 0;    ///< the levels' sum
  std::uint64_t on_path_sym = 0;    ///< the levels' sum
  bool on_path_done = false;        ///< the solution-path (backward) pass finished
  Count solutions = 0;              ///< jump sequences from the start to the goal
  Count games = 0;                  ///< jump sequences from the start to a position with no jump
  std::vector<Count> solutions_by_hole;  ///< one peg left on hole h (every goal kind)
  Count solutions_up_to_symmetry = 0;    ///< orbits of solutions under the census group (Burnside)
  std::optional<Count> distinct_solutions;  ///< classes under reordering of independent jumps
  std::string distinct_note;                ///< why distinct_solutions is missing, if it is
  /// A player who picks uniformly among the legal jumps until none is left. Binary64 floating
  /// point (sums of products of 1/moves), relative error about 1e-15 per level.
  bool random_player = false;        ///< whether the three figures below were computed
  double p_one_peg = 0;              ///< ends with one peg
  double p_goal = 0;                 ///< passes through the goal (for one-peg goals: ends on it)
  std::vector<double> p_by_hole;     ///< ends with one peg on hole h
  double seconds = 0;                ///< the census's time
  std::size_t peak_bytes = 0;        ///< the census's own tables at their largest
  std::size_t spill_peak_bytes = 0;  ///< the spill file at its largest (0: nothing spilled)
  int width = 0;                     ///< bitset width used
  int threads = 0;                   ///< worker threads used
  /// Why the census stopped early (None: it finished). A stopped census keeps the levels it
  /// completed: levels[k] is filled for every level the forward pass finished, the solution-path
  /// figures only when on_path_done; the totals sum what is there.
  StopReason stop = StopReason::None;
  /// For a memory stop: what the run held and needed, in the library's words (naming
  /// stop_field, which a front end renames with rename_fields()).
  std::string stop_note;
  /// For a memory stop: where the limit that was reached is set ("Control::memory_budget", the
  /// control's budget or, without one, the default it stands for; "CensusOptions::spill_dir"
  /// when the spill directory could take no more; empty when an allocation failed first).
  std::string stop_field;
  /// For a memory stop at the memory budget: the budget in bytes (else 0).
  std::size_t stop_limit = 0;
  /// With CensusOptions::meet, once the middle levels are joined (met): whether the goal is
  /// reachable (solutions_by_hole then holds 1 on a one-peg goal's hole), the middle levels'
  /// on_path figures, and when it is reachable, a position of the lower middle level (n/2 pegs
  /// rounded down, n holes) on a solution path.
  bool met = false;
  bool meet_reaches_goal = false;       ///< met: whether the goal is reachable
  std::optional<HoleSet> meet_witness;  ///< met and reachable: a lower middle position on a path

 private:
  /// @cond internal
  friend class CensusAccess;
  // PathIndex's census: the solution-path levels in the engines' layout (src/census/access.hpp).
  std::shared_ptr<census_detail::KeptPaths> paths_;
  /// @endcond
};

/// Runs the census of p; a deadline, the memory limit, cancellation or a signal end it early with
/// CensusResult::stop set.
/// @throws InputError as check_problem, for a start without pegs (field "start"), for a board too
/// wide for the census, for options that do not go together (the field named:
/// "CensusOptions::threads" below 0 or above 1024, "CensusOptions::resume" without a checkpoint
/// directory, ...), and for a checkpoint directory it cannot resume from; InternalError for a count
/// overflow or a checkpoint it cannot write.
PEGSOL_API CensusResult census(const Problem& p, const CensusOptions& options = {});

/// Whether p is its own complement problem (CensusOptions::meet): a board symmetry takes the start
/// to the goal's complement and the goal to the start's complement (one-peg and position goals).
/// @throws InputError as check_problem.
PEGSOL_API bool complementary(const Problem& p);

}  // namespace pegsol

// The solvability table and the stream of solutions have headers of their own; included here for
// code written when this header declared them.
#include "pegsol/enumerate.hpp"
#include "pegsol/table.hpp"
