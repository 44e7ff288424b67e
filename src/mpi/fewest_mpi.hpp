// SPDX-License-Identifier: MIT
// The fewest-moves search on the ranks of an MPI communicator (pegsol-mpi fewest and solve,
// docs/fewest.md): the passes' levels spread over the ranks (MpiRanks, the engine's FewestRanks),
// or the split's start and end class pairs dealt out to the ranks a sweep at a time.
//
// Every rank runs fewest_board's split (FewestOptions::split) on the same board with the same
// options. In each sweep, rank r searches the sweep's open pairs r, r + K, r + 2K, ...; between
// sweeps the ranks exchange what they settled (each pair's floor, the best solution, a stop, the
// positions), so that each starts the next sweep from the same state and the answer is the one
// process's for any K. Rank 0 alone keeps the checkpoints; a resumed state reaches the others by
// the first exchange. Every exchange begins by asking whether some rank failed, so that a rank's
// error ends the run on every rank instead of leaving the others waiting.
#pragma once

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <exception>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "../core/control_access.hpp"
#include "pegsol/fewest.hpp"

namespace pegsol::mpi {

// Thrown on the ranks without an error of their own when another rank's search failed.
struct PeerFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The ranks of `comm` as the processes a fewest-moves pass's levels are spread over: each
// collective step one MPI collective (the children's by an all-to-all of sizes, then one of the
// records), the agreement an all-reduce of a code as the census's (exchange.hpp).
class MpiRanks final : public FewestRanks {
 public:
  MpiRanks(MPI_Comm comm, const Control& control) : comm_(comm), control_(&control) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::uint64_t bytes_sent() const { return sent_; }

  void all_gather(const void* mine, std::size_t bytes, void* all) override {
    MPI_Allgather(mine, static_cast<int>(bytes), MPI_BYTE, all, static_cast<int>(bytes), MPI_BYTE,
                  comm_);
  }

  // Each part must stay under 2 GiB (a round's children are far fewer).
  void all_to_all(std::span<const std::span<const std::byte>> out,
                  std::vector<std::byte>& in) override {
    const auto n = static_cast<std::size_t>(size_);
    std::vector<int> sc(n), rc(n), sd(n), rd(n);
    std::vector<std::byte> send;
    std::size_t total = 0;
    for (std::size_t d = 0; d < n; ++d) total += out[d].size();
    send.reserve(total);
    for (std::size_t d = 0; d < n; ++d) {
      sd[d] = static_cast<int>(send.size());
      sc[d] = static_cast<int>(out[d].size());
      send.insert(send.end(), out[d].begin(), out[d].end());
      if (d != static_cast<std::size_t>(rank_)) sent_ += out[d].size();
    }
    MPI_Alltoall(sc.data(), 1, MPI_INT, rc.data(), 1, MPI_INT, comm_);
    std::size_t got = 0;
    for (std::size_t d = 0; d < n; ++d) {
      rd[d] = static_cast<int>(got);
      got += static_cast<std::size_t>(rc[d]);
    }
    in.resize(got);
    MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_BYTE, in.data(), rc.data(), rd.data(),
                  MPI_BYTE, comm_);
  }

  void agree(std::exception_ptr failure) override {
    int code = 0;
    if (failure) {
      try {
        std::rethrow_exception(failure);
      } catch (const Stopped& e) {
        code = kStop + static_cast<int>(e.reason);
      } catch (...) {
        code = kError;
      }
    } else if (control_->should_stop()) {
      code = kStop + static_cast<int>(control_->stop_reason());
    }
    int worst = 0;
    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, comm_);
    if (worst == 0) return;
    if (worst == code && failure) std::rethrow_exception(failure);
    if (worst == kError) throw PeerFailed("another rank failed");
    throw Stopped(static_cast<StopReason>(worst - kStop));
  }

 private:
  static constexpr int kStop = 1, kError = 64;
  MPI_Comm comm_;
  const Control* control_;
  int rank_ = 0, size_ = 1;
  std::uint64_t sent_ = 0;
};

