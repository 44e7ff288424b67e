// SPDX-License-Identifier: MIT
// Shared pieces of the census engines (internal to src/census): the memory ledger, booked
// vectors, the run's control, progress and result totals, and the entry points of the two
// engines (their skeleton is context.hpp). The wide engine (wide.cpp, layouts over 64 bits) splits
// a level into shards by a hash of the position (kShards), each with one owner; the compact engine
// splits it by a residue of the position (compact.cpp). Either way a part of a level has one owner,
// so the same layout spreads over threads today and machines later.
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

// The memory limit reached: census() turns it into StopReason::Memory, the message its note,
// `field` and `limit` CensusResult::stop_field and stop_limit.
class MemoryExceeded : public CensusError {
 public:
  explicit MemoryExceeded(const std::string& message, std::string field = {}, std::size_t limit = 0)
      : CensusError(message), field(std::move(field)), limit(limit) {}
  std::string field;      // the options field whose limit was reached, or empty
  std::size_t limit = 0;  // that limit in bytes, when it is one
};

// The census's memory ledger: every large table takes its bytes here first, so the run ends with
// a clear error instead of an out-of-memory kill.
class Memory {
 public:
  static constexpr const char* kLimitField = "CensusOptions::memory_limit";
  explicit Memory(std::size_t limit) : limit_(limit) {}
  std::size_t limit() const { return limit_; }
  std::size_t used() const { return used_.load(); }
  std::size_t peak() const { return peak_.load(); }
  void set_level(int k) { level_.store(k); }
  // Takes `bytes` or throws MemoryExceeded naming the limit and what the run needs.
  void take(std::size_t bytes) {
    std::size_t now = used_.fetch_add(bytes) + bytes;
    if (now > limit_) {
      used_.fetch_sub(bytes);
      throw MemoryExceeded(
          "memory limit of " + mib(limit_) + " (" + kLimitField + ") reached at level " +
              std::to_string(level_.load()) + ": the census holds " + mib(now - bytes) +
              " and needs " + mib(bytes) + " more (at least " + mib(now) +
              "). Raise the memory limit if the machine has the memory; boards beyond one machine "
              "(the Wiegleb 45 census) need the census on MPI ranks (docs/mpi.md).",
          kLimitField, limit_);
    }
    std::size_t p = peak_.load();
    while (now > p && !peak_.compare_exchange_weak(p, now)) {
    }
  }
  void give(std::size_t bytes) { used_.fetch_sub(bytes); }
  static std::string mib(std::size_t b) {
    return std::to_string((b + (1u << 20) - 1) >> 20) + " MiB";
  }

 private:
  std::size_t limit_;
  std::atomic<std::size_t> used_{0}, peak_{0};
  std::atomic<int> level_{0};
};

// The default limit: physical memory minus a tenth (at least 1 GiB kept free), and at most three
// quarters of an address-space limit (ulimit -v).
std::size_t default_memory_limit();

// Allocates blocks of 1 MiB and more as their own mappings, starting on a 2 MiB boundary, asking
// the kernel for huge pages there: the census's tables are probed at random, and with 4 KiB pages
// nearly every probe of a large table also missed the TLB. (Unaligned mappings got no huge pages
// at all: the kernel backs only aligned 2 MiB stretches. Rounding each block up to whole 2 MiB
// pages as well cost 28 MiB of the English census's peak for no measurable speed: the tail of a
// block stays in 4 KiB pages.)
template <class T>
struct TableAllocator {
  using value_type = T;
  static constexpr std::size_t kLarge = std::size_t{1} << 20;
  static constexpr std::size_t kHuge = std::size_t{2} << 20;
  static constexpr std::size_t kPage = std::size_t{4} << 10;
  TableAllocator() = default;
  template <class U>
  TableAllocator(const TableAllocator<U>&) {}
  // Bytes an allocation of `bytes` really takes.
  static std::size_t footprint(std::size_t bytes) {
    return bytes < kLarge ? bytes : (bytes + kPage - 1) / kPage * kPage;
  }
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kLarge) return std::allocator<T>().allocate(n);
    const std::size_t span = footprint(bytes);
#ifdef __EMSCRIPTEN__
    // WebAssembly: zeroed heap memory (no pages to map), as a fresh mapping would be.
    void* w = std::aligned_alloc(kPage, span);
    if (!w) throw std::bad_alloc();
    std::memset(w, 0, span);
    return static_cast<T*>(w);
#else
    void* m =
        mmap(nullptr, span + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    auto* base = static_cast<char*>(m);
    const std::size_t lead = (kHuge - reinterpret_cast<std::uintptr_t>(base) % kHuge) % kHuge;
    if (lead) munmap(base, lead);
    munmap(base + lead + span, kHuge - lead);
    madvise(base + lead, span, MADV_HUGEPAGE);
    return reinterpret_cast<T*>(base + lead);
#endif
  }
  void deallocate(T* p, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kLarge)
      std::allocator<T>().deallocate(p, n);
    else
