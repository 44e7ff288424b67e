// SPDX-License-Identifier: MIT
// The census engines' skeleton (internal to src/census): the context every engine shares and
// the run that gives every result one shape. The compact engine (compact_tier.hpp, 64-bit keys
// by residue), the wide engine (wide.cpp, Bits<W> keys by hash shard) and one rank of the MPI
// census (src/mpi/census_mpi.cpp, keys by owner rank) derive from it.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "../core/geometry.hpp"
#include "../core/layout.hpp"
#include "../core/pool.hpp"
#include "engine.hpp"
#include "paths.hpp"
#include "pegsol/census.hpp"
#include "pegsol/problem.hpp"

namespace pegsol::census_detail {

// The skeleton every census engine is built on: the problem, its census group, the run's
// control, memory ledger, worker pool and progress, and the run itself (run_engine), which
// gives every result the same shape, stop handling and totals. An engine derives from it with
// its key representation (compact 64-bit keys, or Bits<W>) and defines its passes.
template <int W>
class Context {
 public:
  using Pos = Bits<W>;

 protected:
  // syms: the census group (problem_symmetries), the identity first; threads: the worker
  // pool's size (0: the options' threads, or the default).
  Context(const Problem& p, const CensusOptions& o, std::vector<int> syms, int threads = 0)
      : p_(p),
        o_(o),
        b_(*p.board),
        g_(*p.board),
        syms_(std::move(syms)),
        run_(o),
        mem_(memory_limit_of(o)),
        workers_(threads > 0 ? threads : threads_of(o)),
        team_(workers_),
        n_(b_.size()),
        goal_pegs_(goal_pegs(p)),
        start_pos_(g_.to_bits(p.start)) {
    // The goal as a position: the goal position, the goal hole's peg, or none (a goal anywhere).
    if (p.goal.kind == Goal::Kind::Position) goal_pos_ = g_.to_bits(p.goal.position);
    if (p.goal.kind == Goal::Kind::Hole) goal_pos_ = Pos::single(layout(b_).bit(p.goal.hole));
    progress_.start();
  }

  // Runs body(r) on a result with a level per peg count and a figure per hole, then adds its
  // totals, time and memory peak; units: the progress units of the whole run. A stop becomes
  // the result's reason, and what the passes settled stays in it.
  // report_done: the last progress report ("done"), off for an engine that reports its own.
  template <class Body>
  CensusResult run_engine(int group_size, std::uint64_t units, Body&& body,
                          bool report_done = true) {
    CensusResult r;
    r.group_size = group_size;
    r.width = W;
    r.threads = workers_;
    r.levels.assign(static_cast<std::size_t>(n_ + 1), CensusLevel{});
    r.solutions_by_hole.assign(static_cast<std::size_t>(n_), 0);
    r.p_by_hole.assign(static_cast<std::size_t>(n_), 0.0);
    progress_.set_units(units);
    run_passes(r, [&] { body(r); });
    if (r.stop == StopReason::None && report_done) report("done", 1, positions_, units, true);
    total_result(r, progress_, mem_);
    return r;
  }

  // The least image of x under the census group (layout bits), the key a level stores.
  Pos canon(const Pos& x) const { return syms_.size() > 1 ? g_.canonical(x, syms_) : x; }
  // The number of positions in the orbit of canonical c.
  int orbit_size(const Pos& c) const {
    if (syms_.size() == 1) return 1;
    int stab = 0;
    for (int s : syms_) stab += g_.apply(s, c) == c;
    return static_cast<int>(syms_.size()) / stab;
  }

  // Whether x (layout bits) is the goal: one peg for a goal anywhere, else the goal position.
  bool is_goal(const Pos& x) const {
    return p_.goal.kind == Goal::Kind::Any ? x.count() == 1 : x == goal_pos_;
  }

  // Solutions up to the census group (paths.hpp's Burnside count), from r.solutions.
  void up_to_symmetry(CensusResult& r) const {
    r.solutions_up_to_symmetry = solutions_up_to_symmetry(
        g_, syms_, start_pos_, goal_pegs_, r.solutions, [&](const Pos& x) { return is_goal(x); });
  }

  // The image of every jump under every symmetry of the group, [symmetry index in syms_][jump]:
  // a permutation of bits is linear over XOR, so image(x ^ jump) = image(x) ^ image(jump), and
  // a child's images cost one XOR each once its parent's are known.
  std::vector<Pos> jump_images() const {
    const std::size_t nj = b_.jumps().size();
    std::vector<Pos> out(syms_.size() * nj);
    for (std::size_t s = 0; s < syms_.size(); ++s)
      for (std::size_t j = 0; j < nj; ++j)
        out[s * nj + j] = g_.apply(syms_[s], g_.jump_mask(static_cast<int>(j)));
    return out;
  }

  // The goal's solutions and chance (r.solutions, r.p_goal) from the one-peg level's figures
  // by hole (r.solutions_by_hole, r.p_by_hole, r.p_one_peg). Goals of more pegs are read from
  // their own level.
  void goal_figures(CensusResult& r) const {
    switch (p_.goal.kind) {
      case Goal::Kind::Any:
        r.solutions = 0;
        for (Count c : r.solutions_by_hole) add_count(r.solutions, c);
        r.p_goal = r.p_one_peg;
        break;
      case Goal::Kind::Hole:
        r.solutions = r.solutions_by_hole[static_cast<std::size_t>(p_.goal.hole)];
        r.p_goal = r.p_by_hole[static_cast<std::size_t>(p_.goal.hole)];
        break;
      case Goal::Kind::Position:
        if (goal_pegs_ == 1) {
          const auto h = static_cast<std::size_t>(layout(b_).hole_at_bit(goal_pos_.lowest()));
          r.solutions = r.solutions_by_hole[h];
          r.p_goal = r.p_by_hole[h];
        }
        break;
    }
  }

  // Throws Stopped (with its reason) once the run's control says stop.
  void check_cancel() const { run_.control.throw_if_stopped(); }
  // Progress (Progress: the control's report).
  void report(std::string_view phase, int level, std::uint64_t positions, std::uint64_t done,
              bool force = false) {
    progress_.report(phase, level, positions, done, force);
  }

  const Problem& p_;
  const CensusOptions& o_;
  const Board& b_;
  Geometry<W> g_;
  std::vector<int> syms_;  // the census group: indices into the board's symmetries, 0 first
  RunControl run_;
  Memory mem_;
  int workers_ = 1;
  WorkerPool team_;                        // the run's threads, for every level of every pass
  Progress progress_{run_.control, mem_};  // the run's clock and progress
  int n_ = 0;                              // holes
  int goal_pegs_ = 1, k0_ = 0;             // pegs at the goal and at the start
  std::uint64_t positions_ = 0;            // positions built so far, for progress
  Pos start_pos_, goal_pos_;  // the start and the goal (none for a goal anywhere), layout bits
};

}  // namespace pegsol::census_detail
