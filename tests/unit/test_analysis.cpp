// SPDX-License-Identifier: MIT
// Position analysis: solvability, ways left, end holes, hints and the first losing move, checked
// against the plain recursion over HoleSets of tests/reference/ on small boards (no bit layout, no
// memo shared with the code under test).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <random>
#include <set>
#include <thread>

#include "sanitized.hpp"
#include "ticking_clock.hpp"

#include "core/pagodas.hpp"
#include "pegsol/analysis.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/path_index.hpp"
#include "play/explain.hpp"
#include "reference/reference.hpp"
#ifdef PEGSOL_TEST_JSON
#include "pegsol/json.hpp"
#endif

using namespace pegsol;

namespace {

// Reference figures of one position: jump sequences to the goal and to one peg, end holes.
struct Ref {
  Count goal = 0, one = 0;
  std::set<int> ends;
};

// The figures of positions by the reference's memoised recursion (tests/reference/).
class Reference {
 public:
  explicit Reference(Problem p) : counts_(std::move(p)) {}

  Ref of(const HoleSet& pos) {
    Ref r;
    r.goal = counts_.to_goal(pos);
    const std::vector<Count>& by_hole = counts_.to_one_peg(pos);
    for (std::size_t h = 0; h < by_hole.size(); ++h) {
      r.one += by_hole[h];
      if (by_hole[h] > 0) r.ends.insert(static_cast<int>(h));
    }
    return r;
  }

 private:
  reference::Counts counts_;
};

// A random game from the problem's start to a stuck position: every position along it.
std::vector<HoleSet> random_game(const Problem& p, std::mt19937& rng) {
  std::vector<HoleSet> at{p.start};
  Position pos(p.board, p.start);
  for (;;) {
    auto js = pos.legal_jumps();
    if (js.empty()) return at;
    pos.apply(js[std::uniform_int_distribution<std::size_t>(0, js.size() - 1)(rng)]);
    at.push_back(pos.pegs());
  }
}

Solvability verdict_of(Count ways) {
  return ways > 0 ? Solvability::Solvable : Solvability::NotSolvable;
}

std::vector<Problem> small_problems() {
  std::vector<Problem> out;
  BoardPtr tri = make_board("triangle:5");
  out.push_back(default_problem(tri));  // vacancy 1 -> anywhere
  out.push_back(Problem{tri, single_vacancy(*tri, 3), Goal{Goal::Kind::Hole, 12, {}}});
  BoardPtr rect = make_board("rect:3x5");
  Goal two{Goal::Kind::Position, -1, HoleSet(rect->size())};
  two.position.set(0);
  two.position.set(14);
  out.push_back(Problem{rect, single_vacancy(*rect, 7), Goal{Goal::Kind::Hole, 7, {}}});
  out.push_back(Problem{rect, single_vacancy(*rect, 1), two});
  if (kSanitized) return out;
  BoardPtr tri6 = make_board("triangle:6");
  out.push_back(Problem{tri6, single_vacancy(*tri6, 3), Goal{Goal::Kind::Hole, 3, {}}});
  return out;
}

// Checks one analysis against the reference, the solutions by replay.
void expect_matches(const Problem& p, const Position& pos, const Analysis& a, Reference& ref) {
  const Ref& r = ref.of(pos.pegs());
  SCOPED_TRACE(describe(p) + " at " + pos.to_string());
  ASSERT_TRUE(a.counted) << a.count_note;
  EXPECT_EQ(count_text(a.ways_goal), count_text(r.goal));
  EXPECT_EQ(count_text(a.ways_one_peg), count_text(r.one));
  std::set<int> ends;
  for (int h : a.end_holes.members()) ends.insert(h);
  EXPECT_EQ(ends, r.ends);
  EXPECT_EQ(a.goal.verdict, verdict_of(r.goal));
  EXPECT_EQ(a.one_peg.verdict, verdict_of(r.one));
  for (const SolvabilityAnswer* s : {&a.goal, &a.one_peg}) {
    if (s->verdict == Solvability::NotSolvable) {
      EXPECT_FALSE(s->reason.empty());
      continue;
    }
    Replay rp = replay(*p.board, pos.pegs(), s->solution);
    ASSERT_TRUE(rp.ok) << rp.error;
    if (s == &a.goal)
      EXPECT_TRUE(goal_reached(p, rp.final));
    else
      EXPECT_EQ(rp.final.count(), 1);
  }
  if (r.goal > 0 || r.one > 0) {
    if (pos.pegs().count() > goal_pegs(p) || r.goal == 0) {
      ASSERT_TRUE(a.hint.has_value());
      Position next = pos;
      next.apply(*a.hint);
      const Ref& after = ref.of(next.pegs());
      EXPECT_GT(a.hint_to_goal ? after.goal : after.one, Count{0});
      EXPECT_EQ(a.hint_to_goal, r.goal > 0);
    }
  } else {
    EXPECT_FALSE(a.hint.has_value());
  }
}

}  // namespace

// No time bounds: a loaded machine must not change what is counted.
AnalysisOptions patient() {
  AnalysisOptions o;
  o.time_limit = 0;
  o.count_seconds = 0;
  return o;
}

TEST(Analysis, CountsMatchPlainRecursionAlongRandomGames) {
  std::mt19937 rng(20);
  for (const Problem& p : small_problems()) {
    Analyzer an(p.board, p.goal);
    Reference ref(p);
    for (int game = 0; game < 5; ++game)
      for (const HoleSet& s : random_game(p, rng)) {
        Position pos(p.board, s);
        expect_matches(p, pos, an.analyze(pos, patient()), ref);
      }
  }
}

TEST(Analysis, SearchesAgreeWithPlainRecursionWhenNotCounting) {
  std::mt19937 rng(7);
  AnalysisOptions o;
  o.count = false;
  o.time_limit = 0;
  for (const Problem& p : small_problems()) {
    Analyzer an(p.board, p.goal);
    Reference ref(p);
    for (int game = 0; game < 2; ++game)
      for (const HoleSet& s : random_game(p, rng)) {
        Position pos(p.board, s);
        Analysis a = an.analyze(pos, o);
        const Ref& r = ref.of(s);
        SCOPED_TRACE(describe(p) + " at " + pos.to_string());
        EXPECT_FALSE(a.counted);
        EXPECT_EQ(a.count_note, "not asked");
        EXPECT_EQ(a.goal.verdict, verdict_of(r.goal));
        EXPECT_EQ(a.one_peg.verdict, verdict_of(r.one));
        EXPECT_EQ(an.solvable(pos, o).verdict, verdict_of(r.goal));
        if (a.goal.verdict == Solvability::Solvable) {
          Replay rp = replay(*p.board, s, a.goal.solution);
          ASSERT_TRUE(rp.ok);
          EXPECT_TRUE(goal_reached(p, rp.final));
        }
      }
  }
}

// Options that leave the verdicts to the searches to the end: no count, no short search, a
// moment of beam, no explanation.
AnalysisOptions searches_alone() {
  AnalysisOptions o;
  o.count = false;
  o.time_limit = 0;
  o.quick_nodes = 0;
  o.beam_seconds = 1e-4;
  o.explain = false;
  return o;
}

