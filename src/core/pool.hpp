// SPDX-License-Identifier: MIT
// The worker pool every parallel engine uses (internal to the library): threads made once per
// computation and reused for every level, attempt and pair search it runs.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pegsol {

// The default number of worker threads: the hardware's thread count, at least 1. Stated here
// once; engines that cap it (the beam's portfolio) say so where they do.
int default_threads();

// A fixed set of threads. run(n, f) calls f(t) for t in [0, n) at once, t = 0 on the calling
// thread and the others on the pool's threads, and returns when all have returned, rethrowing
// the first exception any of them threw. One run at a time; not reentrant from inside f.
class WorkerPool {
 public:
  // A pool able to run `threads` calls at once (threads - 1 threads made; <= 0: the default).
  explicit WorkerPool(int threads = 0);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // The most calls run() runs at once.
  int size() const { return static_cast<int>(threads_.size()) + 1; }

  // f(t) for t in [0, min(n, size())); rethrows the first exception.
  void run(int n, const std::function<void(int)>& f);

  // f(i, t) for every i in [0, count), the indices dealt out in order to `n` threads (t the
  // thread's number) as each finishes its last; rethrows the first exception, after which no
  // new index starts.
  void parallel_for(int n, std::size_t count, const std::function<void(std::size_t, int)>& f);

 private:
  void loop(int t);

  std::vector<std::thread> threads_;
  std::mutex m_;
  std::condition_variable start_cv_, done_cv_;
  const std::function<void(int)>* job_ = nullptr;
  int active_ = 0;   // threads (besides the caller) taking part in the current run
  int pending_ = 0;  // of those, still running
  std::uint64_t generation_ = 0;
  bool quit_ = false;
  std::exception_ptr error_;
};

}  // namespace pegsol
