// SPDX-License-Identifier: MIT
// The census against the deliberately simple reference (tests/reference/): plain memoised
// recursion over HoleSet with the board's jump list, sets of bit strings, explicit solution lists.
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "hole_classes.hpp"
#include "reference/reference.hpp"
#include "sanitized.hpp"

#include "census/engine.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {
namespace {

using Seq = std::vector<int>;  // jump indices
using reference::vacancy;

CensusOptions small_options() {
  CensusOptions o;
  o.memory_limit = std::size_t{512} << 20;
  o.threads = 2;
  return o;
}

// The spill and checkpoint tests' larger cases are for the Release run with its own kernels:
// under the sanitizers, or with a tier forced (CI's portable and AVX2 steps), they take minutes
// or test nothing more of the spill or the checkpoint.
bool small_cases_only() {
  const char* k = std::getenv("PEGSOL_KERNELS");
  return kSanitized || (k && (std::string(k) == "portable" || std::string(k) == "avx2"));
}

// Reachable sets alone: what the solvability table's passes run.
CensusOptions sets_only() {
  CensusOptions o = small_options();
  o.counts = false;
  o.on_path = false;
  o.distinct = false;
  return o;
}

// The table's auto method with a pair's search time no loaded machine reaches on these boards
// (the default, 2 s, could leave a pair to the passes and change what the tests count).
TableOptions patient(int max_searches = -1) {
  TableOptions to;
  to.search_seconds = 600;
  to.max_searches = max_searches;
  return to;
}

void check_against_brute(const Problem& p, bool list_solutions) {
  SCOPED_TRACE(describe(p));
  CensusResult r = census(p, small_options());
  const Board& b = *p.board;
  reference::Counts bf(p);
  const std::vector<std::vector<int>> group = reference::stabilizer(p);
  std::map<int, std::set<std::string>> reach = reference::reachable_by_pegs(b, p.start);
  ASSERT_EQ(r.group_size, static_cast<int>(group.size()));
  std::uint64_t total = 0;
  for (int k = 0; k <= b.size(); ++k) {
    const auto& set = reach[k];
    std::set<std::string> orbits;
    std::uint64_t on_path = 0;
    std::set<std::string> on_path_orbits;
    for (const std::string& s : set) {
      HoleSet h = HoleSet::from_bits(s);
      orbits.insert(reference::least_image(group, h));
      if (bf.to_goal(h) > 0) {
        ++on_path;
        on_path_orbits.insert(reference::least_image(group, h));
      }
    }
    SCOPED_TRACE("pegs " + std::to_string(k));
    EXPECT_EQ(r.levels[k].reachable_raw, set.size());
    EXPECT_EQ(r.levels[k].reachable_sym, orbits.size());
    EXPECT_EQ(r.levels[k].on_path_raw, on_path);
    EXPECT_EQ(r.levels[k].on_path_sym, on_path_orbits.size());
    total += set.size();
  }
  EXPECT_EQ(r.reachable_raw, total);
  EXPECT_EQ(count_text(r.solutions), count_text(bf.to_goal(p.start)));
  EXPECT_EQ(count_text(r.games), count_text(bf.games(p.start)));
  const std::vector<Count>& by_hole = bf.to_one_peg(p.start);
  for (int h = 0; h < b.size(); ++h)
    EXPECT_EQ(count_text(r.solutions_by_hole[h]), count_text(by_hole[h])) << "hole " << h;
  EXPECT_NEAR(r.p_one_peg, bf.one_peg_chance(p.start), 1e-12);
  if (!list_solutions) return;
  const std::vector<Seq> solutions = bf.solutions(p.start);
  ASSERT_EQ(solutions.size(), static_cast<std::size_t>(r.solutions));
  std::set<Seq> orbits, traces;
  for (const Seq& s : solutions) {
    orbits.insert(reference::least_image(b, group, s));
    traces.insert(reference::reordering_normal_form(b, s));
  }
  EXPECT_EQ(count_text(r.solutions_up_to_symmetry), std::to_string(orbits.size()));
  ASSERT_TRUE(r.distinct_solutions.has_value()) << r.distinct_note;
  EXPECT_EQ(count_text(*r.distinct_solutions), std::to_string(traces.size()));

  // The streamed solutions: all of them, each legal, each distinct; --distinct gives one per class.
  std::set<Seq> streamed;
  auto as_seq = [&](const std::vector<Jump>& js) {
    Seq s;
    for (const Jump& j : js) s.push_back(reference::jump_index(b, j));
    return s;
  };
  std::uint64_t n = enumerate_solutions(p, {}, [&](const std::vector<Jump>& js) {
    Replay rp = replay(b, p.start, js);
    EXPECT_TRUE(rp.ok && goal_reached(p, rp.final));
    streamed.insert(as_seq(js));
    return true;
  });
  EXPECT_EQ(n, solutions.size());
  EXPECT_EQ(streamed.size(), solutions.size());
  std::set<Seq> classes;
  EnumerateOptions d;
  d.distinct = true;
  n = enumerate_solutions(p, d, [&](const std::vector<Jump>& js) {
    Seq s = as_seq(js);
    EXPECT_EQ(reference::reordering_normal_form(b, s), s);  // least by index order, the same form
    classes.insert(s);
    return true;
  });
  EXPECT_EQ(n, traces.size());
  EXPECT_EQ(classes, traces);
}

TEST(Census, Triangle5PublishedCount) {
  CensusResult r = census(vacancy("triangle:5", "1"), small_options());
  EXPECT_EQ(count_text(r.solutions), "29760");
}

TEST(Census, Triangle5AgainstBruteForce) {
  check_against_brute(vacancy("triangle:5", "1"), true);
}
TEST(Census, Triangle5ToHole) {
  check_against_brute(vacancy("triangle:5", "1", "13"), true);
}
TEST(Census, Triangle5SideStart) {
  check_against_brute(vacancy("triangle:5", "4"), true);
}
// The larger boards start a few jumps into the game (the first legal jump each time), so that
// the brute force stays quick under the sanitizers.
Problem after_jumps(Problem p, int n) {
  for (int i = 0; i < n; ++i)
    p.start = reference::after(p.start, reference::legal_jumps(*p.board, p.start).front());
  return p;
}

TEST(Census, Triangle6AgainstBruteForce) {
  check_against_brute(after_jumps(vacancy("triangle:6", "1"), 4), false);
}
TEST(Census, Rect3x4) {
  check_against_brute(vacancy("rect:3x4", "b1"), true);
}
TEST(Census, Rect4x4) {
  check_against_brute(vacancy("rect:4x4", "b2"), true);
}
TEST(Census, Rect3x5Centre) {
  check_against_brute(vacancy("rect:3x5", "c2"), true);
}
TEST(Census, Hexagon2) {
  check_against_brute(vacancy("hexagon:2", "4"), true);
}
TEST(Census, Hexagon3) {
  check_against_brute(after_jumps(vacancy("hexagon:3", "10"), 3), false);
}

TEST(Census, PositionGoal) {
  Problem p = vacancy("triangle:5", "1");
  // A reachable two-peg position as the goal.
  std::map<int, std::set<std::string>> reach = reference::reachable_by_pegs(*p.board, p.start);
  ASSERT_FALSE(reach[2].empty());
  p.goal = Goal{Goal::Kind::Position, -1, HoleSet::from_bits(*reach[2].begin())};
  check_against_brute(p, true);
}

TEST(Census, WithoutSymmetryAgrees) {
  Problem p = vacancy("triangle:5", "1");
  CensusOptions o = small_options();
  CensusResult a = census(p, o);
  o.symmetry = false;
  o.threads = 1;
  CensusResult b = census(p, o);
  EXPECT_EQ(b.group_size, 1);
  EXPECT_EQ(a.reachable_raw, b.reachable_raw);
  EXPECT_EQ(b.reachable_raw, b.reachable_sym);
  EXPECT_EQ(count_text(a.solutions), count_text(b.solutions));
  EXPECT_EQ(count_text(a.games), count_text(b.games));
  EXPECT_EQ(count_text(*a.distinct_solutions), count_text(*b.distinct_solutions));
}

TEST(Census, GamesStreamMatchesCount) {
  Problem p = vacancy("triangle:5", "1");
  CensusResult r = census(p, small_options());
  EnumerateOptions o;
  o.games = true;
  std::uint64_t n = enumerate_solutions(p, o, [&](const std::vector<Jump>& js) {
    Replay rp = replay(*p.board, p.start, js);
    EXPECT_TRUE(rp.ok);
    return true;
  });
  EXPECT_EQ(std::to_string(n), count_text(r.games));
  o.limit = 10;
  EXPECT_EQ(enumerate_solutions(p, o, [](const std::vector<Jump>&) { return true; }), 10u);
}

TEST(Census, ReorderingCountSkippedOverItsLimit) {
  CensusOptions o = small_options();
  o.distinct_max_positions = 10;
  for (CensusEngine e : {CensusEngine::Compact, CensusEngine::Wide}) {
    o.engine = e;
    CensusResult r = census(vacancy("triangle:5", "1"), o);
    EXPECT_FALSE(r.distinct_solutions.has_value());
    EXPECT_NE(r.distinct_note.find("skipped"), std::string::npos) << r.distinct_note;
    EXPECT_EQ(count_text(r.solutions), "29760");
  }
}

TEST(Census, MemoryLimitIsAStopWithAClearNote) {
  CensusOptions o = small_options();
  o.memory_limit = 64 << 10;
  CensusResult r = census(vacancy("triangle:6", "1"), o);
  EXPECT_EQ(r.stop, StopReason::Memory);
  EXPECT_NE(r.stop_note.find("memory limit of 1 MiB"), std::string::npos) << r.stop_note;
}

TEST(Census, Cancelled) {
  std::atomic<bool> stop{true};
  Control ctl;
  ctl.watch(&stop);
  CensusOptions o = small_options();
  o.control = &ctl;
  CensusResult r = census(vacancy("triangle:6", "1"), o);
  EXPECT_EQ(r.stop, StopReason::Cancelled);
  EXPECT_EQ(r.solutions, 0u);
}

// Every figure of census a equals census w's (chances within 1e-12).
void check_same_figures(const CensusResult& a, const CensusResult& w) {
  ASSERT_EQ(a.levels.size(), w.levels.size());
  for (std::size_t k = 0; k < a.levels.size(); ++k) {
    SCOPED_TRACE("pegs " + std::to_string(k));
    EXPECT_EQ(a.levels[k].reachable_raw, w.levels[k].reachable_raw);
    EXPECT_EQ(a.levels[k].reachable_sym, w.levels[k].reachable_sym);
    EXPECT_EQ(a.levels[k].on_path_raw, w.levels[k].on_path_raw);
    EXPECT_EQ(a.levels[k].on_path_sym, w.levels[k].on_path_sym);
    EXPECT_EQ(count_text(a.levels[k].games), count_text(w.levels[k].games));
  }
  EXPECT_EQ(count_text(a.solutions), count_text(w.solutions));
  EXPECT_EQ(count_text(a.games), count_text(w.games));
  EXPECT_EQ(count_text(a.solutions_up_to_symmetry), count_text(w.solutions_up_to_symmetry));
  ASSERT_EQ(a.distinct_solutions.has_value(), w.distinct_solutions.has_value());
  if (a.distinct_solutions) {
    EXPECT_EQ(count_text(*a.distinct_solutions), count_text(*w.distinct_solutions));
  }
  for (std::size_t h = 0; h < a.solutions_by_hole.size(); ++h) {
    EXPECT_EQ(count_text(a.solutions_by_hole[h]), count_text(w.solutions_by_hole[h]));
    EXPECT_NEAR(a.p_by_hole[h], w.p_by_hole[h], 1e-12);
  }
  EXPECT_NEAR(a.p_one_peg, w.p_one_peg, 1e-12);
  EXPECT_NEAR(a.p_goal, w.p_goal, 1e-12);
}

// The compact engine (64-bit layouts, 4-byte keys), with its fastest kernel and with the portable
// one, against the wide one (128-bit entries), figure by figure, on boards with and without
// symmetry and with every goal kind.
void check_engines_agree(const Problem& p) {
  SCOPED_TRACE(describe(p));
  CensusOptions o = small_options();
  o.engine = CensusEngine::Wide;
  CensusResult w = census(p, o);
  EXPECT_TRUE(w.random_player);
  for (CensusEngine e : {CensusEngine::Compact, CensusEngine::CompactPortable}) {
    SCOPED_TRACE(e == CensusEngine::Compact ? "compact" : "compact, portable kernel");
    o.engine = e;
    check_same_figures(census(p, o), w);
  }
  // Without the random player (the compact engine then carries counts alone): every other
  // figure the same, and no chance reported.
  o.random_player = false;
  for (CensusEngine e :
       {CensusEngine::Wide, CensusEngine::Compact, CensusEngine::CompactPortable}) {
    SCOPED_TRACE("no random player, engine " + std::to_string(static_cast<int>(e)));
    o.engine = e;
    CensusResult n = census(p, o);
    EXPECT_FALSE(n.random_player);
    EXPECT_EQ(n.p_one_peg, 0.0);
    EXPECT_EQ(n.p_goal, 0.0);
    for (double x : n.p_by_hole) EXPECT_EQ(x, 0.0);
    n.p_one_peg = w.p_one_peg;
    n.p_goal = w.p_goal;
    n.p_by_hole = w.p_by_hole;
    check_same_figures(n, w);
  }
  o.random_player = true;
  // Reachable sets alone (what the solvability table runs) give the same sets.
  o.engine = CensusEngine::Auto;
  o.counts = false;
  o.on_path = false;
  o.distinct = false;
  CensusResult s = census(p, o);
  EXPECT_EQ(s.reachable_raw, w.reachable_raw);
  EXPECT_EQ(s.reachable_sym, w.reachable_sym);
  for (std::size_t h = 0; h < s.solutions_by_hole.size(); ++h)
    EXPECT_EQ(s.solutions_by_hole[h] > 0, w.solutions_by_hole[h] > 0) << "hole " << h;
}

TEST(Census, EnginesAgreeTriangle6) {
  check_engines_agree(after_jumps(vacancy("triangle:6", "1"), 3));
}
TEST(Census, EnginesAgreeTriangle6ToHole) {
  check_engines_agree(vacancy("triangle:6", "4", "13"));
}
TEST(Census, EnginesAgreeRect4x5) {
  check_engines_agree(vacancy("rect:4x5", "b2"));
}
TEST(Census, EnginesAgreeEnglish) {
  check_engines_agree(after_jumps(vacancy("english", "d4"), 12));
}
TEST(Census, EnginesAgreeHexagon3) {
  check_engines_agree(after_jumps(vacancy("hexagon:3", "10"), 2));
}
TEST(Census, EnginesAgreePositionGoal) {
  Problem p = vacancy("triangle:5", "1");
  std::map<int, std::set<std::string>> reach = reference::reachable_by_pegs(*p.board, p.start);
  p.goal = Goal{Goal::Kind::Position, -1, HoleSet::from_bits(*reach[3].begin())};
  check_engines_agree(p);
}

// Problems whose goal is the start's complement take the compact engine's complement trick for
// the solution paths (each level joined with its complement level), the rest its backward pass.
// So do problems whose goal's complement is a symmetric image of the start (the trick then joins
// each level with its complement level turned by that symmetry).
TEST(Census, ComplementTrickAgainstBruteForce) {
  for (const Problem& p : {vacancy("triangle:5", "1", "1"), vacancy("rect:3x5", "c2", "c2"),
                           vacancy("triangle:5", "1", "11"), vacancy("triangle:5", "4", "13"),
                           vacancy("rect:4x5", "b2", "d3"), vacancy("triangle:6", "13", "13")}) {
    EXPECT_GE(census_detail::complement_twist(*p.board, p), 0) << describe(p);
    if (kSanitized && p.board->size() >= 20) continue;  // the brute force is the Release run's
    check_against_brute(p, p.board->size() < 21);
  }
  EXPECT_LT(
      census_detail::complement_twist(*make_board("rect:4x5"), vacancy("rect:4x5", "b2", "c2")), 0);
}

// 128-bit counts from the first level give every figure the default run gives (which widens
// only at the level that needs it, if any), and so do runs that widen early, at the first level
// whose counts could reach 2^bits: the engine throws if a 64-bit count reaches it first.
TEST(Census, WideCountsAgree) {
  // Under the sanitizers the 21-hole triangle two jumps in (its whole census takes most of the
  // suite's time there).
  const Problem triangle =
      small_cases_only() ? after_jumps(vacancy("triangle:6", "1"), 2) : vacancy("triangle:6", "1");
  for (const Problem& p : {triangle, vacancy("rect:4x5", "b2", "b2"),
                           after_jumps(vacancy("english", "d4", "d4"), 10)}) {
    SCOPED_TRACE(describe(p));
    CensusOptions o = small_options();
    const CensusResult r = census(p, o);
    check_same_figures(census_detail::compact_census(p, o, 0), r);
    for (int bits : {8, 12, 16, 20, 24, 32}) {
      if (small_cases_only() && bits % 12 != 0) continue;
      SCOPED_TRACE("counts 64-bit below 2^" + std::to_string(bits));
      check_same_figures(census_detail::compact_census(p, o, bits), r);
    }
    // And without the random player (counts alone, 128-bit from the first level).
    o.random_player = false;
    CensusResult n = census_detail::compact_census(p, o, 0);
    EXPECT_FALSE(n.random_player);
    EXPECT_EQ(n.p_one_peg, 0.0);
    n.p_one_peg = r.p_one_peg;
    n.p_goal = r.p_goal;
    n.p_by_hole = r.p_by_hole;
    check_same_figures(n, r);
  }
}

// The disk spill: under a memory limit the levels do not fit in, a census with a spill
// directory gives every figure of the census in memory (the complement join, the backward pass,
// 64- and 128-bit counts, reachable sets alone), and leaves nothing in the directory.
TEST(Census, SpilledRunEqualsInMemory) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pegsol-spill-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  struct Case {
    Problem p;
    std::size_t limit_mib;
    int count_bits = 64;
    bool sets = false;
  };
  const std::vector<Case> cases = {
      {vacancy("english", "d4", "d4"), 96},            // the complement join
      {after_jumps(vacancy("english", "d4"), 8), 32},  // the backward pass
      {after_jumps(vacancy("english", "d4", "d4"), 8), 24, 0},
      {after_jumps(vacancy("english", "d4"), 6), 24, 64, true},
  };
  for (const Case& c : cases) {
    // One case under the sanitizers or the portable kernels: the backward pass, spilled.
    if (small_cases_only() && c.limit_mib != 32) continue;
    SCOPED_TRACE(describe(c.p) + ", " + std::to_string(c.limit_mib) + " MiB");
    CensusOptions o = c.sets ? sets_only() : small_options();
    const CensusResult r = census_detail::compact_census(c.p, o, c.count_bits);
    EXPECT_EQ(r.spill_peak_bytes, 0u);
    // Without a spill directory the limit stops the census; with one it completes.
    o.memory_limit = c.limit_mib << 20;
    EXPECT_EQ(census_detail::compact_census(c.p, o, c.count_bits).stop, StopReason::Memory);
    o.spill_dir = dir.string();
    const CensusResult s = census_detail::compact_census(c.p, o, c.count_bits);
    ASSERT_EQ(s.stop, StopReason::None) << s.stop_note;
    EXPECT_GT(s.spill_peak_bytes, 0u);
    EXPECT_LE(s.peak_bytes, o.memory_limit);
    check_same_figures(s, r);
    EXPECT_EQ(s.reachable_raw, r.reachable_raw);
    EXPECT_EQ(s.on_path_raw, r.on_path_raw);
    EXPECT_TRUE(std::filesystem::is_empty(dir));
  }
  // A directory that is not there is a clear error naming it.
  CensusOptions o = small_options();
  o.memory_limit = 40 << 20;
  o.spill_dir = (dir / "missing").string();
  try {
    census(vacancy("english", "d4"), o);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(o.spill_dir), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

// Checkpoint and resume: a census stopped by its memory limit with a checkpoint directory goes
// on from the last level saved there to every figure of an uninterrupted census (the complement
// join, the backward pass, 128-bit counts, reachable sets alone, and spilled); a directory with
// no checkpoint, or one of another problem, is an input error naming it.
TEST(Census, ResumedRunEqualsUninterrupted) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pegsol-ckpt-test-" + std::to_string(getpid()));
  struct Case {
    Problem p;
    std::size_t stop_mib;
    int count_bits = 64;
    bool sets = false, spill = false;
  };
  // stop_mib 0: stopped at half the census's peak (the case the sanitizers run, smaller still).
  const std::vector<Case> cases = {
      {after_jumps(vacancy("english", "d4"), 8), 0},
      {after_jumps(vacancy("english", "d4"), 6), 12},
      {after_jumps(vacancy("english", "d4", "d4"), 6), 40, 0},
      {after_jumps(vacancy("english", "d4", "d4"), 6), 40, 24},  // widened after the resume
      {after_jumps(vacancy("english", "d4"), 4), 30, 64, true},
      {vacancy("english", "d4", "d4"), 100, 64, false, true},
  };
  for (const Case& c : cases) {
    if (small_cases_only() && c.stop_mib != 0) continue;  // the larger cases
    SCOPED_TRACE(describe(c.p) + ", stopped at " + std::to_string(c.stop_mib) + " MiB");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    CensusOptions o = c.sets ? sets_only() : small_options();
    const CensusResult r = census_detail::compact_census(c.p, o, c.count_bits);
    o.checkpoint_dir = dir.string();
    o.memory_limit = c.stop_mib ? c.stop_mib << 20 : r.peak_bytes / 2;
    const CensusResult stopped = census_detail::compact_census(c.p, o, c.count_bits);
    ASSERT_EQ(stopped.stop, StopReason::Memory);
    ASSERT_TRUE(std::filesystem::exists(dir / "census.state"));
    o.memory_limit = small_options().memory_limit;
    if (c.spill) {
      o.memory_limit = 128 << 20;
      o.spill_dir = std::filesystem::temp_directory_path().string();
    }
    o.resume = true;
    // While the resumed run goes on, it holds none of the files it resumed from open (a removed
    // level's disk space would stay taken until the run ends).
    int reports = 0, held = 0;
    o.progress = [&](const CensusProgress&) {
      ++reports;
      for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) {
        std::error_code ec;
        const std::string to = std::filesystem::read_symlink(e.path(), ec).string();
        if (!ec && to.rfind(dir.string(), 0) == 0 && to.find(".lock") == std::string::npos &&
            to.find(".tmp") == std::string::npos)
          ++held;
      }
    };
    const CensusResult s = census_detail::compact_census(c.p, o, c.count_bits);
    EXPECT_GT(reports, 0);
    EXPECT_EQ(held, 0);
    o.progress = nullptr;
    ASSERT_EQ(s.stop, StopReason::None) << s.stop_note;
    check_same_figures(s, r);
    EXPECT_EQ(s.reachable_raw, r.reachable_raw);
    EXPECT_EQ(s.on_path_raw, r.on_path_raw);
    EXPECT_EQ(s.p_one_peg, r.p_one_peg);  // the same sums in the same order: the same bits
  }
  // A state of another problem is refused (the last one left is not of c4), as is no state.
  CensusOptions o = small_options();
  o.checkpoint_dir = dir.string();
  o.resume = true;
  EXPECT_THROW(census(vacancy("english", "c4"), o), InputError);
  o.checkpoint_dir = (dir / "empty").string();
  std::filesystem::create_directories(o.checkpoint_dir);
  try {
    census(vacancy("english", "d4"), o);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no census checkpoint"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

// Boards of more than 45 holes take 8-byte keys in the compact engine: a sparse start on the
// 49-hole square against the brute force.
TEST(Census, WideKeysAgainstBruteForce) {
  BoardPtr b = make_board("rect:7x7");
  HoleSet start(b->size());
  for (const char* h : {"a1", "b1", "b2", "c2", "d3", "d4", "e4", "f6", "g6"})
    start.set(*b->find(h));
  check_against_brute(Problem{b, start, Goal{}}, true);
}

// The brute force's matrix: finals[v] as solvability_table defines it.
std::vector<HoleSet> brute_finals(const BoardPtr& b) {
  // By brute force from one vacancy of each class; a symmetry's image of a vacancy ends on the
  // images of its holes.
  const int n = b->size();
  std::vector<HoleSet> out(static_cast<std::size_t>(n), HoleSet(n));
  for (int v : one_hole_a_class(*b)) {
    Problem p{b, single_vacancy(*b, v), Goal{}};
    const std::vector<Count> ends = reference::Counts(p).to_one_peg(p.start);
    for (const std::vector<int>& s : b->symmetries())
      for (int h = 0; h < n; ++h)
        if (ends[static_cast<std::size_t>(h)] > 0)
          out[static_cast<std::size_t>(s[static_cast<std::size_t>(v)])].set(
              s[static_cast<std::size_t>(h)]);
  }
  return out;
}

void expect_same_table(const SolvabilityTable& t, const std::vector<HoleSet>& want,
                       const std::string& what) {
  ASSERT_EQ(t.finals.size(), want.size()) << what;
  for (std::size_t v = 0; v < want.size(); ++v)
    for (int h = 0; h < want[v].size(); ++h)
      EXPECT_EQ(t.finals[v].test(h), want[v].test(h)) << what << ": " << v << " -> " << h;
}

// Every certificate of t holds by itself: a solution replays to one peg on its hole, a proof says
// what it is, and the brute force agrees with both.
void expect_certificates_hold(const SolvabilityTable& t, const BoardPtr& b,
                              const std::vector<HoleSet>& want, const std::string& what) {
  for (const TableCertificate& c : t.certificates) {
    EXPECT_EQ(c.solvable, want[static_cast<std::size_t>(c.vacancy)].test(c.end)) << what;
    if (c.solvable) {
      Replay rp = replay(*b, single_vacancy(*b, c.vacancy), c.moves);
      EXPECT_TRUE(rp.ok) << what;
      EXPECT_EQ(rp.final.count(), 1) << what;
      EXPECT_TRUE(rp.final.test(c.end)) << what;
    } else {
      EXPECT_FALSE(c.reason.empty()) << what;
    }
  }
}

// The table against the brute force by each method: census passes alone (on triangle:5 every
// start class needs one; on rect:4x5 some are answered without a search), the searches first,
// and a search budget too small to settle every pair, so passes finish the matrix.
TEST(Census, SolvabilityTable) {
  int half_passes = 0;
  std::size_t half_certificates = 0;
  for (const char* name : {"triangle:5", "rect:4x5"}) {
    BoardPtr b = make_board(name);
    const std::vector<HoleSet> want = brute_finals(b);

    CensusOptions o = small_options();
    std::set<std::pair<int, int>> passes_seen;  // (pass, of how many) from the progress reports
    o.progress = [&](const CensusProgress& pr) { passes_seen.insert({pr.pass, pr.passes}); };
    TableOptions passes;
    passes.method = TableMethod::Passes;
    SolvabilityTable t = solvability_table(b, o, passes);
    EXPECT_GT(t.passes, 0) << name;
    EXPECT_LT(t.passes, b->size()) << name;
    EXPECT_EQ(t.searched, 0) << name;
    std::set<std::pair<int, int>> every_pass;
    for (int i = 1; i <= t.passes; ++i) every_pass.insert({i, t.passes});
    EXPECT_EQ(passes_seen, every_pass) << name;
    if (std::string(name) == "rect:4x5") {
      EXPECT_GT(t.proved, 0);
    }
    expect_same_table(t, want, std::string(name) + " passes");
    // Rows left with one pair whose problem is its own complement go to the middle join alone;
    // a reachable one gets a solution through the join's witness.
    half_passes += t.half_passes;
    half_certificates += t.certificates.size();
    expect_certificates_hold(t, b, want, std::string(name) + " passes");

    SolvabilityTable a = solvability_table(b, small_options(), patient());
    EXPECT_GT(a.searched, 0) << name;
    EXPECT_EQ(a.searched, a.solved_by_search + a.impossible_by_search) << name;
    // Each certificate holds by itself: a solution replays to one peg on its hole; a proof
    // says what it is; and the brute force agrees with both.
    ASSERT_EQ(a.certificates.size(), static_cast<std::size_t>(a.searched)) << name;
    for (const TableCertificate& c : a.certificates) {
      EXPECT_EQ(c.solvable, want[static_cast<std::size_t>(c.vacancy)].test(c.end)) << name;
      if (c.solvable) {
        Replay rp = replay(*b, single_vacancy(*b, c.vacancy), c.moves);
        ASSERT_TRUE(rp.ok) << name << ": " << rp.error;
        EXPECT_EQ(rp.final.count(), 1) << name;
        EXPECT_TRUE(rp.final.test(c.end)) << name;
      } else {
        EXPECT_FALSE(c.reason.empty()) << name;
      }
    }
    EXPECT_EQ(a.passes, 0) << name;  // every pair of these boards falls to a quick search
    expect_same_table(a, want, std::string(name) + " auto");

    const TableOptions few = patient(2);
    SolvabilityTable f = solvability_table(b, small_options(), few);
    EXPECT_EQ(f.searched, 2) << name;
    EXPECT_GT(f.passes, 0) << name;
    expect_same_table(f, want, std::string(name) + " two searches");
    expect_certificates_hold(f, b, want, std::string(name) + " two searches");
  }
  EXPECT_GT(half_passes, 0);
  EXPECT_GT(half_certificates, 0u);
}

// The two methods agree where the brute force would be slow.
TEST(Census, SolvabilityTableMethodsAgree) {
  for (const char* name : {"triangle:6", "rect:4x6"}) {
    BoardPtr b = make_board(name);
    TableOptions passes;
    passes.method = TableMethod::Passes;
    SolvabilityTable p = solvability_table(b, small_options(), passes);
    SolvabilityTable a = solvability_table(b, small_options(), patient());
    EXPECT_GT(p.passes, 0) << name;
    EXPECT_GT(a.searched, 0) << name;
    expect_same_table(a, p.finals, name);
    // A few searches, then passes with few goals open (pruned by their pagodas, or not).
    for (bool pagodas : {true, false}) {
      TableOptions few = patient(3);
      few.pagodas = pagodas;
      SolvabilityTable f = solvability_table(b, small_options(), few);
      EXPECT_GT(f.passes, 0) << name;
      expect_same_table(f, p.finals, std::string(name) + (pagodas ? " pruned" : " unpruned"));
    }
  }
}

// Pagoda pruning (CensusOptions::reach) keeps every position on a way to its goals: a pruned pass
// finds the same goals reachable as a full one, in both engines, never one the full pass does
// not, and stores fewer positions where the pagodas bite.
TEST(Census, PagodaPruningKeepsTheGoals) {
  std::uint64_t full_total = 0, pruned_total = 0;
  for (const char* name : {"rect:3x5", "hexagon:3", "rect:4x5"}) {
    BoardPtr b = make_board(name);
    for (int v : one_hole_a_class(*b)) {  // the other vacancies are their images
      const Problem p{b, single_vacancy(*b, v), Goal{}};
      CensusOptions o = small_options();
      o.counts = false;
      const CensusResult full = census(p, o);
      std::vector<CensusReach> reach;
      for (int h = 0; h < b->size() && reach.size() < 2; ++h) {
        HoleSet goal(b->size());
        goal.set(h);
        std::vector<Pagoda> pg = find_pruning_pagodas(*b, p.start, goal);
        if (!pg.empty()) reach.push_back({goal, std::move(pg)});
      }
      // One goal, then two (a position is kept when either allows it).
      for (std::size_t goals = 1; goals <= reach.size(); ++goals) {
        o.reach.assign(reach.begin(), reach.begin() + static_cast<std::ptrdiff_t>(goals));
        for (CensusEngine e : {CensusEngine::Compact, CensusEngine::Wide}) {
          o.engine = e;
          const CensusResult r = census(p, o);
          const std::string what = std::string(name) + " from " + b->hole_name(v) + ", " +
                                   std::to_string(goals) + " goal(s), " +
                                   (e == CensusEngine::Wide ? "wide" : "compact");
          EXPECT_LE(r.reachable_sym, full.reachable_sym) << what;
          for (int h = 0; h < b->size(); ++h) {
            const auto q = static_cast<std::size_t>(h);
            EXPECT_FALSE(r.solutions_by_hole[q] > 0 && full.solutions_by_hole[q] == 0) << what;
          }
          for (std::size_t g = 0; g < goals; ++g) {
            const auto q = static_cast<std::size_t>(reach[g].goal.members()[0]);
            EXPECT_EQ(r.solutions_by_hole[q] > 0, full.solutions_by_hole[q] > 0) << what;
          }
          if (e == CensusEngine::Compact) {
            full_total += full.reachable_sym;
            pruned_total += r.reachable_sym;
          }
        }
      }
    }
  }
  EXPECT_LT(pruned_total, full_total);
}

TEST(Census, PagodaPruningNeedsSetsAndPagodas) {
  BoardPtr b = make_board("rect:3x5");
  const Problem p{b, single_vacancy(*b, 0), Goal{}};
  HoleSet goal(b->size());
  goal.set(2);
  CensusOptions o = small_options();
  o.reach.push_back({goal, find_pruning_pagodas(*b, p.start, goal)});
  ASSERT_FALSE(o.reach[0].pagodas.empty());
  EXPECT_THROW(census(p, o), InputError);  // counts on
  o.counts = false;
  o.reach[0].pagodas[0].weight[0] += 5;  // no longer a pagoda function
  EXPECT_THROW(census(p, o), InputError);
}

// The middle join (CensusOptions::meet) against the brute force, on every pair of a board that
// is its own complement problem: odd boards (joined while the lower middle level is built) and an
// even one (its middle level joined with itself), with and without pruning pagodas, on both
// compact tiers. The witness is reachable and can reach the goal, and no level below the middle
// is built.
TEST(Census, MeetInTheMiddleAgainstBruteForce) {
  int pairs = 0, reachable = 0;
  for (const char* name : {"rect:3x5", "triangle:5", "rect:4x5"}) {
    BoardPtr b = make_board(name);
    if (kSanitized && b->size() >= 20) continue;  // the brute force is the Release run's
    const std::vector<HoleSet> want = brute_finals(b);
    const int n = b->size();
    for (int v = 0; v < n; ++v)
      for (int h = 0; h < n; ++h) {
        const Problem p{b, single_vacancy(*b, v), Goal{Goal::Kind::Hole, h, {}}};
        if (!complementary(p)) continue;
        ++pairs;
        const bool yes = want[static_cast<std::size_t>(v)].test(h);
        reachable += yes;
        reference::Counts bf(p);
        std::map<int, std::set<std::string>> reach = reference::reachable_by_pegs(*b, p.start);
        CensusOptions o = sets_only();
        o.meet = true;
        HoleSet goal(n);
        goal.set(h);
        for (bool prune : {false, true}) {
          o.reach.clear();
          if (prune)
            if (std::vector<Pagoda> pg = find_pruning_pagodas(*b, p.start, goal); !pg.empty())
              o.reach.push_back({goal, std::move(pg)});
          // The levels down to the middle are the full pass's (the lower middle one of an odd
          // board counted, never stored).
          CensusOptions whole = o;
          whole.meet = false;
          const CensusResult f = census(p, whole);
          for (CensusEngine e : {CensusEngine::Compact, CensusEngine::CompactPortable}) {
            // The sanitizer build has the portable tier alone: the two engines are one there.
            if (kSanitized && e == CensusEngine::CompactPortable) continue;
            o.engine = e;
            const std::string what = std::string(name) + " " + b->hole_name(v) + " -> " +
                                     b->hole_name(h) + (prune ? ", pruned" : "") +
                                     (e == CensusEngine::Compact ? "" : ", portable");
            const CensusResult r = census(p, o);
            EXPECT_EQ(r.stop, StopReason::None) << what;
            EXPECT_EQ(r.meet_reaches_goal, yes) << what;
            for (int k = n / 2; k < n && r.met; ++k) {
              const auto q = static_cast<std::size_t>(k);
              EXPECT_EQ(r.levels[q].reachable_sym, f.levels[q].reachable_sym) << what << " " << k;
              EXPECT_EQ(r.levels[q].reachable_raw, f.levels[q].reachable_raw) << what << " " << k;
            }
            EXPECT_EQ(r.solutions_by_hole[static_cast<std::size_t>(h)] > 0, yes) << what;
            if (!yes) {
              EXPECT_FALSE(r.meet_witness) << what;
              continue;
            }
            EXPECT_TRUE(r.met) << what;
            EXPECT_GT(r.levels[static_cast<std::size_t>(n / 2)].on_path_sym, 0u) << what;
            for (int k = 0; k < n / 2; ++k)
              EXPECT_EQ(r.levels[static_cast<std::size_t>(k)].reachable_sym, 0u) << what;
            ASSERT_TRUE(r.meet_witness) << what;
            const HoleSet& x = *r.meet_witness;
            EXPECT_EQ(x.count(), n / 2) << what;
            EXPECT_TRUE(reach[x.count()].count(x.to_bits())) << what << ": not reachable";
            EXPECT_GT(bf.to_goal(x), 0) << what << ": cannot reach the goal";
          }
        }
      }
  }
  EXPECT_GT(pairs, 20);
  EXPECT_GT(reachable, 5);
  EXPECT_LT(reachable, pairs);
}

TEST(Census, MeetNeedsSetsAndAComplementProblem) {
  BoardPtr b = make_board("rect:3x5");
  CensusOptions o = sets_only();
  o.meet = true;
  const Problem self{b, single_vacancy(*b, 7), Goal{Goal::Kind::Hole, 7, {}}};
  ASSERT_TRUE(complementary(self));
  EXPECT_NO_THROW(census(self, o));
  const Problem other{b, single_vacancy(*b, 7), Goal{Goal::Kind::Hole, 1, {}}};
  ASSERT_FALSE(complementary(other));
  EXPECT_THROW(census(other, o), InputError);
  EXPECT_FALSE(complementary(Problem{b, single_vacancy(*b, 7), Goal{}}));  // anywhere
  o.engine = CensusEngine::Wide;
  EXPECT_THROW(census(self, o), InputError);
  o = small_options();
  o.meet = true;
  EXPECT_THROW(census(self, o), InputError);  // counts on
}

// A pass that cannot run leaves the table incomplete, not lost: the pairs settled before it
// stay, the rest are open, and `stopped` says why.
TEST(Census, SolvabilityTableKeepsWhatItSettled) {
  BoardPtr b = make_board("rect:4x5");
  const std::vector<HoleSet> want = brute_finals(b);
  CensusOptions o = small_options();
  o.memory_limit = 1024;  // too little for any census table
  SolvabilityTable t = solvability_table(b, o, patient(2));
  EXPECT_FALSE(t.complete());
  EXPECT_NE(t.stopped.find("memory limit"), std::string::npos) << t.stopped;
  EXPECT_EQ(t.stop, StopReason::Memory);
  EXPECT_EQ(t.passes, 0);
  EXPECT_EQ(t.searched, 2);
  int open = 0, found = 0;
  for (int v = 0; v < b->size(); ++v)
    for (int h = 0; h < b->size(); ++h) {
      const bool is_open = t.open[static_cast<std::size_t>(v)].test(h);
      const bool yes = t.finals[static_cast<std::size_t>(v)].test(h);
      open += is_open;
      found += yes;
      EXPECT_FALSE(is_open && yes) << v << " -> " << h;
      if (!is_open) {
        EXPECT_EQ(yes, want[static_cast<std::size_t>(v)].test(h)) << v << " -> " << h;
      }
    }
  EXPECT_GT(open, 0);
  EXPECT_GT(found, 0);  // the two searched pairs and their images under symmetry and transposition
}

// Over 64 holes no census pass can run: the passes-only table says so and settles nothing more
// than the position class does.
TEST(Census, SolvabilityTableBeyondTheCensus) {
  TableOptions passes;
  passes.method = TableMethod::Passes;
  SolvabilityTable t = solvability_table(make_board("triangle:11"), small_options(), passes);
  EXPECT_FALSE(t.complete());
  EXPECT_NE(t.stopped.find("no forward pass can run"), std::string::npos) << t.stopped;
  EXPECT_NE(t.stopped.find("64 holes"), std::string::npos) << t.stopped;
  int open = 0;
  for (const HoleSet& o : t.open) open += o.count();
  EXPECT_GT(open, 0);
}

// Checkpoint and resume of the table: stopped as its second pass starts, and again inside that
// pass (a census checkpoint left in its pass directory), the resumed tables come to the matrix
// of an uninterrupted one with the same number of passes, and leave no pass directory behind;
// a resumed auto table runs no search again and keeps its certificates. No state, another
// board's state or a damaged one is an input error naming it.
TEST(Census, SolvabilityTableResumes) {
  BoardPtr b = make_board("triangle:6");
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pegsol-table-test-" + std::to_string(getpid()));
  TableOptions passes;
  passes.method = TableMethod::Passes;
  const SolvabilityTable want = solvability_table(b, small_options(), passes);
  ASSERT_GE(want.passes, 2);
  auto pass_dirs = [&] {
    int c = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir))
      c += e.path().filename().string().rfind("pass.", 0) == 0;
    return c;
  };
  // Stops the table once its progress passes `at` (in thousandths of a pass).
  auto stopped_at = [&](std::uint64_t at, const TableOptions& to) {
    Control parent;
    parent.set_progress(
        [&](const ProgressReport& r) {
          if (r.phase == "forward" && r.done >= at) parent.cancel();
        },
        0);
    CensusOptions o = small_options();
    o.control = &parent;
    o.checkpoint_dir = dir.string();
    return solvability_table(b, o, to);
  };
  // The first pass a resumed table reports, and the level it reports first.
  int first_pass = 0, first_level = 0;
  auto resumed = [&](const TableOptions& to) {
    CensusOptions o = small_options();
    o.checkpoint_dir = dir.string();
    o.resume = true;
    first_pass = first_level = 0;
    o.progress = [&](const CensusProgress& pr) {
      if (first_pass == 0 && pr.pass > 0) first_pass = pr.pass, first_level = pr.level;
    };
    return solvability_table(b, o, to);
  };
  for (const std::uint64_t at : {std::uint64_t{1000}, std::uint64_t{1400}}) {
    SCOPED_TRACE("stopped at " + std::to_string(at));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const SolvabilityTable s = stopped_at(at, passes);
    ASSERT_EQ(s.stop, StopReason::Cancelled);
    EXPECT_EQ(s.passes, 1);
    if (at > 1000) {
      EXPECT_EQ(pass_dirs(), 1);  // the second pass's census checkpoint
    }
    const SolvabilityTable r = resumed(passes);
    ASSERT_TRUE(r.complete()) << r.stopped;
    EXPECT_EQ(first_pass, 2);  // the first pass is not run again
    if (at > 1000) {
      EXPECT_LT(first_level, b->size() - 2);  // nor the second's levels before its checkpoint
    }
    EXPECT_EQ(r.passes, want.passes);
    expect_same_table(r, want.finals, "resumed");
    EXPECT_EQ(pass_dirs(), 0);
    // A finished table's state answers at once.
    const SolvabilityTable again = resumed(passes);
    EXPECT_EQ(again.passes, want.passes);
    expect_same_table(again, want.finals, "resumed again");
  }

