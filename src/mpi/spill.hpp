// SPDX-License-Identifier: MIT
// Sorted runs on disk for the distributed census's disk spill (census_mpi.hpp, docs/mpi.md).
// Each rank spills into its own directory, DIR/<rank>:
//
//   k<K>.<J>.run   run J of level K: records sorted by key, written as they are in memory
//
// A run lives only while its level is built: the level's merge reads and removes it. Failures
// throw CensusError naming the file.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "../core/fd_io.hpp"
#include "pegsol/census.hpp"

namespace pegsol::mpi::spill {

// One rank's spill directory: names its runs, counts what it wrote, and removes every run it
// named and the directory itself when destroyed (a finished run, a stop or an error alike).
class Dir {
 public:
  Dir() = default;
  // Uses `dir` (created before, empty of runs of this run's levels).
  explicit Dir(std::string dir) : dir_(std::move(dir)) {}
  Dir(const Dir&) = delete;
  Dir& operator=(const Dir&) = delete;
  ~Dir() {
    if (dir_.empty()) return;
    for (const std::string& f : files_) ::unlink(f.c_str());
    ::rmdir(dir_.c_str());
  }
  bool enabled() const { return !dir_.empty(); }
  const std::string& path() const { return dir_; }
  // The name of a new run of level k.
  std::string next_run(int k) {
    files_.push_back(dir_ + "/k" + std::to_string(k) + "." + std::to_string(files_.size()) +
                     ".run");
    return files_.back();
  }
  // Removes a run once it is read.
  void remove(const std::string& file) {
    ::unlink(file.c_str());
    std::erase(files_, file);
  }

 private:
  std::string dir_;
  std::vector<std::string> files_;
};

// Appends records to a run file (no flush to the disk: a run does not outlive the process).
class Writer {
 public:
  explicit Writer(const std::string& file) : file_(file) {
    fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd_ < 0) fail();
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer() {
    if (fd_ >= 0) ::close(fd_);
  }
  void write(const void* data, std::size_t bytes) {
    if (!io::write_all(fd_, data, bytes)) fail();
    written_ += bytes;
  }
  // Closes the file; returns the bytes written.
  std::uint64_t close() {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail();
    return written_;
  }

 private:
  [[noreturn]] void fail() const {
    throw CensusError("spill: cannot write " + file_ + ": " + std::strerror(errno));
  }
  std::string file_;
  int fd_ = -1;
  std::uint64_t written_ = 0;
};

// Reads a run file from the start in whole records of T.
template <class T>
class Reader {
 public:
  explicit Reader(const std::string& file) : file_(file) {
    fd_ = ::open(file.c_str(), O_RDONLY);
    if (fd_ < 0) throw CensusError("spill: cannot read " + file + ": " + std::strerror(errno));
  }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  ~Reader() {
    if (fd_ >= 0) ::close(fd_);
  }
  // Fills `out` with up to `n` records; returns how many (0 at the end of the file).
  std::size_t read(T* out, std::size_t n) {
    const ssize_t r = io::read_up_to(fd_, out, n * sizeof(T));
    if (r < 0) throw CensusError("spill: cannot read " + file_ + ": " + std::strerror(errno));
    const auto got = static_cast<std::size_t>(r);
    if (got % sizeof(T) != 0) throw CensusError("spill: " + file_ + " ends inside a record");
    return got / sizeof(T);
  }

 private:
  std::string file_;
  int fd_ = -1;
};

// Creates DIR/<rank>, removes the runs a killed run left there and checks that a file can be
// written there; returns that directory, or throws CensusError saying why not.
inline std::string prepare(const std::string& dir, int rank) {
  const std::string mine = dir + "/" + std::to_string(rank);
  std::error_code ec;
  std::filesystem::create_directories(mine, ec);
  if (ec) throw CensusError("cannot create " + mine + ": " + ec.message());
  for (const auto& f : std::filesystem::directory_iterator(mine, ec))
    if (f.path().extension() == ".run") std::filesystem::remove(f.path(), ec);
  const std::string probe = mine + "/probe";
  {
    Writer w(probe);
    const char byte = 0;
    w.write(&byte, 1);
    w.close();
  }
  ::unlink(probe.c_str());
  return mine;
}

}  // namespace pegsol::mpi::spill
