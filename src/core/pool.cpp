// SPDX-License-Identifier: MIT
#include "pool.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace pegsol {

int default_threads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

WorkerPool::WorkerPool(int threads) {
  const int n = threads > 0 ? threads : default_threads();
  threads_.reserve(static_cast<std::size_t>(n - 1));
  for (int t = 1; t < n; ++t) threads_.emplace_back([this, t] { loop(t); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(m_);
    quit_ = true;
  }
  start_cv_.notify_all();
  for (auto& th : threads_) th.join();
}

void WorkerPool::loop(int t) {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(int)>* job = nullptr;
    {
      std::unique_lock<std::mutex> lock(m_);
      start_cv_.wait(lock, [&] { return quit_ || (generation_ != seen && t < active_ + 1); });
      if (quit_) return;
      seen = generation_;
      job = job_;
    }
    std::exception_ptr err;
    try {
      (*job)(t);
    } catch (...) {
      err = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(m_);
    if (err && !error_) error_ = err;
    if (--pending_ == 0) done_cv_.notify_one();
  }
}

void WorkerPool::run(int n, const std::function<void(int)>& f) {
  n = std::clamp(n, 1, size());
  if (n > 1) {
    std::lock_guard<std::mutex> lock(m_);
    job_ = &f;
    active_ = pending_ = n - 1;
    error_ = nullptr;
    ++generation_;
  }
  if (n > 1) start_cv_.notify_all();
  std::exception_ptr mine;
  try {
    f(0);
  } catch (...) {
    mine = std::current_exception();
  }
  if (n > 1) {
    std::unique_lock<std::mutex> lock(m_);
    done_cv_.wait(lock, [&] { return pending_ == 0; });
    job_ = nullptr;
    active_ = 0;
    if (!mine) mine = error_;
    error_ = nullptr;
  }
  if (mine) std::rethrow_exception(mine);
}

void WorkerPool::parallel_for(int n, std::size_t count,
                              const std::function<void(std::size_t, int)>& f) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  run(std::min<std::size_t>(static_cast<std::size_t>(std::max(n, 1)),
                            std::max<std::size_t>(count, 1)),
      [&](int t) {
        try {
          for (std::size_t i;
               !failed.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < count;)
            f(i, t);
        } catch (...) {
          failed.store(true);
          throw;
        }
      });
}

}  // namespace pegsol
