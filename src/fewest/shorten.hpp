// SPDX-License-Identifier: MIT
// Shortening a fewest-moves solution by windows: each run of moves replaced by the fewest
// between its ends, found by a search of its own (passes.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "../core/control_access.hpp"
#include "keys.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/play.hpp"
#include "search.hpp"

namespace pegsol::fewest_detail {

template <int W>
struct PassHooks;

// Runs the search between `starts` and `goals` and fills `r` (passes.hpp).
template <int W>
void search(const Board& b, const std::vector<Bits<W>>& starts, const std::vector<Bits<W>>& goals,
            const HoleSet* start, const FewestOptions& o, FewestResult& r,
            const std::vector<Jump>& known = {}, bool polish_known = true,
            const PassHooks<W>* hooks = nullptr);

// The options of a search inside another (a window, a rebuild) under `quiet`, a muted child of
// o.control: no beam, no progress, and levels kept unless memory runs short, since its solution
// is what it is for.
inline FewestOptions inner(const FewestOptions& o, Control& quiet) {
  ControlAccess::mute(quiet);
  FewestOptions so = o;
  so.control = &quiet;
  so.beam = 0;
  so.release_levels = false;
  return so;
}

// A solution through `meet`: the fewest moves from a start to it, then from it to a goal, each
// found by a search of its own (empty when either finds none). Adds their positions.
template <int W>
std::vector<Jump> through(const Board& b, const std::vector<Bits<W>>& starts,
                          const std::vector<Bits<W>>& goals, Bits<W> meet, const FewestOptions& o,
                          std::uint64_t& positions) {
  // Each search is shorter than the whole, unless the sides met at an end.
  if (meet.count() >= starts.front().count() || meet.count() <= goals.front().count()) return {};
  Control quiet(o.control);
  const FewestOptions so = inner(o, quiet);
  FewestResult to, from;
  search<W>(b, starts, {meet}, nullptr, so, to);
  positions += to.positions;
  if (to.jumps.empty()) return {};
  search<W>(b, {meet}, goals, nullptr, so, from);
  positions += from.positions;
  if (from.jumps.empty()) return {};
  to.jumps.insert(to.jumps.end(), from.jumps.begin(), from.jumps.end());
  return to.jumps;
}

template <int W>
HoleSet to_holes(const Board& b, Bits<W> x) {
  HoleSet s(b.size());
  for (; x.any(); x.pop_lowest()) s.set(x.lowest());
  return s;
}

// The fewest moves between the positions before move `a` and after move `a + span` of `sol`
// (from `start`), found by a search of its own under `budget` bytes: `sol` with that window
// replaced when that has fewer moves, else empty. `complete`: the window's search finished.
template <int W>
std::vector<Jump> rewindow(const Board& b, Bits<W> start, const std::vector<Jump>& sol,
                           std::size_t a, std::size_t span, std::size_t budget,
                           const FewestOptions& o, bool& complete) {
  const std::vector<Move> moves = group_moves(sol);
  std::size_t i = 0;
  for (std::size_t m = 0; m < a; ++m) i += moves[m].jumps.size();
  std::size_t j = i;
  for (std::size_t m = a; m < a + span; ++m) j += moves[m].jumps.size();
  Bits<W> from = start;
  for (std::size_t k = 0; k < i; ++k)
    from ^=
        Bits<W>::single(sol[k].from) | Bits<W>::single(sol[k].over) | Bits<W>::single(sol[k].to);
  Bits<W> to = from;
  for (std::size_t k = i; k < j; ++k)
    to ^= Bits<W>::single(sol[k].from) | Bits<W>::single(sol[k].over) | Bits<W>::single(sol[k].to);
  Control window(o.control);
  window.set_memory_budget(budget);
  FewestOptions wo = inner(o, window);
  // A window is worth its budget and no more: it never spills (with the run's spill directory,
  // the windows at the ends of a run stopped by memory grew on disk for many minutes).
  wo.spill_dir.clear();
  FewestResult wr;
  const HoleSet first = to_holes(b, from);
  const std::vector<Jump> part(sol.begin() + static_cast<std::ptrdiff_t>(i),
                               sol.begin() + static_cast<std::ptrdiff_t>(j));
  search<W>(b, {from}, {to}, &first, wo, wr, part, false);
  complete = wr.status != Status::Unknown;
  if (wr.status != Status::Solved || wr.moves < 0 || static_cast<std::size_t>(wr.moves) >= span)
    return {};
  std::vector<Jump> next(sol.begin(), sol.begin() + static_cast<std::ptrdiff_t>(i));
  next.insert(next.end(), wr.jumps.begin(), wr.jumps.end());
  next.insert(next.end(), sol.begin() + static_cast<std::ptrdiff_t>(j), sol.end());
  if (count_moves(next) >= count_moves(sol)) return {};
  return next;
}

inline std::size_t budget_of(const FewestOptions& o) {
  return tables_budget(o);
}

// Shortens a solution from `start` window by window: the jumps of each run of consecutive moves
// give way to the fewest moves between the positions before and after them, found by a search
// of their own under a share of the memory budget (a window that budget stops stays as it was).
// Wider windows follow narrower ones; it ends when none improves or the control stops it.
template <int W>
std::vector<Jump> polish(const Board& b, Bits<W> start, std::vector<Jump> sol,
                         const FewestOptions& o) {
  const std::size_t budget = std::max(std::size_t{32} << 20, budget_of(o) / 32);
  for (const std::size_t span : {4, 6, 8}) {
    for (std::size_t a = 0; a + span <= group_moves(sol).size();) {
      bool complete = false;
      std::vector<Jump> next = rewindow(b, start, sol, a, span, budget, o, complete);
      if (o.control->should_stop()) return sol;
      if (next.empty()) {
        ++a;
        continue;
      }
      sol = std::move(next);  // the same window start, over the new moves
    }
  }
  return sol;
}

// Shortens a solution by windows anchored at its ends, for when the passes cannot prove it:
// the last w moves (from the position before them to the final one) and then the first w (from
// the start), w growing a move at a time from 10 while a window's search finishes under half
// the memory budget and leaves at least 4 moves outside it. A window that improves starts its
// end again at 10, and then the fixed windows run again. The positions near the end hold few
// pegs, so a window there reaches far back for little: most of what this finds, it finds there.
template <int W>
std::vector<Jump> polish_ends(const Board& b, Bits<W> start, std::vector<Jump> sol,
                              const FewestOptions& o, int lower) {
  const std::size_t budget = budget_of(o) / 2;
  for (bool improved = true; improved;) {
    improved = false;
    for (const bool tail : {true, false}) {
      for (std::size_t w = 10; w + 4 <= group_moves(sol).size();) {
        const std::size_t n = group_moves(sol).size();
        if (ControlAccess::wants_progress(*o.control)) {
          ProgressReport p;
          p.phase = "fewest";
          FewestBounds& f = p.fewest.emplace();
          f.lower_bound = lower;
          f.best_found = static_cast<int>(n);
          f.shortening = true;
          f.window = static_cast<int>(w);
          o.control->report(p, true);
        }
        bool complete = false;
        std::vector<Jump> next = rewindow(b, start, sol, tail ? n - w : 0, w, budget, o, complete);
        if (o.control->should_stop()) return sol;
        if (!next.empty()) {
          sol = std::move(next);
          improved = true;
          w = 10;
        } else if (complete) {
          ++w;
        } else {
          break;
        }
      }
    }
    if (improved) sol = polish(b, start, std::move(sol), o);
  }
  return sol;
}

}  // namespace pegsol::fewest_detail
