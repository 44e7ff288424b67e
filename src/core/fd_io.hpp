// SPDX-License-Identifier: MIT
// Whole reads and writes on a file descriptor, retried when a signal interrupts them: the one
// loop the checkpoints and the spill files of the census, the MPI census and fewest share. The
// callers keep their own error words; errno is left as the failing call set it.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace pegsol::io {

// Writes all `bytes` (at `offset` when it is not negative, with pwrite); false on a failure or
// a write that took nothing (a full disk).
inline bool write_all(int fd, const void* data, std::size_t bytes, off_t offset = -1) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t w = offset < 0 ? ::write(fd, p, bytes) : ::pwrite(fd, p, bytes, offset);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    bytes -= static_cast<std::size_t>(w);
    if (offset >= 0) offset += w;
  }
  return true;
}

// Reads up to `bytes` (at `offset` when it is not negative, with pread), stopping early only at
// the end of the file; the bytes read, or -1 on a failure.
inline ssize_t read_up_to(int fd, void* data, std::size_t bytes, off_t offset = -1) {
  char* p = static_cast<char*>(data);
  std::size_t got = 0;
  while (got < bytes) {
    const ssize_t r = offset < 0
                          ? ::read(fd, p + got, bytes - got)
                          : ::pread(fd, p + got, bytes - got, offset + static_cast<off_t>(got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  return static_cast<ssize_t>(got);
}

}  // namespace pegsol::io
