// SPDX-License-Identifier: MIT
// The census's memory ledger (internal to src/census): Memory, which every large table books its
// bytes in first, the limit it enforces, huge-page table allocations and booked vectors.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pegsol/census.hpp"
#include "pegsol/control.hpp"

namespace pegsol::census_detail {

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
  static constexpr const char* kLimitField = "Control::memory_budget";
  explicit Memory(std::size_t limit) : limit_(limit) {}
  std::size_t limit() const { return limit_; }
  std::size_t used() const { return used_.load(); }
  std::size_t peak() const { return peak_.load(); }
  void set_level(int k) { level_.store(k); }
  // What take() calls before it refuses: it gives back (give()) memory booked here that its
  // holder can spare, returning the bytes (the MPI rank's pool's free chunks). Set once, before
  // the census starts; none by default.
  void set_reclaim(std::function<std::size_t()> f) { reclaim_ = std::move(f); }
  // Takes `bytes` or throws MemoryExceeded naming the limit and what the run needs.
  void take(std::size_t bytes) {
    std::size_t now = used_.fetch_add(bytes) + bytes;
    if (now > limit_) {
      used_.fetch_sub(bytes);
      if (reclaim_ && reclaim_() > 0) {
        take(bytes);
        return;
      }
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
  std::function<std::size_t()> reclaim_;
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

// The memory limit of a census under o: the control's budget, or the default.
inline std::size_t memory_limit_of(const CensusOptions& o) {
  if (o.control && o.control->memory_budget()) return o.control->memory_budget();
  return default_memory_limit();
}

}  // namespace pegsol::census_detail
