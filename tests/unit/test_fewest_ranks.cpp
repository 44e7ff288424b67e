// SPDX-License-Identifier: MIT
// The fewest-moves passes spread over K processes (FewestOptions::ranks), played by K threads of
// one test through an in-memory FewestRanks: every thread ends with the one process's fewest
// moves, proof and lower bound, and a solution that replays with that many moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/spec.hpp"

using namespace pegsol;

namespace {

// What K thread ranks share: a barrier and a slot per (sender, receiver).
struct Meeting {
  explicit Meeting(int k)
      : size(k),
        bar(k),
        slots(static_cast<std::size_t>(k * k)),
        codes(static_cast<std::size_t>(k)) {}
  int size;
  std::barrier<> bar;
  std::vector<std::vector<std::byte>> slots;
  std::vector<int> codes;
};

// One thread's rank: each collective step writes its slots, waits for every rank, reads theirs
// and waits again (so that no slot is written before every rank has read it).
class ThreadRank final : public FewestRanks {
 public:
  ThreadRank(Meeting& m, int rank) : m_(m), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return m_.size; }
  void all_gather(const void* mine, std::size_t bytes, void* all) override {
    const auto* p = static_cast<const std::byte*>(mine);
    slot(rank_, 0).assign(p, p + bytes);
    m_.bar.arrive_and_wait();
    for (int r = 0; r < m_.size; ++r)
      if (bytes > 0)
        std::memcpy(static_cast<std::byte*>(all) + r * bytes, slot(r, 0).data(), bytes);
    m_.bar.arrive_and_wait();
  }
  void all_to_all(std::span<const std::span<const std::byte>> out,
                  std::vector<std::byte>& in) override {
    for (int d = 0; d < m_.size; ++d)
      slot(rank_, d).assign(out[static_cast<std::size_t>(d)].begin(),
                            out[static_cast<std::size_t>(d)].end());
    m_.bar.arrive_and_wait();
    in.clear();
    for (int s = 0; s < m_.size; ++s)
      in.insert(in.end(), slot(s, rank_).begin(), slot(s, rank_).end());
    m_.bar.arrive_and_wait();
  }
  void agree(std::exception_ptr failure) override {
    int code = 0;
    if (failure) {
      try {
        std::rethrow_exception(failure);
      } catch (const Stopped& e) {
        code = 1 + static_cast<int>(e.reason);
      } catch (...) {
        code = 64;
      }
    }
    m_.codes[static_cast<std::size_t>(rank_)] = code;
    m_.bar.arrive_and_wait();
    const int worst = *std::max_element(m_.codes.begin(), m_.codes.end());
    m_.bar.arrive_and_wait();
    if (worst == 0) return;
    if (worst == code) std::rethrow_exception(failure);
    if (worst == 64) throw InternalError("another rank failed");
    throw Stopped(static_cast<StopReason>(worst - 1));
  }

 private:
  std::vector<std::byte>& slot(int from, int to) {
    return m_.slots[static_cast<std::size_t>(from * m_.size + to)];
  }
  Meeting& m_;
  int rank_;
};

// fewest_solve of `p` with `o` spread over k thread ranks: each rank's result.
std::vector<FewestResult> spread_solve(const Problem& p, const FewestOptions& o, int k) {
  Meeting m(k);
  std::vector<FewestResult> out(static_cast<std::size_t>(k));
  std::vector<std::exception_ptr> failed(static_cast<std::size_t>(k));
  std::vector<std::thread> threads;
  for (int r = 0; r < k; ++r)
    threads.emplace_back([&, r] {
      ThreadRank rank(m, r);
      FewestOptions so = o;
      so.ranks = &rank;
      so.threads = 1;
      try {
        out[static_cast<std::size_t>(r)] = fewest_solve(p, so);
      } catch (...) {
        failed[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& f : failed)
    if (f) std::rethrow_exception(f);
  return out;
}

void check_spread(const std::string& spec_board, const std::string& start, const std::string& end,
                  const FewestOptions& o) {
  ProblemSpec spec;
  spec.board = spec_board;
  spec.start = start;
  spec.end = end;
  const Problem p = build_problem(spec);
  const FewestResult one = fewest_solve(p, o);
  for (int k = 1; k <= 4; ++k) {
    for (const FewestResult& r : spread_solve(p, o, k)) {
      SCOPED_TRACE(spec_board + " " + start + " -> " + end + " on " + std::to_string(k) + " ranks");
      EXPECT_EQ(r.status, one.status);
      EXPECT_EQ(r.moves, one.moves);
      EXPECT_EQ(r.proven, one.proven);
      EXPECT_EQ(r.lower_bound, one.lower_bound);
      if (r.moves < 0) continue;
      EXPECT_EQ(count_moves(r.jumps), r.moves);
      const Replay rep = replay(*p.board, p.start, r.jumps);
      ASSERT_TRUE(rep.ok) << rep.error;
      EXPECT_TRUE(goal_reached(p, rep.final));
    }
  }
}

}  // namespace

TEST(Fewest, SpreadOverRanksGivesTheOneProcessAnswer) {
  FewestOptions o;
  check_spread("triangle:5", "", "", o);
  check_spread("rect:3x4", "", "", o);
  check_spread("triangle:6", "", "", o);
}

TEST(Fewest, SpreadOverRanksWithoutBoundOrBeam) {
  FewestOptions o;
  o.prune = false;
  o.beam = 0;
  check_spread("triangle:5", "1", "1", o);
  check_spread("triangle:6", "1", "", o);
}

TEST(Fewest, SpreadOverRanksRefusesCheckpointsAndSpill) {
  ProblemSpec spec;
  spec.board = "triangle:5";
  const Problem p = build_problem(spec);
  FewestOptions o;
  o.spill_dir = "/tmp";
  EXPECT_THROW(spread_solve(p, o, 1), InputError);
}
