// SPDX-License-Identifier: MIT
// Fewest moves against the deliberately simple reference (tests/reference/): a 0-1 breadth-first
// search over (position, hole the last jump landed on) with no levels, symmetry or pruning. Every
// solution is replayed and its moves recounted here, forward and on the reversed (complemented)
// problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "fewest/bound.hpp"
#include "fewest/key_geometry.hpp"
#include "fewest/level_file.hpp"
#include "fewest/state.hpp"
#include "hole_classes.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/solve.hpp"
#include "reference/reference.hpp"
#include "sanitized.hpp"
#include "ticking_clock.hpp"

using namespace pegsol;

namespace {

using Mask = std::uint64_t;

// Moves of a jump list counted here: a jump starts a new move unless it leaves the hole the
// previous jump landed on.
int recount(const std::vector<Jump>& jumps) {
  int moves = 0;
  for (std::size_t i = 0; i < jumps.size(); ++i)
    if (i == 0 || jumps[i].from != jumps[i - 1].to) ++moves;
  return moves;
}

// Replays `jumps` from `start` by hand and returns the final pegs.
Mask play(const Board& b, Mask pegs, const std::vector<Jump>& jumps) {
  for (const Jump& j : jumps) {
    Mask f = Mask{1} << j.from, o = Mask{1} << j.over, t = Mask{1} << j.to;
    bool legal = (pegs & f) && (pegs & o) && !(pegs & t);
    bool on_board = false;
    for (const Jump& k : b.jumps()) on_board = on_board || k == j;
    EXPECT_TRUE(legal && on_board);
    pegs = (pegs & ~f & ~o) | t;
  }
  return pegs;
}

void check_solution(const Problem& p, const FewestResult& r, int expected) {
  ASSERT_EQ(r.status, Status::Solved) << r.reason;
  EXPECT_TRUE(r.proven);
  EXPECT_EQ(r.moves, expected);
  EXPECT_EQ(r.lower_bound, expected);
  EXPECT_EQ(recount(r.jumps), expected);
  EXPECT_EQ(static_cast<int>(r.chains().size()), expected);
  Mask final = play(*p.board, reference::key(p.start), r.jumps);
  switch (p.goal.kind) {
    case Goal::Kind::Hole:
      EXPECT_EQ(final, Mask{1} << p.goal.hole);
      break;
    case Goal::Kind::Any:
      EXPECT_EQ(std::popcount(final), 1);
      break;
    case Goal::Kind::Position:
      EXPECT_EQ(final, reference::key(p.goal.position));
      break;
  }
}

// A directory of its own for a test's checkpoints or spill files, removed at the end.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name) {
    path = std::filesystem::temp_directory_path() /
           ("pegsol-fewest-" + name + "-" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

// Passes whose levels all go to disk, each made in groups of one shard: the same fewest.
// Returns whether it spilled (a problem the first solution and its shortening settle has no
// passes).
bool check_spilled(const Problem& p, int expected) {
  TempDir dir("spill");
  FewestOptions o;
  o.spill_dir = dir.path.string();
  o.spill_always = true;
  FewestResult r = fewest_solve(p, o);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path));
  check_solution(p, r, expected);
  return r.spill_peak_bytes > 0;
}

// Passes that keep only each side's last levels: the same fewest, with a solution (known before
// the last pass, or rebuilt through its meeting position) or, where none could be rebuilt, as
// the proven bound of a memory stop.
FewestResult check_released(const Problem& p, int expected) {
  FewestOptions lean;
  lean.release_levels = true;
  FewestResult r = fewest_solve(p, lean);
  if (r.status == Status::Solved) {
    check_solution(p, r, expected);
    return r;
  }
  EXPECT_EQ(r.status, Status::Unknown);
  EXPECT_EQ(r.stop, StopReason::Memory);
  EXPECT_EQ(r.lower_bound, expected) << r.reason;
  EXPECT_FALSE(r.proven);
  if (r.moves >= 0) {
    EXPECT_GT(r.moves, expected);
    EXPECT_EQ(recount(r.jumps), r.moves);
  }
  return r;
}

// Single-vacancy pairs of the board: fewest_solve forward and on the reversed problem (the
// complemented board, where the jumps come in reverse order: a different problem, since a chain
// reversed is no chain there), the table and the board's minimum, against the reference. The
// reference runs from the vacancies in `starts` (every hole when empty); `every_pair` solves
// each pair, otherwise the vacancy-to-same-hole pairs and the goal "any".
// Checks every figure against the reference; returns how many pairs the tight pagodas stored
// fewer positions for.
int check_board(const std::string& spec, bool every_pair, std::vector<int> starts = {}) {
  int pruned = 0, spilled = 0, solvable = 0;
  SCOPED_TRACE(spec);
  BoardPtr board = make_board(spec);
  const Board& b = *board;
  const int n = b.size();
  FewestTable table = fewest_table(board);
  EXPECT_TRUE(table.complete);
  if (!table.complete) return pruned;
  int board_min = -1;
  if (starts.empty())
    for (int s = 0; s < n; ++s) starts.push_back(s);
  for (int s : starts) {
    HoleSet start = single_vacancy(b, s);
    std::map<Mask, int> ref = reference::fewest_moves(b, reference::key(start), 1);
    for (int e = 0; e < n; ++e) {
      auto it = ref.find(Mask{1} << e);
      int expected = it == ref.end() ? -1 : it->second;
      EXPECT_EQ(table.at(s, e), expected) << "table " << s << " -> " << e;
      if (expected >= 0 && (board_min < 0 || expected < board_min)) board_min = expected;
      if (!every_pair && e != s) continue;
      Problem p{board, start, {Goal::Kind::Hole, e, {}}};
      FewestResult r = fewest_solve(p);
      // Tight pagodas sought at every size (rect:3x4, rect:3x5 and hexagon:3 have some), and
      // none at all: the same answer.
      FewestOptions tight, plain;
      tight.pagoda_jumps = 0;
      plain.pagoda_jumps = -1;
      // The pattern tables likewise (triangular lattice): at every size, and none.
      tight.pattern_jumps = 0;
      plain.pattern_jumps = -1;
      if (expected < 0) {
        EXPECT_EQ(r.status, Status::Impossible);
        EXPECT_EQ(fewest_solve(p, tight).status, Status::Impossible);
        continue;
      }
      check_solution(p, r, expected);
      ++solvable;
      const FewestResult rt = fewest_solve(p, tight), rp = fewest_solve(p, plain);
      check_solution(p, rt, expected);
      EXPECT_EQ(rp.moves, expected);
      pruned += rt.positions < rp.positions;
      // The reversed problem: jumps taken back on the complemented board.
      Problem q = complement_problem(p);
      std::map<Mask, int> ref_q =
          reference::fewest_moves(b, reference::key(q.start), q.goal.position.count());
      auto iq = ref_q.find(reference::key(q.goal.position));
      FewestResult rq = fewest_solve(q);
      if (iq == ref_q.end()) {
        EXPECT_EQ(rq.status, Status::Impossible);
        EXPECT_EQ(fewest_solve(q, tight).status, Status::Impossible);
      } else {
        check_solution(q, rq, iq->second);
        check_solution(q, fewest_solve(q, tight), iq->second);
      }
      // Without symmetry: the same count.
      FewestOptions raw;
      raw.symmetry = false;
      EXPECT_EQ(fewest_solve(p, raw).moves, expected);
      // Without the region bound: one pass, the same count.
      FewestOptions whole;
      whole.prune = false;
      EXPECT_EQ(fewest_solve(p, whole).moves, expected);
      // With the 128-bit keys of the larger boards: the same solution checks.
      FewestOptions wide;
      wide.wide_keys = true;
      check_solution(p, fewest_solve(p, wide), expected);
      check_released(p, expected);
      spilled += check_spilled(p, expected);
    }
    // Goal any: the least over the ends.
    int least = -1;
    for (auto& [pegs, m] : ref)
      if (least < 0 || m < least) least = m;
    Problem any{board, start, {}};
    FewestResult r = fewest_solve(any);
    if (least < 0) {
      EXPECT_EQ(r.status, Status::Impossible);
    } else {
      check_solution(any, r, least);
    }
  }
  // Some levels went to disk (triangle:4's problems are settled before any pass).
  if (solvable > 1 && n > 10) {
    EXPECT_GT(spilled, 0);
  }
  FewestBoardResult best = fewest_board(board);
  if (starts.size() < static_cast<std::size_t>(n)) {
    // The reference saw some vacancies only: the minimum is at most what it found.
    if (board_min >= 0) {
      EXPECT_LE(table.fewest, board_min);
    }
    board_min = table.fewest;
  }
  EXPECT_EQ(table.fewest, board_min);
  if (board_min < 0) {
    EXPECT_EQ(best.result.status, Status::Impossible);
    return pruned;
  }
  EXPECT_EQ(best.result.status, Status::Solved);
  if (best.result.status != Status::Solved) return pruned;
  EXPECT_EQ(best.result.moves, board_min);
  Problem p{board, single_vacancy(b, best.start), {Goal::Kind::Hole, best.end, {}}};
  check_solution(p, best.result, board_min);
  EXPECT_EQ(table.at(best.start, best.end), board_min);
  // The pattern tables at every size and none: the same minimum.
  for (int pj : {0, -1}) {
    FewestOptions o;
    o.pattern_jumps = pj;
    const FewestBoardResult pb = fewest_board(board, o);
    EXPECT_EQ(pb.result.moves, board_min) << "pattern_jumps " << pj;
    EXPECT_TRUE(pb.result.proven);
  }
  // Split by start class and end class, each search limited by the best found: the same.
  FewestOptions split;
  split.split = true;
  FewestBoardResult sb = fewest_board(board, split);
  EXPECT_EQ(sb.result.status, Status::Solved) << sb.result.reason;
  if (sb.result.status == Status::Solved) {
    Problem q{board, single_vacancy(b, sb.start), {Goal::Kind::Hole, sb.end, {}}};
    check_solution(q, sb.result, board_min);
  }
  // The board's minimum with passes that keep only their last levels (every start at once).
  FewestOptions lean;
  lean.release_levels = true;
  FewestBoardResult lb = fewest_board(board, lean);
  if (lb.result.status == Status::Solved) {
    Problem q{board, single_vacancy(b, lb.start), {Goal::Kind::Hole, lb.end, {}}};
    check_solution(q, lb.result, board_min);
  } else {
    EXPECT_EQ(lb.result.stop, StopReason::Memory);
    EXPECT_EQ(lb.result.lower_bound, board_min);
  }
  return pruned;
}

}  // namespace

