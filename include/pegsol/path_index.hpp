// SPDX-License-Identifier: MIT
/// @file
/// The positions on the solution paths of one census, kept for look-ups, with the number of ways
/// from each to the target: a position reached from the census's start by legal jumps can still
/// reach its target exactly when it lies on a solution path, so "still solvable?", "how many ways
/// are left?", "where can the last peg end?" and a hint become a few binary searches. Boards whose
/// layout fits 64 bits.
///
/// PathIndexCache shares the indexes between threads (a server's requests, an analyzer pool):
/// each problem's census runs once, in a background thread one build at a time (or in the
/// caller's thread, where there are no threads), within a memory budget; status() says how far a
/// problem's look-ups are without blocking; until they are built, callers answer another way
/// (Analyzer's searches).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {

/// What an index answers about: the problem's goal, or one peg anywhere.
enum class PathTarget {
  Goal,   ///< the problem's goal
  OnePeg  ///< one peg anywhere
};

/// The positions on the solution paths of one problem's census, with their ways to the target:
/// "still solvable?", "how many ways?", "where can the last peg end?" in a few look-ups.
/// Immutable once built: safe to share between threads.
class PEGSOL_API PathIndex {
 public:
  /// How an index is built.
  struct Options {
    std::size_t memory = 0;  ///< bytes for the census (0: the census's default)
    /// Deadline, cancel, progress (phases "forward", "backward" of the census, then "ways"); may
    /// be null.
    const Control* control = nullptr;
    int threads = 0;  ///< worker threads; 0: the hardware's
    /// For a goal of one peg on a hole that the symmetries fixing the start all fix: one census
    /// towards one peg anywhere answers both targets (answers(OnePeg)); false: the goal's census.
    bool one_peg = true;
  };

  /// Runs the census of p keeping its solution paths (for a goal of one peg on a hole, usually
  /// the census towards one peg anywhere: answers_one_peg), then a backward pass over the paths
  /// giving each position its ways to the target(s) and, towards one peg anywhere, the holes its
  /// last peg can end on. A census that stops or fails leaves ok() false and failed() saying why.
  /// @throws InputError as check_problem, for a layout wider than 64 bits, or threads below 0 or
  /// above 1024.
  PathIndex(const Problem& p, const Options& o);
  /// The same with Options{memory, control, threads}.
  PathIndex(const Problem& p, std::size_t memory, const Control* control, int threads = 0);
  ~PathIndex();
  PathIndex(const PathIndex&) = delete;
  PathIndex& operator=(const PathIndex&) = delete;

  /// Whether the index of p (built with `one_peg`) answers towards one peg anywhere too.
  static bool answers_one_peg(const Problem& p, bool one_peg = true);

  /// The census finished and the index answers.
  bool ok() const { return failed_.empty(); }
  /// Why the index does not answer (empty when ok()).
  const std::string& failed() const { return failed_; }
  /// The problem it was built for.
  const Problem& problem() const { return problem_; }
  /// Whether the index answers towards `t` (Goal always, once ok()).
  bool answers(PathTarget t) const;

  /// Whether `pegs` (on the problem's board) lies on a solution path to `t`; false when
  /// !ok() or !answers(t). on_path, solution_from, ways and end_holes throw InputError (field
  /// "pegs") for a position of another size. Answers about positions reached from the start by
  /// legal jumps alone.
  bool on_path(const HoleSet& pegs, PathTarget t = PathTarget::Goal) const;
  /// The solution from `pegs` along the paths to `t` (each jump the first in board order that
  /// stays on one); empty when `pegs` is the target. InputError unless on_path(pegs, t).
  std::vector<Jump> solution_from(const HoleSet& pegs, PathTarget t = PathTarget::Goal) const;
  /// Jump sequences from `pegs` to `t` (0 off the paths). InputError (field "t") unless answers(t).
  Count ways(const HoleSet& pegs, PathTarget t = PathTarget::Goal) const;
  /// The holes a single last peg can end on from `pegs` (empty off the paths). InputError unless
  /// answers(OnePeg).
  HoleSet end_holes(const HoleSet& pegs) const;

  /// Positions on the goal's paths, up to the census group.
  std::uint64_t positions() const { return positions_; }
  /// Positions held (the census's paths), up to the census group.
  std::uint64_t kept() const { return kept_; }
  /// Bytes the index holds.
  std::size_t bytes() const;
  /// The whole build's time: the census and the pass over the paths.
  double seconds() const { return census_seconds_ + ways_seconds_; }
  /// The census's time.
  double census_seconds() const { return census_seconds_; }
  /// The backward pass over the paths' time.
  double ways_seconds() const { return ways_seconds_; }
  /// The census's tables at their largest, in bytes.
  std::size_t census_peak_bytes() const { return census_peak_; }

 private:
  struct Impl;  // the board's tables and the levels (path_index.cpp)
  Problem problem_;
  std::unique_ptr<Impl> impl_;
  std::uint64_t positions_ = 0, kept_ = 0;
  double census_seconds_ = 0, ways_seconds_ = 0;
  std::size_t census_peak_ = 0;
  std::string failed_;
};