  // Without level checkpoints, a pass left half done starts over, its old checkpoints gone.
  {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    ASSERT_EQ(stopped_at(1400, passes).stop, StopReason::Cancelled);
    ASSERT_EQ(pass_dirs(), 1);
    TableOptions whole_passes = passes;
    whole_passes.level_checkpoints = false;
    const SolvabilityTable r = resumed(whole_passes);
    ASSERT_TRUE(r.complete()) << r.stopped;
    EXPECT_EQ(first_pass, 2);
    EXPECT_EQ(first_level, b->size() - 2);  // the second pass from its start
    EXPECT_EQ(pass_dirs(), 0);
    expect_same_table(r, want.finals, "resumed without level checkpoints");
  }

  // Auto: the searches' results come back from the state, none is searched again.
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const SolvabilityTable s = stopped_at(1000, patient(2));
  ASSERT_EQ(s.stop, StopReason::Cancelled);
  EXPECT_EQ(s.searched, 2);
  const SolvabilityTable r = resumed(patient(2));
  ASSERT_TRUE(r.complete()) << r.stopped;
  EXPECT_EQ(r.searched, 2);
  // The searches' certificates come back first; the passes after them may add solutions found
  // through a middle join's witness.
  ASSERT_GE(r.certificates.size(), s.certificates.size());
  for (std::size_t i = 0; i < s.certificates.size(); ++i) {
    EXPECT_EQ(r.certificates[i].moves, s.certificates[i].moves);
    EXPECT_EQ(r.certificates[i].reason, s.certificates[i].reason);
  }
  expect_same_table(r, want.finals, "auto resumed");