namespace {

// ---- The bound against the true moves, on sampled positions ----

// The fewest moves from `pegs` to a position of `goals`, the move under way going on from `land`
// (-1: none); -1 when no goal is reachable. Memoised over (pegs, land): every jump removes a peg.
int moves_left(const Board& b, Mask pegs, int land, const std::set<Mask>& goals,
               std::unordered_map<Mask, int>& memo) {
  if (goals.count(pegs)) return 0;
  const Mask state = pegs << 6 | static_cast<Mask>(land + 1);
  if (auto it = memo.find(state); it != memo.end()) return it->second;
  int best = -1;
  for (const Jump& j : b.jumps()) {
    const Mask f = Mask{1} << j.from, o = Mask{1} << j.over, t = Mask{1} << j.to;
    if (!(pegs & f) || !(pegs & o) || (pegs & t)) continue;
    const int rest = moves_left(b, (pegs & ~f & ~o) | t, j.to, goals, memo);
    if (rest < 0) continue;
    const int m = rest + (j.from == land ? 0 : 1);
    if (best < 0 || m < best) best = m;
  }
  memo[state] = best;
  return best;
}

// The fewest moves from one of `starts` to each position of at least `least` pegs (0-1
// breadth-first search over (pegs, landing hole), from no move under way).
std::unordered_map<Mask, int> moves_made(const Board& b, const std::vector<Mask>& starts,
                                         int least) {
  std::unordered_map<Mask, int> dist, out;
  std::deque<Mask> queue;
  for (Mask s : starts) {
    dist[s << 6] = 0;
    queue.push_back(s << 6);
  }
  while (!queue.empty()) {
    const Mask state = queue.front();
    queue.pop_front();
    const Mask pegs = state >> 6;
    const int land = static_cast<int>(state & 63) - 1, d = dist[state];
    if (auto it = out.find(pegs); it == out.end() || d < it->second) out[pegs] = d;
    if (std::popcount(pegs) <= least) continue;
    for (const Jump& j : b.jumps()) {
      const Mask f = Mask{1} << j.from, o = Mask{1} << j.over, t = Mask{1} << j.to;
      if (!(pegs & f) || !(pegs & o) || (pegs & t)) continue;
      const int c = j.from == land ? 0 : 1;
      const Mask next = ((pegs & ~f & ~o) | t) << 6 | static_cast<Mask>(j.to + 1);
      auto it = dist.find(next);
      if (it != dist.end() && it->second <= d + c) continue;
      dist[next] = d + c;
      if (c)
        queue.push_back(next);
      else
        queue.push_front(next);
    }
  }
  return out;
}

// Jumps along random games from the starts: the bound of each child, forward (at most `most`
// pegs) and taken back (at least `least` pegs), never above the true moves left (forward) or
// made less one (backward: the last move may go on); a position it rules out has none. Returns
// how many children the bound met exactly, forward.
int check_bound_on(const std::string& spec, const std::vector<int>& vacancies, int goal, int most,
                   int least, int games) {
  SCOPED_TRACE(spec + (goal < 0 ? std::string(" to any") : " to " + std::to_string(goal)));
  using pegsol::fewest_detail::Bound;
  BoardPtr board = make_board(spec);
  const Board& b = *board;
  const int n = b.size();
  const Mask all = n == 64 ? ~Mask{0} : (Mask{1} << n) - 1;
  auto bits = [](Mask m) {
    Bits<64> x;
    x.w[0] = m;
    return x;
  };
  std::vector<Mask> starts;
  std::vector<Bits<64>> start_bits, goal_bits;
  std::set<Mask> goals;
  for (int v : vacancies) {
    starts.push_back(all & ~(Mask{1} << v));
    start_bits.push_back(bits(starts.back()));
  }
  for (int h = 0; h < n; ++h)
    if (goal < 0 || h == goal) {
      goals.insert(Mask{1} << h);
      goal_bits.push_back(Bits<64>::single(h));
    }
  // Pagodas and pattern tables at every size.
  const Bound<64> bound(b, start_bits, goal_bits, 0, 0);
  const std::unordered_map<Mask, int> made = moves_made(b, starts, least);
  std::unordered_map<Mask, int> memo;
  std::mt19937 rng(12345);
  int exact = 0, checked_forward = 0, checked_backward = 0;
  for (int g = 0; g < games; ++g) {
    Mask pegs = starts[static_cast<std::size_t>(g) % starts.size()];
    for (;;) {
      std::vector<std::size_t> legal;
      for (std::size_t j = 0; j < b.jumps().size(); ++j) {
        const Jump& jp = b.jumps()[j];
        if ((pegs >> jp.from & 1) && (pegs >> jp.over & 1) && !(pegs >> jp.to & 1))
          legal.push_back(j);
      }
      if (legal.empty()) break;
      const int count = std::popcount(pegs);
      for (std::size_t j : legal) {
        const Jump& jp = b.jumps()[j];
        const Mask child = (pegs & ~(Mask{1} << jp.from) & ~(Mask{1} << jp.over)) | Mask{1}
                                                                                        << jp.to;
        if (count - 1 <= most) {
          const int left = moves_left(b, child, jp.to, goals, memo);
          const int bc = bound.child<false>(bound.pack<false>(bits(pegs)), bits(child), jp, j);
          const int whole = bound.forward(bits(child), Bits<64>::single(jp.to));
          if (left >= 0) {
            EXPECT_LE(bc, left) << "forward child " << child << " of " << pegs;
            EXPECT_LE(whole, left) << "forward " << child;
            exact += bc == left;
          }
          // The move under way ends: from the child with nothing going on.
          const int fresh = moves_left(b, child, -1, goals, memo);
          if (fresh >= 0) {
            EXPECT_LE(bound.forward(bits(child)), fresh) << child;
          }
          ++checked_forward;
        }
        if (count >= least) {
          // Taken back from the child, the position `pegs` (reached from a start).
          auto it = made.find(pegs);
          EXPECT_NE(it, made.end());
          if (it == made.end()) continue;
          const int bc = bound.child<true>(bound.pack<true>(bits(child)), bits(pegs), jp, j);
          EXPECT_LE(bc, std::max(0, it->second - 1)) << "backward " << pegs << " from " << child;
          ++checked_backward;
        }
      }
      const std::size_t pick = legal[rng() % legal.size()];
      const Jump& jp = b.jumps()[pick];
      pegs = (pegs & ~(Mask{1} << jp.from) & ~(Mask{1} << jp.over)) | Mask{1} << jp.to;
    }
  }
  EXPECT_GT(checked_forward, 0);
  EXPECT_GT(checked_backward, 0);
  return exact;
}

}  // namespace

// Every part of the bound (regions, peg types, pagodas, pattern tables) on every small board the
// reference covers: never above the true moves, and on the triangular lattice often equal.
TEST(Fewest, BoundNeverExceedsTheMovesLeft) {
  // Every vacancy to one peg anywhere (the board minimum's starts and goals), and one pair.
  EXPECT_GT(check_bound_on("triangle:4", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, -1, 9, 0, 40), 0);
  EXPECT_GT(check_bound_on("triangle:5", {0, 1, 3, 4}, -1, 14, 0, 60), 0);
  EXPECT_GT(check_bound_on("triangle:5", {0}, 12, 14, 0, 60), 0);
  if (!kSanitized) {  // the 21-hole searches are the Release run's
    EXPECT_GT(check_bound_on("triangle:6", {0, 3}, -1, 11, 15, 60), 0);
    EXPECT_GT(check_bound_on("triangle:6", {9}, 0, 11, 15, 60), 0);
  }
  // No single vacancy of the hexagons leaves one peg: the bound taken back is what is checked.
  check_bound_on("hexagon:2", {0, 3}, -1, 6, 0, 40);
  if (!kSanitized) check_bound_on("hexagon:3", {0, 1, 4, 9}, -1, 12, 0, 60);
  check_bound_on("rect:3x4", {0, 1, 5}, -1, 11, 0, 40);
  check_bound_on("rect:4x4", {0, 1, 5}, -1, 15, 0, 40);
  check_bound_on("rect:3x5", {0, 7}, -1, 10, 11, 40);
}

TEST(Fewest, Triangle4EveryPair) {
  check_board("triangle:4", true);
}
TEST(Fewest, Triangle5EveryPair) {
  // Under the sanitizers, from one vacancy of each class (4 of the 15): the table still covers
  // every pair.
  const std::vector<int> classes = one_hole_a_class(*make_board("triangle:5"));
  EXPECT_EQ(classes, (std::vector<int>{0, 1, 3, 4}));
  check_board("triangle:5", true, kSanitized ? classes : std::vector<int>{});
}
TEST(Fewest, Triangle6) {
#ifdef PEGSOL_TEST_SANITIZED
  GTEST_SKIP() << "the 21-hole reference search is the Release run's";
#endif
  check_board("triangle:6", false, {0});
}
TEST(Fewest, Rectangles) {
  EXPECT_GT(check_board("rect:3x4", true), 0);  // it has tight pagodas
  check_board("rect:4x4", true);
  check_board("rect:3x5", false, {0, 1, 2, 6, 7});
}
TEST(Fewest, Hexagons) {
  check_board("hexagon:2", true);
  check_board("hexagon:3", false, {0, 1, 4, 9});
}

// A whole-position goal part way: the reference's fewest moves to that position.
TEST(Fewest, PositionGoal) {
  BoardPtr board = make_board("triangle:5");
  HoleSet start = single_vacancy(*board, 0);
  std::map<Mask, int> ref = reference::fewest_moves(*board, reference::key(start), 7);
  ASSERT_FALSE(ref.empty());
  int checked = 0;
  for (auto& [pegs, m] : ref) {
    if (++checked > 40) break;
    HoleSet goal(board->size());
    for (int h = 0; h < board->size(); ++h)
      if (pegs >> h & 1) goal.set(h);
    Problem p{board, start, {Goal::Kind::Position, -1, goal}};
    check_solution(p, fewest_solve(p), m);
  }
}

TEST(Fewest, StartIsGoal) {
  BoardPtr board = make_board("triangle:4");
  HoleSet pegs(board->size());
  pegs.set(3);
  Problem p{board, pegs, {Goal::Kind::Hole, 3, {}}};
  FewestResult r = fewest_solve(p);
  ASSERT_EQ(r.status, Status::Solved);
  EXPECT_EQ(r.moves, 0);
  EXPECT_TRUE(r.proven);
}