/// How far the look-ups of one problem are (PathIndexCache::status).
struct PEGSOL_API LookupStatus {
  /// How far the look-ups are.
  enum class State {
    None,      ///< not asked for (or forgotten: evicted, or a build its caller stopped)
    Queued,    ///< waiting for the background thread
    Building,  ///< a census or the pass after it is running
    Ready,     ///< built: the analysis answers from them
    Failed     ///< a census stopped or failed; not tried again (`why`)
  };
  State state = State::None;  ///< how far they are
  std::string phase;          ///< Building: "forward" or "backward" (the census), then "ways"
  int level = -1;         ///< Building: the level (peg count) being worked on, -1 when not known
  double fraction = 0;    ///< Building: of the whole build, in [0, 1] (estimated); Ready: 1
  double seconds = 0;     ///< Building: since the build started; Ready: the build's time
  std::size_t bytes = 0;  ///< Ready: held by the indexes
  std::string why;        ///< Failed: why; None: why the look-ups cannot be built, if they cannot
  int censuses = 1;       ///< indexes the problem's look-ups need (1, or 2: goal and one peg)
};

/// "none", "queued", "building", "ready", "failed".
PEGSOL_API const char* lookup_state_name(LookupStatus::State s);

/// The path indexes of many problems, shared between threads (a server's requests, an analyzer
/// pool): each problem's census runs once, in a background thread one build at a time, within a
/// memory budget; the least recently used indexes are dropped first. Thread-safe.
class PEGSOL_API PathIndexCache {
 public:
  /// The cache's bounds.
  struct Options {
    /// Bytes for one census and its index (0: a quarter of the machine's memory as the census
    /// counts it, at least 512 MiB and at most 4 GiB; docs/play.md says what games need).
    std::size_t build_memory = 0;
    /// Time for one census and its pass: a bound on runaway builds (a board whose census takes
    /// minutes), well above what the memory lets finish.
    double build_seconds = 120;
    int build_threads = 0;                            ///< a build's threads; 0: the hardware's
    std::size_t keep_bytes = std::size_t{256} << 20;  ///< indexes kept; the least recent go first
    std::size_t max_queued = 4;                       ///< builds waiting; more are not queued
    bool background = true;  ///< false: get() and start() build in the caller's thread
  };
  /// A cache with these bounds (and a background thread unless Options::background is false).
  explicit PathIndexCache(Options o);
  /// A cache with the default bounds.
  PathIndexCache() : PathIndexCache(Options{}) {}
  /// Stops a running build and waits for it.
  ~PathIndexCache();
  PathIndexCache(const PathIndexCache&) = delete;
  PathIndexCache& operator=(const PathIndexCache&) = delete;

  /// The index of p when it is built; else null with `note` saying why (being built, queued, its
  /// census failed), having queued its build unless it failed before or the queue is full.
  std::shared_ptr<const PathIndex> get(const Problem& p, std::string* note = nullptr);
  /// The index of p, built now if need be (waits for a queued or running build); null when its
  /// census failed (`note` says why). `control` (may be null) stops a build made in this call, as
  /// start()'s does; a build it stopped is forgotten, to be started again.
  std::shared_ptr<const PathIndex> wait(const Problem& p, std::string* note = nullptr,
                                        const Control* control = nullptr);
  /// The index of p once its queued or running build ends, waiting at most until `control` says
  /// to stop; null at once when p has no build queued or running (get() queues one).
  std::shared_ptr<const PathIndex> await(const Problem& p, const Control& control,
                                         std::string* note = nullptr);

  /// The look-ups a game of p needs (its goal and one peg anywhere: one index, or two when one
  /// census cannot answer both, PathIndex::answers_one_peg): how far they are, never blocking,
  /// starting nothing. Two indexes report the less advanced one's state, and their mean fraction.
  LookupStatus status(const Problem& p) const;
  /// Starts the look-ups a game of p needs, and returns their status. With background builds it
  /// queues them (Queued when the queue is full stays None: ask again) and returns at once.
  /// Without (Options::background false), it builds them now in the caller's thread: `control`
  /// (may be null) receives progress reports (phase, level, fraction of the whole build) and
  /// stops it; a build the caller stopped is forgotten (None, to be started again), one the
  /// cache's own bounds stopped is remembered as Failed.
  LookupStatus start(const Problem& p, const Control* control = nullptr);

  std::size_t bytes() const;  ///< held by the built indexes
  /// The cache's bounds (build_memory as resolved: never 0).
  const Options& options() const { return opt_; }

 private:
  struct Slot;
  std::shared_ptr<Slot> slot_for(const Problem& p);  ///< under mutex_
  void run();
  void build(Slot& s, const Control* caller);
  void trim();                                       ///< under mutex_
  LookupStatus slot_status(const Problem& p) const;  ///< under mutex_
  std::shared_ptr<const PathIndex> get_locked(const Problem& p, std::string* note);  ///< mutex_

  Options opt_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::shared_ptr<Slot>> slots_;
  std::deque<std::shared_ptr<Slot>> queue_;
  std::uint64_t tick_ = 0;
  std::atomic<bool> cancel_{false};  ///< set by the destructor: stops a running build
  bool stopping_ = false;
  std::thread worker_;
};

/// A key naming a problem (board shape and name, start, goal) for caches.
/// @throws InputError as check_problem (so do PathIndexCache's calls).
PEGSOL_API std::string problem_key(const Problem& p);

}  // namespace pegsol