// An analyzer's search memos at the bound its front end chose: the default, or a table of a few
// slots (full at once, its slots overwritten at every insertion) whose verdicts stay those of
// the reference, searches alone deciding (no count, no short search).
TEST(Analysis, MemoBoundIsTheCallersAndATinyMemoStaysSound) {
  BoardPtr b = make_board("triangle:5");
  EXPECT_EQ(Analyzer(b, Goal{}).memo_bytes(), kAnalyzerMemoBytes);
  EXPECT_EQ(Analyzer(b, Goal{}, std::size_t{3} << 20).memo_bytes(), std::size_t{3} << 20);
  std::mt19937 rng(5);
  const AnalysisOptions o = searches_alone();
  for (const Problem& p : small_problems()) {
    Analyzer tiny(p.board, p.goal, 64);
    Reference ref(p);
    for (int game = 0; game < 2; ++game)
      for (const HoleSet& s : random_game(p, rng)) {
        Position pos(p.board, s);
        const Analysis a = tiny.analyze(pos, o);
        const Ref& r = ref.of(s);
        SCOPED_TRACE(describe(p) + " at " + pos.to_string());
        EXPECT_EQ(a.goal.verdict, verdict_of(r.goal));
        EXPECT_EQ(a.one_peg.verdict, verdict_of(r.one));
      }
  }
}

// The searches to the end alone (no short search, a moment of beam, no count): towards one peg
// anywhere they aim at the holes the pagoda proofs leave open, each pruned by its tight pagodas,
// with the memo's table kept across positions; every verdict as the reference's, on positions
// drawn at random (many of them lost) and along a game.
TEST(Analysis, OnePegSearchesWithTightPagodasAgreeWithPlainRecursion) {
  std::mt19937 rng(11);
  const AnalysisOptions o = searches_alone();
  BoardPtr b = make_board("triangle:6");
  const Problem p = default_problem(b);
  Analyzer an(b, Goal{});
  Reference ref(Problem{b, p.start, Goal{}});
  std::vector<HoleSet> positions = random_game(p, rng);
  std::vector<int> holes(static_cast<std::size_t>(b->size()));
  for (int h = 0; h < b->size(); ++h) holes[static_cast<std::size_t>(h)] = h;
  for (int k = 0; k < (kSanitized ? 2 : 5); ++k) {
    std::shuffle(holes.begin(), holes.end(), rng);
    HoleSet s(b->size());
    for (int i = 0; i < 17; ++i) s.set(holes[static_cast<std::size_t>(i)]);
    positions.push_back(s);
  }
  int lost = 0, searched = 0;
  for (const HoleSet& s : positions) {
    if (s.count() < 17) continue;  // the tight pagodas are for searches of 16 jumps and more
    Position pos(b, s);
    const Analysis a = an.analyze(pos, o);
    const Ref r = ref.of(s);
    SCOPED_TRACE(pos.to_string());
    EXPECT_EQ(a.one_peg.verdict, verdict_of(r.one));
    lost += r.one == 0;
    searched += a.one_peg.nodes > 0;
    if (a.one_peg.verdict == Solvability::Solvable) {
      Replay rp = replay(*b, s, a.one_peg.solution);
      ASSERT_TRUE(rp.ok) << rp.error;
      EXPECT_EQ(rp.final.count(), 1);
    }
  }
  EXPECT_GT(lost, 0);
  EXPECT_GT(searched, 0);
}

TEST(Analysis, CountBoundFallsBackToSearch) {
  BoardPtr b = make_board("english");
  Problem p = default_problem(b);
  Analyzer an(b, p.goal);
  AnalysisOptions o;
  o.count_positions = 1000;
  Position start(b, p.start);
  Analysis a = an.analyze(start, o);
  EXPECT_FALSE(a.counted);
  EXPECT_NE(a.count_note.find("more than 1000 positions"), std::string::npos) << a.count_note;
  EXPECT_EQ(a.goal.verdict, Solvability::Solvable);
  ASSERT_TRUE(a.hint.has_value());
  EXPECT_TRUE(a.hint_to_goal);
  // The found solution is remembered: following it is answered without a search.
  Position next = start;
  next.apply(*a.hint);
  SolvabilityAnswer again = an.solvable(next, o);
  EXPECT_EQ(again.verdict, Solvability::Solvable);
  EXPECT_EQ(again.nodes, 0u);
}

TEST(Analysis, EnglishLateInAGameIsCounted) {
  BoardPtr b = make_board("english");
  Problem p = default_problem(b);
  // Follow a solution 20 jumps in: 11 pegs left, few enough to count.
  SolveResult s = solve(p);
  ASSERT_EQ(s.status, Status::Solved);
  Position pos(b, p.start);
  for (std::size_t i = 0; i < 21; ++i) pos.apply(s.moves[i]);
  Analyzer an(b, p.goal);
  Analysis a = an.analyze(pos, patient());
  ASSERT_TRUE(a.counted) << a.count_note;
  EXPECT_GT(a.ways_goal, Count{0});
  EXPECT_TRUE(a.end_holes.test(p.goal.hole));
  Reference ref(p);
  expect_matches(p, pos, a, ref);
}

TEST(Analysis, FirstMistakeMatchesALinearScan) {
  std::mt19937 rng(11);
  for (const Problem& p : small_problems()) {
    Analyzer an(p.board, p.goal);
    Reference ref(p);
    for (int g = 0; g < 4; ++g) {
      std::vector<HoleSet> at = random_game(p, rng);
      Game game(p);
      for (std::size_t i = 1; i < at.size(); ++i) {
        // the jump between at[i-1] and at[i]
        for (const Jump& j : Position(p.board, at[i - 1]).legal_jumps()) {
          Position q(p.board, at[i - 1]);
          q.apply(j);
          if (q.pegs() == at[i]) {
            game.play(Move{{j}});
            break;
          }
        }
      }
      ASSERT_EQ(game.cursor() + 1, at.size());
      // Also ask about every prefix of the game (undo walks the cursor back).
      for (;;) {
        SCOPED_TRACE(describe(p) + " after " + std::to_string(game.cursor()) + " moves");
        Mistake m = an.first_mistake(game, patient());
        std::optional<std::size_t> first_lost;
        for (std::size_t i = 0; i <= game.cursor(); ++i)
          if (ref.of(at[i]).goal == 0) {
            first_lost = i;
            break;
          }
        if (!first_lost) {
          EXPECT_EQ(m.now, Solvability::Solvable);
          EXPECT_FALSE(m.move.has_value());
          EXPECT_EQ(m.rewind_to, game.cursor());
        } else if (*first_lost == 0) {
          EXPECT_EQ(m.now, Solvability::NotSolvable);
          EXPECT_TRUE(m.start_lost);
          EXPECT_FALSE(m.move.has_value());
          EXPECT_FALSE(m.reason.empty());
        } else {
          EXPECT_EQ(m.now, Solvability::NotSolvable);
          ASSERT_TRUE(m.move.has_value());
          EXPECT_EQ(*m.move, *first_lost - 1);
          EXPECT_EQ(m.rewind_to, *first_lost - 1);
          EXPECT_FALSE(m.reason.empty());
        }
        if (!game.undo()) break;
      }
    }
  }
}

