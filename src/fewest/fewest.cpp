// SPDX-License-Identifier: MIT
// Fewest moves (include/pegsol/fewest.hpp, docs/fewest.md).
//
// State of a position: the fewest moves c that reach it and the set L of holes the last jump can
// have landed on at cost c. A jump from a hole of L continues that move (cost c), any other jump
// starts a new one (c + 1). Reaching a position at a higher cost is never better: from there the
// next jump costs at least c + 1, which the cheaper state also offers. So keeping (c, L) per
// position is exact, and since every jump removes one peg, all positions with k pegs form a level
// that only level k + 1 feeds: levels are final when made.
//
// The backward side runs the same pass on reversed jumps from the goal: its L holds the holes the
// next forward jump can start from at the backward cost. Where the two sides meet, a position
// costs cf + cb, less one when the forward L and the backward L share a hole (the last forward
// move and the first backward one are then one chain).
#include "pegsol/fewest.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/widths.hpp"
#include "mapped.hpp"
#include "passes.hpp"
#include "pegsol/error.hpp"
#include "pegsol/invariants.hpp"
#include "split.hpp"

namespace pegsol {

namespace {

using fewest_detail::kHoles;
using fewest_detail::kWidestKeys;
using fewest_detail::trim_heap;

// A control to run under: the caller's, or a local one without limits.
struct Under {
  Control local;
  const Control* c;
  explicit Under(const Control* given) : c(given ? given : &local) {}
};

}  // namespace

int count_moves(const std::vector<Jump>& jumps) {
  return static_cast<int>(group_moves(jumps).size());
}

SolveResult to_solve_result(const Problem& p, const FewestResult& r) {
  SolveResult s;
  s.status = r.status;
  s.reason = r.reason;
  s.moves = r.jumps;
  Replay rep = replay(*p.board, p.start, r.jumps);
  s.final = rep.ok ? rep.final : p.start;
  s.nodes = r.positions;
  s.seconds = r.seconds;
  s.width = p.board->size() <= kHoles<64> ? 64 : 128;
  s.stop = r.stop;
  return s;
}

FewestFinish fewest_finish(const Problem& p, const std::vector<Move>& kept,
                           const FewestOptions& o) {
  const Game game = game_after(p, kept);
  FewestFinish f;
  f.from = game.position().pegs();
  f.rest = fewest_solve(Problem{p.board, f.from, p.goal}, o);
  f.jumps = flatten(kept);
  f.kept_jumps = f.jumps.size();
  f.jumps.insert(f.jumps.end(), f.rest.jumps.begin(), f.rest.jumps.end());
  const Replay check = replay(*p.board, p.start, f.jumps);
  if (!check.ok) throw std::logic_error("fewest_finish: the moves do not replay: " + check.error);
  if (!f.rest.jumps.empty() && !goal_reached(p, check.final))
    throw std::logic_error("fewest_finish: the finished game misses the goal");
  return f;
}

namespace {

// An InputError for a board wider than the widest keys.
void check_width(const Board& b) {
  if (b.size() > kHoles<kWidestKeys>)
    throw InputError("fewest moves: board " + b.name() + " has " + std::to_string(b.size()) +
                     " holes; the search takes boards of at most " +
                     std::to_string(kHoles<kWidestKeys>));
}

// An InputError for options a pass spread over processes does not take.
void check_ranks(const FewestOptions& o) {
  if (!o.ranks) return;
  if (!o.checkpoint_dir.empty() || o.resume)
    throw InputError("FewestOptions::ranks", "a spread search takes no checkpoints");
  if (!o.spill_dir.empty())
    throw InputError("FewestOptions::ranks", "a spread search does not spill its levels");
  if (o.split) throw InputError("FewestOptions::ranks", "a spread search is not split");
}

constexpr const char* kKnown = "FewestOptions::known_solution";

// replay()'s error with its jumps called jumps ("move 3: ..." counts jumps).
std::string jump_words(std::string error) {
  if (error.starts_with("move ")) error.replace(0, 4, "jump");
  return error;
}

// An InputError unless the known solution (FewestOptions::known_solution) solves `p`.
void check_known(const Problem& p, const std::vector<Jump>& jumps) {
  if (jumps.empty()) return;
  const Board& b = *p.board;
  const Replay rep = replay(b, p.start, jumps);
  if (!rep.ok)
    throw InputError(kKnown,
                     "it does not replay from the problem's start: " + jump_words(rep.error));
  if (!goal_reached(p, rep.final))
    throw InputError(kKnown, "its " + std::to_string(jumps.size()) + " jumps end on " +
                                 std::to_string(rep.final.count()) +
                                 " pegs that are not the problem's goal");
}

// An InputError unless the known solution solves a single-vacancy-to-one-peg problem of `b`
// (the vacancy is the hole its first jump fills).
void check_known_board(const Board& b, const std::vector<Jump>& jumps) {
  if (jumps.empty()) return;
  const int v = jumps.front().to;
  if (v < 0 || v >= b.size()) throw InputError(kKnown, "jump 1: hole number out of range");
  const Replay rep = replay(b, single_vacancy(b, v), jumps);
  if (!rep.ok)
    throw InputError(kKnown, "it does not replay from the single vacancy " + b.hole_name(v) +
                                 " (the hole its first jump fills): " + jump_words(rep.error));
  if (rep.final.count() != 1)
    throw InputError(kKnown, "its " + std::to_string(jumps.size()) + " jumps end with " +
                                 std::to_string(rep.final.count()) + " pegs, not one");
}

// `known` (a first solver's, may be empty) or the options' known solution when it has no more
// moves.
std::vector<Jump> best_known(std::vector<Jump> known, const FewestOptions& o) {
  if (!o.known_solution.empty() &&
      (known.empty() || count_moves(o.known_solution) <= count_moves(known)))
    return o.known_solution;
  return known;
}

// The width of the search's keys (keys.hpp): 64 bits when the board fits them and the
// options do not ask for wide keys, else 128. Its result goes to with_width, the one dispatch.
int key_width(const Board& b, const FewestOptions& o) {
  return b.size() <= kHoles<64> && !o.wide_keys ? 64 : kWidestKeys;
}

}  // namespace

FewestResult fewest_solve(const Problem& p, const FewestOptions& options) {
  const Board& b = *p.board;
  if (p.start.size() != b.size())
    throw InputError("fewest moves: the start has " + std::to_string(p.start.size()) +
                     " holes, the board " + std::to_string(b.size()));
  check_width(b);
  check_ranks(options);
  Under under(options.control);
  FewestOptions o = options;
  o.control = under.c;
  FewestResult r;
  std::size_t goal_pegs = 1;
  switch (p.goal.kind) {
    case Goal::Kind::Hole:
      if (p.goal.hole < 0 || p.goal.hole >= b.size())
        throw InputError("fewest moves: the goal hole is not on the board");
      break;
    case Goal::Kind::Any:
      break;
    case Goal::Kind::Position:
      if (p.goal.position.size() != b.size())
        throw InputError("fewest moves: the goal position does not fit the board");
      goal_pegs = static_cast<std::size_t>(p.goal.position.count());
      break;
  }
  check_known(p, o.known_solution);
  const auto start_pegs = static_cast<std::size_t>(p.start.count());
  if (start_pegs == 0) throw InputError("fewest moves: the start has no pegs");
  if (goal_pegs == 0) throw InputError("fewest moves: the goal has no pegs");
  if (start_pegs < goal_pegs) {
    r.status = Status::Impossible;
    r.reason = "the goal has more pegs than the start";
    return r;
  }
  // A first solution from a short DFS: what a stopped search still offers, and an impossibility
  // (a proof or a completed search) settles the question at once. Auto: the DFS for 200,000
  // positions, then (Diamond 41, French, Wiegleb) two seconds of the beam.
  SolveOptions first;
  first.control = o.control;
  first.algorithm = Algorithm::Auto;
  first.auto_dfs_nodes = 200000;
  first.auto_beam_seconds = 2;
  SolveResult dfs = solve(p, first);
  if (dfs.status == Status::Impossible) {
    r.status = Status::Impossible;
    r.reason = dfs.reason;
    r.seconds = dfs.seconds;
    return r;
  }
  const std::vector<Jump> known =
      best_known(dfs.status == Status::Solved ? dfs.moves : std::vector<Jump>{}, o);
  dfs = SolveResult{};
  trim_heap();
  with_width<kWidestKeys>(key_width(b, o), [&](auto w) {
    fewest_detail::run_problem<decltype(w)::value>(p, o, r, known);
  });
  return r;
}

std::vector<Jump> shorten_moves(const Problem& p, const std::vector<Jump>& jumps,
                                const FewestOptions& options) {
  const Board& b = *p.board;
  check_width(b);
  const Replay rep = replay(b, p.start, jumps);
  if (!rep.ok) throw InputError("shorten moves: the jumps do not replay: " + rep.error);
  if (!goal_reached(p, rep.final))
    throw InputError("shorten moves: the jumps end on a position that is not the goal");
  Under under(options.control);
  FewestOptions o = options;
  o.control = under.c;
  return with_width<kWidestKeys>(key_width(b, o), [&](auto w) {
    constexpr int W = decltype(w)::value;
    return fewest_detail::polish<W>(b, fewest_detail::to_bits<W>(p.start), jumps, o);
  });
}

FewestBoardResult fewest_board(const BoardPtr& board, const FewestOptions& options) {
  if (!board) throw InputError("board", "fewest_board needs a board (the pointer is null)");
  const Board& b = *board;
  check_width(b);
  check_ranks(options);
  check_known_board(b, options.known_solution);
  Under under(options.control);
  FewestOptions o = options;
  o.control = under.c;
  // A first solution: a short DFS from each vacancy class to any last hole, the fewest moves
  // kept. It is what a stopped search still offers.
  std::vector<Jump> known;
  std::vector<bool> seen(static_cast<std::size_t>(b.size()), false);
  for (int v = 0; v < b.size(); ++v) {
    if (seen[static_cast<std::size_t>(v)]) continue;
    for (const auto& p : b.symmetries())
      seen[static_cast<std::size_t>(p[static_cast<std::size_t>(v)])] = true;
    SolveOptions first;
    first.control = o.control;
    first.algorithm = Algorithm::Dfs;
    first.node_limit = 50000;
    SolveResult dfs = solve(Problem{board, single_vacancy(b, v), {}}, first);
    if (dfs.stop != StopReason::None) break;
    if (dfs.status == Status::Solved &&
        (known.empty() || count_moves(dfs.moves) < count_moves(known)))
      known = dfs.moves;
  }
  known = best_known(std::move(known), o);
  trim_heap();
  FewestBoardResult out;
  with_width<kWidestKeys>(key_width(b, o), [&](auto w) {
    constexpr int W = decltype(w)::value;
    if (o.split)
      fewest_detail::run_board_split<W>(b, o, out.result, known);
    else
      fewest_detail::run_board<W>(b, o, out.result, known);
  });
  if (!out.result.jumps.empty()) {
    // The vacancy: the one hole the first jump fills that no jump emptied before.
    HoleSet start(b.size(), true);
    const Jump& first = out.result.jumps.front();
    start.set(first.to, false);
    Replay rep = replay(b, start, out.result.jumps);
    if (!rep.ok || rep.final.count() != 1)
      throw std::logic_error("fewest moves: the board's solution does not replay");
    out.start = first.to;
    out.end = rep.final.members().front();
  }
  return out;
}

FewestTable fewest_table(const BoardPtr& board, const FewestOptions& options) {
  if (!board) throw InputError("board", "fewest_table needs a board (the pointer is null)");
  const Board& b = *board;
  Under under(options.control);
  FewestOptions o = options;
  o.control = under.c;
  o.shorten_ends = false;    // a pair the budget stops ends the table, its best solution unused
  o.checkpoint_dir.clear();  // one search per pair: no one state to go on from
  o.resume = false;
  o.known_solution.clear();  // of no one pair
  check_width(b);
  const int n = b.size();
  FewestTable t;
  t.holes = n;
  t.moves.assign(static_cast<std::size_t>(n * n), FewestTable::kUnknown);
  const double t0 = o.control->elapsed_seconds();
  const auto& syms = b.symmetries();
  std::vector<bool> done(static_cast<std::size_t>(n), false);
  // One search per vacancy class and end up to the vacancy's own symmetries; an end that the
  // position class or the peg types rule out is impossible without one.
  for (int s = 0; s < n && t.stop == StopReason::None; ++s) {
    if (done[static_cast<std::size_t>(s)]) continue;
    const HoleSet start = single_vacancy(b, s);
    const HoleSet ends = admissible_finals(b, start);
    std::vector<int> row(static_cast<std::size_t>(n), FewestTable::kImpossible);
    for (int e : ends.members()) row[static_cast<std::size_t>(e)] = FewestTable::kUnknown;
    for (int e : ends.members()) {
      if (row[static_cast<std::size_t>(e)] != FewestTable::kUnknown) continue;
      FewestResult r = fewest_solve(Problem{board, start, {Goal::Kind::Hole, e, {}}}, o);
      t.positions += r.positions;
      if (r.status == Status::Unknown) {
        t.stop = r.stop;
        break;
      }
      const int m = r.status == Status::Solved ? r.moves : FewestTable::kImpossible;
      for (const auto& p : syms)  // the vacancy's symmetries carry the end to its images
        if (p[static_cast<std::size_t>(s)] == s)
          row[static_cast<std::size_t>(p[static_cast<std::size_t>(e)])] = m;
    }
    // Every symmetry carries the row to its image vacancy.
    for (const auto& p : syms) {
      int s2 = p[static_cast<std::size_t>(s)];
      if (done[static_cast<std::size_t>(s2)]) continue;
      done[static_cast<std::size_t>(s2)] = true;
      for (int e = 0; e < n; ++e)
        t.moves[static_cast<std::size_t>(s2 * n + p[static_cast<std::size_t>(e)])] =
            row[static_cast<std::size_t>(e)];
    }
  }
  t.complete = std::none_of(t.moves.begin(), t.moves.end(),
                            [](int m) { return m == FewestTable::kUnknown; });
  for (int s = 0; s < n; ++s)
    for (int e = 0; e < n; ++e) {
      int m = t.at(s, e);
      if (m >= 0 && (t.fewest < 0 || m < t.fewest)) {
        t.fewest = m;
        t.start = s;
        t.end = e;
      }
    }
  if (!t.complete) {  // an unsettled pair might be shorter
    t.fewest = -1;
    t.start = t.end = -1;
  }
  t.seconds = o.control->elapsed_seconds() - t0;
  return t;
}

}  // namespace pegsol
