// SPDX-License-Identifier: MIT
// The exact census on the ranks of an MPI communicator (pegsol-mpi, docs/mpi.md).
//
// Every level is split across the ranks by the compact engine's residue of the canonical position
// (census/residues.hpp): a rank owns a range of residues and keeps its positions in the compact
// engine's level store, by residue (rank_level.hpp: key, count, chance). A level is expanded in
// rounds; in each round every rank expands one group of its parents and sends every child to its
// owner in one all-to-all exchange, so that what is in flight stays bounded. The solution-path pass
// sends each candidate parent to its owner the same way, and the owner keeps it when it has stored
// it. With a checkpoint directory every rank writes its part of each completed level there, and a
// run can resume from it. Built only when CMake finds MPI.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "pegsol/census.hpp"
#include "pegsol/problem.hpp"

namespace pegsol::mpi {

// What one rank held, stored and sent during a distributed census (its memory ledger).
struct RankLedger {
  std::size_t peak_bytes = 0;       // the rank's tables and buffers at their largest
  std::uint64_t stored = 0;         // canonical positions the rank owned, summed over levels
  std::uint64_t largest_level = 0;  // the most positions the rank owned in one level
  std::uint64_t edges = 0;          // (parent, jump) children the rank generated
  std::uint64_t bytes_sent = 0;     // bytes the rank sent to other ranks (its own excluded)
  std::uint64_t bytes_kept = 0;     // bytes of children and queries that stayed on the rank
  std::uint64_t rounds = 0;         // all-to-all exchanges
  // Residue ranges of a level built from a bucket (past the memory limit), over the levels, and
  // the bytes appended to their buckets.
  std::uint64_t bucket_ranges = 0;
  std::uint64_t bucket_bytes = 0;
  // The pool's spill file (the levels' arrays) at its largest, in bytes.
  std::uint64_t spill_file_bytes = 0;
  double seconds = 0;
};

// Where a distributed census keeps its state after each completed level, so that a killed run
// (kill -9 included) can go on from the last level every rank finished. Each rank writes its own
// files in `dir` (one directory every rank can reach: a shared file system, or the same local
// path on each machine when a rank always runs on the same machine).
struct Checkpoint {
  std::string dir;      // empty: no checkpoints
  bool resume = false;  // start from the last level committed in dir
  // Tests: every rank kills itself (SIGKILL) once this level is committed (-1: never).
  int crash_after_level = -1;
};

// What only the distributed census takes.
struct RankOptions {
  // This rank's own spill directory, made and checked by the caller (empty: no spill).
  std::string spill_dir;
  // Parents a level expands per round, over all ranks together. It decides the order of the
  // chances' sums, so runs compared bit for bit use the same; tests make it small so that small
  // problems take several rounds a level.
  std::uint64_t round_parents = std::uint64_t{1} << 15;
  // Tests: every level's tables count in two words, as those of a level whose counts may pass
  // 64 bits (small problems never need them).
  bool wide_counts = false;
};

// Runs the census of p on every rank of comm: a collective call, every rank passing the same
// problem and options. Rank 0's result holds every figure; the others hold the level figures,
// solutions and games (not the reordering count or the chances by hole). o.threads is not
// used: each rank runs one thread. With a spill directory (ro.spill_dir) the levels' arrays go to
// the pool's unnamed file there past half the control's memory budget, and a residue range of the
// level being built whose table would pass the budget is appended to a bucket in a file of its
// own there instead of stopping; the directory is removed when the call returns. Throws InputError
// for a board over 64 bits and CensusError for a count overflow or a spill file that cannot be
// written or read (on every rank).
CensusResult distributed_census(const Problem& p, const CensusOptions& o, MPI_Comm comm,
                                RankLedger& ledger, const Checkpoint& checkpoint = {},
                                const RankOptions& ro = {});

}  // namespace pegsol::mpi
