// SPDX-License-Identifier: MIT
// The fewest-moves search: passes under a rising limit, the first beam, the shortening, and
// checkpoints; the entry points for one problem and for a board's minimum.
#pragma once

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bound.hpp"
#include "key_geometry.hpp"
#include "keys.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "ranks.hpp"
#include "search.hpp"
#include "shorten.hpp"
#include "state.hpp"

namespace pegsol::fewest_detail {

// What a search takes from its caller beyond the problem: a floor proven before (a resumed run),
// a cap for a sweep (the split), and a report after each completed pass (a checkpoint).
template <int W>
struct PassHooks {
  int start_floor = 0;  // every solution has at least this many moves (passes start there)
  int cap = -1;         // >= 0: return (status Unknown, reason "capped") once the floor exceeds it
  // After each pass that raised the floor, and each better solution before the passes: the
  // floor, the best solution (empty: none) and the positions stored so far.
  std::function<void(int, const std::vector<Jump>&, std::uint64_t)> on_pass;
  // A pass saved part way (its last levels in files in level_dir): the pass at its limit
  // starts from there instead of the starts and goals.
  const PassState* resume_pass = nullptr;
  std::string level_dir;
  // A level part made of that pass (its `making` line; null: none).
  const MakingState* resume_making = nullptr;
  // After each level a pass makes (true: a backward one), with the positions of the passes
  // before it.
  std::function<void(Search<W>&, bool, std::uint64_t)> on_level;
  // After each group of shards of a level made with levels spilled (then made into files of
  // level_dir), likewise.
  std::function<void(Search<W>&, bool, std::uint64_t)> on_group;
};

// Runs the search between `starts` and `goals` and fills `r`; `known` is a solution found before
// (may be empty). With pruning, passes run under a rising limit: each either finds a solution
// no dearer than every position it dropped (the fewest) or proves that every solution costs at
// least the least dropped cost, which is the next limit.
template <int W>
void search(const Board& b, const std::vector<Bits<W>>& starts, const std::vector<Bits<W>>& goals,
            const HoleSet* start, const FewestOptions& o, FewestResult& r,
            const std::vector<Jump>& known, bool polish_known, const PassHooks<W>* hooks) {
  KeyGeometry<W> geo(b, keeping<W>(b, {starts, goals}, o.symmetry));
  std::optional<Bound<W>> bound;
  if (o.prune) {
    bound.emplace(b, starts, goals, o.pagoda_jumps, o.pattern_jumps);
    trim_heap();  // what building the pattern tables freed
  }
  const double t0 = o.control->elapsed_seconds();
  std::vector<Jump> best = known;  // the best solution found so far
  int best_moves = known.empty() ? -1 : count_moves(known);
  // No solution costs less than `floor`: at first the bound of the cheapest start.
  std::uint32_t floor = 0;
  if (bound) {
    floor = kNoCost;
    for (Bits<W> s : starts) floor = std::min(floor, static_cast<std::uint32_t>(bound->forward(s)));
    if (hooks && hooks->start_floor > 0)  // proven by passes of an earlier run
      floor = std::max(floor, static_cast<std::uint32_t>(hooks->start_floor));
  }
  std::uint64_t positions = 0;
  // Tells the hooks of a settled floor or a better solution (a checkpoint).
  auto passed = [&](int best_count) {
    if (hooks && hooks->on_pass)
      hooks->on_pass(static_cast<int>(floor), best_count >= 0 ? best : std::vector<Jump>{},
                     positions);
  };
  auto settle = [&](Status status, int lower) {
    r.status = status;
    r.lower_bound = lower;
    r.jumps = best;
    r.moves = best_moves;
    r.proven = status == Status::Solved;
  };
  bool stopped = false;
  bool resumed = false;        // the pass saved part way has been taken up
  bool out_of_memory = false;  // a pass ran out of memory: the proof is out of reach
  int released_fewest = -1;    // the fewest, proven by a pass whose levels were released
  auto stop = [&](StopReason why, int lower) {
    stopped = true;
    r.stop = why;
    settle(Status::Unknown, lower);
    r.reason = std::string("stopped: ") + std::string(stop_reason_name(why));
    if (best_moves >= 0 && lower >= best_moves) {  // the stop came after the proof
      settle(Status::Solved, best_moves);
      r.reason.clear();
      r.stop = StopReason::None;
    }
  };
  // A beam first: a solution close to the fewest, cheaply. It is the best found when a stop
  // cuts the passes short, and it caps their limit.
  if (bound && o.beam > 0) {
    Search<W> s(geo, o, &*bound, kNoCost);
    try {
      s.seed(starts, goals);
      const int found = s.run_beam(o.beam);
      positions += s.positions();
      if (found >= 0 && (best_moves < 0 || found < best_moves)) {
        best = s.path();
        best_moves = count_moves(best);
        if (best_moves != found) throw std::logic_error("fewest moves: the beam's path disagrees");
      }
    } catch (const Stopped& e) {
      positions += s.positions();
      stop(e.reason, static_cast<int>(floor));
      out_of_memory = e.reason == StopReason::Memory;
    }
  }
  // The best known shortened window by window, while the passes are still to prove it.
  if (polish_known && bound && !stopped && best_moves > static_cast<int>(floor)) {
    for (Bits<W> s0 : starts) {
      if (!replay(b, to_holes(b, s0), best).ok) continue;
      std::vector<Jump> shorter = polish(b, s0, best, o);
      if (count_moves(shorter) < best_moves) {
        best = std::move(shorter);
        best_moves = count_moves(best);
        passed(best_moves);
      }
      break;
    }
    if (o.control->checkpoint()) stop(o.control->stop_reason(), static_cast<int>(floor));
  }
  const std::uint64_t alike = positions;  // the beam's: the same on every process
  if (o.ranks) {  // every process goes into the passes with the same best solution and stop
    agree_best(*o.ranks, best);
    best_moves = best.empty() ? -1 : count_moves(best);
    int why = 0;
    for (int w : gather(*o.ranks, stopped ? static_cast<int>(r.stop) : 0)) why = std::max(why, w);
    if (why != 0) {
      stop(static_cast<StopReason>(why), static_cast<int>(floor));
      out_of_memory = r.stop == StopReason::Memory;
    }
  }
  while (!stopped) {
    if (best_moves >= 0 && floor >= static_cast<std::uint32_t>(best_moves)) {
      settle(Status::Solved, best_moves);
      break;
    }
    if (hooks && hooks->cap >= 0 && bound && floor > static_cast<std::uint32_t>(hooks->cap)) {
      settle(Status::Unknown, static_cast<int>(floor));  // the caller's sweep goes on from here
      r.reason = "capped";
      break;
    }
    // The limit: the floor. A pass's cost grows steeply with its limit, so a pass at the floor
    // that does not settle the question costs little beside one a move above it that would.
    // (Passes at the floor plus one once a solution was known lost to this when the bound took
    // the peg types; docs/fewest.md.)
    const std::uint32_t limit = bound ? floor : kNoCost;
    Search<W> s(geo, o, bound ? &*bound : nullptr, limit);
    s.spread_over(o.ranks);
    s.set_best_found(best_moves);
    s.set_floor(static_cast<int>(floor));
    int found = -1;
    try {
      if (hooks && hooks->resume_pass && !resumed && bound &&
          static_cast<int>(limit) == hooks->resume_pass->limit) {
        s.restore(*hooks->resume_pass, hooks->level_dir);
        if (hooks->resume_making) s.restore_making(*hooks->resume_making, hooks->level_dir);
        resumed = true;
        // The saved pass's positions are in the state's count already (the run's base): taken
        // off here, they come back (modulo 2^64) with s.positions() below.
        positions -= s.positions();
      } else {
        s.seed(starts, goals);
      }
      if (hooks && hooks->on_level)
        s.on_level = [&](bool backward) { hooks->on_level(s, backward, positions); };
      if (hooks && hooks->on_group) {
        s.set_level_dir(hooks->level_dir);
        s.on_group = [&](bool backward) { hooks->on_group(s, backward, positions); };
      }
      found = s.run();
    } catch (const Stopped& e) {
      positions += s.positions();
      r.spill_peak_bytes = std::max(r.spill_peak_bytes, s.spill_peak());
      stop(e.reason, std::max(static_cast<int>(floor), s.lower_bound()));
      out_of_memory = e.reason == StopReason::Memory;
      break;
    }
    positions += s.positions();
    r.spill_peak_bytes = std::max(r.spill_peak_bytes, s.spill_peak());
    const bool better = found >= 0 && (best_moves < 0 || found < best_moves);
    if (better && s.released()) {
      // The pass met at `found`, no more than its limit, the floor: that is the fewest. It
      // released the levels a solution is walked back through, so one is sought through the
      // meeting position by two searches of their own, to it and from it.
      const Bits<W> meet = s.meeting();
      s.release_all();
      std::vector<Jump> joined = through(b, starts, goals, meet, o, positions);
      if (!joined.empty() && (best_moves < 0 || count_moves(joined) < best_moves)) {
        best = std::move(joined);
        best_moves = count_moves(best);
      }
      if (best_moves == found) {
        settle(Status::Solved, best_moves);
        break;
      }
      stop(o.control->checkpoint() ? o.control->stop_reason() : StopReason::Memory, found);
      out_of_memory = r.stop == StopReason::Memory;
      released_fewest = found;
      break;
    }
    if (better) {
      best = s.path();
      best_moves = count_moves(best);
      if (best_moves != found)
        throw std::logic_error("fewest moves: the path has " + std::to_string(best_moves) +
                               " moves, the pass " + std::to_string(found));
    }
    // Every solution the pass did not see costs at least `dropped`, and it saw every cheaper one.
    const std::uint32_t dropped = s.dropped();
    if (dropped == kNoCost) {
      if (best_moves < 0) {
        settle(Status::Impossible, 0);
        r.reason = "no solution: the completed level pass found no position both sides reach";
      } else {
        settle(Status::Solved, best_moves);
      }
      break;
    }
    if (dropped <= floor) throw std::logic_error("fewest moves: the limit does not rise");
    floor = dropped;
    if (found >= 0 && static_cast<std::uint32_t>(found) <= dropped) {
      settle(Status::Solved, best_moves);
      break;
    }
    passed(best_moves);
  }
  // Out of memory for the proof (its pass is gone, and its memory with it): what time is left
  // goes to the best solution, by windows anchored at its ends.
  if (out_of_memory && o.shorten_ends && polish_known && bound && best_moves > r.lower_bound) {
    const int lower = r.lower_bound;
    for (Bits<W> s0 : starts) {
      if (!replay(b, to_holes(b, s0), best).ok) continue;
      std::vector<Jump> shorter = polish_ends(b, s0, best, o, lower);
      if (count_moves(shorter) < best_moves) {
        best = std::move(shorter);
        best_moves = count_moves(best);
      }
      break;
    }
    // A stop asked meanwhile (a signal, the time limit) is the run's stop reason from here.
    stop(o.control->should_stop() ? o.control->stop_reason() : StopReason::Memory, lower);
  }
  if (o.ranks) {  // the shortened solutions of every process: the fewest moves of theirs
    agree_best(*o.ranks, best);
    best_moves = best.empty() ? -1 : count_moves(best);
    if (r.status == Status::Unknown) stop(r.stop, r.lower_bound);
    if (r.status == Status::Solved) settle(Status::Solved, best_moves);
    std::uint64_t spread = 0;  // the passes' positions: each process stored its own
    for (std::uint64_t p : gather(*o.ranks, positions - alike)) spread += p;
    positions = alike + spread;
  }
  if (released_fewest >= 0 && best_moves > released_fewest)
    r.reason += " (the fewest is " + std::to_string(released_fewest) +
                " moves, but the levels to rebuild such a solution were released)";
  r.positions = positions;
  r.seconds = o.control->elapsed_seconds() - t0;
  if (start && !r.jumps.empty()) {
    Replay rep = replay(b, *start, r.jumps);
    if (!rep.ok) throw std::logic_error("fewest moves: the solution does not replay: " + rep.error);
  }
}

// Forgets the pass saved part way; returns its level files, to be removed once a state without
// it is written (a kill between the two leaves files no state names, never a state naming none).
inline std::vector<std::string> end_pass(const std::string& dir, FewestState& st) {
  if (!st.pass.on) return {};
  std::vector<std::string> files{dir + "/" + st.pass.ffile, dir + "/" + st.pass.bfile};
  if (st.making.on) files.push_back(dir + "/" + st.making.file);
  st.pass = PassState{};
  st.making = MakingState{};
  return files;
}

// Removes the level files in `dir` that the state `st` does not name (levels made into files
// since the state before, parts of levels that a stop cut short, a ".new" a kill left).
inline void remove_unnamed(const std::string& dir, const FewestState& st) {
  std::error_code ec;
  std::vector<std::string> gone;
  for (const auto& f : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = f.path().filename().string();
    if (!(name.starts_with("f.") || name.starts_with("b."))) continue;
    if (!(name.ends_with(".level") || name.ends_with(".part") || name.ends_with(".level.new")))
      continue;
    if (st.pass.on && (name == st.pass.ffile || name == st.pass.bfile)) continue;
    // The part made, or the level it became (renamed whole before a kill).
    if (st.making.on && st.making.file.ends_with(".part") &&
        (name == st.making.file ||
         name == st.making.file.substr(0, st.making.file.size() - 5) + ".level"))
      continue;
    gone.push_back(f.path().string());
  }
  for (const std::string& g : gone) std::remove(g.c_str());
}

// Removes files a saved state no longer names.
inline void remove_files(const std::vector<std::string>& files) {
  for (const std::string& f : files) std::remove(f.c_str());
}

// The hooks that keep `ck`'s state after each pass of a search (none when it is off), with the
// seconds counted from `t0`; `best_ok` says whether a solution belongs in the state.
template <int W>
PassHooks<W> checkpoint_hooks(Checkpoints& ck, const FewestOptions& o, double t0) {
  PassHooks<W> h;
  h.start_floor = ck.state().floor;
  if (!ck.on()) return h;
  h.on_pass = [&ck, &o, t0](int floor, const std::vector<Jump>& best, std::uint64_t positions) {
    FewestState& st = ck.state();
    std::vector<std::string> ended;
    if (st.pass.on && floor > st.pass.limit) ended = end_pass(o.checkpoint_dir, st);
    st.floor = std::max(st.floor, floor);
    if (!best.empty() && (st.best.empty() || count_moves(best) < count_moves(st.best)))
      st.best = best;
    ck.save(positions, o.control->elapsed_seconds() - t0);
    remove_files(ended);
  };
  return h;
}

// The state's solution when it still solves the problem from `start` (one of `starts`, or any
// single vacancy when null) to a goal: else an InputError naming the checkpoint.
template <int W>
void check_state_solution(const Board& b, const FewestState& st, const std::vector<Bits<W>>& starts,
                          const std::vector<Bits<W>>& goals, const FewestOptions& o) {
  if (st.best.empty()) return;
  for (const Jump& j : st.best)
    if (j.from < 0 || j.over < 0 || j.to < 0 || j.from >= b.size() || j.over >= b.size() ||
        j.to >= b.size())
      throw InputError(
          "FewestOptions::resume",
          o.checkpoint_dir + ": the state's solution names a hole that is not on the board");
  for (Bits<W> s0 : starts) {
    const Replay rep = replay(b, to_holes(b, s0), st.best);
    if (!rep.ok) continue;
    const Bits<W> end = to_bits<W>(rep.final);
    for (Bits<W> g : goals)
      if (g == end) return;
  }
  throw InputError("FewestOptions::resume",
                   o.checkpoint_dir + ": the state's solution does not solve this problem");
}

// Runs `search` with checkpoints: resumed from the state in o.checkpoint_dir when o.resume,
// the state written after each pass and at the end. The result's positions and seconds include
// the runs before.
template <int W>
void search_checkpointed(const Board& b, const std::vector<Bits<W>>& starts,
                         const std::vector<Bits<W>>& goals, const HoleSet* start,
                         const FewestOptions& o, FewestResult& r, std::vector<Jump> known,
                         const std::string& what) {
  Checkpoints ck(o.checkpoint_dir, o.resume, problem_identity(b, what));
  FewestState& st = ck.state();
  check_state_solution(b, st, starts, goals, o);
  if (st.pass.on && (old_level_file(o.checkpoint_dir + "/" + st.pass.ffile) ||
                     old_level_file(o.checkpoint_dir + "/" + st.pass.bfile))) {
    // Levels of the mixer before: the pass is made again.
    const std::vector<std::string> ended = end_pass(o.checkpoint_dir, st);
    ck.save(0, 0);
    remove_files(ended);
  }
  ck.after_save = o.checkpointed;
  if (!st.best.empty() && (known.empty() || count_moves(st.best) < count_moves(known)))
    known = st.best;
  if (ck.on() && !o.known_solution.empty() && !known.empty() &&
      (st.best.empty() || count_moves(known) < count_moves(st.best))) {
    st.best = known;  // a shorter solution given: the state's best from now on (a pass part
    ck.save(0, 0);    // way stays as it was)
  }
  const double t0 = o.control->elapsed_seconds();
  FewestOptions so = o;
  so.checkpoint_dir.clear();
  so.resume = false;
  PassHooks<W> h = checkpoint_hooks<W>(ck, o, t0);
  const PassState resume = st.pass;
  const MakingState resume_making = st.making;
  // Outlives the hooks: search() below calls on_level, which reads and sets it.
  double last_level_save = o.control->elapsed_seconds();
  // After a level or a group of a level's shards (at most every level_checkpoint_seconds):
  // each side whose last level moved is written to a file of its own and flushed, and the
  // level part made flushed, then the state naming them replaces the old one, then the files it
  // no longer names are removed (a kill leaves the state and its files).
  auto save_level = [&](Search<W>& s, std::uint64_t before, bool making) {
    const double now = o.control->elapsed_seconds();
    if (now - last_level_save < o.level_checkpoint_seconds) return;
    last_level_save = now;
    PassState ps = s.pass_state();
    const bool same = st.pass.on && st.pass.limit == ps.limit;
    ps.ffile = same ? st.pass.ffile : std::string();
    ps.bfile = same ? st.pass.bfile : std::string();
    MakingState mk;
    std::vector<std::string> written;
    try {
      for (const bool side : {false, true}) {
        std::string& name = side ? ps.bfile : ps.ffile;
        // A side whose last level is the one saved keeps its file.
        if (!name.empty() && (side ? ps.bh == st.pass.bh : ps.fl == st.pass.fl)) continue;
        name = std::string(side ? "b." : "f.") + std::to_string(ps.limit) + "." +
               std::to_string(side ? ps.bh : ps.fl) + ".level";
        written.push_back(o.checkpoint_dir + "/" + name);
        s.write_frontier(side, written.back());
      }
      if (making) mk = s.sync_making();
    } catch (const Stopped& e) {  // no room to sort a shard apart: the next level saves
      for (const std::string& f : written) std::remove(f.c_str());  // the state names none
      if (e.reason != StopReason::Memory) throw;  // a stop: the state before stands
      return;
    }
    st.pass = ps;
    st.making = mk;
    ck.save(before + s.positions(), o.control->elapsed_seconds() - t0);
    remove_unnamed(o.checkpoint_dir, st);
  };
  if (ck.on()) {
    if (resume.on) h.resume_pass = &resume;
    if (resume.on && resume_making.on) h.resume_making = &resume_making;
    h.level_dir = o.checkpoint_dir;
    h.on_level = [&](Search<W>& s, bool, std::uint64_t before) { save_level(s, before, false); };
    h.on_group = [&](Search<W>& s, bool, std::uint64_t before) { save_level(s, before, true); };
  }
  search<W>(b, starts, goals, start, so, r, known, true, &h);
  std::vector<std::string> ended;
  if (r.stop == StopReason::None) ended = end_pass(o.checkpoint_dir, st);
  st.floor = std::max(st.floor, r.lower_bound);
  if (!r.jumps.empty()) st.best = r.jumps;
  ck.save(r.positions, o.control->elapsed_seconds() - t0);
  remove_files(ended);
  if (ck.on()) remove_unnamed(o.checkpoint_dir, st);
  r.positions += ck.base_positions();
  r.seconds += ck.base_seconds();
}

// The search for one problem (already checked), seeded with a solution found before.
template <int W>
void run_problem(const Problem& p, const FewestOptions& o, FewestResult& r,
                 const std::vector<Jump>& known) {
  const Board& b = *p.board;
  std::vector<Bits<W>> goals;
  std::string what = "start " +
                     std::to_string(static_cast<unsigned long long>(to_bits<W>(p.start).fold())) +
                     " goal ";
  switch (p.goal.kind) {
    case Goal::Kind::Hole:
      goals.push_back(Bits<W>::single(p.goal.hole));
      what += "hole " + std::to_string(p.goal.hole);
      break;
    case Goal::Kind::Any:
      for (int h = 0; h < b.size(); ++h) goals.push_back(Bits<W>::single(h));
      what += "any";
      break;
    case Goal::Kind::Position:
      goals.push_back(to_bits<W>(p.goal.position));
      what += "position " + std::to_string(static_cast<unsigned long long>(goals.back().fold()));
      break;
  }
  search_checkpointed(b, {to_bits<W>(p.start)}, goals, &p.start, o, r, known, what);
}

// Every single vacancy of `b` and every single peg.
template <int W>
void single_pegs(const Board& b, std::vector<Bits<W>>& starts, std::vector<Bits<W>>& goals) {
  const Bits<W> full = Bits<W>::low(b.size());
  for (int h = 0; h < b.size(); ++h) {
    starts.push_back(full & ~Bits<W>::single(h));
    goals.push_back(Bits<W>::single(h));
  }
}

// The search from every single vacancy to every single peg, seeded with a solution found before.
template <int W>
void run_board(const Board& b, const FewestOptions& o, FewestResult& r,
               const std::vector<Jump>& known) {
  std::vector<Bits<W>> starts, goals;
  single_pegs(b, starts, goals);
  search_checkpointed(b, starts, goals, nullptr, o, r, known, "board");
}

}  // namespace pegsol::fewest_detail