TEST(Fewest, MoreGoalPegsThanStart) {
  BoardPtr board = make_board("triangle:4");
  HoleSet pegs(board->size());
  pegs.set(3);
  HoleSet goal(board->size());
  goal.set(1);
  goal.set(2);
  Problem p{board, pegs, {Goal::Kind::Position, -1, goal}};
  EXPECT_EQ(fewest_solve(p).status, Status::Impossible);
}

// A cancelled search: unknown, a stop reason, and a lower bound no higher than the answer.
TEST(Fewest, CancelledKeepsASoundLowerBound) {
  BoardPtr board = make_board("triangle:6");
  Problem p = default_problem(board);
  Control c;
  c.cancel();
  FewestOptions o;
  o.control = &c;
  FewestResult r = fewest_solve(p, o);
  EXPECT_EQ(r.status, Status::Unknown);
  EXPECT_EQ(r.stop, StopReason::Cancelled);
  EXPECT_FALSE(r.proven);
  FewestResult full = fewest_solve(p);
  ASSERT_EQ(full.status, Status::Solved);
  EXPECT_LE(r.lower_bound, full.moves);
}

// The English central game with passes that keep only their last levels: the shortened first
// solution has more moves than the fewest, so the last pass's solution is rebuilt through its
// meeting position by two searches; the same count as the passes that keep their levels, and
// under a memory budget that those do not fit, proven all the same.
TEST(Fewest, ReleasedLevelsRebuildTheSolution) {
#ifdef PEGSOL_TEST_SANITIZED
  GTEST_SKIP() << "three English searches are the Release run's";
#endif
  BoardPtr board = make_board("english");
  Problem p = default_problem(board);
  FewestResult full = fewest_solve(p);
  ASSERT_EQ(full.status, Status::Solved);
  const FewestResult released = check_released(p, full.moves);
  EXPECT_GT(released.positions, full.positions);  // the same passes, and the rebuild's two
  Control c;
  c.set_memory_budget(std::size_t{96} << 20);
  FewestOptions o;
  o.control = &c;
  FewestResult tight = fewest_solve(p, o);
  check_solution(p, tight, full.moves);
}

// shorten_moves keeps a solution (the same final position, replayed here), never adds moves and
// never goes below the reference's fewest; the first-solution DFS's solutions come out shorter.
TEST(Fewest, ShortenKeepsSolutionsAndShortens) {
  int before = 0, after = 0;
  for (const char* spec : {"triangle:5", "rect:4x4", "triangle:6"}) {
    SCOPED_TRACE(spec);
    BoardPtr board = make_board(spec);
    const Board& b = *board;
    const bool large = b.size() > 16;  // the reference takes seconds there
    for (int s = 0; s < b.size(); s += large ? 5 : 1) {
      Problem p{board, single_vacancy(b, s), {Goal::Kind::Any, -1, {}}};
      SolveOptions first;
      first.algorithm = Algorithm::Dfs;
      SolveResult dfs = solve(p, first);
      if (dfs.status != Status::Solved) continue;
      const Mask final = play(b, reference::key(p.start), dfs.moves);
      const std::vector<Jump> shorter = shorten_moves(p, dfs.moves);
      EXPECT_EQ(play(b, reference::key(p.start), shorter), final) << "vacancy " << s;
      EXPECT_LE(recount(shorter), recount(dfs.moves));
      if (large) {  // the engine's fewest to that position, checked against the reference above
        HoleSet end(b.size());
        for (int h = 0; h < b.size(); ++h) end.set(h, final >> h & 1);
        FewestResult r = fewest_solve(Problem{board, p.start, {Goal::Kind::Position, -1, end}});
        EXPECT_GE(recount(shorter), r.moves);
      } else {
        EXPECT_GE(recount(shorter),
                  reference::fewest_moves(b, reference::key(p.start), 1).at(final));
      }
      before += recount(dfs.moves);
      after += recount(shorter);
    }
  }
  EXPECT_LT(after, before);
}

// A game finished in the fewest moves from where it stands: the kept moves first, then as few as
// the reference finds from the position they leave; a lost game keeps its moves alone; an
// illegal kept move is an input error naming it.
TEST(Fewest, FinishKeepsTheMovesAndMinimizesTheRest) {
  BoardPtr board = make_board("triangle:5");
  const Board& b = *board;
  const Problem p = default_problem(board);
  Game game(p);
  int checked = 0;
  for (const Move& first : legal_moves(game.position()))
    for (const Move& second : legal_moves(game_after(p, {first}).position())) {
      const std::vector<Move> kept{first, second};
      const FewestFinish f = fewest_finish(p, kept);
      const std::vector<Jump> played = flatten(kept);
      ASSERT_EQ(f.kept_jumps, played.size());
      EXPECT_TRUE(std::equal(played.begin(), played.end(), f.jumps.begin()));
      const Mask from = play(b, reference::key(p.start), played);
      EXPECT_EQ(reference::key(f.from), from);
      int fewest = -1;
      for (const auto& [end, moves] : reference::fewest_moves(b, from, 1))
        if (fewest < 0 || moves < fewest) fewest = moves;
      if (fewest < 0) {
        EXPECT_EQ(f.rest.status, Status::Impossible);
        EXPECT_EQ(f.jumps.size(), played.size());
        continue;
      }
      check_solution(Problem{board, f.from, p.goal}, f.rest, fewest);
      EXPECT_EQ(std::popcount(play(b, reference::key(p.start), f.jumps)), 1);
      ++checked;
    }
  EXPECT_GT(checked, 0);
  const Move m = parse_move_chain(b, "4-1");
  try {
    fewest_finish(p, {m, m});
    ADD_FAILURE() << "an illegal kept move was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("move 2 (4-1)"), std::string::npos) << e.what();
  }
}

TEST(Fewest, ShortenRefusesANonSolution) {
  BoardPtr board = make_board("triangle:5");
  Problem p = default_problem(board);
  SolveResult dfs = solve(p);
  ASSERT_EQ(dfs.status, Status::Solved);
  std::vector<Jump> cut(dfs.moves.begin(), dfs.moves.end() - 1);
  EXPECT_THROW(shorten_moves(p, cut), InputError);
  std::vector<Jump> bad = dfs.moves;
  std::swap(bad.front(), bad.back());
  EXPECT_THROW(shorten_moves(p, bad), InputError);
}

TEST(Fewest, ImpossibleByProof) {
  BoardPtr board = make_board("french");
  int d4 = *board->find("d4");
  Problem p{board, single_vacancy(*board, d4), {Goal::Kind::Hole, d4, {}}};
  FewestResult r = fewest_solve(p);
  EXPECT_EQ(r.status, Status::Impossible);
  EXPECT_NE(r.reason.find("position class"), std::string::npos) << r.reason;
}

// Stopped by the memory budget: the best found, its moves counted, the lower bound below them.
// Out of memory for the proof, the search shortens its best solution by windows at its ends: on
// the English board under 1 MB the first beam stops at once, and the auto solver's 29 moves come
// down to 22 or fewer (the fixed windows never ran). The lower bound stays what the passes proved.
// The table turns this off (a stopped pair ends the table).
TEST(Fewest, OutOfMemoryShortensAtTheEnds) {
  BoardPtr board = make_board("english");
  Problem p = default_problem(board);
  Control c;
  c.set_memory_budget(std::size_t{1} << 20);
  FewestOptions o;
  o.control = &c;
  FewestResult r = fewest_solve(p, o);
  EXPECT_EQ(r.status, Status::Unknown);
  EXPECT_EQ(r.stop, StopReason::Memory);
  EXPECT_EQ(r.reason, "stopped: memory");
  ASSERT_FALSE(r.jumps.empty());
  EXPECT_EQ(r.moves, recount(r.jumps));
  EXPECT_EQ(play(*board, reference::key(p.start), r.jumps), Mask{1} << p.goal.hole);
  EXPECT_FALSE(r.proven);
  EXPECT_GE(r.lower_bound, 1);
  EXPECT_LT(r.lower_bound, r.moves);
  EXPECT_LE(r.moves, 22);
  EXPECT_LE(r.lower_bound, 18);
  // Without them (FewestOptions::shorten_ends, off in tables): the first solution as it was.
  o.shorten_ends = false;
  FewestResult plain = fewest_solve(p, o);
  EXPECT_EQ(plain.stop, StopReason::Memory);
  EXPECT_EQ(plain.lower_bound, r.lower_bound);
  EXPECT_LT(r.moves, plain.moves);
  EXPECT_EQ(play(*board, reference::key(p.start), plain.jumps), Mask{1} << p.goal.hole);
}

TEST(Fewest, MemoryBudgetStops) {
  BoardPtr board = make_board("triangle:6");
  Control c;
  c.set_memory_budget(4096);
  FewestOptions o;
  o.control = &c;
  FewestResult r = fewest_solve(default_problem(board), o);
  EXPECT_EQ(r.status, Status::Unknown);
  EXPECT_EQ(r.stop, StopReason::Memory);
}

// A table stopped part way: unsettled pairs, no minimum, the positions stored so far.
TEST(Fewest, StoppedTable) {
  Control c;
  c.set_memory_budget(std::size_t{1} << 20);
  FewestOptions o;
  o.control = &c;
  FewestTable t = fewest_table(make_board("triangle:7"), o);
  EXPECT_EQ(t.stop, StopReason::Memory);
  EXPECT_FALSE(t.complete);
  EXPECT_EQ(t.fewest, -1);
  EXPECT_GT(t.positions, 0u);
  EXPECT_NE(std::find(t.moves.begin(), t.moves.end(), FewestTable::kUnknown), t.moves.end());
}

// The 24-move triangle:11 solution docs/fewest.md records (`pegsol fewest -b triangle:11` found
// it; the published bounds for this board are 19 and 28): replayed here jump by jump on 128-bit
// positions, its moves recounted.
// Diamond 41's default problem (e3 -> e7) in 26 moves (docs/fewest.md; the passes prove at least
// 24), replayed here by hand.
TEST(Fewest, Diamond41In26Moves) {
  BoardPtr board = make_board("diamond41");
  const Problem p = default_problem(board);
  std::vector<Jump> jumps;
  for (const char* m :
       {"c3-e3", "d5-d3",    "d2-d4",          "f3-d3-d5",    "b4-d4",
        "e1-e3", "f5-f3",    "h4-f4",          "g6-g4",       "c6-c4",
        "e6-c6", "b6-d6",    "a5-c5",          "c4-c6-e6-g6", "f8-f6",
        "d8-d6", "i5-g5",    "d5-d7-f7-f5-h5", "e9-e7",       "h6-f6",
        "g3-g5", "e4-g4-g6", "f2-f4",          "g7-g5",       "h5-f5-d5-d3-f3-f5-f7-d7",
        "c7-e7"})
    for (const Jump& j : parse_move_chain(*board, m).jumps) jumps.push_back(j);
  ASSERT_EQ(p.goal.kind, Goal::Kind::Hole);
  EXPECT_EQ(p.start.count(), 40);
  EXPECT_FALSE(p.start.test(*board->find("e3")));
  EXPECT_EQ(play(*board, reference::key(p.start), jumps), Mask{1} << *board->find("e7"));
  EXPECT_EQ(p.goal.hole, *board->find("e7"));
  EXPECT_EQ(recount(jumps), 26);
}

