// SPDX-License-Identifier: MIT
// A file on disk for a fewest-moves search's levels past its memory budget (src/fewest).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "../core/fd_io.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"

namespace pegsol::fewest_detail {

// The bytes on disk of a search's spill files, now and at most (shared by its files).
struct SpillLedger {
  std::atomic<std::uint64_t> live{0}, peak{0};
  std::uint64_t limit = 0;  // the most the files may hold (0: no limit but the disk's)
  void add(std::uint64_t n) {
    const std::uint64_t now = live.fetch_add(n) + n;
    std::uint64_t p = peak.load();
    while (now > p && !peak.compare_exchange_weak(p, now)) {
    }
  }
  void sub(std::uint64_t n) { live.fetch_sub(n); }
};

// One level's entries on disk: an unnamed file in the spill directory (nothing is left there
// after the search, even after kill -9), appended to and read at offsets. Writes come from one
// thread at a time; reads from any.
class SpillFile {
 public:
  SpillFile(const std::string& dir, SpillLedger& ledger) : dir_(dir), ledger_(ledger) {
#ifdef __EMSCRIPTEN__
    throw InputError("FewestOptions::spill_dir",
                     dir_ + ": this build (WebAssembly) cannot spill to disk");
#else
    fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd_ < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
      std::string name = dir + "/pegsol-fewest.XXXXXX";
      fd_ = ::mkstemp(name.data());
      if (fd_ >= 0) ::unlink(name.c_str());
    }
    if (fd_ < 0)
      throw InputError("FewestOptions::spill_dir",
                       dir_ + ": cannot create a file there (" + std::strerror(errno) + ")");
#endif
  }
  // An existing file read in place (a checkpoint's level file, Search::restore): never written
  // here nor counted in the ledger.
  struct InPlace {};
  SpillFile(const std::string& path, SpillLedger& ledger, InPlace) : dir_(path), ledger_(ledger) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0)
      throw InputError("FewestOptions::resume", "the level file " + path + " cannot be opened (" +
                                                    std::strerror(errno) + ")");
  }
  // A file of the checkpoint directory written here (a level made or saved, level_file.hpp):
  // made when missing, cut to its first `keep` bytes (what a state names; the rest is what a
  // stop left after it), counted in the ledger.
  struct Named {};
  SpillFile(const std::string& path, SpillLedger& ledger, Named, std::uint64_t keep)
      : dir_(path), ledger_(ledger) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0 || ::ftruncate(fd_, static_cast<off_t>(keep)) != 0) {
      const int e = errno;
      if (fd_ >= 0) ::close(fd_);
      fd_ = -1;
      throw InputError("checkpoint " + path + ": cannot write it (" + std::strerror(e) + ")");
    }
    size_ = keep;
    ledger_.add(keep);
  }
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;
  ~SpillFile() {
    if (fd_ >= 0) ::close(fd_);
    ledger_.sub(size_);
  }

  // Appends `bytes` bytes and returns their offset. A full disk, or the ledger's limit,
  // stops the search (memory).
  std::uint64_t append(const void* data, std::size_t bytes) {
    if (ledger_.limit && ledger_.live.load() + bytes > ledger_.limit)
      throw Stopped(StopReason::Memory);
    const std::uint64_t at = size_;
    if (!io::write_all(fd_, data, bytes, static_cast<off_t>(at)))
      throw Stopped(StopReason::Memory);  // the disk is full (or failing)
    size_ += bytes;
    ledger_.add(bytes);
    return at;
  }

  // Reads `bytes` bytes at `at`; throws std::runtime_error when the file cannot be read.
  void read(std::uint64_t at, void* data, std::size_t bytes) const {
    if (io::read_up_to(fd_, data, bytes, static_cast<off_t>(at)) != static_cast<ssize_t>(bytes))
      throw std::runtime_error("fewest moves: the spill file in " + dir_ +
                               " cannot be read back (" + std::strerror(errno) + ")");
  }

  std::uint64_t size() const {
    return size_;
  }
  // The file's path (or its directory, for an unnamed file).
  const std::string& path() const {
    return dir_;
  }

  // Writes `bytes` bytes at `at`, inside what append() wrote.
  void write_at(std::uint64_t at, const void* data, std::size_t bytes) {
    if (at + bytes > size_ || !io::write_all(fd_, data, bytes, static_cast<off_t>(at)))
      throw std::runtime_error("fewest moves: " + dir_ + " cannot be written");
  }
  // Cuts the file back to its first `at` bytes (what a block cut short by a stop had appended).
  void cut(std::uint64_t at) {
    if (at >= size_) return;
    if (::ftruncate(fd_, static_cast<off_t>(at)) != 0)
      throw std::runtime_error("fewest moves: " + dir_ + " cannot be cut back");
    ledger_.sub(size_ - at);
    size_ = at;
  }
  // Flushes the file to disk; false when that fails.
  bool sync() {
    return ::fsync(fd_) == 0;
  }
  // Renames a named file (its descriptor stays); false when that fails.
  bool rename_to(const std::string& path) {
    if (::rename(dir_.c_str(), path.c_str()) != 0) return false;
    dir_ = path;
    return true;
  }

 private:
  std::string dir_;
  SpillLedger& ledger_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

}  // namespace pegsol::fewest_detail
