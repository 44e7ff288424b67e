// SPDX-License-Identifier: MIT
// The compact engine's memory (internal to src/census): a pool of 2 MiB chunks, each level's store
// carved from it, and a worker's bump allocator into a store. Compiled once for every tier (no
// instruction set of its own); every mapping is booked in the memory ledger (memory.hpp).
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "memory.hpp"
#include "pegsol/error.hpp"

namespace pegsol::census_detail {

// The process's resident memory in bytes (/proc/self/statm), or 0 where it cannot be read.
inline std::size_t resident_bytes() {
  static const long page = sysconf(_SC_PAGESIZE);
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[128];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return 0;
  buf[n] = 0;
  unsigned long size = 0, resident = 0;
  if (std::sscanf(buf, "%lu %lu", &size, &resident) != 2) return 0;
  return static_cast<std::size_t>(resident) * static_cast<std::size_t>(page);
}

// A new file in `dir` with no name, open for reading and writing (nothing is left there, even
// after kill -9; a named file unlinked at once where the file system has no O_TMPFILE): its
// descriptor, or -1 with errno set.
inline int open_unnamed(const std::string& dir) {
#ifdef O_TMPFILE
  const int tmp = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (tmp >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return tmp;
#endif
  std::string name = dir + "/pegsol-spill.XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd >= 0) ::unlink(name.c_str());
  return fd;
}

// The disk spill (CensusOptions::spill_dir): one file in the spill directory with no name (so
// that nothing is left there, even after kill -9), mapped whole into one reserved stretch of
// address space. The pool carves level arrays from it once the memory ledger's share for them
// is used up; the kernel writes the pages to disk and reads them back when they are touched, and
// shed() drops them from the process's memory. Space is allocated on disk as chunks are taken
// (a full disk is an error then, not a fault later); a chunk given back is punched out.
class SpillFile {
 public:
  static constexpr const char* kDirField = "CensusOptions::spill_dir";
  explicit SpillFile(const std::string& dir) : dir_(dir) {
#ifdef __EMSCRIPTEN__
    // WebAssembly has no files to map: no spill there.
    throw InputError(kDirField, dir_ + ": this build (WebAssembly) cannot spill to disk");
#endif
    fd_ = open_unnamed(dir);
    if (fd_ < 0)
      throw InputError(kDirField,
                       dir_ + ": cannot create a file there (" + std::strerror(errno) + ")");
    // A stretch of address space for the whole file: the largest of 1 TiB, 256 GiB, ... that the
    // process may map (nothing is committed until a chunk is taken).
    for (std::size_t r = std::size_t{1} << 40; r >= (std::size_t{1} << 32); r /= 4) {
      void* m = mmap(nullptr, r, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd_, 0);
      if (m != MAP_FAILED) {
        base_ = static_cast<char*>(m);
        reserved_ = r;
        break;
      }
    }
    if (!base_) {
      ::close(fd_);
      throw InputError(kDirField, dir_ + ": cannot map 4 GiB of address space for it (" +
                                      std::strerror(errno) + "; see ulimit -v)");
    }
  }
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;
  ~SpillFile() {
    munmap(base_, reserved_);
    ::close(fd_);
  }
  // `size` bytes (a multiple of 2 MiB) of the file, allocated on disk; throws CensusError when
  // the disk or the reserved address space is full.
  char* take(std::size_t size) {
    std::lock_guard<std::mutex> lock(m_);
    std::size_t off;
    if (auto it = free_.find(size); it != free_.end()) {
      off = it->second;
      free_.erase(it);
    } else {
      if (end_ + size > reserved_)
        throw MemoryExceeded("the spill file in " + dir_ + " (" + kDirField + ") reached the " +
                                 Memory::mib(reserved_) + " of address space reserved for it",
                             kDirField);
      off = end_;
      end_ += size;
    }
    if (allocate(off, size) != 0) {
      const int e = errno;
      if (e != EOPNOTSUPP || ::ftruncate(fd_, static_cast<off_t>(end_)) != 0) {
        free_.emplace(size, off);  // for a smaller request, or a later one once space is free
        fail("cannot allocate " + Memory::mib(live_ + size) + " in the spill file", e);
      }
    }
    live_ += size;
    peak_ = std::max(peak_, live_);
    used_.store(true, std::memory_order_relaxed);
    return base_ + off;
  }
  // Gives back a chunk: its disk space and cached pages are freed, its offset reused.
  void give(char* p, std::size_t size) {
#ifndef __EMSCRIPTEN__
    ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, p - base_,
                static_cast<off_t>(size));
#endif
    std::lock_guard<std::mutex> lock(m_);
    free_.emplace(size, static_cast<std::size_t>(p - base_));
    live_ -= size;
  }
  // Drops [p, p + size) from the process's memory (the data stays in the file). Safe while
  // other threads read the range; a range being written must be complete first.
  static void shed(char* p, std::size_t size) {
    madvise(p, size, MADV_DONTNEED);
  }
  // Drops the whole file from the process's memory; only when no thread writes to it.
  void shed_all() {
    std::size_t end;
    {
      std::lock_guard<std::mutex> lock(m_);
      end = end_;
    }
    if (end) shed(base_, end);
  }
  bool used() const {
    return used_.load(std::memory_order_relaxed);
  }
  std::size_t peak() const {
    std::lock_guard<std::mutex> lock(m_);
    return peak_;
  }

 private:
  // Disk space for [off, off + size): 0, or -1 with errno.
  int allocate(std::size_t off, std::size_t size) {
#ifdef __EMSCRIPTEN__
    (void)off, (void)size;
    errno = EOPNOTSUPP;
    return -1;
#else
    return ::fallocate(fd_, 0, static_cast<off_t>(off), static_cast<off_t>(size));
#endif
  }
  // A full disk (or another failure to grow the file): a memory stop, which keeps what the
  // census settled.
  [[noreturn]] void fail(const std::string& what, int e) const {
    throw MemoryExceeded(
        std::string(kDirField) + " " + dir_ + ": " + what + " (" + std::strerror(e) + ")",
        kDirField);
  }
  std::string dir_;
  int fd_ = -1;
  char* base_ = nullptr;
  std::size_t reserved_ = 0, end_ = 0, live_ = 0, peak_ = 0;
  std::multimap<std::size_t, std::size_t> free_;  // size -> offset of chunks given back
  std::atomic<bool> used_{false};
  mutable std::mutex m_;
};

// Memory for the levels' arrays: chunks of 2 MiB, mapped once on a 2 MiB boundary with huge
// pages and kept for the whole run. A level's arrays are carved from chunks, and when the level
// is freed its chunks return here for the next one, so the kernel zeroes each page once per run
// and in 2 MiB pages (arrays from the heap, in 4 KiB pages freshly mapped level after level, took
// the English census 52,000 page faults, a tenth of its time). An array over a chunk gets a
// mapping of its own, on a chunk boundary, whose whole chunks are free chunks moved into place
// (mremap moves their pages, zeroed once, without a copy) and whose tail is fresh pages:
//
//   | chunk | chunk | chunk | tail (< 2 MiB, whole 4 KiB pages) |
//
// When it is freed its whole chunks join the free chunks and its tail is unmapped. (Unmapped
// whole, the hot residues' arrays were zeroed again level after level: docs/census.md.) Single
// chunks come from slabs, a mapping each. Every chunk is booked in the memory ledger when it is
// handed out.
class Pool {
 public:
  static constexpr std::size_t kChunk = std::size_t{2} << 20;
  static constexpr std::size_t kPage = 4096;
  struct Chunk {
    char* p = nullptr;
    std::size_t size = 0;
    bool spilled = false;  // in the spill file
  };
  explicit Pool(Memory& m) : mem_(&m) {}
  // Spills to a file in `dir` once the chunks in memory would pass half the memory limit; the
  // other half is for the rest of the census and the spilled pages the process holds (shed()
  // keeps them under it).
  void spill_to(const std::string& dir) {
    spill_ = std::make_unique<SpillFile>(dir);
    anon_cap_ = mem_->limit() / 2;
    trigger_ = mem_->limit() - mem_->limit() / 16;
  }
  SpillFile* spill() const { return spill_.get(); }
  // Whether a chunk has gone to the spill file yet.
  bool spilled() const { return spill_ && spill_->used(); }
  // Whether the process holds more than the memory limit less a margin (spilling only), or,
  // when what it cannot drop already passes that, 16 MiB more than after the last shed (so that
  // a tight limit does not drop the pages in use at every step).
  bool over() const {
    return spill_ && resident_bytes() > trigger_.load(std::memory_order_relaxed);
  }
  // Call after dropping pages: sets the next trigger from what is resident now.
  void shed_done() {
    const std::size_t floor = mem_->limit() - mem_->limit() / 16;
    trigger_.store(std::max(floor, resident_bytes() + (std::size_t{16} << 20)),
                   std::memory_order_relaxed);
  }
  std::size_t spill_peak() const { return spill_ ? spill_->peak() : 0; }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() {
    for (const Chunk& c : free_) unmap(c);
    if (slab_left_) munmap(slab_at_, slab_left_ * kChunk);  // never handed out, never booked
  }
  // A chunk of at least `bytes` (thread-safe); throws CensusError past the memory limit (or,
  // spilling, when the disk is full). Chunks in memory are handed out first; `in_memory`: never
  // from the spill file (a table written at random: Blocks).
  Chunk take(std::size_t bytes, bool in_memory = false) {
    if (bytes <= kChunk) {
      std::lock_guard<std::mutex> lock(m_);
      if (!free_.empty()) {
        const Chunk c = free_.back();
        free_.pop_back();
        return c;
      }
    }
    if (bytes <= kChunk) return map(kChunk, in_memory);
    // An array of its own: whole pages in memory (whole chunks left much of the largest levels
    // unused, docs/census.md), whole chunks on disk (map()).
    const std::size_t size = (bytes + kPage - 1) / kPage * kPage;
    if (Chunk c; assemble(size, c, in_memory)) return c;
    return map(size, in_memory);
  }
  // The chunks in memory given back and not yet taken again, in bytes (booked in the ledger).
  std::size_t free_bytes() {
    std::lock_guard<std::mutex> lock(m_);
    return free_.size() * kChunk;
  }
  // Unmaps the chunks in memory given back and not yet taken again (their bytes leave the
  // ledger); returns their bytes.
  std::size_t release_free() {
    std::vector<Chunk> f;
    {
      std::lock_guard<std::mutex> lock(m_);
      f.swap(free_);
    }
    for (const Chunk& c : f) unmap(c);
    return f.size() * kChunk;
  }
  // Takes a chunk back: one in memory for the next level, a spilled one punched out of the file,
  // an array's whole chunks to the free ones and its tail unmapped.
  void give(const Chunk& c) {
#ifdef __EMSCRIPTEN__
    if (c.size != kChunk) {  // an array: one allocation of its own, freed whole
      unmap(c);
      return;
    }
#endif
    if (c.spilled || c.size < kChunk) {
      unmap(c);
      return;
    }
    const std::size_t whole = c.size / kChunk * kChunk;
    if (whole < c.size) unmap({c.p + whole, c.size - whole, false});
    std::lock_guard<std::mutex> lock(m_);
    for (std::size_t at = 0; at < whole; at += kChunk) free_.push_back({c.p + at, kChunk, false});
  }

