// SPDX-License-Identifier: MIT
// Files of a census checkpoint (internal to src/census; the table's and the MPI census's files
// use them too): a file written whole under a temporary name, flushed and renamed, so that a kill
// leaves whole files only, and read back with every short read an error. Every file ends in a
// trailer that checks it (checksum_trailer below); a reader refuses a file whose trailer is
// missing or does not match before it reads a byte of it. Failures throw CensusError naming the
// file.
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../core/checksum.hpp"
#include "../core/fd_io.hpp"
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

// The trailer every checkpoint file ends with, after its payload (the bytes its writer wrote):
//
//   +-------------+---------------------+------------------------------------+
//   | "PEGSUM1\n" | payload bytes (u64) | XXH64 of the payload, seed 0 (u64) |
//   +-------------+---------------------+------------------------------------+
//
// Words little-endian. Files written before the trailer existed end without its magic. The
// payload is hashed as it is written, and read through once before it is used.
struct ChecksumTrailer {
  char magic[8] = {'P', 'E', 'G', 'S', 'U', 'M', '1', '\n'};
  std::uint64_t bytes = 0;
  std::uint64_t hash = 0;
};
static_assert(sizeof(ChecksumTrailer) == 24);

// The first `n` bytes of `file` (fewer when it is shorter), unchecked: for telling a file of an
// older format by its magic before FileReader refuses it for its missing trailer.
inline std::string file_head(const std::string& file, std::size_t n) {
  std::string head(n, '\0');
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // a FIFO: no wait
  if (fd < 0) return {};
  const ssize_t got = io::read_up_to(fd, head.data(), n);
  ::close(fd);
  head.resize(got < 0 ? 0 : static_cast<std::size_t>(got));
  return head;
}

// Writes `file` as FILE.tmp, then commit() appends the checksum trailer (unless `trailer` is
// false: a small text file that its reader checks whole), flushes it to the disk and renames it.
class FileWriter {
 public:
  explicit FileWriter(std::string file, bool trailer = true)
      : file_(std::move(file)), tmp_(file_ + ".tmp"), trailer_(trailer) {
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
    sum_.update(data, bytes);
    raw_write(data, bytes);
  }
  template <class T>
  void put(const T& x) {
    static_assert(std::is_trivially_copyable_v<T>);
    write(&x, sizeof x);
  }
  void commit() {
    if (trailer_) {
      ChecksumTrailer t;
      t.bytes = sum_.size();
      t.hash = sum_.value();
      raw_write(&t, sizeof t);
    }
    if (::fsync(fd_) != 0) fail(tmp_);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0 || std::rename(tmp_.c_str(), file_.c_str()) != 0) fail(file_);
  }

 private:
  void raw_write(const void* data, std::size_t bytes) {
    if (!io::write_all(fd_, data, bytes)) fail(tmp_);
  }
  [[noreturn]] static void fail(const std::string& f) {
    throw CensusError("checkpoint: cannot write " + f + ": " + std::strerror(errno));
  }
  std::string file_, tmp_;
  bool trailer_ = true;
  int fd_ = -1;
  Checksum64 sum_;
};