// Diamond 41 e3 -> e7 has a tight pagoda: value 0 at the start and at the goal, so every jump
// of a solution keeps it, and 44 of the board's 100 jumps lose on it. The passes drop what it
// rules out; from the position after 16 moves of the 26-move solution the rest is the same
// 10 moves with and without, and the pagodas leave fewer positions to store.
TEST(Fewest, TightPagodaOnDiamond41) {
  BoardPtr board = make_board("diamond41");
  const Problem p = default_problem(board);
  HoleSet goal(board->size());
  goal.set(p.goal.hole);
  std::vector<Pagoda> tight = find_tight_pagodas(*board, p.start, goal);
  ASSERT_FALSE(tight.empty());
  const auto& w = tight.front().weight;
  int losing = 0;
  for (const Jump& j : board->jumps()) {
    const long long loss = w[static_cast<std::size_t>(j.from)] +
                           w[static_cast<std::size_t>(j.over)] - w[static_cast<std::size_t>(j.to)];
    ASSERT_GE(loss, 0);
    losing += loss > 0;
  }
  EXPECT_EQ(losing, 44);
  long long at_start = 0;
  for (int h = 0; h < board->size(); ++h)
    if (p.start.test(h)) at_start += w[static_cast<std::size_t>(h)];
  EXPECT_EQ(at_start, w[static_cast<std::size_t>(p.goal.hole)]);
  // Solvable problems without such a pagoda: the English and French defaults.
  for (const char* spec : {"english", "french"}) {
    const Problem q = default_problem(make_board(spec));
    HoleSet g(q.board->size());
    g.set(q.goal.hole);
    EXPECT_TRUE(find_tight_pagodas(*q.board, q.start, g).empty()) << spec;
  }

  std::vector<Move> kept;
  for (const char* m :
       {"c3-e3", "d5-d3", "d2-d4", "f3-d3-d5", "b4-d4", "e1-e3", "f5-f3", "h4-f4", "g6-g4", "c6-c4",
        "e6-c6", "b6-d6", "a5-c5", "c4-c6-e6-g6", "f8-f6", "d8-d6"})
    kept.push_back(parse_move_chain(*board, m));
  FewestOptions with, without;
  without.pagoda_jumps = -1;
  const FewestFinish a = fewest_finish(p, kept, with);
  const FewestFinish b = fewest_finish(p, kept, without);
  ASSERT_TRUE(a.rest.proven);
  ASSERT_TRUE(b.rest.proven);
  EXPECT_EQ(a.rest.moves, 10);
  EXPECT_EQ(b.rest.moves, 10);
  EXPECT_LT(a.rest.positions, b.rest.positions);
}

namespace {

// `jumps` (a flat list) played from the vacancy `start` on `spec` leave one peg on `end`, in
// `moves` moves: a record solution kept by its replay.
void expect_solution_in(const char* spec, const char* start, const char* end, const char* jumps,
                        int moves) {
  BoardPtr board = make_board(spec);
  const std::vector<Jump> js = parse_moves(*board, jumps);
  using Wide = unsigned __int128;
  Wide pegs = 0;
  for (int h = 0; h < board->size(); ++h)
    if (h != *board->find(start)) pegs |= Wide{1} << h;
  for (const Jump& j : js) {
    const Wide f = Wide{1} << j.from, o = Wide{1} << j.over, t = Wide{1} << j.to;
    ASSERT_TRUE((pegs & f) && (pegs & o) && !(pegs & t));
    pegs = (pegs & ~f & ~o) | t;
  }
  EXPECT_EQ(pegs, Wide{1} << *board->find(end));
  EXPECT_EQ(recount(js), moves);
}

}  // namespace

// The 9-row triangle's minimum, 16 moves (vacancy 15, last peg on 4), found by the first beam
// at 1,000,000 positions a level (docs/fewest.md): replayed, and taken as a known solution.
TEST(Fewest, Triangle9In16Moves) {
  const char* moves =
      "6-15 1-6 21-10-3 26-15 41-26 18-20-33 43-41-26 39-41 36-21-10-19 4-6-1-4 7-18-33-20 "
      "45-43-28-26 23-40-42-27-14-5 16-7-2-9-18-31-33-20-18 29-16 37-39-22-11-24-13-4";
  expect_solution_in("triangle:9", "15", "4", moves, 16);
  BoardPtr board = make_board("triangle:9");
  // As a known solution: checked, and the answer of a run stopped before its passes.
  FewestOptions o;
  o.known_solution = parse_moves(*board, moves);
  o.beam = 0;
  o.shorten_ends = false;
  Control c;
  c.cancel();  // no passes: what the known solution alone gives
  o.control = &c;
  const FewestBoardResult r = fewest_board(board, o);
  EXPECT_EQ(r.result.moves, 16);
  EXPECT_EQ(r.start, 14);
  EXPECT_EQ(r.end, 3);
}

// Below the published upper bound of 28 (OEIS A127500).
TEST(Fewest, Triangle11In24Moves) {
  expect_solution_in(
      "triangle:11", "55", "7",
      "36-55 21-36 10-21 66-45 45-28 28-15 43-28 64-43 43-45 3-10 10-21 21-36 36-55 62-64 64-66 "
      "66-45 60-62 62-43 4-6 11-4 22-11 37-22 56-37 2-7 7-16 16-29 29-46 58-56 56-37 37-58 "
      "58-60 40-61 61-59 59-40 30-49 49-47 47-30 33-52 52-50 50-33 33-35 19-34 34-36 36-55 "
      "55-53 53-34 34-21 21-19 19-10 10-3 24-41 41-39 39-22 8-19 19-32 32-30 1-6 6-13 13-11 "
      "18-16 16-31 31-29 29-16 16-7",
      24);
}

// Below the published upper bound of 29 (OEIS A127500).
TEST(Fewest, Triangle12In27Moves) {
  expect_solution_in(
      "triangle:12", "6", "8",
      "1-6 10-3 21-10 13-6 6-15 7-9 16-7 29-16 46-29 67-46 36-21 21-10 4-1 1-6 6-15 15-13 13-6 "
      "6-4 4-11 11-22 22-37 37-56 69-67 67-46 71-69 73-71 75-73 77-75 55-76 76-74 74-72 72-70 "
      "70-68 53-36 36-55 55-53 53-74 39-37 37-56 48-69 69-67 67-46 46-48 24-13 13-11 11-24 "
      "24-39 39-58 26-24 24-22 22-39 50-71 71-48 48-31 31-50 50-73 73-75 75-54 42-63 63-61 "
      "61-42 42-44 57-59 59-40 40-25 25-42 41-43 43-26 26-13 78-55 55-53 53-36 36-34 34-21 "
      "21-19 19-8",
      27);
}

// The search's byte-table images of random keys against the board's permutations applied bit by
// bit, and back through the inverse tables: 64- and 128-bit keys, triangle:11's 66 holes in nine
// bytes across both words.
template <int W>
void expect_key_images(const char* spec) {
  BoardPtr board = make_board(spec);
  const auto& group = board->symmetries();
  const fewest_detail::KeyGeometry<W> geo(*board, group);
  ASSERT_EQ(geo.group_size(), static_cast<int>(group.size()));
  std::mt19937_64 rng(45);
  for (int trial = 0; trial < 200; ++trial) {
    Bits<W> x;
    for (int h = 0; h < board->size(); ++h)
      if (rng() & 1) x.set(h);
    for (int g = 0; g < geo.group_size(); ++g) {
      Bits<W> want;
      for (int h = 0; h < board->size(); ++h)
        if (x.test(h)) want.set(group[static_cast<std::size_t>(g)][static_cast<std::size_t>(h)]);
      ASSERT_TRUE(geo.image(g, x) == want) << spec << ", element " << g << ", trial " << trial;
      ASSERT_TRUE(geo.preimage(g, want) == x) << spec << ", element " << g << ", trial " << trial;
    }
  }
}

TEST(Fewest, KeyImagesAreTheBoardsPermutations) {
  expect_key_images<64>("english");
  expect_key_images<64>("triangle:7");
  expect_key_images<128>("english");
  expect_key_images<128>("triangle:11");
}

namespace {
// JumpGrid's legal jumps of random positions, both ways, against a test of every jump.
template <int W>
void expect_grid_jumps(const std::string& name, std::optional<Lattice> lattice = std::nullopt) {
  BoardPtr board = make_board(name, lattice);
  fewest_detail::KeyGeometry<W> geo(*board, {board->symmetries().front()});
  ASSERT_TRUE(geo.grid.usable()) << name;
  std::mt19937_64 rng(7);
  std::vector<std::uint16_t> out(geo.jumps.size());
  for (int trial = 0; trial < 2000; ++trial) {
    Bits<W> pegs;
    const unsigned dense = trial % 7;  // from nearly empty to nearly full
    for (int h = 0; h < geo.n; ++h)
      if (rng() % 8 < dense + 1) pegs.set(h);
    for (int back = 0; back < 2; ++back) {
      std::set<std::size_t> want, got;
      for (std::size_t j = 0; j < geo.jumps.size(); ++j)
        if ((pegs & geo.all[j]) == (back ? geo.t[j] : geo.fo[j])) want.insert(j);
      const std::size_t n = back ? geo.grid.template legal<true>(pegs, out.data())
                                 : geo.grid.template legal<false>(pegs, out.data());
      for (std::size_t i = 0; i < n; ++i) got.insert(out[i]);
      ASSERT_EQ(n, got.size()) << name;
      ASSERT_EQ(want, got) << name << " trial " << trial << (back ? " backward" : " forward");
    }
  }
}
}  // namespace

