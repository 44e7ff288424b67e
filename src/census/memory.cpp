// SPDX-License-Identifier: MIT
// The census's memory ledger (memory.hpp): the default memory limit.
#include "memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

namespace pegsol::census_detail {

std::size_t default_memory_limit() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  std::size_t total = pages > 0 && page > 0
                          ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page)
                          : std::size_t{4} << 30;
  std::size_t margin = std::max(total / 10, std::size_t{1} << 30);
  std::size_t limit = total > 2 * margin ? total - margin : total / 2;
  // An address-space limit (ulimit -v) caps it too: three quarters of it less 64 MiB per core,
  // the rest for the program, each thread's stack and the address space glibc reserves for each
  // thread's malloc arena (64 MiB); a quarter of it at least.
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const std::size_t space = static_cast<std::size_t>(as.rlim_cur);
    const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t reserve = space / 4 + threads * (std::size_t{64} << 20);
    limit = std::min(limit, std::max(space / 4, space > reserve ? space - reserve : 0));
  }
  return limit;
}

}  // namespace pegsol::census_detail
