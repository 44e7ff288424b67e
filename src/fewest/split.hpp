// SPDX-License-Identifier: MIT
// The fewest-moves board minimum split by start class and end class (FewestOptions::split).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "../core/control_access.hpp"
#include "bound.hpp"
#include "keys.hpp"
#include "passes.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/invariants.hpp"
#include "state.hpp"

namespace pegsol::fewest_detail {

// The board's fewest moves over every single-vacancy-to-one-peg pair, one search per start class
// and end class (classes of holes under the board's symmetries; a pair that the position class
// or the peg types rule out is left out). Starts are a whole class of vacancies and goals a whole
// class of single pegs, so each search keeps the board's whole group. The searches run in sweeps
// under a cap, the least floor of the open pairs: a pair's passes run until its floor passes the
// cap, it meets, or its floor reaches the best solution found so far (its limit). A pair whose
// floor reaches the best solution is settled; when every pair is, the best is the fewest.
template <int W>
void run_board_split(const Board& b, const FewestOptions& o, FewestResult& r,
                     const std::vector<Jump>& known) {
  const int n = b.size();
  const auto& syms = b.symmetries();
  std::vector<int> rep(static_cast<std::size_t>(n));
  for (int h = 0; h < n; ++h) {
    int least = h;
    for (const auto& p : syms) least = std::min(least, p[static_cast<std::size_t>(h)]);
    rep[static_cast<std::size_t>(h)] = least;
  }
  std::vector<int> classes;
  for (int h = 0; h < n; ++h)
    if (rep[static_cast<std::size_t>(h)] == h) classes.push_back(h);
  const Bits<W> full = Bits<W>::low(n);
  auto orbit = [&](int c) {
    Bits<W> out;
    for (int h = 0; h < n; ++h)
      if (rep[static_cast<std::size_t>(h)] == c) out |= Bits<W>::single(h);
    return out;
  };
  std::vector<PairState> pairs;
  for (int s : classes) {
    const HoleSet ends = admissible_finals(b, single_vacancy(b, s));
    for (int e : classes) {
      bool any = false;
      for (Bits<W> x = orbit(e); x.any(); x.pop_lowest()) any = any || ends.test(x.lowest());
      if (any) pairs.push_back(PairState{s, e, 0, false});
    }
  }
  Checkpoints ck(o.checkpoint_dir, o.resume, problem_identity(b, "board split"));
  ck.after_save = o.checkpointed;
  FewestState& st = ck.state();
  if (st.pairs.empty()) {
    st.pairs = pairs;
  } else {
    bool same = st.pairs.size() == pairs.size();
    for (std::size_t k = 0; same && k < pairs.size(); ++k)
      same = st.pairs[k].start == pairs[k].start && st.pairs[k].end == pairs[k].end;
    if (!same)
      throw InputError(
          "FewestOptions::resume",
          o.checkpoint_dir + ": the state's pairs are not this board's start and end classes");
  }
  // A pair not searched yet starts at its bound: the least over its starts.
  for (PairState& p : st.pairs) {
    if (p.floor > 0 || p.impossible) continue;
    std::vector<Bits<W>> starts, goals;
    for (Bits<W> x = orbit(p.start); x.any(); x.pop_lowest())
      starts.push_back(andnot(full, Bits<W>::single(x.lowest())));
    for (Bits<W> x = orbit(p.end); x.any(); x.pop_lowest())
      goals.push_back(Bits<W>::single(x.lowest()));
    const Bound<W> bound(b, starts, goals, -1);
    int least = -1;
    for (Bits<W> s0 : starts) {
      const int f = bound.forward(s0);
      if (least < 0 || f < least) least = f;
    }
    p.floor = std::max(least, 0);
  }
  std::vector<Bits<W>> all_starts, all_goals;
  single_pegs(b, all_starts, all_goals);
  check_state_solution(b, st, all_starts, all_goals, o);
  std::vector<Jump> best = known;
  if (!st.best.empty() && (best.empty() || count_moves(st.best) < count_moves(best)))
    best = st.best;
  // A shorter solution given than the state's (FewestOptions::known_solution) is written back.
  const bool given_shorter = ck.on() && !o.known_solution.empty() && !best.empty() &&
                             (st.best.empty() || count_moves(best) < count_moves(st.best));
  st.best = best;
  auto best_moves = [&] { return best.empty() ? -1 : count_moves(best); };
  // Every solution has at least the least floor of the pairs that may have one (no more than
  // the best known, which is one).
  auto lower = [&] {
    int lb = -1;
    for (const PairState& p : st.pairs)
      if (!p.impossible && (lb < 0 || p.floor < lb)) lb = p.floor;
    if (lb < 0) lb = 0;
    return best_moves() >= 0 ? std::min(lb, best_moves()) : lb;
  };
  auto open = [&](const PairState& p) {
    return !p.impossible && (best_moves() < 0 || p.floor < best_moves());
  };
  const double t0 = o.control->elapsed_seconds();
  std::uint64_t positions = 0;
  FewestOptions po = o;
  po.checkpoint_dir.clear();
  po.resume = false;
  int current = -1;
  // The pairs' searches report through `relay`, which gives their reports the board's bounds.
  Control relay(o.control);
  if (ControlAccess::wants_progress(*o.control))
    relay.set_progress(
        [&](const ProgressReport& p) {
          ProgressReport q = p;
          FewestBounds& f = q.fewest ? *q.fewest : q.fewest.emplace();
          f.lower_bound = std::max(lower(), 0);
          f.best_found = best_moves();
          f.pair = current;
          f.pairs = static_cast<int>(st.pairs.size());
          q.positions = ck.base_positions() + positions + p.positions;
          o.control->report(q);
        },
        0);
  po.control = &relay;
  auto save = [&](std::uint64_t extra) {
    st.floor = lower();
    st.best = best;
    ck.save(positions + extra, o.control->elapsed_seconds() - t0);
  };
  if (given_shorter) save(0);
  r.stop = StopReason::None;
  // Shared by several processes: each searches its share of a sweep's pairs, and what they
  // settled is exchanged at the start (a resumed state, which one process keeps) and after each
  // sweep, so that every process starts the next sweep from the same state.
  const int parts = std::max(o.split_parts, 1), part = o.split_part;
  if (part < 0 || part >= parts)
    throw std::invalid_argument("fewest_board: split_part is not one of the split_parts");
  std::uint64_t own = 0;  // positions stored here since the last exchange
  auto merge = [&] {
    if (!o.split_merge) return;
    FewestSweep sw;
    for (const PairState& p : st.pairs)
      sw.floors.push_back(p.impossible ? FewestSweep::kImpossible : p.floor);
    sw.best = best;
    sw.stop = r.stop;
    sw.positions = own;
    o.split_merge(sw);
    if (sw.floors.size() != st.pairs.size())
      throw std::logic_error("fewest_board: split_merge changed the number of pairs");
    for (std::size_t k = 0; k < st.pairs.size(); ++k) {
      if (sw.floors[k] == FewestSweep::kImpossible)
        st.pairs[k].impossible = true;
      else
        st.pairs[k].floor = std::max(st.pairs[k].floor, sw.floors[k]);
    }
    if (!sw.best.empty()) best = sw.best;  // no more moves than this one's: the same everywhere
    if (r.stop == StopReason::None) r.stop = sw.stop;
    positions += sw.positions - own;  // the others' positions join this one's
    own = 0;
  };
  merge();
  while (r.stop == StopReason::None) {
    int cap = -1;
    for (const PairState& p : st.pairs)
      if (open(p) && (cap < 0 || p.floor < cap)) cap = p.floor;
    if (cap < 0) break;  // every pair settled or impossible
    // The sweep's pairs, dealt out to the processes that share the split.
    std::vector<std::size_t> sweep;
    for (std::size_t k = 0; k < st.pairs.size(); ++k)
      if (open(st.pairs[k]) && st.pairs[k].floor <= cap) sweep.push_back(k);
    for (std::size_t i = static_cast<std::size_t>(part);
         i < sweep.size() && r.stop == StopReason::None; i += static_cast<std::size_t>(parts)) {
      const std::size_t k = sweep[i];
      PairState& p = st.pairs[k];
      if (!open(p)) continue;  // the best solution found in this sweep settled it
      current = static_cast<int>(k);
      std::vector<Bits<W>> starts, goals;
      for (Bits<W> x = orbit(p.start); x.any(); x.pop_lowest())
        starts.push_back(andnot(full, Bits<W>::single(x.lowest())));
      for (Bits<W> x = orbit(p.end); x.any(); x.pop_lowest())
        goals.push_back(Bits<W>::single(x.lowest()));
      PassHooks<W> h;
      h.start_floor = p.floor;
      h.cap = cap;
      h.on_pass = [&](int floor, const std::vector<Jump>& found, std::uint64_t pos) {
        p.floor = std::max(p.floor, floor);
        if (!found.empty() && (best.empty() || count_moves(found) < best_moves())) best = found;
        save(pos);
      };
      po.beam = p.floor == 0 ? o.beam : 0;  // the beam once a pair, on its first sweep
      FewestResult pr;
      search<W>(b, starts, goals, nullptr, po, pr, best, false, &h);
      positions += pr.positions;
      own += pr.positions;
      if (!pr.jumps.empty() && (best.empty() || count_moves(pr.jumps) < best_moves()))
        best = pr.jumps;
      if (pr.status == Status::Impossible) {
        p.impossible = true;
      } else {
        p.floor = std::max(p.floor, pr.lower_bound);
        if (pr.stop != StopReason::None) r.stop = pr.stop;
      }
      save(0);
    }
    merge();
    if (o.split_merge) save(0);
  }
  current = -1;
  r.jumps = best;
  r.moves = best_moves();
  r.positions = ck.base_positions() + positions;
  r.seconds = ck.base_seconds() + o.control->elapsed_seconds() - t0;
  if (r.stop != StopReason::None) {
    r.status = Status::Unknown;
    r.lower_bound = lower();
    r.reason = std::string("stopped: ") + std::string(stop_reason_name(r.stop));
    r.proven = false;
    if (r.moves >= 0 && r.lower_bound >= r.moves) {  // the stop came after the proof
      r.status = Status::Solved;
      r.proven = true;
      r.reason.clear();
      r.stop = StopReason::None;
    }
    return;
  }
  if (r.moves < 0) {
    r.status = Status::Impossible;
    r.reason = "no solution: every start and end class's completed search found none";
    r.lower_bound = 0;
    return;
  }
  r.status = Status::Solved;
  r.lower_bound = r.moves;
  r.proven = true;
}

}  // namespace pegsol::fewest_detail