TEST(Fewest, GridFindsTheLegalJumps) {
  expect_grid_jumps<64>("english");
  expect_grid_jumps<64>("french");
  expect_grid_jumps<64>("triangle:8");
  expect_grid_jumps<64>("hexagon:3");
  expect_grid_jumps<64>("rect:3x5");
  expect_grid_jumps<64>("diamond41");
  expect_grid_jumps<64>("wiegleb");
  expect_grid_jumps<128>("diamond41");
  expect_grid_jumps<128>("triangle:11");
  expect_grid_jumps<128>("english");
  expect_grid_jumps<64>("english", Lattice::Square8);
}

TEST(Fewest, LargeBoardIsAnInputError) {
  BoardPtr board = make_board("triangle:16");  // 136 holes
  EXPECT_THROW(fewest_solve(default_problem(board)), InputError);
}

// Threads share every level here: the same answer, the same solution as one thread.
TEST(Fewest, ThreadsGiveTheSameAnswer) {
  FewestOptions one, two;
  one.threads = 1;
  two.threads = 2;
  one.shared_level = two.shared_level = 0;
  BoardPtr board = make_board("triangle:6");
  FewestBoardResult a = fewest_board(board, one), b = fewest_board(board, two);
  ASSERT_EQ(a.result.status, Status::Solved);
  EXPECT_EQ(a.result.moves, b.result.moves);
  EXPECT_EQ(a.result.jumps, b.result.jumps);
  EXPECT_EQ(a.result.positions, b.result.positions);
  FewestTable ta = fewest_table(make_board("triangle:5"), one);
  FewestTable tb = fewest_table(make_board("triangle:5"), two);
  EXPECT_EQ(ta.moves, tb.moves);
  BoardPtr t5 = make_board("triangle:5");
  Problem p{t5, single_vacancy(*t5, 0), {Goal::Kind::Hole, 0, {}}};
  FewestResult ra = fewest_solve(p, one), rb = fewest_solve(p, two);
  EXPECT_EQ(ra.moves, rb.moves);
  EXPECT_EQ(ra.jumps, rb.jumps);
}

namespace {
// The reference's fewest moves from a single vacancy to one peg anywhere on `b`; -1: none.
int reference_board_min(const Board& b) {
  int board_min = -1;
  for (int s : one_hole_a_class(b))
    for (auto& [pegs, m] : reference::fewest_moves(b, reference::key(single_vacancy(b, s)), 1))
      if (board_min < 0 || m < board_min) board_min = m;
  return board_min;
}
}  // namespace

// Runs `run` with checkpoints in `dir`, stopped (cancelled) after the first state it writes,
// then resumed from there and stopped again after the next one, until a run completes: a run
// killed after each pass and each level of a pass. Returns the completed run's result and how many
// runs it took.
template <class Result, class Run>
Result killed_at_each_pass(const std::string& dir, Run run, int& runs) {
  runs = 0;
  for (bool resume = false;; resume = true) {
    ++runs;
    Control c;
    FewestOptions o;
    o.control = &c;
    o.checkpoint_dir = dir;
    o.resume = resume;
    // At the first state after a pass or a level (the states inside a level, after its groups
    // of shards, are the in-level tests' part).
    o.checkpointed = [&c, dir](int) {
      std::ifstream in(std::filesystem::path(dir) / "fewest.state");
      for (std::string line; std::getline(in, line);)
        if (line.starts_with("making ")) return;
      c.cancel();
    };
    Result r = run(o);
    const FewestResult& f = [&]() -> const FewestResult& {
      if constexpr (std::is_same_v<Result, FewestBoardResult>)
        return r.result;
      else
        return r;
    }();
    if (f.stop == StopReason::None || runs > 2000) return r;
    EXPECT_EQ(f.stop, StopReason::Cancelled);
  }
}

// A killed run resumed from its checkpoint at every pass gives the reference's fewest moves:
// one problem, the board's minimum, and the board's minimum split by classes.
TEST(Fewest, CheckpointsResumeAtEachPass) {
  for (const std::string spec : {"triangle:5", "rect:3x4", "hexagon:2"}) {
    SCOPED_TRACE(spec);
    BoardPtr board = make_board(spec);
    const Board& b = *board;
    const int board_min = reference_board_min(b);
    for (const bool split : {false, true}) {
      TempDir dir(spec + (split ? "-split" : "-board"));
      int runs = 0;
      FewestBoardResult r = killed_at_each_pass<FewestBoardResult>(
          dir.path.string(),
          [&](FewestOptions o) {
            o.split = split;
            o.beam = 0;  // every pass from the bound, so that there are passes to kill
            return fewest_board(board, o);
          },
          runs);
      if (board_min < 0) {  // hexagon:2: no single vacancy ends with one peg
        EXPECT_EQ(r.result.status, Status::Impossible) << r.result.reason;
        continue;
      }
      ASSERT_EQ(r.result.status, Status::Solved) << r.result.reason;
      Problem q{board, single_vacancy(b, r.start), {Goal::Kind::Hole, r.end, {}}};
      check_solution(q, r.result, board_min);
      EXPECT_GT(runs, 1);
    }
  }
  // One problem: from triangle:6's top corner to the last hole that takes it the most moves,
  // against the reference.
  BoardPtr board = make_board("triangle:6");
  const HoleSet start = single_vacancy(*board, 0);
  std::map<Mask, int> ref = reference::fewest_moves(*board, reference::key(start), 1);
  ASSERT_FALSE(ref.empty());
  Mask end = ref.begin()->first;
  for (auto& [pegs, m] : ref)
    if (m > ref[end]) end = pegs;
  const Problem p{board, start, {Goal::Kind::Hole, std::countr_zero(end), {}}};
  TempDir dir("problem");
  int runs = 0;
  FewestResult r = killed_at_each_pass<FewestResult>(
      dir.path.string(),
      [&](FewestOptions o) {
        o.beam = 0;
        return fewest_solve(p, o);
      },
      runs);
  check_solution(p, r, ref[end]);
  EXPECT_GT(runs, 1);
}

// fewest_solve (`solve --minimize moves`) killed after each state it writes and resumed, for a
// goal of one peg anywhere and for a whole goal position, with levels in memory and with every
// level spilled to disk: the reference's fewest moves.
TEST(Fewest, SolveCheckpointsResumeAtEachPassEveryGoal) {
  BoardPtr board = make_board("triangle:6");
  const Board& b = *board;
  const HoleSet start = single_vacancy(b, 0);
  int any = -1;
  for (auto& [pegs, m] : reference::fewest_moves(b, reference::key(start), 1))
    if (any < 0 || m < any) any = m;
  ASSERT_GT(any, 0);
  // The three-peg position the most moves away.
  std::map<Mask, int> three = reference::fewest_moves(b, reference::key(start), 3);
  ASSERT_FALSE(three.empty());
  Mask far = three.begin()->first;
  for (auto& [pegs, m] : three)
    if (m > three[far]) far = pegs;
  HoleSet goal(b.size());
  for (int h = 0; h < b.size(); ++h)
    if (far >> h & 1) goal.set(h);
  const std::vector<std::pair<Problem, int>> cases = {
      {Problem{board, start, {Goal::Kind::Any, -1, {}}}, any},
      {Problem{board, start, {Goal::Kind::Position, -1, goal}}, three[far]}};
  for (const auto& one : cases)
    for (const bool spilled : {false, true}) {
      const Problem& p = one.first;  // named apart: a lambda below takes it
      const int expected = one.second;
      SCOPED_TRACE(std::string(p.goal.kind == Goal::Kind::Any ? "any" : "position") +
                   (spilled ? ", spilled" : ""));
      TempDir dir("solve"), spill("solve-spill");
      int runs = 0;
      FewestResult r = killed_at_each_pass<FewestResult>(
          dir.path.string(),
          [&](FewestOptions o) {
            o.beam = 0;  // every pass from the bound, so that there are passes to kill
            if (spilled) {
              o.spill_dir = spill.path.string();
              o.spill_always = true;
            }
            return fewest_solve(p, o);
          },
          runs);
      check_solution(p, r, expected);
      EXPECT_GT(runs, 1);
      EXPECT_TRUE(std::filesystem::is_empty(spill.path));
    }
}

// A state that cannot be written (here: a directory where its new file goes) ends the run with
// the state before it whole, every level file it names still there: a kill at that moment
// resumes. A pass's files used to be removed before the state that forgets them was written.
TEST(Fewest, AStateThatCannotBeWrittenLeavesTheOneBeforeResumable) {
  BoardPtr board = make_board("triangle:6");
  const HoleSet start = single_vacancy(*board, 0);
  int any = -1;
  for (auto& [pegs, m] : reference::fewest_moves(*board, reference::key(start), 1))
    if (any < 0 || m < any) any = m;
  ASSERT_GT(any, 0);
  const Problem p{board, start, {Goal::Kind::Any, -1, {}}};
  TempDir dir("failed-write");
  const std::filesystem::path blocker = dir.path / "fewest.state.new";
  int failed = 0;
  for (bool resume = false;; resume = true) {
    ASSERT_LT(failed, 2000);
    FewestOptions o;
    o.beam = 0;  // every pass from the bound, so that passes end part way through the run
    o.checkpoint_dir = dir.path.string();
    o.resume = resume;
    int saves = 0;
    o.checkpointed = [&](int) {
      if (++saves == 1) std::filesystem::create_directory(blocker);
    };
    try {
      FewestResult r = fewest_solve(p, o);
      check_solution(p, r, any);
      break;
    } catch (const InputError& e) {
      ASSERT_NE(std::string(e.what()).find("fewest.state.new"), std::string::npos) << e.what();
      ++failed;
    }
    std::filesystem::remove(blocker);
  }
  EXPECT_GT(failed, 1);
}

