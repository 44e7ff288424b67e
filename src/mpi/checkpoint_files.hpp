// SPDX-License-Identifier: MIT
// The files of a distributed census's checkpoint (census_mpi.hpp, docs/mpi.md), in DIR:
//
//   committed      the last level every rank wrote, as text (digits and a newline, no trailer:
//                  read whole and parsed strictly); rank 0 writes it after all ranks wrote
//                  theirs, so it is the point a resume starts from
//   rR.kK.state    rank R's figures when level K was complete (a State, then one LevelRow per
//                  level); the files of level K+1 go once K is committed
//   rR.kK.level    rank R's positions of level K: its sorted entries (key, count, chance)
//   rR.kK.keys     rank R's keys of level K, kept for the solution-path pass
//
// Every file is written under a temporary name, flushed and renamed, and ends in a checksum
// trailer (census/checkpoint.hpp), so a kill leaves whole files only and a damaged file is
// refused before it is used. Format 3 (state magic "PEGCKPT3") splits each level among the ranks
// by the compact engine's residue (census/residues.hpp); format 2 split it by a hash, so its files
// hold other positions per rank: a resume refuses them, naming the state file. Files of format 1
// have no trailer and are refused as written by an older version. Failures throw CensusError
// naming the file.
#pragma once

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../census/checkpoint.hpp"
#include "pegsol/census.hpp"

namespace pegsol::mpi::checkpoint {

// The header of a state file.
struct State {
  char magic[8] = {'P', 'E', 'G', 'C', 'K', 'P', 'T', '3'};
  std::uint64_t fingerprint = 0;  // the problem, the options that change the files, the ranks
  std::uint64_t ranks = 0, rank = 0;
  std::int64_t level = 0;               // the level the files hold, complete and not yet expanded
  std::uint64_t last_total = 0;         // positions of the level above it, over all ranks
  std::uint64_t positions = 0;          // positions of the levels above it, over all ranks
  std::uint64_t games[2] = {0, 0};      // the games counted so far (low, high words)
  std::uint64_t solutions[2] = {0, 0};  // a whole goal's solutions, once its level is done
  double p_goal = 0;
};
// The state magic of format 2 (levels split by a hash), refused by a resume.
constexpr char kMagicV2[8] = {'P', 'E', 'G', 'C', 'K', 'P', 'T', '2'};
// One level's figures in a state file.
struct LevelRow {
  std::uint64_t reachable_raw = 0, reachable_sym = 0, games[2] = {0, 0};
};

inline std::string path(const std::string& dir, int rank, int level, const char* ext) {
  return dir + "/r" + std::to_string(rank) + ".k" + std::to_string(level) + "." + ext;
}

// Writes `bytes` at `data` to `file` (a temporary name, flushed, then renamed).
inline void write_file(const std::string& file, const void* data, std::size_t bytes) {
  census_detail::FileWriter w(file);
  w.write(data, bytes);
  w.commit();
}

// The whole of `file`, read into `out` (resized to whole elements).
template <class V>
void read_file(const std::string& file, V& out) {
  using T = typename V::value_type;
  census_detail::FileReader r(file);
  const std::size_t size = r.size();
  if (size % sizeof(T) != 0)
    throw CensusError("checkpoint: " + file + " is not a whole number of records");
  out.resize(size / sizeof(T));
  r.read(out.data(), size);
}

// Records of T in `file`, from its size less the trailer (read_file checks the file).
template <class T>
std::size_t records(const std::string& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0)
    throw CensusError("checkpoint: cannot read " + file + ": " + std::strerror(errno));
  const std::size_t size = static_cast<std::size_t>(st.st_size);
  constexpr std::size_t kTrailer = sizeof(census_detail::ChecksumTrailer);
  return size < kTrailer ? 0 : (size - kTrailer) / sizeof(T);
}

// The last committed level in dir; CensusError when there is none.
inline int read_committed(const std::string& dir) {
  const std::string file = dir + "/committed";
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0)
    throw CensusError("checkpoint: cannot read " + file + ": " + std::strerror(errno));
  const std::string s = census_detail::file_head(file, 16);
  // One to four digits and a newline, nothing else.
  const bool digits = s.size() >= 2 && s.size() <= 5 && s.back() == '\n' &&
                      s.find_first_not_of("0123456789") == s.size() - 1;
  if (!S_ISREG(st.st_mode) || !digits)
    throw CensusError("checkpoint: " + file + " does not hold a level");
  return std::stoi(s);
}

inline void write_committed(const std::string& dir, int level) {
  const std::string s = std::to_string(level) + "\n";
  census_detail::FileWriter w(dir + "/committed", false);
  w.write(s.data(), s.size());
  w.commit();
}

}  // namespace pegsol::mpi::checkpoint