// Reads the payload of `file` from its start, once its trailer has checked the whole of it (the
// constructor reads the file through once for that): a regular file only; a missing trailer, a
// wrong length or checksum, or a read past the payload is an error naming the file.
class FileReader {
 public:
  explicit FileReader(std::string file) : file_(std::move(file)) {
    // O_NONBLOCK: a FIFO put in a file's place is refused below instead of waited on.
    fd_ = ::open(file_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0)
      throw CensusError("checkpoint: cannot read " + file_ + ": " + std::strerror(errno));
    try {
      verify();
    } catch (...) {
      ::close(fd_);
      throw;
    }
  }
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;
  ~FileReader() { ::close(fd_); }
  void read(void* data, std::size_t bytes) {
    if (bytes > payload_ - pos_) throw CensusError("checkpoint: " + file_ + " is cut short");
    raw_read(data, bytes);
    pos_ += bytes;
  }
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T x;
    read(&x, sizeof x);
    return x;
  }
  const std::string& name() const { return file_; }
  // The payload's size in bytes (the file's, less the trailer).
  std::size_t size() const { return payload_; }
  // True when the whole payload has been read.
  bool at_end() const { return pos_ == payload_; }

 private:
  void raw_read(void* data, std::size_t bytes) {
    const ssize_t r = io::read_up_to(fd_, data, bytes);
    if (r < 0) throw CensusError("checkpoint: cannot read " + file_ + ": " + std::strerror(errno));
    if (static_cast<std::size_t>(r) < bytes)
      throw CensusError("checkpoint: " + file_ + " is cut short");
  }
  // Checks the trailer against the payload, then leaves the file at its start.
  void verify() {
    struct stat st {};
    if (::fstat(fd_, &st) != 0)
      throw CensusError("checkpoint: cannot read " + file_ + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) throw CensusError("checkpoint: " + file_ + " is not a regular file");
    const std::size_t size = static_cast<std::size_t>(st.st_size);
    ChecksumTrailer t, want;
    if (size >= sizeof t) {
      if (::lseek(fd_, static_cast<off_t>(size - sizeof t), SEEK_SET) < 0)
        throw CensusError("checkpoint: cannot read " + file_ + ": " + std::strerror(errno));
      raw_read(&t, sizeof t);
    }
    if (size < sizeof t || std::memcmp(t.magic, want.magic, sizeof t.magic) != 0)
      throw CensusError("checkpoint: " + file_ +
                        " has no checksum: it was written by an older version of pegsol (or "
                        "is damaged); run the computation again without resuming");
    payload_ = size - sizeof t;
    if (t.bytes != payload_)
      throw CensusError("checkpoint: " + file_ + " is damaged (its length is " +
                        std::to_string(payload_) + " bytes, its trailer says " +
                        std::to_string(t.bytes) + ")");
    if (::lseek(fd_, 0, SEEK_SET) < 0)
      throw CensusError("checkpoint: cannot read " + file_ + ": " + std::strerror(errno));
    Checksum64 sum;
    std::vector<char> buf(std::min<std::size_t>(payload_, std::size_t{1} << 20));
    for (std::size_t left = payload_; left > 0;) {
      const std::size_t n = std::min(left, buf.size());
      raw_read(buf.data(), n);
      sum.update(buf.data(), n);
      left -= n;
    }
    if (sum.value() != t.hash)
      throw CensusError("checkpoint: " + file_ + " is damaged (its checksum does not match)");
    if (::lseek(fd_, 0, SEEK_SET) < 0)
      throw CensusError("checkpoint: cannot read " + file_ + ": " + std::strerror(errno));
  }

  std::string file_;
  int fd_ = -1;
  std::size_t payload_ = 0, pos_ = 0;
};

// A census's figures when a level is complete, as its checkpoint state holds them (the compact
// engine's and an MPI rank's): the games so far, a whole goal's solutions and chance, and the
// number of levels followed by each level's figures.
inline void put_figures(FileWriter& f, const CensusResult& r) {
  f.put(r.games);
  f.put(r.solutions);
  f.put(r.p_goal);
  f.put(static_cast<std::uint64_t>(r.levels.size()));
  for (const CensusLevel& lv : r.levels) f.put(lv);
}

// Reads put_figures' record into r, whose levels are sized for the board already; CensusError
// naming the file when it holds another number of levels.
inline void get_figures(FileReader& f, CensusResult& r) {
  r.games = f.get<Count>();
  r.solutions = f.get<Count>();
  r.p_goal = f.get<double>();
  if (f.get<std::uint64_t>() != r.levels.size())
    throw CensusError("checkpoint: " + f.name() + " is not a state of this board");
  for (CensusLevel& lv : r.levels) lv = f.get<CensusLevel>();
}

// Holds DIR/census.lock for the life of a run, so that two runs cannot write one checkpoint
// directory (the lock goes with the process, a kill included). InputError when another holds it.
class DirLock {
 public:
  DirLock() = default;
  explicit DirLock(const std::string& dir) {
    const std::string file = dir + "/census.lock";
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
      throw InputError("CensusOptions::checkpoint_dir",
                       dir + ": cannot write there (" + std::strerror(errno) + ")");
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      fd_ = -1;
      throw InputError("CensusOptions::checkpoint_dir",
                       dir + ": another census is writing its checkpoints there (" + file + ")");
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