namespace {

// Threads standing in for the processes that share a split board minimum (pegsol-mpi fewest):
// split_merge's exchange, done in memory between two barriers.
class SplitExchange {
 public:
  explicit SplitExchange(int parts) : parts_(parts), combined_(parts), read_(parts, Reset{this}) {}
  void merge(int part, FewestSweep& sw) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (arrived_++ == 0) {
        acc_ = FewestSweep{};
        acc_.floors.assign(sw.floors.size(), 0);
        best_part_ = -1;
      }
      for (std::size_t k = 0; k < sw.floors.size(); ++k)
        acc_.floors[k] = std::max(acc_.floors[k], sw.floors[k]);
      if (!sw.best.empty() &&
          (acc_.best.empty() || count_moves(sw.best) < count_moves(acc_.best) ||
           (count_moves(sw.best) == count_moves(acc_.best) && part < best_part_))) {
        acc_.best = sw.best;
        best_part_ = part;
      }
      acc_.stop = std::max(acc_.stop, sw.stop);
      acc_.positions += sw.positions;
    }
    combined_.arrive_and_wait();
    sw = acc_;
    read_.arrive_and_wait();
  }
  // Runs fewest_board on `parts_` threads, part p with the options `options(p)` gives.
  template <class Options>
  std::vector<FewestBoardResult> run(const BoardPtr& board, Options options) {
    std::vector<FewestBoardResult> out(static_cast<std::size_t>(parts_));
    std::vector<std::thread> threads;
    for (int p = 0; p < parts_; ++p)
      threads.emplace_back([&, p] {
        FewestOptions o = options(p);
        o.split = true;
        o.split_part = p;
        o.split_parts = parts_;
        o.threads = 1;
        o.split_merge = [this, p](FewestSweep& sw) { merge(p, sw); };
        out[static_cast<std::size_t>(p)] = fewest_board(board, o);
      });
    for (auto& t : threads) t.join();
    return out;
  }

 private:
  struct Reset {
    SplitExchange* ex;
    void operator()() noexcept { ex->arrived_ = 0; }
  };
  int parts_;
  std::mutex mutex_;
  int arrived_ = 0, best_part_ = -1;
  FewestSweep acc_;
  std::barrier<> combined_;
  std::barrier<Reset> read_;
};

}  // namespace

// A split board minimum shared by 2 and 3 parts (each a thread here, a rank in pegsol-mpi
// fewest): every part ends with the reference's board minimum, proven, and the same answer.
TEST(Fewest, SplitSharedByPartsGivesTheReferenceMinimum) {
  std::vector<std::string> specs = {"triangle:5", "rect:3x4", "hexagon:2"};
  if (!kSanitized) specs.push_back("triangle:6");
  for (const std::string& spec : specs) {
    BoardPtr board = make_board(spec);
    const Board& b = *board;
    const int board_min = reference_board_min(b);
    for (int parts : {2, 3}) {
      SCOPED_TRACE(spec + " on " + std::to_string(parts) + " parts");
      SplitExchange ex(parts);
      std::vector<FewestBoardResult> rs = ex.run(board, [](int) { return FewestOptions{}; });
      for (const FewestBoardResult& r : rs) {
        if (board_min < 0) {
          EXPECT_EQ(r.result.status, Status::Impossible) << r.result.reason;
          continue;
        }
        ASSERT_EQ(r.result.status, Status::Solved) << r.result.reason;
        Problem q{board, single_vacancy(b, r.start), {Goal::Kind::Hole, r.end, {}}};
        check_solution(q, r.result, board_min);
        EXPECT_EQ(r.result.jumps, rs.front().result.jumps);
        EXPECT_EQ(r.result.positions, rs.front().result.positions);
      }
    }
  }
}

// A shared split stopped after each state its part 0 writes (part 0 alone keeps the
// checkpoints) and resumed on another number of parts: the reference's board minimum.
TEST(Fewest, SplitSharedByPartsResumesOnAnotherNumberOfParts) {
  std::vector<std::string> specs = {"triangle:5"};
  if (!kSanitized) specs.push_back("triangle:6");
  for (const std::string& spec : specs) {
    SCOPED_TRACE(spec);
    BoardPtr board = make_board(spec);
    const Board& b = *board;
    const int board_min = reference_board_min(b);
    TempDir dir(spec + "-shared");
    int runs = 0;
    for (bool resume = false;; resume = true) {
      ++runs;
      Control c;
      int saves = 0;
      SplitExchange ex(2 + runs % 2);
      std::vector<FewestBoardResult> rs = ex.run(board, [&](int p) {
        FewestOptions o;
        o.beam = 0;
        if (p == 0) {
          o.control = &c;
          o.checkpoint_dir = dir.path.string();
          o.resume = resume;
          o.checkpointed = [&](int) {
            if (++saves == 1) c.cancel();
          };
        }
        return o;
      });
      for (const FewestBoardResult& r : rs) EXPECT_EQ(r.result.stop, rs.front().result.stop);
      const FewestBoardResult& r = rs.front();
      if (r.result.stop == StopReason::None || runs > 2000) {
        ASSERT_EQ(r.result.status, Status::Solved) << r.result.reason;
        Problem q{board, single_vacancy(b, r.start), {Goal::Kind::Hole, r.end, {}}};
        check_solution(q, r.result, board_min);
        break;
      }
      EXPECT_EQ(r.result.stop, StopReason::Cancelled);
    }
    EXPECT_GT(runs, 1);
  }
}

// A state of another problem, or a damaged one, is bad input naming the file.
TEST(Fewest, ResumeRefusesAnotherProblemOrADamagedState) {
  TempDir dir("refuse");
  BoardPtr board = make_board("triangle:5");
  FewestOptions o;
  o.checkpoint_dir = dir.path.string();
  ASSERT_EQ(fewest_board(board, o).result.status, Status::Solved);
  o.resume = true;
  EXPECT_EQ(fewest_board(board, o).result.moves, 9);  // a completed state: the same answer
  try {
    fewest_board(make_board("triangle:6"), o);
    ADD_FAILURE() << "another board's state was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("another problem"), std::string::npos) << e.what();
  }
  const std::filesystem::path state = dir.path / "fewest.state";
  std::string text;
  {
    std::ifstream in(state);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::size_t at = text.find("floor ");
  ASSERT_NE(at, std::string::npos);
  text[at + 6] = text[at + 6] == '1' ? '2' : '1';
  std::ofstream(state) << text;
  try {
    fewest_board(board, o);
    ADD_FAILURE() << "a damaged state was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
  }
}

namespace {
// Sets o.checkpointed to cancel `c` at the first state in `dir` that names level files (a pass
// saved part way), and `part_way` to say it came.
void cancel_when_part_way(FewestOptions& o, Control& c, const std::filesystem::path& dir,
                          bool& part_way) {
  part_way = false;
  o.checkpointed = [&c, &part_way, dir](int) {
    for (const auto& f : std::filesystem::directory_iterator(dir))
      part_way = part_way || f.path().extension() == ".level";
    if (part_way) c.cancel();
  };
}

// Runs fewest_board on `board` with checkpoints in `dir`, cancelled at its first state that names
// level files (a pass saved part way); returns the options that resume it.
FewestOptions saved_part_way(const BoardPtr& board, const std::filesystem::path& dir) {
  Control c;
  FewestOptions o;
  o.control = &c;
  o.checkpoint_dir = dir.string();
  o.beam = 0;
  bool part_way = false;
  cancel_when_part_way(o, c, dir, part_way);
  EXPECT_EQ(fewest_board(board, o).result.stop, StopReason::Cancelled);
  EXPECT_TRUE(part_way);
  o.control = nullptr;
  o.resume = true;
  o.checkpointed = nullptr;
  return o;
}
}  // namespace

// A pass saved part way whose level file is damaged is refused on resume, naming the file.
TEST(Fewest, ResumeRefusesADamagedLevelFile) {
  TempDir dir("level");
  BoardPtr board = make_board("triangle:6");
  FewestOptions o = saved_part_way(board, dir.path);
  std::filesystem::path level;
  for (const auto& f : std::filesystem::directory_iterator(dir.path))
    if (f.path().extension() == ".level" && std::filesystem::file_size(f.path()) > 200)
      level = f.path();
  ASSERT_FALSE(level.empty());
  {
    std::fstream io(level, std::ios::in | std::ios::out | std::ios::binary);
    io.seekp(180);
    io.put('\x5a');
  }
  try {
    fewest_board(board, o);
    ADD_FAILURE() << "a damaged level file was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(level.filename().string()), std::string::npos) << e.what();
  }
}

// A pass saved part way in level files of the mixer before (tagged "PEGFEWL1"): the resume makes
// that pass again from the state's floor and ends with the reference's board minimum.
TEST(Fewest, ResumeRedoesAPassSavedByTheMixerBefore) {
  TempDir dir("old-level");
  BoardPtr board = make_board("triangle:6");
  const FewestOptions o = saved_part_way(board, dir.path);
  int old = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir.path))
    if (f.path().extension() == ".level") {
      std::fstream io(f.path(), std::ios::in | std::ios::out | std::ios::binary);
      io.seekp(0);
      io.write("PEGFEWL1", 8);
      ++old;
    }
  EXPECT_GT(old, 0);
  const FewestBoardResult r = fewest_board(board, o);
  ASSERT_EQ(r.result.status, Status::Solved) << r.result.reason;
  Problem q{board, single_vacancy(*board, r.start), {Goal::Kind::Hole, r.end, {}}};
  check_solution(q, r.result, reference_board_min(*board));
  for (const auto& f : std::filesystem::directory_iterator(dir.path))
    EXPECT_NE(f.path().extension(), ".level") << f.path();
}

// The split's searches on 128-bit keys: the same minimum as the 64-bit ones.
TEST(Fewest, SplitOnWideKeys) {
  BoardPtr board = make_board("triangle:5");
  FewestOptions split;
  split.split = true;
  FewestOptions wide = split;
  wide.wide_keys = true;
  FewestBoardResult a = fewest_board(board), b = fewest_board(board, split),
                    c = fewest_board(board, wide);
  ASSERT_EQ(a.result.status, Status::Solved);
  EXPECT_EQ(b.result.moves, a.result.moves);
  EXPECT_EQ(c.result.moves, a.result.moves);
  EXPECT_TRUE(b.result.proven && c.result.proven);
}

TEST(Fewest, CountMoves) {
  std::vector<Jump> jumps{{0, 1, 3}, {3, 4, 5}, {0, 2, 5}, {5, 4, 3}};
  EXPECT_EQ(count_moves(jumps), recount(jumps));
  EXPECT_EQ(count_moves({}), 0);
}

namespace {
// The moves of the best solution a checkpoint's state holds (its "best" line); -1: none.
int state_best_moves(const std::filesystem::path& dir) {
  std::ifstream in(dir / "fewest.state");
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("best")) continue;
    std::istringstream words(line.substr(4));  // the jumps' count, then theirs
    std::size_t n = 0;
    words >> n;
    std::vector<Jump> jumps;
    for (Jump j; jumps.size() < n && words >> j.from >> j.over >> j.to;) jumps.push_back(j);
    return jumps.empty() ? -1 : count_moves(jumps);
  }
  return -1;
}

// A solution of `p` with more moves than the fewest: the first solver's.
std::vector<Jump> first_solution(const Problem& p) {
  SolveOptions so;
  so.algorithm = Algorithm::Dfs;
  return solve(p, so).moves;
}
}  // namespace

