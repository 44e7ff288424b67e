// SPDX-License-Identifier: MIT
// The census engines' entry points and what every run shares (internal to src/census): the run's
// control, progress and result totals (their memory ledger is memory.hpp, their skeleton
// skeleton.hpp). The wide engine (wide.cpp, layouts over 64 bits) splits a level into shards by a
// hash of the position (kShards), each with one owner; the compact engine splits it by a residue
// of the position (compact_tier.hpp). Either way a part of a level has one owner, so the same
// layout spreads over threads today and machines later.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "../core/geometry.hpp"
#include "../core/pool.hpp"
#include "memory.hpp"
#include "pegsol/census.hpp"
#include "pegsol/control.hpp"

namespace pegsol::census_detail {

using Clock = std::chrono::steady_clock;

inline constexpr int kShardBits = 10;
inline constexpr int kShards = 1 << kShardBits;

// Adds b to a; throws CensusError on overflow (counts are never wrapped).
inline void add_count(Count& a, Count b) {
  if (__builtin_add_overflow(a, b, &a))
    throw CensusError("a path count exceeded 2^128 (about 3.4e38); the census cannot count it");
}

// Whether a census of p under o reports the random player's chances (CensusResult::random_player):
// asked for, with counts, and from a start with a peg to move.
inline bool reports_chances(const Problem& p, const CensusOptions& o) {
  return o.counts && o.random_player && p.start.count() > 0;
}

// The complement trick's twist for p (compact.cpp): a board symmetry u such that x is on a
// solution path exactly when u(complement of x) is reachable, or -1 when there is none.
int complement_twist(const Board& b, const Problem& p);

// The wide engine (wide.cpp): layouts of 64 and 128 bits, under the census group syms.
namespace wide {
CensusResult census(const Problem& p, const CensusOptions& o, std::vector<int> syms);
}

// The compact engine (compact.cpp): layouts of up to 64 bits; throws CensusError.
// count_bits: path counts stay 64-bit until a level whose counts could reach 2^count_bits, then
// widen to 128 bits; 64 in a real run, lower in the tests' checks of the widening (0: 128-bit
// counts from the start).
CensusResult compact_census(const Problem& p, const CensusOptions& o, int count_bits = 64);
// The compact engine compiled for one instruction-set tier (compact_tier.hpp): the census
// group's symmetries (indices into the board's, the identity first) and the complement twist
// given. Only the tiers this CPU supports may be called (pegsol::kernel_info()).
CensusResult compact_census_portable(const Problem& p, const CensusOptions& o,
                                     const std::vector<int>& syms, int twist, int count_bits);
CensusResult compact_census_avx2(const Problem& p, const CensusOptions& o,
                                 const std::vector<int>& syms, int twist, int count_bits);
CensusResult compact_census_avx512(const Problem& p, const CensusOptions& o,
                                   const std::vector<int>& syms, int twist, int count_bits);

// The control a census engine polls: a child of the caller's (options.control).
struct RunControl {
  explicit RunControl(const CensusOptions& o) : control(o.control) {}
  Control control;
};

// A census run's clock and progress: the control's report (done in thousandths of a level: the
// forward pass's levels, then the backward pass's; units() in all). Both engines report through
// one.
class Progress {
 public:
  Progress(const Control& control, const Memory& mem) : control_(control), mem_(mem) {}
  void start() { t0_ = Clock::now(); }  // the run's clock starts
  void set_units(std::uint64_t units) { units_ = units; }
  std::uint64_t units() const { return units_; }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }
  void report(std::string_view phase, int level, std::uint64_t positions, std::uint64_t done,
              bool force = false) {
    ProgressReport pr;
    pr.done = done;
    pr.total = units_;
    pr.phase = phase;
    pr.positions = positions;
    pr.memory_bytes = mem_.used();
    pr.level = level;
    control_.report(pr, force);
  }

 private:
  const Control& control_;
  const Memory& mem_;
  std::uint64_t units_ = 0;  // progress units of the whole run
  Clock::time_point t0_;
};

// Runs a census's passes into r: a stop (the control's, or the memory limit's) becomes r.stop
// and its note, and what the passes settled stays in r.
template <class F>
void run_passes(CensusResult& r, F&& passes) {
  try {
    passes();
  } catch (const Stopped& s) {
    r.stop = s.reason;
  } catch (const MemoryExceeded& e) {
    r.stop = StopReason::Memory;
    r.stop_note = e.what();
    r.stop_field = e.field;
    r.stop_limit = e.limit;
  }
}

// The end of every run: the result's totals over its levels, its time and the ledger's peak.
inline void total_result(CensusResult& r, const Progress& progress, const Memory& mem) {
  for (const CensusLevel& l : r.levels) {
    r.reachable_raw += l.reachable_raw;
    r.reachable_sym += l.reachable_sym;
    r.on_path_raw += l.on_path_raw;
    r.on_path_sym += l.on_path_sym;
  }
  r.seconds = progress.seconds();
  r.peak_bytes = mem.peak();
}

// Worker threads of a census under o (0: the default).
inline int threads_of(const CensusOptions& o) {
  return o.threads > 0 ? o.threads : default_threads();
}

}  // namespace pegsol::census_detail
