// SPDX-License-Identifier: MIT
// An array of plain values in pages of its own, given back to the system when freed (src/fewest).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

#ifndef __EMSCRIPTEN__
#include <sys/mman.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>  // malloc_trim
#endif

namespace pegsol::fewest_detail {

// Gives the heap's free memory back to the system: what a first solver or a level's small tables
// freed would otherwise stay in the process beside the tables mapped apart.
inline void trim_heap() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

// A fixed-size array of trivially copyable T, zero-filled when made. Its pages are mapped for it
// alone and unmapped when it is freed, so that the memory a search books is the memory it holds:
// the allocator's heap keeps nothing of it after the array is gone (a table freed into the heap
// and a new one mapped beside it would count twice in the process's resident memory). Pages
// are taken from the system when the array is made, all at once (the memory booked for it is
// the memory it holds). Arrays under kHeapBytes, and every
// array where nothing can be mapped (WebAssembly), are zeroed heap memory: a mapping of its
// own costs a small table more than its use (the table of every pair of the 15-hole triangle
// took six times as long). Throws std::bad_alloc when the system refuses.
template <class T>
class MappedArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  static constexpr std::size_t kHeapBytes = std::size_t{1} << 18;
  // Arrays of at least this much start on a huge page boundary and ask for huge pages: one page
  // for 2 MiB instead of 512.
  static constexpr std::size_t kHugeBytes = std::size_t{1} << 21;

  MappedArray() = default;
  explicit MappedArray(std::size_t n) : n_(n) {
    if (n == 0) return;
    heap_ = heap_bytes();
    if (heap_) {
      p_ = static_cast<T*>(std::calloc(n, sizeof(T)));
      if (!p_) throw std::bad_alloc();
      return;
    }
#ifndef __EMSCRIPTEN__
    p_ = static_cast<T*>(bytes() < kHugeBytes ? map(bytes()) : map_huge(bytes()));
#endif
  }
  MappedArray(const MappedArray&) = delete;
  MappedArray& operator=(const MappedArray&) = delete;
  MappedArray(MappedArray&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)), heap_(o.heap_) {}
  MappedArray& operator=(MappedArray&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
      heap_ = o.heap_;
    }
    return *this;
  }
  ~MappedArray() {
    reset();
  }

  // Frees the pages; the array is empty after.
  void reset() {
    if (!p_) return;
    if (heap_) std::free(p_);
#ifndef __EMSCRIPTEN__
    else
      munmap(p_, bytes());
#endif
    p_ = nullptr;
    n_ = 0;
  }

  // Keeps the first `n` elements (n <= size()) of an array in pages of its own (!on_heap())
  // and gives the pages past them back: no new pages, no copy.
  void shrink(std::size_t n) {
    if (n >= n_ || heap_) return;
    if (n == 0) {
      reset();
      return;
    }
#ifndef __EMSCRIPTEN__
    constexpr std::size_t kPage = 4096;
    const std::size_t keep = (n * sizeof(T) + kPage - 1) / kPage * kPage;
    const std::size_t had = (bytes() + kPage - 1) / kPage * kPage;
    if (had > keep) munmap(reinterpret_cast<char*>(p_) + keep, had - keep);
#endif
    n_ = n;
  }
  // Whether the array is heap memory rather than pages of its own.
  bool on_heap() const {
    return heap_;
  }

  std::size_t size() const {
    return n_;
  }
  bool empty() const {
    return n_ == 0;
  }
  std::size_t bytes() const {
    return n_ * sizeof(T);
  }
  T* data() {
    return p_;
  }
  const T* data() const {
    return p_;
  }
  T* begin() {
    return p_;
  }
  T* end() {
    return p_ + n_;
  }
  const T* begin() const {
    return p_;
  }
  const T* end() const {
    return p_ + n_;
  }
  T& operator[](std::size_t i) {
    return p_[i];
  }
  const T& operator[](std::size_t i) const {
    return p_[i];
  }

 private:
  bool heap_bytes() const {
#ifdef __EMSCRIPTEN__
    return true;
#else
    return bytes() < kHeapBytes;
#endif
  }

#ifndef __EMSCRIPTEN__
  // Pages made at once (populate) cost a fault less each than pages made as first written (the
  // English central game: 0.24 s of system time instead of 0.52).
  static void* map(std::size_t bytes, bool populate = true) {
    void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0), -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    return m;
  }
  // `bytes` at a kHugeBytes boundary: a mapping kHugeBytes longer, its ends given back.
  static void* map_huge(std::size_t bytes) {
    constexpr std::uintptr_t kPage = 4096;
    const std::size_t all = bytes + kHugeBytes;
    auto* m = static_cast<char*>(map(all, false));
    const auto at = reinterpret_cast<std::uintptr_t>(m);
    char* p = m + ((kHugeBytes - at % kHugeBytes) % kHugeBytes);
    char* end = p + (bytes + kPage - 1) / kPage * kPage;
    if (p > m) munmap(m, static_cast<std::size_t>(p - m));
    if (m + all > end) munmap(end, static_cast<std::size_t>(m + all - end));
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);  // a hint: refused, the array has small pages
#endif
#ifdef MADV_POPULATE_WRITE
    madvise(p, bytes, MADV_POPULATE_WRITE);  // a hint too (Linux 5.14)
#endif
    return p;
  }
#endif

  T* p_ = nullptr;
  std::size_t n_ = 0;
  bool heap_ = true;  // from calloc (heap_bytes() when made), else pages of its own
};

}  // namespace pegsol::fewest_detail
