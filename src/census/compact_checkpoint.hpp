// SPDX-License-Identifier: MIT
// The compact census engine's checkpoint and resume of the forward pass (compiled per CPU tier:
// compact_common.hpp; CensusOptions::checkpoint_dir, resume). In the directory:
//
//   census.state     the figures so far and the engine's state when level K was complete and
//                    not yet expanded (written last: it is what a resume starts from)
//   census.level.K   K, then level K's positions: by segment, offsets, packed keys
//                    (packed_bytes() each), counts, chances (level_file.hpp's write_level)
//   census.stored.J  J, then level J's packed keys, kept for the solution-path pass (written
//                    once; level_file.hpp too)
//
// Each file is written under a temporary name, flushed and renamed; files the state no longer
// names are removed after it is written. A kill during the solution-path pass resumes from the
// last forward level saved and does the pass again. Every file ends in a checksum trailer
// (checkpoint.hpp); a resume reads each file through once to check it before it uses a byte, and
// refuses a damaged file, or one from before the trailers (formats 1 and 2), as bad input naming
// it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "checkpoint.hpp"
#include "compact_common.hpp"
#include "compact_engine.hpp"
#include "compact_forward.hpp"
#include "compact_levels.hpp"
#include "compact_memory.hpp"
#include "level_file.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"