TEST(Analysis, ProofsAreGivenInWords) {
  // English, one peg left on a1's corner... a hole of another position class: the class proof.
  BoardPtr b = make_board("english");
  Problem p = default_problem(b);
  Goal wrong{Goal::Kind::Hole, *b->find("c1"), {}};
  Analyzer an(b, wrong);
  AnalysisOptions o;
  o.count = false;
  o.time_limit = 0;  // the one-peg verdict's search to its end, however loaded the machine
  Analysis a = an.analyze(Position(b, p.start), o);
  EXPECT_EQ(a.goal.verdict, Solvability::NotSolvable);
  EXPECT_NE(a.goal.reason.find("position class"), std::string::npos) << a.goal.reason;
  EXPECT_EQ(a.one_peg.verdict, Solvability::Solvable);
  ASSERT_TRUE(a.hint.has_value());
  EXPECT_FALSE(a.hint_to_goal);
}

TEST(Analysis, BadInputIsNamed) {
  BoardPtr tri = make_board("triangle:5");
  BoardPtr eng = make_board("english");
  Analyzer an(tri, Goal{});
  Position other(eng, default_problem(eng).start);
  try {
    an.analyze(other);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("english"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Analyzer(tri, Goal{Goal::Kind::Hole, 99, {}}), InputError);
}

TEST(Analysis, StoppedCallsSayUnknown) {
  BoardPtr b = make_board("english");
  Problem p = default_problem(b);
  Analyzer an(b, p.goal);
  Control c;
  c.cancel();
  AnalysisOptions o;
  o.control = &c;
  // A position off every solution whose refutation needs a search.
  Position pos(b, p.start);
  Analysis a = an.analyze(pos, o);
  EXPECT_FALSE(a.counted);
  EXPECT_EQ(a.goal.verdict, Solvability::Unknown);
}

// Calls stopped at every point of their pagodas' linear programs and searches (a clock that
// moves at each poll), each followed by a complete call: the memo that the stopped calls left
// (pagodas found for some end holes and not others) never gives a verdict the reference denies.
TEST(Analysis, CallsStoppedWhileFindingPagodasLeaveTheMemoSound) {
  for (const Problem& p : small_problems()) {
    std::mt19937 rng(11);
    Reference ref(p);
    const std::vector<HoleSet> game = random_game(p, rng);
    for (int ticks = 1; ticks <= 40; ticks += 3) {
      Analyzer an(p.board, p.goal);
      for (const HoleSet& s : game) {
        Position pos(p.board, s);
        Control c(ticking_clock());
        AnalysisOptions stopped;
        stopped.control = &c;
        stopped.count = false;
        stopped.time_limit = ticks / 1000.0;
        an.analyze(pos, stopped);
        AnalysisOptions o;
        o.count = false;
        o.time_limit = 0;
        const Analysis a = an.analyze(pos, o);
        const Ref& r = ref.of(s);
        SCOPED_TRACE(describe(p) + " at " + pos.to_string() + " after " + std::to_string(ticks) +
                     " ticks");
        EXPECT_EQ(a.goal.verdict, verdict_of(r.goal));
        EXPECT_EQ(a.one_peg.verdict, verdict_of(r.one));
      }
    }
  }
}

// The plain words of a lost verdict and impossibility() run their pagoda linear programs under
// the caller's control: stopped, they give no pagoda proof, and the words then claim neither a
// proof they did not finish nor a search that was not theirs. A verdict already proved by the
// one-peg pagodas is put in words without a linear program.
TEST(Analysis, ExplanationsAndImpossibilityStopWithTheirControl) {
  BoardPtr b = make_board("english");
  const Problem p = default_problem(b);
  Position lost(b, p.start);
  for (const char* m : {"d2-d4", "f3-d3", "e1-e3", "c1-e1", "d4-d2", "f5-f3", "d6-d4"})
    lost.apply(parse_move_chain(*b, m));
  Control stopped;
  stopped.cancel();
  SolvabilityAnswer no;
  no.verdict = Solvability::NotSolvable;
  no.reason = "no solution exists (searched)";
  int pagoda_words = 0;
  for (const Goal& g : {p.goal, Goal{}}) {
    const Explanation free = play_detail::explain(lost, g, no, std::nullopt, nullptr);
    const Explanation cut = play_detail::explain(lost, g, no, std::nullopt, &stopped);
    if (free.text.rfind("pagoda weights: ", 0) != 0) continue;
    ++pagoda_words;
    EXPECT_EQ(cut.text.find("pagoda weights"), std::string::npos) << cut.text;
    EXPECT_EQ(cut.text.find("checked every one"), std::string::npos) << cut.text;
    EXPECT_NE(cut.text.find("no time left"), std::string::npos) << cut.text;
    EXPECT_FALSE(cut.holes.has_value());
  }
  EXPECT_GT(pagoda_words, 0);

  SolvabilityAnswer by_pagodas = no;
  by_pagodas.reason =
      "no single peg can be left: " + std::string(play_detail::kOnePegPagodas) + " (...)";
  for (const Goal& g : {p.goal, Goal{}}) {
    const Explanation e = play_detail::explain(lost, g, by_pagodas, std::nullopt, &stopped);
    EXPECT_EQ(e.text.rfind("pagoda weights: the last peg", 0), 0u) << e.text;
    ASSERT_TRUE(e.holes.has_value());
    EXPECT_EQ(*e.holes, admissible_finals(*b, lost.pegs()).members());
  }

  // Diamond 41 from e3 to one peg on e4: neither the position class nor the peg types rule it
  // out; a pagoda function does, and none is claimed once stopped.
  BoardPtr d = make_board("diamond41");
  const Problem de4{d, single_vacancy(*d, *d->find("e3")),
                    Goal{Goal::Kind::Hole, *d->find("e4"), {}}};
  const auto why = impossibility(de4);
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(why->rfind("pagoda function", 0), 0u) << *why;
  EXPECT_FALSE(detail::impossibility(de4, &stopped).has_value());
  Control open;
  EXPECT_EQ(detail::impossibility(de4, &open), why);
}

// A position with no jump left is settled before any proof is sought: on a large board the pagoda
// programs would otherwise spend the verdict's time first.
TEST(Analysis, AStuckPositionIsSettledBeforeAnyProof) {
  BoardPtr b = make_board("triangle:12");
  HoleSet pegs(b->size());
  for (int r = 0; r < 12; r += 2)  // no two pegs neighbours: every other hole of every other row
    for (int c = 0; c <= r; c += 2) pegs.set(r * (r + 1) / 2 + c);
  const Position p(b, pegs);
  ASSERT_TRUE(p.stuck());
  ASSERT_EQ(p.peg_count(), 21);
  Analyzer an(b, Goal{});
  AnalysisOptions o;
  o.count = false;
  const Analysis a = an.analyze(p, o);
  EXPECT_EQ(a.one_peg.verdict, Solvability::NotSolvable);
  EXPECT_EQ(a.one_peg.reason, "no jump is left");
  EXPECT_EQ(a.one_peg_explanation.text, "no jump is left, with 21 pegs on the board");
  const SolvabilityAnswer s = is_solvable(p, Goal{}, 2.0);
  EXPECT_EQ(s.verdict, Solvability::NotSolvable);
  EXPECT_EQ(s.reason, "no jump is left");
}

#ifdef PEGSOL_TEST_JSON
TEST(Analysis, Json) {
  BoardPtr tri = make_board("triangle:5");
  Problem p = default_problem(tri);
  Analyzer an(tri, p.goal);
  Position pos(tri, p.start);
  nlohmann::json j = analysis_json(pos, an.analyze(pos));
  EXPECT_EQ(j["goal"]["verdict"], "solvable");
  EXPECT_EQ(j["counted"], true);
  Reference ref(p);
  EXPECT_EQ(j["ways_goal"], count_text(ref.of(p.start).goal));
  EXPECT_EQ(j["end_holes"].size(), ref.of(p.start).ends.size());
  EXPECT_TRUE(j["hint"].is_string());

  Game g(p);
  g.play(parse_move_chain(*tri, "4-1"));
  g.play(parse_move_chain(*tri, "6-4"));
  g.play(parse_move_chain(*tri, "1-6"));
  nlohmann::json m = mistake_json(g, an.first_mistake(g));
  EXPECT_TRUE(m.contains("rewind_to"));
  EXPECT_EQ(m["now"], std::string(solvability_name(an.solvable(g.position()).verdict)));
}
#endif

TEST(Analysis, FinishGameKeepsThePlayersMoves) {
  BoardPtr b = make_board("english");
  Problem p = default_problem(b);
  std::vector<Move> kept{parse_move_chain(*b, "d2-d4"), parse_move_chain(*b, "f3-d3")};
  FinishResult f = finish_game(p, kept);
  ASSERT_EQ(f.result.status, Status::Solved);
  EXPECT_EQ(f.kept_jumps, 2u);
  ASSERT_GE(f.result.moves.size(), 2u);
  EXPECT_EQ(f.result.moves[0], kept[0].jumps[0]);
  EXPECT_EQ(f.result.moves[1], kept[1].jumps[0]);
  Replay r = replay(*b, p.start, f.result.moves);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(goal_reached(p, r.final));
  EXPECT_EQ(r.final, f.result.final);

  // A lost game: impossible from the kept moves, which stay in the result.
  BoardPtr tri = make_board("triangle:5");
  Problem t = default_problem(tri);
  std::vector<Move> lost;
  for (const char* m : {"4-1", "6-4", "15-6", "13-15", "11-13"})
    lost.push_back(parse_move_chain(*tri, m));
  FinishResult g = finish_game(t, lost);
  EXPECT_EQ(g.result.status, Status::Impossible);
  EXPECT_EQ(g.result.moves.size(), 5u);
  Reference ref(t);
  EXPECT_EQ(ref.of(g.result.final).goal, Count{0});

  try {
    finish_game(p, {parse_move_chain(*b, "d2-d4"), parse_move_chain(*b, "d2-d4")});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("move 2 (d2-d4)"), std::string::npos) << e.what();
  }
}