// A known solution (FewestOptions::known_solution) changes neither the answer nor the proof; an
// optimal one stores no more positions than the run without it.
TEST(Fewest, KnownSolutionKeepsTheAnswer) {
  for (const std::string spec : {"triangle:6", "rect:3x5", "triangle:5"}) {
    SCOPED_TRACE(spec);
    BoardPtr board = make_board(spec);
    FewestOptions o;
    const FewestBoardResult plain = fewest_board(board, o);
    ASSERT_EQ(plain.result.status, Status::Solved);
    o.known_solution = plain.result.jumps;
    const FewestBoardResult optimal = fewest_board(board, o);
    EXPECT_EQ(optimal.result.moves, plain.result.moves);
    EXPECT_EQ(optimal.result.proven, plain.result.proven);
    EXPECT_LE(optimal.result.positions, plain.result.positions);
    // A longer one: the first solver's from the board minimum's vacancy.
    const Problem any{board, single_vacancy(*board, plain.start), {Goal::Kind::Any, -1, {}}};
    o.known_solution = first_solution(any);
    ASSERT_FALSE(o.known_solution.empty());
    for (const bool split : {false, true}) {
      o.split = split;
      const FewestBoardResult longer = fewest_board(board, o);
      EXPECT_EQ(longer.result.moves, plain.result.moves);
      EXPECT_EQ(longer.result.proven, plain.result.proven);
    }
    // One problem: the same.
    o = FewestOptions{};
    const FewestResult p0 = fewest_solve(any, o);
    o.known_solution = first_solution(any);
    const FewestResult p1 = fewest_solve(any, o);
    check_solution(any, p1, p0.moves);
    o.known_solution = p0.jumps;
    const FewestResult p2 = fewest_solve(any, o);
    check_solution(any, p2, p0.moves);
    EXPECT_LE(p2.positions, p0.positions);
  }
}

// A known solution that does not solve the problem is refused, naming the field and why.
TEST(Fewest, KnownSolutionRefusedWhenItDoesNotSolve) {
  BoardPtr t6 = make_board("triangle:6"), t5 = make_board("triangle:5");
  const Problem p{t6, single_vacancy(*t6, 0), {Goal::Kind::Any, -1, {}}};
  const std::vector<Jump> good = first_solution(p);
  ASSERT_FALSE(good.empty());
  auto refused = [](auto run, const std::string& words) {
    try {
      run();
      ADD_FAILURE() << "taken: " << words;
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "FewestOptions::known_solution") << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  FewestOptions o;
  o.known_solution = std::vector<Jump>(good.begin(), good.end() - 1);  // one jump short
  refused([&] { fewest_solve(p, o); }, "not the problem's goal");
  refused([&] { fewest_board(t6, o); }, "pegs, not one");
  o.known_solution = good;
  std::swap(o.known_solution[1], o.known_solution[2]);
  refused([&] { fewest_solve(p, o); }, "jump ");
  o.known_solution = {Jump{30, 31, 32}};  // off the board
  refused([&] { fewest_board(t6, o); }, "out of range");
  o.known_solution = good;  // a solution of another start
  refused([&] { fewest_solve(Problem{t6, single_vacancy(*t6, 3), p.goal}, o); }, "jump 1");
  refused([&] { fewest_board(t5, o); }, "jump");
}

// A resume given a solution shorter than the state's best: the state takes it at once (the
// pass saved part way goes on), and the search ends with the fewest, proven.
TEST(Fewest, ResumeTakesAShorterKnownSolution) {
  BoardPtr board = make_board("triangle:6");
  const FewestBoardResult plain = fewest_board(board);
  ASSERT_TRUE(plain.result.proven);
  for (const bool spilled : {false, true}) {
    SCOPED_TRACE(spilled ? "spilled" : "in memory");
    TempDir dir("known"), spill("known-spill");
    Control c;
    FewestOptions o;
    o.control = &c;
    o.checkpoint_dir = dir.path.string();
    o.beam = 0;
    if (spilled) o.spill_dir = spill.path.string();  // the levels read in place
    // A longer known solution for the first run, so that the state's best is not the fewest.
    o.known_solution = first_solution(
        Problem{board, single_vacancy(*board, plain.start), {Goal::Kind::Any, -1, {}}});
    o.shorten_ends = false;
    bool part_way = false;
    cancel_when_part_way(o, c, dir.path, part_way);
    ASSERT_EQ(fewest_board(board, o).result.stop, StopReason::Cancelled);
    ASSERT_TRUE(part_way);
    const int before = state_best_moves(dir.path);
    ASSERT_GT(before, 0);
    Control c2;
    o.control = &c2;
    o.resume = true;
    o.known_solution = plain.result.jumps;
    int written = -1;
    o.checkpointed = [&](int) {
      if (written < 0) written = state_best_moves(dir.path);
    };
    const FewestBoardResult r = fewest_board(board, o);
    EXPECT_EQ(r.result.stop, StopReason::None);
    EXPECT_EQ(r.result.moves, plain.result.moves);
    EXPECT_TRUE(r.result.proven);
    ASSERT_GT(before, plain.result.moves);  // else the test shows nothing
    EXPECT_EQ(written, plain.result.moves);
    EXPECT_EQ(state_best_moves(dir.path), plain.result.moves);
  }
}

// A resumed pass whose levels are on disk, stopped (as by a signal: a watched flag) after a
// given number of the control's polls, from the first (reading the saved levels back) to past
// the end, and each time resumed again: the reference's board minimum every time, the spill
// directory left empty.
TEST(Fewest, AResumedSpilledPassStoppedAtAnyPollResumes) {
  BoardPtr board = make_board("triangle:5");
  const int board_min = reference_board_min(*board);
  TempDir saved("stop-saved");
  {
    Control c;
    FewestOptions o;
    o.control = &c;
    o.checkpoint_dir = saved.path.string();
    o.beam = 0;
    o.threads = 1;
    TempDir spill("stop-spill0");
    o.spill_dir = spill.path.string();
    o.spill_always = true;
    bool part_way = false;
    cancel_when_part_way(o, c, saved.path, part_way);
    ASSERT_EQ(fewest_board(board, o).result.stop, StopReason::Cancelled);
    ASSERT_TRUE(part_way);
  }
  int stops = 0;
  for (int polls = 1; polls < 1000000; polls += std::max(1, polls / 2)) {
    SCOPED_TRACE(polls);
    TempDir dir("stop-at"), spill("stop-spill");
    std::filesystem::copy(saved.path, dir.path, std::filesystem::copy_options::overwrite_existing);
    std::atomic<bool> signal{false};
    auto reads = std::make_shared<std::atomic<int>>(0);
    auto base = ticking_clock();
    // The flag goes up at the clock's `polls`-th read: every poll reads it (a far deadline).
    Control c([&signal, reads, base, polls] {
      if (++*reads >= polls) signal = true;
      return base();
    });
    c.set_time_limit(1e8);
    c.watch(&signal, StopReason::Signal);
    FewestOptions o;
    o.control = &c;
    o.checkpoint_dir = dir.path.string();
    o.resume = true;
    o.beam = 0;
    o.threads = 1;
    o.spill_dir = spill.path.string();
    o.spill_always = true;
    // No state past the one copied: with every level made in groups of one shard, a state
    // after each group is some 50 flushes to disk a level (the polls of a save are the
    // in-level tests' part).
    o.level_checkpoint_seconds = 1e9;
    FewestBoardResult r = fewest_board(board, o);
    EXPECT_TRUE(std::filesystem::is_empty(spill.path));
    if (r.result.stop == StopReason::None) {  // it finished before the flag went up
      ASSERT_EQ(r.result.status, Status::Solved);
      EXPECT_EQ(r.result.moves, board_min);
      break;
    }
    ++stops;
    EXPECT_EQ(r.result.stop, StopReason::Signal);
    EXPECT_LE(r.result.lower_bound, board_min);
    o.control = nullptr;  // resumed again, to the end
    r = fewest_board(board, o);
    ASSERT_EQ(r.result.status, Status::Solved) << r.result.reason;
    EXPECT_TRUE(r.result.proven);
    EXPECT_EQ(r.result.moves, board_min);
    EXPECT_TRUE(std::filesystem::is_empty(spill.path));
  }
  EXPECT_GT(stops, 3);
}

namespace {
// Random entries in strictly rising key order: gaps from 1 to past the first word (the codec's
// escape), costs over a range, landing sets of one peg, of several and off the pegs.
template <int W>
std::vector<fewest_detail::Entry<W>> random_entries(std::mt19937_64& rng, std::size_t n,
                                                    int gap_bits) {
  using E = fewest_detail::Entry<W>;
  std::vector<E> out;
  Bits<W> key = Bits<W>::single(3);
  for (std::size_t i = 0; i < n; ++i) {
    const int bits = static_cast<int>(rng() % static_cast<std::uint64_t>(gap_bits)) + 1;
    Bits<W> gap;
    gap.w[0] = (rng() >> (64 - bits)) | 1;
    if (W > 64 && rng() % 50 == 0) gap.w[Bits<W>::kWords - 1] = rng() >> 8;  // past a word
    std::uint64_t carry = 0;
    for (int w = 0; w < Bits<W>::kWords; ++w) {  // key += gap
      const std::uint64_t x = key.w[w] + gap.w[w], y = x + carry;
      carry = (x < key.w[w]) || (y < x) ? 1 : 0;
      key.w[w] = y;
    }
    Bits<W> k = key & Bits<W>::low(fewest_detail::kHoles<W>);
    if (k.none() || (!out.empty() && !(out.back().key < k))) continue;
    Bits<W> land;
    const int kind = static_cast<int>(rng() % 4);
    std::vector<int> pegs;
    for (Bits<W> b = k; b.any(); b.pop_lowest()) pegs.push_back(b.lowest());
    if (kind == 0) land = Bits<W>::single(pegs[rng() % pegs.size()]);
    if (kind == 1)
      for (int h : pegs)
        if (rng() % 3 == 0) land.set(h);
    if (kind == 2) land.set(static_cast<int>(rng() % fewest_detail::kHoles<W>));
    const auto cost = static_cast<std::uint32_t>(rng() % (kind == 3 ? 60 : 12));
    out.push_back(E::make(k, cost, land));
  }
  return out;
}

template <int W>
void check_codec_round_trips() {
  std::mt19937_64 rng(46);
  using E = fewest_detail::Entry<W>;
  for (const int gap_bits : {1, 8, 20, 40, 63}) {
    for (const std::size_t n :
         {std::size_t{1}, std::size_t{2}, std::size_t{1000}, fewest_detail::kCodecChunk}) {
      SCOPED_TRACE(std::to_string(gap_bits) + " " + std::to_string(n));
      const std::vector<E> in = random_entries<W>(rng, n, gap_bits);
      if (in.empty()) continue;
      std::vector<std::uint8_t> bytes;
      fewest_detail::Codec<W>::encode(in.data(), in.size(), bytes);
      std::vector<E> out;
      ASSERT_TRUE(fewest_detail::Codec<W>::decode(bytes.data(), bytes.size(), out));
      ASSERT_EQ(out.size(), in.size());
      for (std::size_t i = 0; i < in.size(); ++i) {
        ASSERT_EQ(out[i].key, in[i].key) << i;
        ASSERT_EQ(out[i].cost(), in[i].cost()) << i;
        ASSERT_EQ(out[i].land(), in[i].land()) << i;
      }
      // Damaged: cut short anywhere, or a byte changed: refused or decoded to something (the
      // level files' digests tell), never a read past the bytes (the sanitizer build checks).
      for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + bytes.size() / 7) {
        std::vector<std::uint8_t> part(bytes.begin(), bytes.begin() + static_cast<long>(cut));
        EXPECT_FALSE(fewest_detail::Codec<W>::decode(part.data(), part.size(), out));
      }
      for (std::size_t at = 0; at < bytes.size(); at += 1 + bytes.size() / 13) {
        std::vector<std::uint8_t> bad = bytes;
        bad[at] ^= 0x5a;
        fewest_detail::Codec<W>::decode(bad.data(), bad.size(), out);
      }
    }
  }
}
}  // namespace

