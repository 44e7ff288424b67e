// SPDX-License-Identifier: MIT
// The collective steps of the distributed census (src/mpi): all-to-all exchanges of records,
// sums of counts across ranks, and one agreement per round on whether every rank may go on.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "../census/engine.hpp"
#include "census_mpi.hpp"

namespace pegsol::mpi {

// A communicator seen from one rank, with the rank's ledger of bytes exchanged.
class Exchange {
 public:
  Exchange(MPI_Comm comm, RankLedger& ledger) : comm_(comm), ledger_(&ledger) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
  }
  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm comm() const { return comm_; }

  // Sends out[d] to rank d for every d and fills `in` with what every rank sent here, in rank
  // order, rank r's part at [from[r], from[r + 1]). The lists go straight from out[d] (the sizes
  // by one all-to-all, the records by a send and a receive per pair of ranks), so no record is
  // copied on its way but the rank's own part; the buffers keep their capacity from round to
  // round (fresh pages cost more than the exchange). Each list must stay under 2 GiB (the
  // callers' rounds are far smaller). Collective, and an agreement (agree()): the receive
  // buffer is booked before anything is sent.
  template <class T>
  void all_to_all(std::vector<census_detail::Booked<T>>& out, census_detail::Booked<T>& in,
                  std::vector<std::size_t>& from, const Control& control) {
    Pending p;
    start(out, in, from, control, p);
    finish(out, p);
  }

  // An exchange in flight, from start() to finish().
  struct Pending {
    std::vector<MPI_Request> req;
  };
  // all_to_all() in two halves, so that a rank can work while the records travel: start()
  // sizes, agrees and posts the sends and receives (out must then stay as it is, and `in` be
  // left alone, until finish()); progress() moves them on; finish() waits for them and empties
  // out. Collective, in the same order on every rank.
  template <class T>
  void start(std::vector<census_detail::Booked<T>>& out, census_detail::Booked<T>& in,
             std::vector<std::size_t>& from, const Control& control, Pending& p) {
    const auto n = static_cast<std::size_t>(size_);
    const auto me = static_cast<std::size_t>(rank_);
    std::vector<int> sc(n), rc(n);
    for (std::size_t d = 0; d < n; ++d) {
      sc[d] = static_cast<int>(out[d].size() * sizeof(T));
      if (d == me)
        ledger_->bytes_kept += out[d].size() * sizeof(T);
      else
        ledger_->bytes_sent += out[d].size() * sizeof(T);
    }
    MPI_Alltoall(sc.data(), 1, MPI_INT, rc.data(), 1, MPI_INT, comm_);
    from.assign(n + 1, 0);
    for (std::size_t d = 0; d < n; ++d)
      from[d + 1] = from[d] + static_cast<std::size_t>(rc[d]) / sizeof(T);
    guarded([&] {
      in.clear();
      in.reserve(from[n]);
    });
    agree(control);
    in.vec().resize(from[n]);
    std::vector<MPI_Request>& req = p.req;
    req.clear();
    for (std::size_t d = 0; d < n; ++d)
      if (d != me && rc[d] > 0) {
        req.emplace_back();
        MPI_Irecv(in.vec().data() + from[d], rc[d], MPI_BYTE, static_cast<int>(d), 0, comm_,
                  &req.back());
      }
    for (std::size_t d = 0; d < n; ++d)
      if (d != me && sc[d] > 0) {
        req.emplace_back();
        MPI_Isend(out[d].vec().data(), sc[d], MPI_BYTE, static_cast<int>(d), 0, comm_, &req.back());
      }
    if (sc[me] > 0) std::memcpy(in.vec().data() + from[me], out[me].vec().data(), sc[me]);
  }
  // Lets MPI move an exchange in flight on (its transfers need the ranks' calls to advance).
  static void progress(Pending& p) {
    if (p.req.empty()) return;
    int done = 0;
    MPI_Testall(static_cast<int>(p.req.size()), p.req.data(), &done, MPI_STATUSES_IGNORE);
  }
  template <class T>
  void finish(std::vector<census_detail::Booked<T>>& out, Pending& p) {
    MPI_Waitall(static_cast<int>(p.req.size()), p.req.data(), MPI_STATUSES_IGNORE);
    p.req.clear();
    for (auto& o : out) o.clear();
    ++ledger_->rounds;
  }