 private:
  // An array of `size` bytes (whole pages, over a chunk) from free chunks moved into a mapping
  // of its own, the rest fresh; false, with nothing taken, when no chunk is free or the fresh
  // part would have to spill.
  bool assemble(std::size_t size, Chunk& out, bool in_memory) {
#ifdef __EMSCRIPTEN__
    (void)size, (void)out, (void)in_memory;
    return false;  // no pages to move: map() gives the array memory of its own
#endif
    std::vector<Chunk> moved;
    {
      std::lock_guard<std::mutex> lock(m_);
      while (moved.size() < size / kChunk && !free_.empty()) {
        moved.push_back(free_.back());
        free_.pop_back();
      }
    }
    const std::size_t have = moved.size() * kChunk;
    auto put_back = [&] {
      std::lock_guard<std::mutex> lock(m_);
      free_.insert(free_.end(), moved.begin(), moved.end());
    };
    if (moved.empty() || (spill_ && !in_memory && mem_->used() + (size - have) > anon_cap_)) {
      put_back();
      return false;
    }
    char* base = map_aligned(size, PROT_NONE);
    if (!base) {
      put_back();
      return false;
    }
    // Moved chunk by chunk; a chunk that fails to move stays where it was, free, and the rest of
    // the array is fresh pages.
    std::size_t placed = 0;
    while (placed < moved.size() &&
           mremap(moved[placed].p, kChunk, kChunk, MREMAP_MAYMOVE | MREMAP_FIXED,
                  base + placed * kChunk) != MAP_FAILED)
      ++placed;
    {
      std::lock_guard<std::mutex> lock(m_);
      free_.insert(free_.end(), moved.begin() + static_cast<std::ptrdiff_t>(placed), moved.end());
    }
    auto undo = [&] {
      std::lock_guard<std::mutex> lock(m_);
      for (std::size_t i = 0; i < placed; ++i) free_.push_back({base + i * kChunk, kChunk, false});
    };
    const std::size_t fresh = size - placed * kChunk;
    if (placed == 0) {
      munmap(base, size);
      return false;
    }
    if (fresh > 0) {
      try {
        mem_->take(fresh);
      } catch (...) {
        munmap(base + placed * kChunk, fresh);
        undo();
        throw;
      }
      if (mmap(base + placed * kChunk, fresh, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
        mem_->give(fresh);
        munmap(base + placed * kChunk, fresh);
        undo();
        throw std::bad_alloc();
      }
      madvise(base + placed * kChunk, fresh, MADV_HUGEPAGE);
    }
    out = {base, size, false};
    return true;
  }
  // A mapping of `size` bytes on a chunk boundary (huge pages when writable; an inaccessible one
  // is a reservation of address space alone), or nullptr.
  static char* map_aligned(std::size_t size, int prot) {
#ifdef __EMSCRIPTEN__
    // WebAssembly has one linear memory and no pages to map: zeroed memory from the heap, freed
    // whole (assemble() and give() never split it there), and no reservations.
    if (prot == PROT_NONE) return nullptr;
    void* m = std::aligned_alloc(kChunk, (size + kChunk - 1) / kChunk * kChunk);
    if (m) std::memset(m, 0, size);
    return static_cast<char*>(m);
#else
    const int flags = MAP_PRIVATE | MAP_ANONYMOUS | (prot == PROT_NONE ? MAP_NORESERVE : 0);
    void* m = mmap(nullptr, size + kChunk, prot, flags, -1, 0);
    if (m == MAP_FAILED) return nullptr;
    auto* base = static_cast<char*>(m);
    const std::size_t lead = (kChunk - reinterpret_cast<std::uintptr_t>(base) % kChunk) % kChunk;
    if (lead) munmap(base, lead);
    munmap(base + lead + size, kChunk - lead);
    if (prot != PROT_NONE) madvise(base + lead, size, MADV_HUGEPAGE);
    return base + lead;
#endif
  }
  Chunk map(std::size_t size, bool in_memory) {
    if (spill_ && !in_memory && mem_->used() + size > anon_cap_) {
      const std::size_t chunks = (size + kChunk - 1) / kChunk * kChunk;
      return {spill_->take(chunks), chunks, true};
    }
    mem_->take(size);
    char* p = size == kChunk ? slab_chunk() : map_aligned(size, PROT_READ | PROT_WRITE);
    if (!p) {
      mem_->give(size);
      throw std::bad_alloc();
    }
    return {p, size, false};
  }
  // The next chunk of the current slab (a new slab when it is used up), or nullptr.
  char* slab_chunk() {
#ifdef __EMSCRIPTEN__
    return map_aligned(kChunk, PROT_READ | PROT_WRITE);  // a chunk an allocation
#else
    std::lock_guard<std::mutex> lock(m_);
    if (slab_left_ == 0) {
      char* slab = map_aligned(kSlabChunks * kChunk, PROT_READ | PROT_WRITE);
      if (!slab) return nullptr;
      slab_at_ = slab;
      slab_left_ = kSlabChunks;
    }
    char* p = slab_at_;
    slab_at_ += kChunk;
    --slab_left_;
    return p;
#endif
  }
  void unmap(const Chunk& c) {
    if (c.spilled) {
      spill_->give(c.p, c.size);
      return;
    }
#ifdef __EMSCRIPTEN__
    std::free(c.p);
#else
    munmap(c.p, c.size);
#endif
    mem_->give(c.size);
  }
  Memory* mem_;
  std::unique_ptr<SpillFile> spill_;
  std::size_t anon_cap_ = 0;
  std::atomic<std::size_t> trigger_{0};
  std::mutex m_;
  std::vector<Chunk> free_;
  // Chunks are handed out from slabs of kSlabChunks, one mapping each: a mapping per chunk met
  // the kernel's vm.max_map_count on large machines (docs/census.md). The slab's chunks not yet
  // handed out are address space alone.
  static constexpr std::size_t kSlabChunks = 16;
  char* slab_at_ = nullptr;
  std::size_t slab_left_ = 0;
};

// Memory for tables, which are written at random and so stay in memory (never the spill file):
// blocks carved from the pool's chunks. A block of up to a chunk comes from the smallest free
// stretch of the chunks taken so far that holds it (a new chunk when none does), a larger one is
// an array of the pool's own; a chunk whose blocks are all given back returns to the pool at
// once, for the next table or a level's arrays. So tables made and dropped level after level
// (the MPI census's residue ranges, all alive through a level's rounds) reuse pages zeroed once
// and in 2 MiB pages, where heap blocks were fresh 4 KiB pages level after level (docs/mpi.md).
// A block under kHeap bytes, and every block under a memory limit of less than kChunky chunks,
// comes from the heap, booked exactly: a chunk for a small level's tables would book 2 MiB for
// a few KiB, and a limit of a few MB (the MPI tests' spill) could not hold one.
//
//   | chunk: block | block | free | block | free            |  free stretches by address,
//                                                              never across a chunk's end
class Blocks {
 public:
  static constexpr std::size_t kAlign = 64;
  static constexpr std::size_t kHeap = std::size_t{128} << 10;
  static constexpr std::size_t kChunky = 64;
  Blocks(Pool& p, Memory& m)
      : pool_(&p), mem_(&m), heap_only_(m.limit() < kChunky * Pool::kChunk) {}
  Blocks(const Blocks&) = delete;
  Blocks& operator=(const Blocks&) = delete;

