// Files of a census checkpoint (internal to src/census; the MPI census's files use them too): a
// file written whole under a temporary name, flushed and renamed, so that a kill leaves whole
// files only, and read back with every short read an error. Failures throw CensusError naming the
// file.
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "pegsol/census.hpp"
#include "pegsol/error.hpp"

namespace pegsol::census_detail {

// A checkpoint's fingerprint of what its files depend on (the board, the problem, the options),
// so that a state is never resumed into another run: FNV-1a over each word's bytes, low first.
class Fingerprint {
 public:
  void word(std::uint64_t x) {
    for (int i = 0; i < 8; ++i, x >>= 8) h_ = (h_ ^ (x & 0xff)) * 1099511628211ull;
  }
  // Each character as a word of its own.
  void chars(std::string_view s) {
    for (char c : s) word(static_cast<unsigned char>(c));
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 1469598103934665603ull;
};

// Writes `file` as FILE.tmp, then commit() flushes it to the disk and renames it.
class FileWriter {
 public:
  explicit FileWriter(std::string file) : file_(std::move(file)), tmp_(file_ + ".tmp") {
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) fail(tmp_);
  }
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;
  ~FileWriter() {
    if (fd_ >= 0) {
      ::close(fd_);
      ::unlink(tmp_.c_str());
    }
  }
  void write(const void* data, std::size_t bytes) {
    const char* p = static_cast<const char*>(data);
    while (bytes > 0) {
      const ssize_t w = ::write(fd_, p, bytes);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) fail(tmp_);
      p += w;
      bytes -= static_cast<std::size_t>(w);
    }
  }
  template <class T>
  void put(const T& x) {
    static_assert(std::is_trivially_copyable_v<T>);
    write(&x, sizeof x);
  }
  void commit() {
    if (::fsync(fd_) != 0) fail(tmp_);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0 || std::rename(tmp_.c_str(), file_.c_str()) != 0) fail(file_);
  }

 private:
  [[noreturn]] static void fail(const std::string& f) {
    throw CensusError("checkpoint: cannot write " + f + ": " + std::strerror(errno));
  }
  std::string file_, tmp_;
  int fd_ = -1;
};

// Reads `file` from its start; a short read is an error naming the file.
class FileReader {
 public:
  explicit FileReader(std::string file) : file_(std::move(file)) {
    fd_ = ::open(file_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0)
      throw CensusError("checkpoint: cannot read " + file_ + ": " + std::strerror(errno));
  }
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;
  ~FileReader() { ::close(fd_); }
  void read(void* data, std::size_t bytes) {
    char* p = static_cast<char*>(data);
    while (bytes > 0) {
      const ssize_t r = ::read(fd_, p, bytes);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) throw CensusError("checkpoint: " + file_ + " is cut short");
      p += r;
      bytes -= static_cast<std::size_t>(r);
    }
  }
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T x;
    read(&x, sizeof x);
    return x;
  }
  const std::string& name() const { return file_; }
  // The file's size in bytes.
  std::size_t size() const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0)
      throw CensusError("checkpoint: cannot read " + file_ + ": " + std::strerror(errno));
    return static_cast<std::size_t>(st.st_size);
  }

 private:
  std::string file_;
  int fd_ = -1;
};

// Holds DIR/census.lock for the life of a run, so that two runs cannot write one checkpoint
// directory (the lock goes with the process, a kill included). InputError when another holds it.
class DirLock {
 public:
  DirLock() = default;
  explicit DirLock(const std::string& dir) {
    const std::string file = dir + "/census.lock";
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
      throw InputError("--checkpoint " + dir + ": cannot write there (" + std::strerror(errno) +
                       ")");
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      fd_ = -1;
      throw InputError("--checkpoint " + dir +
                       ": another census is writing its checkpoints there (" + file + ")");
    }
  }
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;
  ~DirLock() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  int fd_ = -1;
};

}  // namespace pegsol::census_detail