// With the start given, the census look-up answers; its verdicts, solutions and hints agree with
// plain recursion on every position reachable from the start of the small problems.
TEST(Analysis, CensusLookupMatchesPlainRecursionOnEveryReachablePosition) {
  for (const Problem& p : small_problems()) {
    Analyzer an(p.board, p.goal);
    Reference ref(p);
    AnalysisOptions o;
    o.start = p.start;
    o.count = false;
    o.explain = false;  // a pagoda's linear program for each lost position: checked elsewhere
    o.time_limit = 0;
    for (const HoleSet& s : reference::reachable(*p.board, p.start)) {
      Position pos(p.board, s);
      const Ref& r = ref.of(s);
      SCOPED_TRACE(describe(p) + " at " + pos.to_string());
      Analysis a = an.analyze(pos, o);
      EXPECT_EQ(a.lookup_note.rfind("census look-up:", 0), 0u) << a.lookup_note;
      EXPECT_EQ(a.goal.verdict, verdict_of(r.goal));
      EXPECT_EQ(a.one_peg.verdict, verdict_of(r.one));
      EXPECT_EQ(an.solvable(pos, o).verdict, verdict_of(r.goal));
      for (const SolvabilityAnswer* x : {&a.goal, &a.one_peg}) {
        if (x->verdict != Solvability::Solvable) continue;
        Replay rp = replay(*p.board, s, x->solution);
        ASSERT_TRUE(rp.ok) << rp.error;
        if (x == &a.goal)
          EXPECT_TRUE(goal_reached(p, rp.final));
        else
          EXPECT_EQ(rp.final.count(), 1);
      }
      if (a.hint) {
        Position next = pos;
        next.apply(*a.hint);
        EXPECT_GT(a.hint_to_goal ? ref.of(next.pegs()).goal : ref.of(next.pegs()).one, Count{0});
        EXPECT_EQ(a.hint_to_goal, r.goal > 0);
      } else {
        EXPECT_TRUE((r.goal == 0 && r.one == 0) || goal_reached(p, s) || s.count() == 1);
      }
    }
  }
}

// English, along random games from the central vacancy: the look-up's verdicts agree with the
// exact count where it completes (up to 20 pegs) and with a search wherever one decides; solvable
// answers replay to the goal; a lost position's children are lost too, a solvable one has a
// solvable child (or is the goal).
TEST(Analysis, CensusLookupAgreesOnEnglishRandomGames) {
#ifdef PEGSOL_TEST_SANITIZED
  GTEST_SKIP() << "the English census and searches under the sanitizers take minutes: the Release "
                  "run's (the look-up is checked on the small problems here)";
#endif
  BoardPtr b = make_board("english");
  const Problem p = default_problem(b);
  Analyzer an(b, p.goal);
  Analyzer plain(b, p.goal);
  AnalysisOptions o;
  o.start = p.start;
  o.count = false;
  o.time_limit = 0;
  // The look-up's census has no time limit here: on a slow or busy machine (the portable kernels
  // on a shared CI runner) the default 10 s may not suffice, and without the look-up every call
  // below would be a search to the end.
  o.lookup_seconds = 0;
  {
    const Analysis first = an.analyze(Position(b, p.start), o);
    ASSERT_EQ(first.lookup_note.rfind("census look-up:", 0), 0u) << first.lookup_note;
  }
  AnalysisOptions check;
  check.time_limit = 0.5;
  check.count_seconds = 0;
  std::mt19937 rng(5);
  int searched = 0, counted = 0;
  for (int game = 0; game < 6; ++game)
    for (const HoleSet& s : random_game(p, rng)) {
      Position pos(b, s);
      SCOPED_TRACE(pos.to_string());
      const SolvabilityAnswer a = an.solvable(pos, o);
      ASSERT_NE(a.verdict, Solvability::Unknown);
      if (a.verdict == Solvability::Solvable) {
        Replay rp = replay(*b, s, a.solution);
        ASSERT_TRUE(rp.ok) << rp.error;
        EXPECT_TRUE(goal_reached(p, rp.final));
      }
      bool child_solvable = false;
      for (const Jump& j : pos.legal_jumps()) {
        Position next = pos;
        next.apply(j);
        const Solvability c = an.solvable(next, o).verdict;
        if (a.verdict == Solvability::NotSolvable) {
          EXPECT_EQ(c, Solvability::NotSolvable);
        }
        child_solvable |= c == Solvability::Solvable;
      }
      if (a.verdict == Solvability::Solvable && !goal_reached(p, s)) {
        EXPECT_TRUE(child_solvable);
      }
      AnalysisOptions c = check;
      c.count_positions = s.count() <= 20 ? 2'000'000 : 1000;
      const Analysis x = plain.analyze(pos, c);
      if (x.goal.verdict != Solvability::Unknown) {
        EXPECT_EQ(x.goal.verdict, a.verdict);
        ++searched;
      }
      if (x.counted) ++counted;
    }
  EXPECT_GT(searched, 30);
  EXPECT_GT(counted, 5);
}