  // A block of at least `bytes`, 64-byte aligned, not cleared; throws past the memory limit.
  char* take(std::size_t bytes) {
    bytes = round(bytes);
    if (heap(bytes)) {
      mem_->take(bytes);
      auto* p = static_cast<char*>(std::aligned_alloc(kAlign, bytes));
      if (!p) {
        mem_->give(bytes);
        throw std::bad_alloc();
      }
      return p;
    }
    if (bytes > Pool::kChunk) return pool_->take(bytes, true).p;
    auto best = free_.end();
    for (auto it = free_.begin(); it != free_.end(); ++it)
      if (it->second >= bytes && (best == free_.end() || it->second < best->second)) best = it;
    if (best == free_.end()) {
      const Pool::Chunk c = pool_->take(Pool::kChunk, true);
      best = free_.emplace(c.p, c.size).first;
    }
    char* p = best->first;
    const std::size_t left = best->second - bytes;
    free_.erase(best);
    if (left) free_.emplace(p + bytes, left);
    return p;
  }
  // Gives back the block take(bytes) returned.
  void give(char* p, std::size_t bytes) {
    bytes = round(bytes);
    if (heap(bytes)) {
      std::free(p);
      mem_->give(bytes);
      return;
    }
    if (bytes > Pool::kChunk) {
      pool_->give({p, (bytes + Pool::kPage - 1) / Pool::kPage * Pool::kPage, false});
      return;
    }
    auto next = free_.lower_bound(p);
    if (next != free_.end() && p + bytes == next->first && !starts_chunk(next->first)) {
      bytes += next->second;
      next = free_.erase(next);
    }
    if (next != free_.begin() && !starts_chunk(p)) {
      const auto prev = std::prev(next);
      if (prev->first + prev->second == p) {
        p = prev->first;
        bytes += prev->second;
        free_.erase(prev);
      }
    }
    if (bytes == Pool::kChunk)
      pool_->give({p, Pool::kChunk, false});
    else
      free_.emplace(p, bytes);
  }
  // The bytes take(bytes) would book in the memory ledger anew (none when free memory the
  // ledger holds already has room for the block).
  std::size_t fresh(std::size_t bytes) {
    bytes = round(bytes);
    if (heap(bytes)) return bytes;
    const std::size_t pooled = pool_->free_bytes();
    if (bytes > Pool::kChunk) {
      const std::size_t size = (bytes + Pool::kPage - 1) / Pool::kPage * Pool::kPage;
      return size - std::min(size / Pool::kChunk * Pool::kChunk, pooled);
    }
    for (const auto& [p, n] : free_)
      if (n >= bytes) return 0;
    return pooled ? 0 : Pool::kChunk;
  }
  // Memory booked in the ledger and free for blocks: the free stretches and the pool's free
  // chunks, in bytes.
  std::size_t spare() {
    std::size_t n = pool_->free_bytes();
    for (const auto& [p, m] : free_) n += m;
    return n;
  }

