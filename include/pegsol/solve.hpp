// First-solution search: depth-first on bitboards with a table of failed positions.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pegsol/problem.hpp"

namespace pegsol {

enum class Direction { Forward, Backward };
enum class Status { Solved, Impossible, Unknown };

std::string_view status_name(Status s);

struct Progress {
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::size_t table_entries = 0;
};

struct SolveOptions {
  Direction direction = Direction::Forward;
  double time_limit = 0;                      // seconds; 0: no limit
  const std::atomic<bool>* cancel = nullptr;  // set to true from anywhere to stop the search
  std::size_t memory_limit = std::size_t{1} << 30;  // bytes for the failed-position table
  bool symmetry = true;                       // canonicalise table keys under the goal's symmetries
  bool peg_types = true;                      // prune positions short of pegs of a needed type
  std::function<void(const Progress&)> progress;  // called about twice a second
};

struct SolveResult {
  Status status = Status::Unknown;
  std::string reason;        // why impossible or unknown; empty when solved
  std::vector<Jump> moves;   // the solution, replayed and checked before it is returned
  HoleSet final;             // position after the moves (the start when not solved)
  std::uint64_t nodes = 0;   // positions searched
  double seconds = 0;        // search time
  int width = 0;             // bitset width used
};

// Solves p: a proof of impossibility found without search, a solution, or (after a completed
// search) "impossible"; "unknown" when stopped by the time limit or cancellation.
SolveResult solve(const Problem& p, const SolveOptions& options = {});

}  // namespace pegsol
