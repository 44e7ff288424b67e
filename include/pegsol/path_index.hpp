// The positions on the solution paths of one census, kept for look-ups: a position reached from
// the census's start by legal jumps can still reach its goal exactly when it lies on a solution
// path, so "still solvable?" and a hint become a binary search. Boards whose layout fits 64 bits.
//
// PathIndexCache shares the indexes between threads (a server's requests, an analyzer pool):
// each problem's census runs once, in a background thread one build at a time, within a memory
// budget; until it is built, callers answer another way (Analyzer's searches).
#pragma once

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

#include "pegsol/control.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {

class PathIndex {
 public:
  // Runs the census of p keeping its solution paths, within `memory` bytes (0: the census's
  // default) and `control` (may be null). A census that stops or fails leaves ok() false and
  // failed() saying why. Throws InputError for a layout wider than 64 bits.
  PathIndex(const Problem& p, std::size_t memory, const Control* control, int threads = 0);
  ~PathIndex();
  PathIndex(const PathIndex&) = delete;
  PathIndex& operator=(const PathIndex&) = delete;

  bool ok() const { return failed_.empty(); }
  const std::string& failed() const { return failed_; }
  const Problem& problem() const { return problem_; }
  // Whether `pegs` (on the problem's board) lies on a solution path; false when !ok().
  bool on_path(const HoleSet& pegs) const;
  // The solution from `pegs` along the paths (each jump the first in board order that stays on
  // one); empty when `pegs` is the goal. Requires on_path(pegs).
  std::vector<Jump> solution_from(const HoleSet& pegs) const;
  std::uint64_t positions() const { return positions_; }  // up to the census group
  std::size_t bytes() const;
  double seconds() const { return seconds_; }  // the census's time

 private:
  struct Impl;  // the board's tables (path_index.cpp)
  bool on_path_bits(const std::uint64_t& layout) const;
  Problem problem_;
  std::unique_ptr<Impl> impl_;
  std::vector<int> syms_;
  std::vector<std::vector<std::uint64_t>> levels_;  // by peg count: canonical layouts, sorted
  std::uint64_t positions_ = 0;
  double seconds_ = 0;
  std::string failed_;
};

class PathIndexCache {
 public:
  struct Options {
    std::size_t build_memory = std::size_t{512} << 20;  // bytes for one census
    double build_seconds = 30;                          // time for one census
    int build_threads = 0;                              // 0: the hardware's
    std::size_t keep_bytes = std::size_t{256} << 20;    // indexes kept; the least recent go first
    std::size_t max_queued = 4;                         // builds waiting; more are not queued
    bool background = true;  // false: get() builds in the caller's thread
  };
  explicit PathIndexCache(Options o);
  PathIndexCache() : PathIndexCache(Options{}) {}
  ~PathIndexCache();  // stops a running build and waits for it
  PathIndexCache(const PathIndexCache&) = delete;
  PathIndexCache& operator=(const PathIndexCache&) = delete;

  // The index of p when it is built; else null with `note` saying why (being built, queued, its
  // census failed), having queued its build unless it failed before or the queue is full.
  std::shared_ptr<const PathIndex> get(const Problem& p, std::string* note = nullptr);
  // The index of p, built now if need be (waits for a queued or running build); null when its
  // census failed (`note` says why).
  std::shared_ptr<const PathIndex> wait(const Problem& p, std::string* note = nullptr);
  // The index of p once its queued or running build ends, waiting at most until `control` says
  // to stop; null at once when p has no build queued or running (get() queues one).
  std::shared_ptr<const PathIndex> await(const Problem& p, const Control& control,
                                         std::string* note = nullptr);
  std::size_t bytes() const;  // held by the built indexes

 private:
  struct Slot;
  std::shared_ptr<Slot> slot_for(const Problem& p);  // under mutex_
  void run();
  void build(Slot& s);
  void trim();  // under mutex_

  Options opt_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::shared_ptr<Slot>> slots_;
  std::deque<std::shared_ptr<Slot>> queue_;
  std::uint64_t tick_ = 0;
  Control stop_;
  bool stopping_ = false;
  std::thread worker_;
};

// A key naming a problem (board shape and name, start, goal) for caches.
std::string problem_key(const Problem& p);

}  // namespace pegsol