  // The state carries a checksum (census/checkpoint.hpp); a state of the formats before it
  // (1: no count of half passes, 2) is refused as an older version's.
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  ASSERT_EQ(stopped_at(1000, passes).stop, StopReason::Cancelled);
  std::string good;
  {
    std::ifstream in(dir / "table.state", std::ios::binary);
    good.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  ASSERT_EQ(good.substr(0, 8), "PEGTABL3");
  for (const char* old : {"PEGTABL1", "PEGTABL2"}) {
    std::ofstream(dir / "table.state", std::ios::binary)
        << old << good.substr(8, good.size() - 8 - 24);
    CensusOptions o = small_options();
    o.checkpoint_dir = dir.string();
    o.resume = true;
    try {
      solvability_table(b, o, passes);
      ADD_FAILURE() << "no error for " << old;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("written by an older version"), std::string::npos)
          << e.what();
    }
  }
  std::ofstream(dir / "table.state", std::ios::binary) << good;

  auto input_error = [&](const BoardPtr& board, const std::string& what) {
    CensusOptions o = small_options();
    o.checkpoint_dir = dir.string();
    o.resume = true;
    try {
      solvability_table(board, o, passes);
      ADD_FAILURE() << "no error for " << what;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  input_error(make_board("triangle:5"), "another board");
  std::filesystem::resize_file(dir / "table.state", 40);
  input_error(b, "has no checksum");
  std::filesystem::remove(dir / "table.state");
  input_error(b, "no table checkpoint");
  std::filesystem::remove_all(dir);
}

// Cancellation stops the table, in the search phase as in the passes, with the pairs the
// position class settled kept and the rest open.
TEST(Census, SolvabilityTableCancels) {
  std::atomic<bool> stop{true};
  Control ctl;
  ctl.watch(&stop);
  CensusOptions o = small_options();
  o.control = &ctl;
  for (TableMethod m : {TableMethod::Auto, TableMethod::Passes}) {
    TableOptions to;
    to.method = m;
    SolvabilityTable t = solvability_table(make_board("triangle:6"), o, to);
    EXPECT_EQ(t.stop, StopReason::Cancelled);
    EXPECT_FALSE(t.complete());
    EXPECT_EQ(t.passes, 0);
    EXPECT_EQ(t.solved_by_search + t.impossible_by_search, 0);
  }
}

}  // namespace
}  // namespace pegsol
