// SPDX-License-Identifier: MIT
// A rank's spill directory for the distributed census's disk spill (census_mpi.hpp,
// docs/mpi.md): DIR/<rank>, where the rank's pool keeps its spill file (an unnamed file:
// nothing is left there, even after kill -9).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "../core/fd_io.hpp"
#include "pegsol/census.hpp"

namespace pegsol::mpi {

// One rank's spill directory, removed (once empty) when destroyed: a finished run, a stop or an
// error alike.
class SpillDir {
 public:
  SpillDir() = default;
  // Uses `dir` (made and checked by prepare_spill_dir).
  explicit SpillDir(std::string dir) : dir_(std::move(dir)) {}
  SpillDir(const SpillDir&) = delete;
  SpillDir& operator=(const SpillDir&) = delete;
  ~SpillDir() {
    if (!dir_.empty()) ::rmdir(dir_.c_str());
  }
  bool enabled() const { return !dir_.empty(); }
  const std::string& path() const { return dir_; }

 private:
  std::string dir_;
};

// Creates DIR/<rank> and checks that a file can be written there; returns that directory, or
// throws CensusError saying why not.
inline std::string prepare_spill_dir(const std::string& dir, int rank) {
  const std::string mine = dir + "/" + std::to_string(rank);
  std::error_code ec;
  std::filesystem::create_directories(mine, ec);
  if (ec) throw CensusError("cannot create " + mine + ": " + ec.message());
  const std::string probe = mine + "/probe";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const char byte = 0;
  const bool ok = fd >= 0 && io::write_all(fd, &byte, 1);
  const int e = errno;
  if (fd >= 0) ::close(fd);
  ::unlink(probe.c_str());
  if (!ok) throw CensusError("spill: cannot write " + probe + ": " + std::strerror(e));
  return mine;
}

}  // namespace pegsol::mpi