// A shared cache that builds in the background: until the index is built the searches answer
// (the note says so), afterwards the look-up; the verdicts agree with plain recursion throughout,
// from several threads and two analyzers at once.
TEST(Analysis, SharedLookupsAnswerBeforeAndAfterTheirBuild) {
  const Problem p = small_problems()[1];  // triangle:5, 3 -> 12
  Reference ref(p);
  const std::vector<HoleSet> positions = reference::reachable(*p.board, p.start);
  for (const HoleSet& s : positions) ref.of(s);  // the reference is not thread-safe: fill it first
  PathIndexCache cache;
  Analyzer a1(p.board, p.goal), a2(p.board, p.goal);
  AnalysisOptions o;
  o.start = p.start;
  o.paths = &cache;
  o.count = false;
  o.time_limit = 0;
  const Analysis first = a1.analyze(Position(p.board, p.start), o);
  EXPECT_EQ(first.lookup_note.rfind("no census look-up:", 0), 0u) << first.lookup_note;
  EXPECT_EQ(first.goal.verdict, verdict_of(ref.of(p.start).goal));
  ASSERT_NE(cache.wait(p), nullptr);
  std::atomic<int> wrong{0}, looked_up{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      const Analyzer& an = t % 2 ? a1 : a2;
      for (std::size_t i = static_cast<std::size_t>(t); i < positions.size(); i += 4) {
        const Analysis a = an.analyze(Position(p.board, positions[i]), o);
        looked_up += a.lookup_note.rfind("census look-up:", 0) == 0;
        const Ref& r = ref.of(positions[i]);
        wrong += a.goal.verdict != verdict_of(r.goal) || a.one_peg.verdict != verdict_of(r.one);
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  // The goal's index is built; one peg anywhere may still be building: every goal answer looks up.
  EXPECT_EQ(looked_up.load(), static_cast<int>(positions.size()));
  EXPECT_GT(cache.bytes(), 0u);
}

// The index against plain recursion, directly: on_path is "reachable from the start and can reach
// the goal", and each solution from a position on a path replays to the goal.
TEST(Analysis, PathIndexHoldsExactlyTheSolutionPaths) {
  for (const Problem& p : small_problems()) {
    SCOPED_TRACE(describe(p));
    Reference ref(p);
    PathIndex index(p, 0, nullptr, 1);
    ASSERT_TRUE(index.ok()) << index.failed();
    std::uint64_t on = 0;
    for (const HoleSet& s : reference::reachable(*p.board, p.start)) {
      const bool want = ref.of(s).goal > 0;
      ASSERT_EQ(index.on_path(s), want) << Position(p.board, s).to_string();
      if (!want) continue;
      ++on;
      Replay rp = replay(*p.board, s, index.solution_from(s));
      ASSERT_TRUE(rp.ok) << rp.error;
      EXPECT_TRUE(goal_reached(p, rp.final));
    }
    EXPECT_GE(on, index.positions());  // the index counts orbits, the loop positions
  }
}

// A census that cannot finish within the cache's bounds is said, not tried again, and the
// searches answer; a cache that keeps little evicts the least recent index but rebuilds it when
// asked again.
TEST(Analysis, SharedLookupsFailAndEvictCleanly) {
  BoardPtr b = make_board("english");
  const Problem english = default_problem(b);
  PathIndexCache::Options tight;
  tight.background = false;
  tight.build_memory = std::size_t{1} << 20;
  PathIndexCache small(tight);
  std::string note;
  EXPECT_EQ(small.get(english, &note), nullptr);
  EXPECT_NE(note.find("memory"), std::string::npos) << note;
  std::string again;
  EXPECT_EQ(small.get(english, &again), nullptr);
  EXPECT_EQ(again, note);
  Analyzer an(b, english.goal);
  AnalysisOptions o;
  o.start = english.start;
  o.paths = &small;
  o.count = false;
  Position late(b, english.start);
  for (const char* m : {"d2-d4", "f3-d3", "e1-e3", "e4-e2", "c1-e1", "e1-e3"})
    late.apply(parse_move(*b, m));
  const Analysis a = an.analyze(late, o);
  EXPECT_EQ(a.lookup_note, note);
  EXPECT_NE(a.goal.verdict, Solvability::Unknown);

  PathIndexCache::Options keep_one;
  keep_one.background = false;
  keep_one.keep_bytes = 1;
  PathIndexCache cache(keep_one);
  const std::vector<Problem> ps = small_problems();
  auto i0 = cache.get(ps[0]);
  ASSERT_NE(i0, nullptr);
  auto i1 = cache.get(ps[1]);
  ASSERT_NE(i1, nullptr);
  EXPECT_LE(cache.bytes(), i1->bytes());  // only the newest is kept
  EXPECT_TRUE(i0->on_path(ps[0].start));  // a holder keeps its copy
  auto again0 = cache.get(ps[0]);
  ASSERT_NE(again0, nullptr);
  EXPECT_NE(again0.get(), i0.get());  // rebuilt
  EXPECT_NE(problem_key(ps[0]), problem_key(ps[1]));
  EXPECT_NE(problem_key(ps[2]), problem_key(ps[3]));  // same board and start, other goal
}

// A cache destroyed while its background census runs (bounds it would not reach for minutes)
// stops it and returns; the test's time limit catches a hang.
TEST(Analysis, SharedLookupsStopWithTheirCache) {
  BoardPtr b = make_board("french");
  PathIndexCache::Options o;
  o.build_memory = std::size_t{16} << 30;
  o.build_seconds = 3600;
  PathIndexCache cache(o);
  std::string note;
  EXPECT_EQ(cache.get(default_problem(b), &note), nullptr);
  EXPECT_EQ(note, "no census look-up: queued to be built");
  for (int i = 0; i < 200 && note != "no census look-up: being built"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(cache.get(default_problem(b), &note), nullptr);
  }
  EXPECT_EQ(note, "no census look-up: being built");
}

// await(): nothing to wait for when no build was asked; the index once a queued build ends; and
// an analysis whose short searches cannot decide waits for the shared build and answers by it.
TEST(Analysis, SharedLookupsCanBeAwaited) {
  const std::vector<Problem> ps = small_problems();
  PathIndexCache cache;
  Control none;
  std::string note;
  EXPECT_EQ(cache.await(ps[0], none, &note), nullptr);
  EXPECT_EQ(cache.get(ps[0]), nullptr);  // queued
  auto built = cache.await(ps[0], none, &note);
  ASSERT_NE(built, nullptr) << note;
  EXPECT_TRUE(built->on_path(ps[0].start));
  EXPECT_EQ(cache.get(ps[0]), built);

  // No short search: the analysis of the start waits for the goal's index.
  const Problem& p = ps[1];
  Analyzer an(p.board, p.goal);
  AnalysisOptions o;
  o.start = p.start;
  o.paths = &cache;
  o.count = false;
  o.quick_nodes = 0;
  o.beam_seconds = 0;
  o.time_limit = 0;
  Reference ref(p);
  const Analysis a = an.analyze(Position(p.board, p.start), o);
  EXPECT_EQ(a.lookup_note, "census look-up (waited for its build)");
  EXPECT_EQ(a.goal.verdict, verdict_of(ref.of(p.start).goal));
}

namespace {

// The problems of the exact look-ups: every kind of goal, symmetric and asymmetric starts, goals
// the start's symmetries fix (one census answers both targets) and goals they do not (two).
std::vector<Problem> lookup_problems() {
  std::vector<Problem> out = small_problems();
  BoardPtr rect = make_board("rect:3x5");
  out.push_back(Problem{rect, single_vacancy(*rect, 7), Goal{}});  // the centre: four symmetries
  out.push_back(Problem{rect, single_vacancy(*rect, 7), Goal{Goal::Kind::Hole, 5, {}}});
  // A pinwheel of vacancies on the 4x4 square: its symmetries are the rotations alone, so the end
  // holes of a position are mapped back through a symmetry that is not its own inverse.
  BoardPtr square = make_board("rect:4x4");
  HoleSet pinwheel = HoleSet::from_bits("1011111001111101");
  out.push_back(Problem{square, pinwheel, Goal{}});
  out.push_back(Problem{square, pinwheel, Goal{Goal::Kind::Hole, 0, {}}});
  return out;
}

// A cache that builds in the caller's thread, and options that answer from it.
AnalysisOptions exact_options(const Problem& p, PathIndexCache& cache) {
  AnalysisOptions o;
  o.start = p.start;
  o.paths = &cache;
  o.time_limit = 0;
  o.count_seconds = 0;
  return o;
}

PathIndexCache::Options foreground() {
  PathIndexCache::Options o;
  o.background = false;
  return o;
}

}  // namespace

// With the look-ups built, every figure comes from them (exact, counted, the note says so) and
// equals plain recursion at every position of random games: ways to the goal and to one peg, end
// holes, verdicts, solutions, hints; and the first losing move of every prefix.
TEST(Analysis, ExactLookupsMatchPlainRecursionAlongRandomGames) {
  std::mt19937 rng(31);
  for (const Problem& p : lookup_problems()) {
    SCOPED_TRACE(describe(p));
    PathIndexCache cache(foreground());
    ASSERT_EQ(cache.start(p).state, LookupStatus::State::Ready);
    EXPECT_EQ(cache.status(p).censuses, PathIndex::answers_one_peg(p) ? 1 : 2);
    Analyzer an(p.board, p.goal);
    Reference ref(p);
    const AnalysisOptions o = exact_options(p, cache);
    for (int g = 0; g < 4; ++g) {
      const std::vector<HoleSet> at = random_game(p, rng);
      Game game(p);
      for (std::size_t i = 0; i < at.size(); ++i) {
        Position pos(p.board, at[i]);
        const Analysis a = an.analyze(pos, o);
        EXPECT_TRUE(a.exact);
        EXPECT_EQ(a.lookup_note.rfind("census look-up:", 0), 0u) << a.lookup_note;
        EXPECT_EQ(a.positions, 0u);  // nothing counted by the memo
        expect_matches(p, pos, a, ref);
        EXPECT_FALSE(a.goal_explanation.text.empty());
        EXPECT_FALSE(a.one_peg_explanation.text.empty());
        if (i + 1 < at.size()) {
          for (const Jump& j : pos.legal_jumps()) {
            Position q = pos;
            q.apply(j);
            if (q.pegs() == at[i + 1]) {
              game.play(Move{{j}});
              break;
            }
          }
        }
      }
      ASSERT_EQ(game.cursor() + 1, at.size());
      for (;;) {
        const Mistake m = an.first_mistake(game, o);
        std::optional<std::size_t> first_lost;
        for (std::size_t i = 0; i <= game.cursor() && !first_lost; ++i)
          if (ref.of(at[i]).goal == 0) first_lost = i;
        if (!first_lost) {
          EXPECT_EQ(m.now, Solvability::Solvable);
          EXPECT_FALSE(m.move.has_value());
        } else if (*first_lost == 0) {
          EXPECT_TRUE(m.start_lost);
          EXPECT_FALSE(m.explanation.text.empty());
        } else {
          ASSERT_TRUE(m.move.has_value());
          EXPECT_EQ(*m.move, *first_lost - 1);
          EXPECT_FALSE(m.explanation.text.empty());
        }
        if (!game.undo()) break;
      }
    }
  }
}

// The index itself on every position reachable from the start: ways to each target it answers
// and the end holes (mapped back through the symmetry that canonicalised the position) equal
// plain recursion.
TEST(Analysis, PathIndexWaysAndEndHolesMatchPlainRecursion) {
  for (const Problem& p : lookup_problems()) {
    SCOPED_TRACE(describe(p));
    Reference ref(p);
    PathIndex index(p, PathIndex::Options{});
    ASSERT_TRUE(index.ok()) << index.failed();
    ASSERT_EQ(index.answers(PathTarget::OnePeg), PathIndex::answers_one_peg(p));
    for (const HoleSet& s : reference::reachable(*p.board, p.start)) {
      const Ref& r = ref.of(s);
      ASSERT_EQ(count_text(index.ways(s)), count_text(r.goal)) << s.to_bits();
      if (!index.answers(PathTarget::OnePeg)) continue;
      ASSERT_EQ(count_text(index.ways(s, PathTarget::OnePeg)), count_text(r.one)) << s.to_bits();
      std::set<int> ends;
      for (int h : index.end_holes(s).members()) ends.insert(h);
      ASSERT_EQ(ends, r.ends) << s.to_bits();
    }
  }
}

// English from the centre (too large for the recursion): along random games, the look-ups are
// consistent with themselves: a position's ways are its children's summed, the goal has one, a
// position's end holes are its children's united; every answer is exact, and a hint leads to a
// position with ways left.
TEST(Analysis, EnglishExactLookupsAreConsistent) {
#ifdef PEGSOL_TEST_SANITIZED
  GTEST_SKIP() << "the English census under the sanitizers takes minutes: the Release run's";
#endif
  BoardPtr b = make_board("english");
  const Problem p = default_problem(b);
  PathIndexCache::Options co = foreground();
  co.build_seconds = 0;  // a slow machine must not make the look-ups fail
  PathIndexCache cache(co);
  ASSERT_EQ(cache.start(p).state, LookupStatus::State::Ready);
  EXPECT_EQ(cache.status(p).censuses, 1);  // one census: d4 is fixed by the centre's symmetries
  Analyzer an(b, p.goal);
  AnalysisOptions o = exact_options(p, cache);
  o.explain = false;
  const Analysis first = an.analyze(Position(b, p.start), o);
  ASSERT_TRUE(first.exact) << first.lookup_note;
  EXPECT_EQ(count_text(first.ways_goal), "40861647040079968");  // the known solution count
  std::mt19937 rng(9);
  for (int g = 0; g < 6; ++g)
    for (const HoleSet& s : random_game(p, rng)) {
      Position pos(b, s);
      SCOPED_TRACE(pos.to_string());
      const Analysis a = an.analyze(pos, o);
      ASSERT_TRUE(a.exact);
      EXPECT_EQ(a.goal.verdict, verdict_of(a.ways_goal));
      EXPECT_EQ(a.one_peg.verdict, verdict_of(a.ways_one_peg));
      if (s.count() == 1) {
        EXPECT_EQ(a.ways_one_peg, Count{1});
        EXPECT_EQ(a.ways_goal, goal_reached(p, s) ? Count{1} : Count{0});
        EXPECT_EQ(a.end_holes, s);
        continue;
      }
      Count goal = 0, one = 0;
      HoleSet ends(b->size());
      for (const Jump& j : pos.legal_jumps()) {
        Position next = pos;
        next.apply(j);
        const Analysis c = an.analyze(next, o);
        ASSERT_TRUE(c.exact);
        goal += c.ways_goal;
        one += c.ways_one_peg;
        for (int h : c.end_holes.members()) ends.set(h);
      }
      EXPECT_EQ(count_text(a.ways_goal), count_text(goal));
      EXPECT_EQ(count_text(a.ways_one_peg), count_text(one));
      EXPECT_EQ(a.end_holes, ends);
      if (a.hint) {
        Position next = pos;
        next.apply(*a.hint);
        const Analysis c = an.analyze(next, o);
        EXPECT_GT(a.hint_to_goal ? c.ways_goal : c.ways_one_peg, Count{0});
      }
    }
}

// The status of a problem's look-ups in a background cache: none before they are asked for,
// queued behind another build, then building, then ready; never going back.
TEST(Analysis, LookupStatusGoesFromQueuedToReady) {
  const std::vector<Problem> ps = lookup_problems();
  // The build the small problem queues behind: English's census, or under the sanitizers (where
  // it takes most of a minute) triangle:6's, which goes through the same states.
  BoardPtr b = make_board(kSanitized ? "triangle:6" : "english");
  const Problem big = default_problem(b);
  PathIndexCache::Options co;
  co.build_seconds = 0;
  PathIndexCache cache(co);
  EXPECT_EQ(cache.status(ps[0]).state, LookupStatus::State::None);
  EXPECT_STREQ(lookup_state_name(cache.status(ps[0]).state), "none");
  cache.start(big);
  // One build at a time: the small problem waits behind the big one.
  EXPECT_EQ(cache.start(ps[0]).state, LookupStatus::State::Queued);
  int last = 0;
  bool saw_building = false;
  // Polled until ready, up to just under ctest's 300 s (the English census: 3 s in CI's Release
  // run, 29 s under its sanitizers, over 100 s on a loaded machine).
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(280);
  while (std::chrono::steady_clock::now() < until) {
    const LookupStatus st = cache.status(big);
    const int rank = st.state == LookupStatus::State::Queued     ? 1
                     : st.state == LookupStatus::State::Building ? 2
                     : st.state == LookupStatus::State::Ready    ? 3
                                                                 : -1;
    ASSERT_GE(rank, last) << lookup_state_name(st.state) << " " << st.why;
    last = rank;
    if (st.state == LookupStatus::State::Building) {
      saw_building = true;
      EXPECT_GE(st.fraction, 0.0);
      EXPECT_LE(st.fraction, 1.0);
      EXPECT_FALSE(st.phase.empty());
    }
    if (rank == 3) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(saw_building);
  // A loaded machine (a sanitizer build) may still be building after the polls: wait for it.
  if (last < 3) {
    ASSERT_NE(cache.wait(big), nullptr);
  }
  const LookupStatus ready = cache.status(big);
  ASSERT_EQ(ready.state, LookupStatus::State::Ready);
  EXPECT_EQ(ready.fraction, 1.0);
  EXPECT_GT(ready.bytes, 0u);
  ASSERT_NE(cache.wait(ps[0]), nullptr);
  EXPECT_EQ(cache.status(ps[0]).state, LookupStatus::State::Ready);
}

// A build the cache's bounds stop is remembered as failed (and not tried again); a board too wide
// for the look-ups says so.
TEST(Analysis, LookupStatusRemembersAFailure) {
  const Problem p = lookup_problems()[0];
  PathIndexCache::Options co = foreground();
  co.build_memory = 1;  // no census fits
  PathIndexCache cache(co);
  const LookupStatus st = cache.start(p);
  ASSERT_EQ(st.state, LookupStatus::State::Failed);
  EXPECT_NE(st.why.find("memory"), std::string::npos) << st.why;
  const LookupStatus again = cache.start(p);
  EXPECT_EQ(again.state, LookupStatus::State::Failed);
  EXPECT_EQ(again.why, st.why);
  std::string note;
  EXPECT_EQ(cache.get(p, &note), nullptr);
  EXPECT_EQ(note, "no census look-up: " + st.why);

  BoardPtr wide = make_board("triangle:12");
  const Problem big = default_problem(wide);
  const LookupStatus w = cache.start(big);
  EXPECT_EQ(w.state, LookupStatus::State::None);
  EXPECT_NE(w.why.find("64 bits"), std::string::npos) << w.why;
}

// Without a background thread, start() builds in the caller's thread: the caller's control gets
// progress reports (fractions in [0, 1] that never go back) and stops the build, which is then
// forgotten, not failed: started again, it completes.
TEST(Analysis, ForegroundLookupsReportProgressAndStop) {
  BoardPtr b = make_board("triangle:6");
  const Problem p{b, single_vacancy(*b, 3), Goal{Goal::Kind::Hole, 3, {}}};
  PathIndexCache cache(foreground());
  std::vector<double> fractions;
  Control c;
  c.set_progress([&](const ProgressReport& r) { fractions.push_back(r.fraction); }, 0);
  const LookupStatus done = cache.start(p, &c);
  ASSERT_EQ(done.state, LookupStatus::State::Ready) << done.why;
  ASSERT_FALSE(fractions.empty());
  for (std::size_t i = 0; i < fractions.size(); ++i) {
    EXPECT_GE(fractions[i], 0.0);
    EXPECT_LE(fractions[i], 1.0);
    if (i) {
      EXPECT_GE(fractions[i], fractions[i - 1]);
    }
  }

  const Problem q{b, single_vacancy(*b, 0), Goal{}};
  PathIndexCache other(foreground());
  Control stopper;
  int reports = 0;
  stopper.set_progress(
      [&](const ProgressReport&) {
        if (++reports == 1) stopper.cancel();
      },
      0);
  const LookupStatus stopped = other.start(q, &stopper);
  EXPECT_GE(reports, 1);
  EXPECT_EQ(stopped.state, LookupStatus::State::None) << stopped.why;
  EXPECT_EQ(other.start(q).state, LookupStatus::State::Ready);
}

// The analyzer's own look-up (no shared cache), built in the call: the caller's cancel stops the
// build under way, and first_mistake returns with a stop instead of waiting for the census;
// the call's deadline does not stop the build (the look-up serves the calls after it).
TEST(Analysis, OwnLookupStopsOnTheCallersCancelNotOnItsDeadline) {
  BoardPtr b = make_board("english");
  const Problem p = default_problem(b);
  Game game(p);
  for (const char* m : {"d2-d4", "f3-d3", "e1-e3", "c1-e1", "d4-d2", "f5-f3", "d6-d4"})
    game.play(parse_move_chain(*b, m));
  Analyzer an(b, p.goal);
  Control c;
  std::string phase;  // of the first report: the look-up's census comes before any search
  c.set_progress(
      [&](const ProgressReport& r) {
        if (phase.empty()) phase = std::string(r.phase);
        c.cancel();
      },
      0);
  AnalysisOptions o;
  o.control = &c;
  o.time_limit = 0;
  o.lookup_seconds = 0;  // nothing bounds the build but the cancel
  const Mistake m = an.first_mistake(game, o);
  ASSERT_EQ(phase, "forward");
  EXPECT_EQ(c.stop_reason(), StopReason::Cancelled);
  // No look-up to answer from: the start is left undecided (a proof without search may still
  // settle the lost position at the end).
  EXPECT_FALSE(m.move.has_value());
  EXPECT_NE(m.note.find("undecided"), std::string::npos) << m.note;

  // A deadline already past, the caller's and the call's: the look-up is built all the same.
  const Problem t = small_problems()[1];  // triangle:5, 3 -> 12
  Analyzer small(t.board, t.goal);
  Control late;
  late.set_time_limit(1e-9);
  AnalysisOptions lo;
  lo.control = &late;
  lo.time_limit = 1e-9;
  lo.start = t.start;
  const Analysis a = small.analyze(Position(t.board, t.start), lo);
  EXPECT_EQ(a.lookup_note.rfind("census look-up:", 0), 0u) << a.lookup_note;
}

// A shared cache without a background thread (the Python module's) builds in the call, as the
// analyzer's own: the call's cancel stops the build (forgotten, to be started again), its
// deadline does not.
TEST(Analysis, ForegroundSharedLookupsBuildInTheCall) {
  BoardPtr b = make_board("triangle:6");
  const Problem q{b, single_vacancy(*b, 0), Goal{}};
  PathIndexCache cache(foreground());
  Analyzer an(b, q.goal);
  Control cancelled;
  cancelled.cancel();  // before the call: its build stops at once (a cache's get() would finish it)
  AnalysisOptions o;
  o.start = q.start;
  o.paths = &cache;
  o.control = &cancelled;
  o.time_limit = 0;
  const Analysis stopped = an.analyze(Position(b, q.start), o);
  EXPECT_FALSE(stopped.exact);
  EXPECT_EQ(cache.status(q).state, LookupStatus::State::None);

  AnalysisOptions late;
  late.start = q.start;
  late.paths = &cache;
  late.time_limit = 1e-9;
  const Analysis a = an.analyze(Position(b, q.start), late);
  EXPECT_TRUE(a.exact) << a.lookup_note;
  EXPECT_EQ(cache.status(q).state, LookupStatus::State::Ready);
}

// Plain words beside the engine's: the position class, peg types and pagoda proofs name their
// holes; the exhaustive checks say so; the JSON carries both.
TEST(Analysis, ExplanationsInPlainWords) {
  BoardPtr b = make_board("english");
  const Problem p = default_problem(b);
  // One peg on c1 from the centre: the position class.
  Analyzer wrong(b, Goal{Goal::Kind::Hole, *b->find("c1"), {}});
  AnalysisOptions o;
  o.count = false;
  const Position start(b, p.start);
  const Analysis a = wrong.analyze(start, o);
  ASSERT_EQ(a.goal.verdict, Solvability::NotSolvable);
  EXPECT_EQ(a.goal_explanation.text.rfind("position class: ", 0), 0u) << a.goal_explanation.text;
  ASSERT_TRUE(a.goal_explanation.holes.has_value());
  // The marked holes are a class invariant of the board, and c1 is on it.
  bool is_class = false;
  for (const HoleSet& inv : b->class_invariants())
    is_class |= inv.members() == *a.goal_explanation.holes;
  EXPECT_TRUE(is_class);
  EXPECT_NE(
      std::find(a.goal_explanation.holes->begin(), a.goal_explanation.holes->end(), *b->find("c1")),
      a.goal_explanation.holes->end());
  EXPECT_EQ(a.one_peg_explanation.text.rfind("still possible: ", 0), 0u)
      << a.one_peg_explanation.text;
  EXPECT_FALSE(a.one_peg_explanation.holes.has_value());

  // Peg types: two pegs of the goal's position class, neither of the goal hole's peg type.
  BoardPtr tri = make_board("triangle:5");
  const Goal corner{Goal::Kind::Hole, 14, {}};
  HoleSet goal_set(tri->size());
  goal_set.set(14);
  std::optional<HoleSet> few;
  for (int x = 0; x < tri->size() && !few; ++x)
    for (int y = x + 1; y < tri->size() && !few; ++y) {
      HoleSet s(tri->size());
      s.set(x);
      s.set(y);
      if (tri->peg_type(x) == tri->peg_type(14) || tri->peg_type(y) == tri->peg_type(14)) continue;
      if (Position(tri, s).stuck()) continue;  // "no jump is left" comes first
      if (position_class(*tri, s) == position_class(*tri, goal_set)) few = s;
    }
  ASSERT_TRUE(few.has_value());
  SolvabilityAnswer lost;
  lost.verdict = Solvability::NotSolvable;
  const Explanation types = explain(Position(tri, *few), corner, lost);
  EXPECT_EQ(types.text.rfind("peg types: ", 0), 0u) << types.text;
  ASSERT_TRUE(types.holes.has_value());
  EXPECT_FALSE(types.holes->empty());
  for (int h : *types.holes) EXPECT_EQ(tri->peg_type(h), tri->peg_type(14));

  // The first losing move of the English game in the issue: a pagoda proof, with its holes.
  Game game(p);
  for (const char* m : {"d2-d4", "f3-d3", "e1-e3", "c1-e1", "d4-d2", "f5-f3", "d6-d4"})
    game.play(parse_move_chain(*b, m));
  Analyzer an(b, p.goal);
  AnalysisOptions patient_search;
  patient_search.time_limit = 0;
  const Mistake m = an.first_mistake(game, patient_search);
  ASSERT_TRUE(m.move.has_value());
  EXPECT_EQ(*m.move, 6u);
  EXPECT_FALSE(m.explanation.text.empty());
  if (m.explanation.text.rfind("pagoda weights: ", 0) == 0) {
    ASSERT_TRUE(m.explanation.holes.has_value());
    EXPECT_FALSE(m.explanation.holes->empty());
  }

  // The census look-up's "not solvable" with no short proof: the exhaustive check, in words.
  const Problem t = small_problems()[0];  // triangle:5, anywhere
  PathIndexCache cache(foreground());
  Analyzer tan(t.board, t.goal);
  Position late(t.board, t.start);
  for (const char* mv : {"4-1", "6-4", "15-6", "13-15", "11-13"})
    late.apply(parse_move(*t.board, mv));
  const Analysis x = tan.analyze(late, exact_options(t, cache));
  ASSERT_TRUE(x.exact);
  ASSERT_EQ(x.goal.verdict, Solvability::NotSolvable);
  EXPECT_EQ(x.goal_explanation.text,
            "no sequence of jumps from here ends with a single peg (pegsol checked every one)");
  EXPECT_FALSE(x.goal_explanation.holes.has_value());
#ifdef PEGSOL_TEST_JSON
  const nlohmann::json j = analysis_json(late, x);
  EXPECT_EQ(j["goal"]["explanation"], x.goal_explanation.text);
  EXPECT_TRUE(j["goal"]["proof_holes"].is_null());
  EXPECT_EQ(j["exact"], true);
  const nlohmann::json k = analysis_json(start, a);
  EXPECT_EQ(k["goal"]["proof_holes"].size(), a.goal_explanation.holes->size());
  const nlohmann::json mj = mistake_json(game, m);
  EXPECT_EQ(mj["explanation"], m.explanation.text);
  EXPECT_TRUE(mj.contains("proof_holes"));
#endif
}