#ifdef __EMSCRIPTEN__
      std::free(p);
#else
      munmap(p, footprint(bytes));
#endif
  }
  template <class U>
  bool operator==(const TableAllocator<U>&) const {
    return true;
  }
  // resize() default-initialises: a level's arrays are written before they are read, and
  // zero-filling them first cost the English census a third of its compaction time.
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};

// A vector whose capacity is booked in a Memory ledger.
template <class T>
class Booked {
 public:
  explicit Booked(Memory& m) : mem_(&m) {}
  Booked(Booked&& o) noexcept : mem_(o.mem_), v_(std::move(o.v_)), booked_(o.booked_) {
    o.booked_ = 0;
  }
  Booked& operator=(Booked&& o) noexcept {
    if (this != &o) {
      release();
      mem_ = o.mem_;
      v_ = std::move(o.v_);
      booked_ = o.booked_;
      o.booked_ = 0;
    }
    return *this;
  }
  Booked(const Booked&) = delete;
  Booked& operator=(const Booked&) = delete;
  ~Booked() { release(); }

  void reserve(std::size_t n) {
    if (n <= v_.capacity()) return;
    const std::size_t bytes = TableAllocator<T>::footprint(n * sizeof(T));
    mem_->take(bytes);
    Vec w;
    try {
      w.reserve(n);
    } catch (...) {
      mem_->give(bytes);
      throw;
    }
    w.insert(w.end(), v_.begin(), v_.end());
    std::size_t old = booked_;
    v_ = std::move(w);
    booked_ = bytes;
    mem_->give(old);
  }
  void push_back(const T& x) {
    if (v_.size() == v_.capacity()) reserve(std::max<std::size_t>(16, v_.capacity() * 2));
    v_.push_back(x);
  }
  void assign(std::size_t n, const T& x) {
    reserve(n);
    v_.assign(n, x);
  }
  void clear() { v_.clear(); }
  void release() {
    Vec().swap(v_);
    if (mem_) mem_->give(booked_);
    booked_ = 0;
  }
  Memory& memory() const { return *mem_; }
  using Vec = std::vector<T, TableAllocator<T>>;
  Vec& vec() { return v_; }
  const Vec& vec() const { return v_; }
  std::size_t size() const { return v_.size(); }
  T& operator[](std::size_t i) { return v_[i]; }
  const T& operator[](std::size_t i) const { return v_[i]; }

 private:
  Memory* mem_;
  Vec v_;
  std::size_t booked_ = 0;
};

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
namespace portable {
CensusResult compact_census_isa(const Problem& p, const CensusOptions& o,
                                const std::vector<int>& syms, int twist, int count_bits);
}
namespace avx2 {
CensusResult compact_census_isa(const Problem& p, const CensusOptions& o,
                                const std::vector<int>& syms, int twist, int count_bits);
}
namespace avx512 {
CensusResult compact_census_isa(const Problem& p, const CensusOptions& o,
                                const std::vector<int>& syms, int twist, int count_bits);
}

// The control a census engine polls: a child of the caller's (options.control).
struct RunControl {
  explicit RunControl(const CensusOptions& o) : control(o.control) {}
  Control control;
};

// A census run's clock and progress: the control's report (done in thousandths of a level: the
// forward pass's levels, then the backward pass's; units() in all) and the options' callback, at
// most every 500 ms. Both engines report through one.
class Progress {
 public:
  Progress(const CensusOptions& o, const Control& control, const Memory& mem)
      : o_(o), control_(control), mem_(mem) {}
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
    if (!o_.progress) return;
    const auto now = Clock::now();
    if (now - last_report_ < std::chrono::milliseconds(500)) return;
    last_report_ = now;
    o_.progress(CensusProgress{level, positions, std::chrono::duration<double>(now - t0_).count(),
                               mem_.used()});
  }

 private:
  const CensusOptions& o_;
  const Control& control_;
  const Memory& mem_;
  std::uint64_t units_ = 0;  // progress units of the whole run
  Clock::time_point t0_, last_report_;
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

// The memory limit of a census under o: its own, the control's budget, or the default.
inline std::size_t memory_limit_of(const CensusOptions& o) {
  if (o.memory_limit) return o.memory_limit;
  if (o.control && o.control->memory_budget()) return o.control->memory_budget();
  return default_memory_limit();
}

// Worker threads of a census under o (0: the default).
inline int threads_of(const CensusOptions& o) {
  return o.threads > 0 ? o.threads : default_threads();
}

}  // namespace pegsol::census_detail