namespace pegsol::census_detail {
namespace {

// A hash of what the files depend on: the problem, the options that change the levels, the
// key layout and the residues.
template <class Tier, class Kernel>
inline u64 Engine<Tier, Kernel>::fingerprint() const {
  Fingerprint f;
  f.chars(b_.name());
  f.word(static_cast<u64>(n_));
  f.word(start_);
  f.word(goal_);
  f.word(static_cast<u64>(p_.goal.kind));
  f.word(static_cast<u64>(goal_pegs_));
  for (int s : syms_) f.word(static_cast<u64>(s));
  for (int q = 0; q < n_; ++q) f.word(kern_.bit(q));
  for (const auto& [mask, weight] : classes_) f.word(mask ^ (u64{weight} << 40));
  f.word(total_weight_);
  f.word(complementary_);
  f.word(static_cast<u64>(o_.counts) | static_cast<u64>(o_.random_player) << 1 |
         static_cast<u64>(o_.on_path) << 2 | static_cast<u64>(o_.distinct) << 3 |
         static_cast<u64>(CensusAccess::keep_paths(o_)) << 4 |
         static_cast<u64>(count_bits_ == 0) << 5 | static_cast<u64>(count_bits_ % 64) << 6);
  f.word(o_.distinct_max_positions);
  reach_.fingerprint([&](u64 x) { f.word(x); });
  return f.value();
}

namespace checkpoint_file {
// Format 3 ends every file in a checksum trailer. Format 2 kept a level's keys packed as format 3
// does (format 1 wrote them in 8 bytes, and a second, packed copy of a level the solution-path
// pass would store); neither has checksums.
constexpr char kMagic[8] = {'P', 'E', 'G', 'C', 'E', 'N', 'S', '3'};
constexpr char kMagicV1[8] = {'P', 'E', 'G', 'C', 'E', 'N', 'S', '1'};
constexpr char kMagicV2[8] = {'P', 'E', 'G', 'C', 'E', 'N', 'S', '2'};
inline std::string state(const std::string& dir) {
  return dir + "/census.state";
}
inline std::string level(const std::string& dir, int k) {
  return dir + "/census.level." + std::to_string(k);
}
inline std::string stored(const std::string& dir, int k) {
  return dir + "/census.stored." + std::to_string(k);
}
}  // namespace checkpoint_file

// Saves the state with level k complete, its figures in r, before it is expanded.
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline void Engine<Tier, Kernel>::save(const CensusResult& r, const Level<C>& cur, int k) {
  namespace cf = checkpoint_file;
  const std::string& dir = o_.checkpoint_dir;
  auto pack = [&](const u64* keys, std::size_t m, std::uint8_t* out) { pack_keys(keys, m, out); };
  {
    FileWriter f(cf::level(dir, k));
    f.put(k);
    write_level(f, cur, false, file_shape<C, kCounts>(), pack, [&] {
      if (pool_.spilled()) shed<C>(nullptr, true);  // no worker runs: every spilled page may go
    });
    f.commit();
  }
  for (const auto& [j, lv] : stored_) {
    if (saved_stored_.count(j)) continue;
    FileWriter f(cf::stored(dir, j));
    f.put(j);
    write_level(f, lv, true, file_shape<u64, kKeys>(), pack, [&] {
      if (pool_.spilled()) shed<u64>(nullptr, true);
    });
    f.commit();
    saved_stored_.insert(j);
  }
  FileWriter f(cf::state(dir));
  f.write(cf::kMagic, sizeof cf::kMagic);
  f.put(fingerprint());
  f.put(k);
  f.put(std::is_same_v<C, u128>);
  f.put(paths_out_);
  f.put(ratio_);
  f.put(joined_);
  f.put(path_raw_);
  f.put(static_cast<u64>(positions_));
  put_figures(f, r);
  f.put(static_cast<u64>(paths_.size()));
  for (const std::vector<u64>& v : paths_) {
    f.put(static_cast<u64>(v.size()));
    f.write(v.data(), v.size() * sizeof(u64));
  }
  f.put(static_cast<u64>(stored_.size()));
  for (const auto& [j, lv] : stored_) f.put(j);
  f.commit();
  // What the state no longer names: the level saved before this one, stored levels released.
  std::remove(cf::level(dir, k + 1).c_str());
  for (auto it = saved_stored_.begin(); it != saved_stored_.end();)
    if (!stored_.count(*it)) {
      std::remove(cf::stored(dir, *it).c_str());
      it = saved_stored_.erase(it);
    } else {
      ++it;
    }
}

// Reads one level's segments from f into lv (arrays from the pool, as the forward pass's).
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline void Engine<Tier, Kernel>::load_level(FileReader& f, Level<C>& lv, bool stored) {
  read_level(
      f, lv, stored, file_shape<C, kCounts>(),
      [&](const std::uint8_t* in, std::size_t m, u64* out) { unpack_keys(in, m, out); },
      [&] {
        if (pool_.spilled()) shed<C>(nullptr, true);
      });
}

// Loads the state in the checkpoint directory and runs the forward pass on from it.
template <class Tier, class Kernel>
template <class C, Carry kCounts>
inline void Engine<Tier, Kernel>::resume(CensusResult& r) {
  namespace cf = checkpoint_file;
  const std::string& dir = o_.checkpoint_dir;
  if (::access(cf::state(dir).c_str(), F_OK) != 0)
    throw InputError("CensusOptions::resume",
                     dir + ": no census checkpoint there (" + cf::state(dir) + " is missing)");
  const std::string head = file_head(cf::state(dir), sizeof cf::kMagic);
  for (const auto& [magic, format] : {std::pair{cf::kMagicV1, 1}, std::pair{cf::kMagicV2, 2}})
    if (head == std::string_view(magic, sizeof cf::kMagic))
      throw InputError("CensusOptions::resume",
                       dir + ": the checkpoint there is in an earlier format (" +
                           std::to_string(format) +
                           ", without checksums) written by an older version of pegsol, which "
                           "this pegsol does not read; run the census again without resuming");
  // A file that cannot be read, is damaged or is not what the state says: bad input, named.
  auto refused = [&](const CensusError& e) {
    return InputError("CensusOptions::resume", dir + ": " + e.what());
  };
  // The files are read in blocks of their own, so that none stays open (and, once the next
  // checkpoint removes it, on the disk) while the run goes on.
  int k = 0;
  bool wide = false;
  try {
    FileReader f(cf::state(dir));
    char magic[sizeof cf::kMagic];
    f.read(magic, sizeof magic);
    if (std::memcmp(magic, cf::kMagic, sizeof magic) != 0)
      throw CensusError("checkpoint: " + f.name() + " is not a census state");
    const u64 print = f.get<u64>();
    k = f.get<int>();
    wide = f.get<bool>();
    if (print != fingerprint() || k < 2 || k > k0_)
      throw InputError("CensusOptions::resume",
                       dir +
                           ": the checkpoint there is of another census (board, start, goal or "
                           "options differ); resume with the options that wrote it");
    paths_out_ = f.get<u128>();
    ratio_ = f.get<double>();
    joined_ = f.get<int>();
    path_raw_ = f.get<u64>();
    positions_ = f.get<u64>();
    get_figures(f, r);
    if (f.get<u64>() != paths_.size())
      throw CensusError("checkpoint: " + f.name() + " is not a state of this board");
    for (std::vector<u64>& v : paths_) {
      const u64 n = f.get<u64>();
      if (n > (u64{1} << 36)) throw CensusError("checkpoint: " + f.name() + " is damaged");
      v.resize(n);
      f.read(v.data(), n * sizeof(u64));
    }
    const u64 nstored = f.get<u64>();
    if (nstored > static_cast<u64>(n_) + 1)
      throw CensusError("checkpoint: " + f.name() + " is damaged");
    for (u64 i = 0; i < nstored; ++i) {
      const int j = f.get<int>();
      FileReader g(cf::stored(dir, j));
      if (g.get<int>() != j)
        throw CensusError("checkpoint: " + g.name() + " is not level " + std::to_string(j));
      Level<u64> lv(pool_, mem_);
      load_level<u64, kKeys>(g, lv, true);
      if (!g.at_end())
        throw CensusError("checkpoint: " + g.name() + " is damaged (bytes left over)");
      stored_[j] = std::move(lv);
      saved_stored_.insert(j);
    }
    if (!f.at_end()) throw CensusError("checkpoint: " + f.name() + " is damaged (bytes left over)");
  } catch (const CensusError& e) {
    throw refused(e);
  }
  // Level k's file, read into `cur` and closed.
  auto load = [&]<class D>(Level<D>& cur) {
    try {
      FileReader g(cf::level(dir, k));
      if (g.get<int>() != k)
        throw CensusError("checkpoint: " + g.name() + " is not level " + std::to_string(k));
      load_level<D, kCounts>(g, cur, false);
      if (!g.at_end())
        throw CensusError("checkpoint: " + g.name() + " is damaged (bytes left over)");
    } catch (const CensusError& e) {
      throw refused(e);
    }
  };
  mem_.set_level(k);
  if constexpr (kCounts != kKeys) {
    if (wide) {
      Level<u128> cur(pool_, mem_);
      load(cur);
      run_levels<u128, kCounts>(r, cur, k, false);
      return;
    }
  }
  if constexpr (std::is_same_v<C, u64>) {
    Level<u64> cur(pool_, mem_);
    load(cur);
    count_or_ = 0;
    if constexpr (kCounts != kKeys)
      for (const Segment<u64>& s : cur.seg)
        for (std::size_t i = 0; i < s.n; ++i) count_or_ |= s.count[i];
    run_levels<u64, kCounts>(r, cur, k, false);
  } else {
    throw CensusError("checkpoint: " + cf::state(dir) + " holds 64-bit counts; this run needs 128");
  }
}

}  // namespace
}  // namespace pegsol::census_detail
