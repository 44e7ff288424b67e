// SPDX-License-Identifier: MIT
// An array of plain values in pages of its own, given back to the system when freed (src/fewest).
#pragma once

#include <cstddef>
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
// are taken from the system as they are first written. Arrays under kHeapBytes, and every
// array where nothing can be mapped (WebAssembly), are zeroed heap memory: a mapping of its
// own costs a small table more than its use (the table of every pair of the 15-hole triangle
// took six times as long). Throws std::bad_alloc when the system refuses.
template <class T>
class MappedArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  static constexpr std::size_t kHeapBytes = std::size_t{1} << 18;

  MappedArray() = default;
  explicit MappedArray(std::size_t n) : n_(n) {
    if (n == 0) return;
    if (on_heap()) {
      p_ = static_cast<T*>(std::calloc(n, sizeof(T)));
      if (!p_) throw std::bad_alloc();
      return;
    }
#ifndef __EMSCRIPTEN__
    void* m = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    p_ = static_cast<T*>(m);
#endif
  }
  MappedArray(const MappedArray&) = delete;
  MappedArray& operator=(const MappedArray&) = delete;
  MappedArray(MappedArray&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  MappedArray& operator=(MappedArray&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  ~MappedArray() {
    reset();
  }

  // Frees the pages; the array is empty after.
  void reset() {
    if (!p_) return;
    if (on_heap()) std::free(p_);
#ifndef __EMSCRIPTEN__
    else
      munmap(p_, bytes());
#endif
    p_ = nullptr;
    n_ = 0;
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
  bool on_heap() const {
#ifdef __EMSCRIPTEN__
    return true;
#else
    return bytes() < kHeapBytes;
#endif
  }

  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace pegsol::fewest_detail