namespace fewest_exchange {

// Whether some rank failed (collective: the first step of every exchange).
inline bool any_failed(bool mine, MPI_Comm comm) {
  int flag = mine ? 1 : 0, any = 0;
  MPI_Allreduce(&flag, &any, 1, MPI_INT, MPI_MAX, comm);
  return any != 0;
}

// Leaves in `sw` every rank's greatest floor of each pair, the best solution with the fewest
// moves (the lowest rank's among equals), the greatest stop and the positions summed
// (collective). Throws PeerFailed when another rank failed.
inline void merge(FewestSweep& sw, MPI_Comm comm) {
  if (any_failed(false, comm)) throw PeerFailed("another rank failed");
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<int> floors(sw.floors.size());
  MPI_Allreduce(sw.floors.data(), floors.data(), static_cast<int>(floors.size()), MPI_INT, MPI_MAX,
                comm);
  sw.floors = std::move(floors);
  int stop = static_cast<int>(sw.stop), any_stop = 0;
  MPI_Allreduce(&stop, &any_stop, 1, MPI_INT, MPI_MAX, comm);
  sw.stop = static_cast<StopReason>(any_stop);
  unsigned long long mine = sw.positions, total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  sw.positions = total;
  struct {
    int moves, rank;
  } own{sw.best.empty() ? INT_MAX : count_moves(sw.best), rank}, least{INT_MAX, 0};
  MPI_Allreduce(&own, &least, 1, MPI_2INT, MPI_MINLOC, comm);
  if (least.moves == INT_MAX) return;  // no rank has a solution
  int jumps = static_cast<int>(sw.best.size());
  MPI_Bcast(&jumps, 1, MPI_INT, least.rank, comm);
  std::vector<int> flat(static_cast<std::size_t>(jumps) * 3);
  if (rank == least.rank)
    for (std::size_t i = 0; i < sw.best.size(); ++i) {
      flat[3 * i] = sw.best[i].from;
      flat[3 * i + 1] = sw.best[i].over;
      flat[3 * i + 2] = sw.best[i].to;
    }
  MPI_Bcast(flat.data(), jumps * 3, MPI_INT, least.rank, comm);
  sw.best.resize(static_cast<std::size_t>(jumps));
  for (std::size_t i = 0; i < sw.best.size(); ++i)
    sw.best[i] = Jump{flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
}

}  // namespace fewest_exchange

// Runs `search` (fewest_solve or fewest_board with `o`) with the passes' levels spread over the
// ranks of `comm` (collective: every rank passes the same problem and options). Rank 0 reports
// o's progress; every rank returns the same fewest moves, proof and lower bound.
template <class Search>
auto spread_fewest(FewestOptions o, MPI_Comm comm, Search&& search) {
  MpiRanks ranks(comm, *o.control);
  Control quiet(o.control);  // the other ranks' control: no progress reports
  if (ranks.rank() != 0) {
    ControlAccess::mute(quiet);
    o.control = &quiet;
  }
  o.ranks = &ranks;
  return search(o);
}

// The board's fewest moves over every single-vacancy-to-one-peg problem, the split's pairs shared
// by the ranks of `comm` (collective: every rank passes the same board and options). Rank 0 keeps
// o's checkpoints and reports o's progress; every rank returns the same answer. A rank's
// exception is rethrown there, and the others throw PeerFailed.
inline FewestBoardResult distributed_fewest_board(const BoardPtr& board, FewestOptions o,
                                                  MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  o.split = true;
  o.split_part = rank;
  o.split_parts = size;
  Control quiet(o.control);  // the other ranks' control: no progress reports
  if (rank != 0) {
    o.checkpoint_dir.clear();
    o.resume = false;
    o.checkpointed = nullptr;
    ControlAccess::mute(quiet);
    o.control = &quiet;
  }
  o.split_merge = [comm](FewestSweep& sw) { fewest_exchange::merge(sw, comm); };
  FewestBoardResult r;
  try {
    r = fewest_board(board, o);
  } catch (const PeerFailed&) {
    throw;
  } catch (...) {
    fewest_exchange::any_failed(true, comm);
    throw;
  }
  if (fewest_exchange::any_failed(false, comm)) throw PeerFailed("another rank failed");
  return r;
}

}  // namespace pegsol::mpi