  // One block, given back when it goes (or another is put in its place).
  class Block {
   public:
    Block() = default;
    Block(Blocks& b, std::size_t bytes) : from_(&b), p_(b.take(bytes)), n_(bytes) {}
    Block(Block&& o) noexcept
        : from_(o.from_), p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
    Block& operator=(Block&& o) noexcept {
      if (this != &o) {
        reset();
        from_ = o.from_;
        p_ = std::exchange(o.p_, nullptr);
        n_ = std::exchange(o.n_, 0);
      }
      return *this;
    }
    ~Block() { reset(); }
    char* data() const { return p_; }
    std::size_t size() const { return n_; }
    void reset() {
      if (p_) from_->give(p_, n_);
      p_ = nullptr;
      n_ = 0;
    }

   private:
    Blocks* from_ = nullptr;
    char* p_ = nullptr;
    std::size_t n_ = 0;
  };

 private:
  static std::size_t round(std::size_t bytes) {
    return std::max(kAlign, (bytes + kAlign - 1) / kAlign * kAlign);
  }
  bool heap(std::size_t bytes) const { return bytes < kHeap || heap_only_; }
  static bool starts_chunk(const char* p) {
    return reinterpret_cast<std::uintptr_t>(p) % Pool::kChunk == 0;
  }
  Pool* pool_;
  Memory* mem_;
  bool heap_only_;                     // every block from the heap
  std::map<char*, std::size_t> free_;  // free stretches: start -> bytes
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
  // Drops the store's spilled chunks from the process's memory; only once no thread writes to
  // them (a finished level).
  void shed() const {
    std::lock_guard<std::mutex> lock(m_);
    for (const Pool::Chunk& c : chunks_)
      if (c.spilled) SpillFile::shed(c.p, c.size);
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
  mutable std::mutex m_;
};

// A worker's allocator into one store: arrays of one level, 64-byte aligned, one after another
// in pool chunks, or each from the heap when the level is small.
class Bump {
 public:
  void begin(Store& s, bool small) {
    store_ = &s;
    small_ = small;
    at_ = end_ = nullptr;
    current_ = {};
    filled_.clear();
  }
  template <class T>
  T* alloc(std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t bytes = std::max<std::size_t>(64, (n * sizeof(T) + 63) & ~std::size_t{63});
    if (small_) return reinterpret_cast<T*>(store_->heap(bytes));
    if (bytes > static_cast<std::size_t>(end_ - at_)) {
      const Pool::Chunk c = store_->pool().take(bytes);
      store_->add(c);
      // The array goes at the start of the new chunk; the chunk with more room left after it
      // takes the next arrays (a level's hot residues make work items of megabytes, whose
      // arrays left the rest of the chunk before them unused).
      if (c.size != Pool::kChunk || c.size - bytes <= static_cast<std::size_t>(end_ - at_)) {
        if (c.spilled) filled_.push_back(c);
        return reinterpret_cast<T*>(c.p);
      }
      if (current_.spilled) filled_.push_back(current_);
      current_ = c;
      at_ = c.p;
      end_ = c.p + c.size;
    }
    T* r = reinterpret_cast<T*>(at_);
    at_ += bytes;
    return r;
  }
  // Drops the spilled chunks this allocator has left behind (and arrays of their own) from the
  // process's memory: call it when the arrays allocated so far are written.
  void shed() {
    for (const Pool::Chunk& c : filled_) SpillFile::shed(c.p, c.size);
    filled_.clear();
  }

 private:
  Store* store_ = nullptr;
  bool small_ = false;
  char* at_ = nullptr;
  char* end_ = nullptr;
  Pool::Chunk current_;
  std::vector<Pool::Chunk> filled_;
};

}  // namespace pegsol::census_detail
