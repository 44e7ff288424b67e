// SPDX-License-Identifier: MIT
// The files of a distributed census's checkpoint (census_mpi.hpp, docs/mpi.md), in DIR:
//
//   committed      the last level every rank wrote, as text (digits and a newline, no trailer:
//                  read whole and parsed strictly); rank 0 writes it after all ranks wrote
//                  theirs, so it is the point a resume starts from
//   rR.kK.state    rank R's figures when level K was complete: the magic "PEGCKPT6", then
//                  (u64 each) the fingerprint, the ranks, R, K, the positions of level K+1 and
//                  of the levels above K over all ranks, then the census's figures record
//                  (census/checkpoint.hpp's put_figures, the compact engine's too); the files of
//                  level K+1 go once K is committed
//   rR.kK.level    rank R's positions of level K in the compact engine's level format
//                  (census/level_file.hpp; rank_level.hpp's shape: 8-byte keys, counts, the
//                  chances in the shares' place, segments over the rank's residues with gaps)
//   rR.kK.keys     rank R's keys of level K, kept for the solution-path pass
//
// Every file is written under a temporary name, flushed and renamed, and ends in a checksum
// trailer (census/checkpoint.hpp), so a kill leaves whole files only and a damaged file is
// refused before it is used. Format 6 is format 5's files for a census whose rounds take blocks
// of a residue's positions, which sums the chances in another order than format 5's rounds by a
// hash of the keys ("PEGCKPT5"). Format 5 writes the level files in the compact engine's level
// format; format 4 ("PEGCKPT4") wrote them as entries sorted by key. Format 4 writes the state's
// figures as the census's record; format 3 ("PEGCKPT3") had a fixed state record of its own with
// the same owners (by the compact engine's residue, census/residues.hpp); format 2 split each level
// among the ranks by a hash. A resume refuses any of them, naming the state file. Files of format 1
// have no trailer and are refused as written by an older version. Failures throw CensusError naming
// the file.
#pragma once

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../census/checkpoint.hpp"
#include "../census/memory.hpp"
#include "pegsol/census.hpp"

namespace pegsol::mpi::checkpoint {

// The state file's magic, and those of the earlier formats a resume refuses with what changed.
constexpr char kMagic[8] = {'P', 'E', 'G', 'C', 'K', 'P', 'T', '6'};
struct Earlier {
  char magic[8];
  const char* what;
};
constexpr Earlier kEarlier[] = {
    {{'P', 'E', 'G', 'C', 'K', 'P', 'T', '2'},
     "2: each level split among the ranks by a hash, now by residue"},
    {{'P', 'E', 'G', 'C', 'K', 'P', 'T', '3'},
     "3: its state a record of its own, now the census's figures record"},
    {{'P', 'E', 'G', 'C', 'K', 'P', 'T', '4'},
     "4: its level files entries sorted by key, now the compact engine's level format"},
    {{'P', 'E', 'G', 'C', 'K', 'P', 'T', '5'},
     "5: a level's rounds by a hash of the parents' keys, now by blocks of their residues, "
     "which sums the chances in another order"},
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

// The records of T in `file`, read into the array place(n) gives for their number n.
template <class T, class Place>
void read_records(const std::string& file, Place&& place) {
  census_detail::FileReader r(file);
  if (r.size() % sizeof(T) != 0)
    throw CensusError("checkpoint: " + file + " is not a whole number of records");
  T* out = place(r.size() / sizeof(T));
  if (r.size() > 0) r.read(out, r.size());
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