  // Every rank's `local`, in rank order, on rank 0 (empty elsewhere).
  template <class T>
  std::vector<T> gather(const std::vector<T>& local) const {
    const int bytes = static_cast<int>(local.size() * sizeof(T));
    std::vector<int> counts(static_cast<std::size_t>(size_)), displs(counts.size());
    MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_);
    std::vector<T> all;
    if (rank_ == 0) {
      std::size_t total = 0;
      for (std::size_t r = 0; r < counts.size(); ++r) {
        displs[r] = static_cast<int>(total);
        total += static_cast<std::size_t>(counts[r]);
      }
      all.resize(total / sizeof(T));
    }
    MPI_Gatherv(local.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
                0, comm_);
    return all;
  }

  std::uint64_t sum(std::uint64_t x) const {
    std::uint64_t s = 0;
    MPI_Allreduce(&x, &s, 1, MPI_UINT64_T, MPI_SUM, comm_);
    return s;
  }
  // Every rank's `local`, in rank order, on every rank.
  template <class T>
  std::vector<T> all_gather(const std::vector<T>& local) const {
    const int bytes = static_cast<int>(local.size() * sizeof(T));
    std::vector<int> counts(static_cast<std::size_t>(size_)), displs(counts.size());
    MPI_Allgather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
    std::size_t total = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      displs[r] = static_cast<int>(total);
      total += static_cast<std::size_t>(counts[r]);
    }
    std::vector<T> all(total / sizeof(T));
    MPI_Allgatherv(local.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(),
                   MPI_BYTE, comm_);
    return all;
  }
  std::uint64_t max(std::uint64_t x) const {
    std::uint64_t s = 0;
    MPI_Allreduce(&x, &s, 1, MPI_UINT64_T, MPI_MAX, comm_);
    return s;
  }
  // The exact sum of every rank's count, the same on every rank; CensusError on overflow.
  Count sum(Count x) const {
    const std::uint64_t mine[2] = {static_cast<std::uint64_t>(x),
                                   static_cast<std::uint64_t>(x >> 64)};
    std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(size_));
    MPI_Allgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, comm_);
    Count s = 0;
    for (std::size_t r = 0; r < all.size(); r += 2)
      census_detail::add_count(s, (static_cast<Count>(all[r + 1]) << 64) | all[r]);
    return s;
  }
  // The count and the chance of the one rank that has them (the others pass zeros), everywhere.
  void from_owner(Count& c, double& p) const {
    std::uint64_t in[2] = {static_cast<std::uint64_t>(c), static_cast<std::uint64_t>(c >> 64)},
                  out[2];
    MPI_Allreduce(in, out, 2, MPI_UINT64_T, MPI_MAX, comm_);
    c = (static_cast<Count>(out[1]) << 64) | out[0];
    double q = 0;
    MPI_Allreduce(&p, &q, 1, MPI_DOUBLE, MPI_MAX, comm_);
    p = q;
  }
  void broadcast(Count& c) const {
    std::uint64_t w[2] = {static_cast<std::uint64_t>(c), static_cast<std::uint64_t>(c >> 64)};
    MPI_Bcast(w, 2, MPI_UINT64_T, 0, comm_);
    c = (static_cast<Count>(w[1]) << 64) | w[0];
  }

  // Runs f, keeping its exception (if any) for the next agree(): a rank that fails must still
  // reach the collective steps the others wait in.
  template <class F>
  void guarded(F&& f) {
    if (failure_) return;
    try {
      f();
    } catch (...) {
      failure_ = std::current_exception();
    }
  }

  // Collective: returns when no rank failed and `control` says go on on every rank; otherwise
  // every rank throws the same thing (Stopped, MemoryExceeded, CensusError), with the message
  // of the lowest rank that failed worst.
  void agree(const Control& control) {
    int code = 0;
    std::string note;
    if (failure_) {
      try {
        std::rethrow_exception(failure_);
      } catch (const census_detail::MemoryExceeded& e) {
        code = kMemory;
        note = e.what();
      } catch (const CensusError& e) {
        code = kError;
        note = e.what();
      } catch (const Stopped& e) {
        code = kStop + static_cast<int>(e.reason);
      } catch (const std::bad_alloc&) {
        code = kMemory;
        note = "an allocation failed before the memory limit was reached";
      } catch (const std::exception& e) {
        code = kError;
        note = e.what();
      }
    } else if (control.should_stop()) {
      code = kStop + static_cast<int>(control.stop_reason());
    }
    int worst = 0;
    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, comm_);
    if (worst == 0) return;
    int mine = code == worst ? rank_ : size_, from = 0;
    MPI_Allreduce(&mine, &from, 1, MPI_INT, MPI_MIN, comm_);
    int len = static_cast<int>(note.size());
    MPI_Bcast(&len, 1, MPI_INT, from, comm_);
    note.resize(static_cast<std::size_t>(len));
    MPI_Bcast(note.data(), len, MPI_CHAR, from, comm_);
    failure_ = nullptr;
    if (size_ > 1) note = "rank " + std::to_string(from) + ": " + note;
    if (worst >= kError) throw CensusError(note);
    if (worst >= kMemory) throw census_detail::MemoryExceeded(note);
    throw Stopped(static_cast<StopReason>(worst - kStop));
  }

 private:
  static constexpr int kStop = 1, kMemory = 16, kError = 32;
  MPI_Comm comm_;
  RankLedger* ledger_;
  int rank_ = 0, size_ = 1;
  std::exception_ptr failure_;
};

}  // namespace pegsol::mpi
