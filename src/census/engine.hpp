// The census's layer engine (internal to src/census).
//
// A level is an array of shards; a position belongs to shard digest(canonical) >> (64 -
// kShardBits). Building level k-1 from level k runs in chunks of parents:
//
//   phase A  every worker expands its slice of the chunk, appending each child (canonical key,
//            orbit path count, probability share) to its own buffer for the child's shard;
//   phase B  worker t merges every worker's buffers for the shards it owns (s % workers == t)
//            into its open-addressing tables.
//
// No locks: a shard has one owner. A machine could own a shard range the same way.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "pegsol/census.hpp"
#include "pegsol/geometry.hpp"

namespace pegsol::census_detail {

using Clock = std::chrono::steady_clock;

inline constexpr int kShardBits = 10;
inline constexpr int kShards = 1 << kShardBits;

// Adds b to a; throws CensusError on overflow (counts are never wrapped).
inline void add_count(Count& a, Count b) {
  if (__builtin_add_overflow(a, b, &a))
    throw CensusError("a path count exceeded 2^128 (about 3.4e38); the census cannot count it");
}

// The census's memory ledger: every large table takes its bytes here first, so the run ends with
// a clear error instead of an out-of-memory kill.
class Memory {
 public:
  explicit Memory(std::size_t limit) : limit_(limit) {}
  std::size_t limit() const { return limit_; }
  std::size_t used() const { return used_.load(); }
  std::size_t peak() const { return peak_.load(); }
  void set_level(int k) { level_.store(k); }
  // Takes `bytes` or throws CensusError naming the limit and what the run needs.
  void take(std::size_t bytes) {
    std::size_t now = used_.fetch_add(bytes) + bytes;
    if (now > limit_) {
      used_.fetch_sub(bytes);
      throw CensusError(
          "memory limit of " + mib(limit_) + " reached at level " + std::to_string(level_.load()) +
          ": the census holds " + mib(now - bytes) + " and needs " + mib(bytes) +
          " more (at least " + mib(now) +
          "). Raise --memory-limit if the machine has the memory; boards beyond one machine "
          "(the Wiegleb 45 census) need the distributed census, which pegsol does not have yet.");
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

// The default limit: physical memory minus a tenth (at least 1 GiB kept free).
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
    void* m =
        mmap(nullptr, span + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    auto* base = static_cast<char*>(m);
    const std::size_t lead = (kHuge - reinterpret_cast<std::uintptr_t>(base) % kHuge) % kHuge;
    if (lead) munmap(base, lead);
    munmap(base + lead + span, kHuge - lead);
    madvise(base + lead, span, MADV_HUGEPAGE);
    return reinterpret_cast<T*>(base + lead);
  }
  void deallocate(T* p, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kLarge)
      std::allocator<T>().deallocate(p, n);
    else
      munmap(p, footprint(bytes));
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

// Storage for n objects of a trivial type T in one block, booked in a Memory ledger and mapped
// as TableAllocator maps it. One block for all of a level's tables lets the kernel back them
// with huge pages (the English census's tables, 1.3 MiB per shard, got none apart); discard()
// hands a finished stretch's pages back early (callers discard disjoint stretches, once each).
template <class T>
class Arena {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  Arena(Memory& m, std::size_t n)
      : mem_(&m), n_(n), booked_(TableAllocator<T>::footprint(n * sizeof(T))) {
    m.take(booked_.load());
    try {
      p_ = TableAllocator<T>().allocate(n);
    } catch (...) {
      m.give(booked_.load());
      throw;
    }
  }
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() {
    TableAllocator<T>().deallocate(p_, n_);
    mem_->give(booked_.load());
  }
  T* data() const { return p_; }
  // Returns the whole pages within objects [from, from + n) to the system and the ledger; they
  // read as zero afterwards. Blocks below TableAllocator's threshold keep their memory.
  void discard(std::size_t from, std::size_t n) {
    if (n_ * sizeof(T) < TableAllocator<T>::kLarge) return;
    constexpr std::uintptr_t kPage = TableAllocator<T>::kPage;
    auto lo = reinterpret_cast<std::uintptr_t>(p_ + from);
    auto hi = reinterpret_cast<std::uintptr_t>(p_ + from + n);
    lo = (lo + kPage - 1) / kPage * kPage;
    hi = hi / kPage * kPage;
    if (hi <= lo) return;
    madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
    booked_.fetch_sub(hi - lo);  // disjoint stretches: never more than was booked
    mem_->give(hi - lo);
  }

 private:
  Memory* mem_;
  std::size_t n_;
  std::atomic<std::size_t> booked_;  // discard() runs on several threads
  T* p_ = nullptr;
};

// Sorts v's keys, all below 2^bits, in place: least significant digit first, digits of at most
// 10 bits (1,024 counters and as many write streams stay in L1), through tmp; small arrays by
// std::sort. On a shard's uniform keys three passes beat std::sort about threefold.
template <class V, class W>
void radix_sort(V& v, W& tmp, int bits) {
  using K = typename V::value_type;
  static_assert(std::is_same_v<typename W::value_type, K>);
  const std::size_t n = v.size();
  if (n < 1024 || bits <= 0) {
    std::sort(v.begin(), v.end());
    return;
  }
  const int passes = (bits + 9) / 10;
  const int width = (bits + passes - 1) / passes;
  const K mask = static_cast<K>((K{1} << width) - 1);
  std::vector<std::size_t> at(std::size_t{1} << width);
  tmp.resize(n);
  K* from = v.data();
  K* to = tmp.data();
  for (int p = 0; p < passes; ++p) {
    const int shift = p * width;
    std::fill(at.begin(), at.end(), 0);
    for (std::size_t i = 0; i < n; ++i) ++at[(from[i] >> shift) & mask];
    std::size_t sum = 0;
    for (std::size_t& a : at) sum += std::exchange(a, sum);
    for (std::size_t i = 0; i < n; ++i) to[at[(from[i] >> shift) & mask]++] = from[i];
    std::swap(from, to);
  }
  if (from != v.data()) std::copy(from, from + n, v.data());
}

// True when board symmetry s maps p's start to itself and its goal to itself.
bool fixes_problem(const Board& b, const Problem& p, int s);

// The compact engine (compact.cpp): layouts of up to 64 bits; throws CensusError.
CensusResult compact_census(const Problem& p, const CensusOptions& o);

// Runs f(t) on `workers` threads (t = 0 on the caller); rethrows the first exception.
template <class F>
void parallel(int workers, F&& f) {
  std::exception_ptr err;
  std::mutex m;
  auto run = [&](int t) {
    try {
      f(t);
    } catch (...) {
      std::lock_guard<std::mutex> lock(m);
      if (!err) err = std::current_exception();
    }
  };
  std::vector<std::thread> ts;
  for (int t = 1; t < workers; ++t) ts.emplace_back(run, t);
  run(0);
  for (auto& th : ts) th.join();
  if (err) std::rethrow_exception(err);
}

}  // namespace pegsol::census_detail