// A level's chunks coded and decoded: the same entries, on 64- and 128-bit keys.
TEST(Fewest, LevelCodecRoundTrips) {
  check_codec_round_trips<64>();
  check_codec_round_trips<128>();
}

namespace {
// The `pass` and `making` lines of the state in `dir` ("" when it has none).
std::string pass_lines(const std::filesystem::path& dir) {
  std::ifstream in(dir / "fewest.state");
  std::string out;
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("pass ") || line.starts_with("making ")) out += line + "\n";
  return out;
}

// Options of a checkpointed run with every level spilled (made in groups of one shard) and a
// state after each group and each level.
FewestOptions spilled_checkpoints(Control& c, const TempDir& dir, const TempDir& spill) {
  FewestOptions o;
  o.control = &c;
  o.checkpoint_dir = dir.path.string();
  o.spill_dir = spill.path.string();
  o.spill_always = true;
  o.beam = 0;
  o.threads = 1;
  return o;
}
}  // namespace

// A run stopped inside a level's making (after each group of shards it saves, by cancel as a
// SIGTERM does) and resumed: the same answer as the uninterrupted run, and each state it
// writes (the pass's figures and positions, the level part made and its bytes) is one the
// uninterrupted run writes too.
namespace {
void check_killed_inside_levels(const std::string& spec) {
  {
    SCOPED_TRACE(spec);
    BoardPtr board = make_board(spec);
    std::set<std::string> states;
    FewestBoardResult whole;
    int makings = 0;
    {
      TempDir dir("inlevel-whole"), spill("inlevel-whole-spill");
      Control c;
      FewestOptions o = spilled_checkpoints(c, dir, spill);
      o.checkpointed = [&](int) {
        const std::string lines = pass_lines(dir.path);
        states.insert(lines);
        makings += lines.find("making ") != std::string::npos;
      };
      whole = fewest_board(board, o);
      ASSERT_EQ(whole.result.stop, StopReason::None);
    }
    ASSERT_GT(makings, 0);
    TempDir dir("inlevel"), spill("inlevel-spill");
    int runs = 0, resumed_inside = 0, saves = 0;
    FewestBoardResult r;
    for (bool resume = false; runs < 5000; resume = true) {
      ++runs;
      Control c;
      FewestOptions o = spilled_checkpoints(c, dir, spill);
      o.resume = resume;
      resumed_inside += pass_lines(dir.path).find("making ") != std::string::npos;
      o.checkpointed = [&](int) {
        const std::string lines = pass_lines(dir.path);
        EXPECT_TRUE(states.count(lines)) << lines;
        // Stopped at every 61st state of a level part made: some 10 runs a board, stopped
        // inside levels of either side, at groups early and late.
        if (lines.find("making ") != std::string::npos && ++saves % 61 == 0) c.cancel();
      };
      r = fewest_board(board, o);
      EXPECT_TRUE(std::filesystem::is_empty(spill.path));
      if (r.result.stop == StopReason::None) break;
      ASSERT_EQ(r.result.stop, StopReason::Cancelled);
    }
    EXPECT_GT(resumed_inside, 0);
    EXPECT_EQ(r.result.status, whole.result.status);
    EXPECT_EQ(r.result.moves, whole.result.moves);
    EXPECT_EQ(r.result.lower_bound, whole.result.lower_bound);
    EXPECT_EQ(r.result.proven, whole.result.proven);
    for (const auto& f : std::filesystem::directory_iterator(dir.path))
      EXPECT_EQ(f.path().filename(), "fewest.state") << f.path();
  }
}

}  // namespace

TEST(Fewest, KilledInsideALevelResumesToTheSameLevels) {
  check_killed_inside_levels("triangle:5");
  check_killed_inside_levels("rect:3x5");
}
TEST(Fewest, KilledInsideALevelResumesToTheSameLevelsTriangle6) {
  check_killed_inside_levels("triangle:6");
}

namespace {
// Runs triangle:6's board minimum with every level spilled and a state after each group,
// cancelled at its first state with a level part made; returns the part's file.
std::filesystem::path saved_inside_a_level(const BoardPtr& board, const TempDir& dir,
                                           const TempDir& spill) {
  Control c;
  FewestOptions o = spilled_checkpoints(c, dir, spill);
  std::filesystem::path part;
  o.checkpointed = [&](int) {
    std::istringstream lines(pass_lines(dir.path));
    for (std::string line; std::getline(lines, line);)
      if (line.starts_with("making ")) {
        std::istringstream w(line);
        std::string word, side, pegs, done, groups, file;
        std::uint64_t bytes = 0;
        w >> word >> side >> pegs >> done >> groups >> file >> bytes;
        if (bytes < 1000) continue;  // a part with a few blocks
        part = dir.path / file;
        c.cancel();
      }
  };
  EXPECT_EQ(fewest_board(board, o).result.stop, StopReason::Cancelled);
  return part;
}
}  // namespace

// A level part made that is cut short or damaged is refused on resume, naming its file.
TEST(Fewest, ResumeRefusesADamagedLevelPart) {
  BoardPtr board = make_board("triangle:6");
  for (const bool cut : {true, false}) {
    SCOPED_TRACE(cut);
    TempDir dir("part"), spill("part-spill");
    const std::filesystem::path part = saved_inside_a_level(board, dir, spill);
    ASSERT_FALSE(part.empty());
    const auto size = std::filesystem::file_size(part);
    ASSERT_GT(size, 1000u);
    if (cut) {
      std::filesystem::resize_file(part, size - 7);
    } else {
      std::fstream io(part, std::ios::in | std::ios::out | std::ios::binary);
      io.seekp(static_cast<long>(size / 2));
      io.put('\x5a');
    }
    Control c;
    FewestOptions o = spilled_checkpoints(c, dir, spill);
    o.resume = true;
    try {
      fewest_board(board, o);
      ADD_FAILURE() << "a damaged level part was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(part.filename().string()), std::string::npos)
          << e.what();
    }
  }
}

namespace {
// Rewrites the level file at `path` (PEGFEWL3) in the form before 2026-11-29 (PEGFEWL2: a head
// with each shard's count, plain entries, a digest), as a build of then wrote it.
void write_as_before(const std::filesystem::path& path) {
  using namespace fewest_detail;
  constexpr std::size_t kShards = 16;
  std::vector<std::vector<Entry<64>>> shards(kShards);
  {
    SpillLedger ledger;
    SpillFile f(path.string(), ledger, SpillFile::InPlace{});
    read_blocks<64>(f, path.string(), kShards, 0,
                    [&](std::size_t d, const Entry<64>& e) { shards[d].push_back(e); }, {});
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  std::uint64_t head[3 + kShards] = {0x324c574546474550ull, sizeof(Entry<64>), kShards};
  for (std::size_t d = 0; d < kShards; ++d) head[3 + d] = shards[d].size();
  out.write(reinterpret_cast<const char*>(head), sizeof head);
  std::uint64_t digest = 0;
  for (const auto& v : shards)
    for (const Entry<64>& e : v) {
      digest = entry_digest<64>(digest, e);
      out.write(reinterpret_cast<const char*>(&e), sizeof e);
    }
  out.write(reinterpret_cast<const char*>(&digest), sizeof digest);
}
}  // namespace

// A state of the build before (version 1, its level files of plain entries, PEGFEWL2) resumes,
// in memory and spilled, to the reference's board minimum; the levels it writes are coded.
TEST(Fewest, ResumesAStateOfTheBuildBefore) {
  BoardPtr board = make_board("triangle:5");
  for (const bool spilled : {false, true}) {
    SCOPED_TRACE(spilled);
    TempDir dir("before"), spill("before-spill");
    FewestOptions o = saved_part_way(board, dir.path);
    // The state as the build before wrote it: version 1, no level part made.
    std::string text;
    {
      std::ifstream in(dir.path / "fewest.state");
      for (std::string line; std::getline(in, line);)
        if (!line.starts_with("checksum") && !line.starts_with("making")) text += line + "\n";
    }
    text.replace(0, text.find('\n'), "pegsol-fewest-state 1");
    char sum[32];
    std::snprintf(sum, sizeof sum, "%016llx",
                  static_cast<unsigned long long>(fewest_detail::fnv1a(text)));
    std::ofstream(dir.path / "fewest.state") << text << "checksum " << sum << "\n";
    int old = 0;
    for (const auto& f : std::filesystem::directory_iterator(dir.path))
      if (f.path().extension() == ".level") {
        write_as_before(f.path());
        ++old;
      } else if (f.path().extension() == ".part") {
        std::filesystem::remove(f.path());
      }
    ASSERT_EQ(old, 2);
    if (spilled) o.spill_dir = spill.path.string();  // the levels read in place
    const FewestBoardResult r = fewest_board(board, o);
    ASSERT_EQ(r.result.status, Status::Solved) << r.result.reason;
    Problem q{board, single_vacancy(*board, r.start), {Goal::Kind::Hole, r.end, {}}};
    check_solution(q, r.result, reference_board_min(*board));
  }
}
