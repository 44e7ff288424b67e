// The compact engine's memory (internal to src/census): a pool of 2 MiB chunks, each level's store
// carved from it, and a worker's bump allocator into a store. Compiled once for every tier (no
// instruction set of its own); every mapping is booked in the memory ledger (engine.hpp).
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine.hpp"

namespace pegsol::census_detail {

// Memory for the levels' arrays: chunks of 2 MiB, mapped once on a 2 MiB boundary with huge
// pages and kept for the whole run. A level's arrays are carved from chunks, and when the level
// is freed its chunks return here for the next one, so the kernel zeroes each page once per run
// and in 2 MiB pages (arrays from the heap, in 4 KiB pages freshly mapped level after level, took
// the English census 52,000 page faults, a tenth of its time). Arrays over a chunk get a mapping
// of their own, unmapped when freed. Every mapping is booked in the memory ledger.
class Pool {
 public:
  static constexpr std::size_t kChunk = std::size_t{2} << 20;
  struct Chunk {
    char* p = nullptr;
    std::size_t size = 0;
  };
  explicit Pool(Memory& m) : mem_(&m) {}
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() {
    for (const Chunk& c : free_) unmap(c);
  }
  // A chunk of at least `bytes` (thread-safe); throws CensusError past the memory limit.
  Chunk take(std::size_t bytes) {
    if (bytes <= kChunk) {
      std::lock_guard<std::mutex> lock(m_);
      if (!free_.empty()) {
        const Chunk c = free_.back();
        free_.pop_back();
        return c;
      }
    }
    return map(std::max(kChunk, (bytes + kChunk - 1) / kChunk * kChunk));
  }
  void give(const Chunk& c) {
    if (c.size != kChunk) {
      unmap(c);
      return;
    }
    std::lock_guard<std::mutex> lock(m_);
    free_.push_back(c);
  }

 private:
  Chunk map(std::size_t size) {
    mem_->take(size);
    void* m =
        mmap(nullptr, size + kChunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
      mem_->give(size);
      throw std::bad_alloc();
    }
    auto* base = static_cast<char*>(m);
    const std::size_t lead = (kChunk - reinterpret_cast<std::uintptr_t>(base) % kChunk) % kChunk;
    if (lead) munmap(base, lead);
    munmap(base + lead + size, kChunk - lead);
    madvise(base + lead, size, MADV_HUGEPAGE);
    return {base + lead, size};
  }
  void unmap(const Chunk& c) {
    munmap(c.p, c.size);
    mem_->give(c.size);
  }
  Memory* mem_;
  std::mutex m_;
  std::vector<Chunk> free_;
};

// The memory one level's arrays live in: pool chunks, which go back to the pool with the store,
// or for a small level blocks from the heap (a chunk each for the many small levels kept for the
// solution-path pass would waste 30 MB of the English census's peak).
class Store {
 public:
  Store() = default;
  Store(Pool& p, Memory& m) : pool_(&p), mem_(&m) {}
  Store(Store&& o) noexcept { *this = std::move(o); }
  Store& operator=(Store&& o) noexcept {
    if (this != &o) {
      clear();
      pool_ = o.pool_;
      mem_ = o.mem_;
      chunks_ = std::move(o.chunks_);
      heap_ = std::move(o.heap_);
      o.chunks_.clear();
      o.heap_.clear();
    }
    return *this;
  }
  ~Store() { clear(); }
  Pool& pool() const { return *pool_; }
  void add(const Pool::Chunk& c) {
    std::lock_guard<std::mutex> lock(m_);
    chunks_.push_back(c);
  }
  // A heap block of `bytes` (a multiple of 64), booked in the ledger.
  char* heap(std::size_t bytes) {
    mem_->take(bytes);
    auto* p = static_cast<char*>(std::aligned_alloc(64, bytes));
    if (!p) {
      mem_->give(bytes);
      throw std::bad_alloc();
    }
    std::lock_guard<std::mutex> lock(m_);
    heap_.push_back({p, bytes});
    return p;
  }
  void clear() {
    for (const Pool::Chunk& c : chunks_) pool_->give(c);
    chunks_.clear();
    for (const Pool::Chunk& h : heap_) {
      std::free(h.p);
      mem_->give(h.size);
    }
    heap_.clear();
  }

 private:
  Pool* pool_ = nullptr;
  Memory* mem_ = nullptr;
  std::vector<Pool::Chunk> chunks_, heap_;
  std::mutex m_;
};

// A worker's allocator into one store: arrays of one level, 64-byte aligned, one after another
// in pool chunks, or each from the heap when the level is small.
class Bump {
 public:
  void begin(Store& s, bool small) {
    store_ = &s;
    small_ = small;
    at_ = end_ = nullptr;
  }
  template <class T>
  T* alloc(std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t bytes = std::max<std::size_t>(64, (n * sizeof(T) + 63) & ~std::size_t{63});
    if (small_) return reinterpret_cast<T*>(store_->heap(bytes));
    if (bytes > static_cast<std::size_t>(end_ - at_)) {
      const Pool::Chunk c = store_->pool().take(bytes);
      store_->add(c);
      if (c.size != Pool::kChunk) return reinterpret_cast<T*>(c.p);
      at_ = c.p;
      end_ = c.p + c.size;
    }
    T* r = reinterpret_cast<T*>(at_);
    at_ += bytes;
    return r;
  }

 private:
  Store* store_ = nullptr;
  bool small_ = false;
  char* at_ = nullptr;
  char* end_ = nullptr;
};

}  // namespace pegsol::census_detail
