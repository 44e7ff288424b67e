// SPDX-License-Identifier: MIT
// The solvability table (every single vacancy to every one-peg end) against the reference, by
// each method, stopped, resumed and cancelled.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "census_helpers.hpp"
#include "reference/reference.hpp"

#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {
namespace {

using namespace census_test;

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
    const std::vector<HoleSet> want = reference::one_peg_table(*b);

    CensusOptions o = small_options();
    std::set<std::pair<int, int>> passes_seen;  // (pass, of how many) from the progress reports
    Control watcher;
    watcher.set_progress(
        [&](const ProgressReport& pr) {
          if (pr.table && pr.table->passes > 0)
            passes_seen.insert({pr.table->pass, pr.table->passes});
        },
        0);
    o.control = &watcher;
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

// A pass that cannot run leaves the table incomplete, not lost: the pairs settled before it
// stay, the rest are open, and `stopped` says why.
TEST(Census, SolvabilityTableKeepsWhatItSettled) {
  BoardPtr b = make_board("rect:4x5");
  const std::vector<HoleSet> want = reference::one_peg_table(*b);
  Control budget;
  budget.set_memory_budget(1024);  // too little for any census table
  CensusOptions o = small_options();
  o.control = &budget;
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
    Control watcher;
    watcher.set_progress(
        [&](const ProgressReport& pr) {
          if (first_pass == 0 && pr.table && pr.table->pass > 0)
            first_pass = pr.table->pass, first_level = pr.level;
        },
        0);
    o.control = &watcher;
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
