// SPDX-License-Identifier: MIT
// The play API: legal jumps against a deliberately simple reference, apply/undo round trips,
// move chains, game files, and solvability answers checked by replay and by a reference search.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <random>
#include <set>

#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/play.hpp"
#include "reference/reference.hpp"

using namespace pegsol;

namespace {

std::vector<BoardPtr> test_boards() {
  return {make_board("english"),
          make_board("french"),
          make_board("triangle:5"),
          make_board("english", Lattice::Square8),
          make_board("rect:4x5", Lattice::Square8),
          make_board("hexagon:3")};
}

Position start_of(const BoardPtr& b) {
  return Position(b, default_problem(b).start);
}

// A random playout from `p` to a stuck position: the jumps made.
std::vector<Jump> playout(Position p, std::mt19937& rng) {
  std::vector<Jump> made;
  for (;;) {
    std::vector<Jump> legal = p.legal_jumps();
    if (legal.empty()) return made;
    std::uniform_int_distribution<std::size_t> pick(0, legal.size() - 1);
    Jump j = legal[pick(rng)];
    p.apply(j);
    made.push_back(j);
  }
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

Goal hole_goal(const Board& b, const char* name) {
  Goal g;
  g.kind = Goal::Kind::Hole;
  g.hole = *b.find(name);
  return g;
}

// The solution replays from p and reaches the goal.
void expect_reaches(const Position& p, const Goal& goal, const std::vector<Jump>& solution) {
  Position q = p;
  for (const Jump& j : solution) {
    ASSERT_TRUE(q.is_legal(j)) << move_text(q.board(), j);
    q.apply(j);
  }
  EXPECT_TRUE(goal_reached(Problem{p.board_ptr(), p.pegs(), goal}, q.pegs()));
}

}  // namespace

TEST(Play, LegalJumpsMatchTheReferenceAlongRandomPlayouts) {
  std::mt19937 rng(20240611);
  for (const BoardPtr& b : test_boards()) {
    for (int game = 0; game < 20; ++game) {
      Position p = start_of(b);
      const Position start = p;
      std::vector<Jump> made;
      for (;;) {
        std::vector<Jump> legal = p.legal_jumps();
        ASSERT_EQ(legal, reference::legal_jumps(*b, p.pegs())) << b->name() << " " << p.to_string();
        for (const Jump& j : b->jumps()) {
          bool listed = std::find(legal.begin(), legal.end(), j) != legal.end();
          ASSERT_EQ(p.is_legal(j), listed);
        }
        ASSERT_EQ(p.stuck(), legal.empty());
        ASSERT_EQ(p.over(), legal.empty());
        if (legal.empty()) break;
        std::uniform_int_distribution<std::size_t> pick(0, legal.size() - 1);
        Jump j = legal[pick(rng)];
        int before = p.peg_count();
        p.apply(j);
        EXPECT_EQ(p.peg_count(), before - 1);
        EXPECT_TRUE(p.is_peg(j.to));
        EXPECT_FALSE(p.is_peg(j.from));
        EXPECT_FALSE(p.is_peg(j.over));
        made.push_back(j);
      }
      // Undo takes every jump back exactly, last first; each step is the exact inverse.
      for (auto it = made.rbegin(); it != made.rend(); ++it) {
        Position q = p;
        p.undo(*it);
        Position r = p;
        r.apply(*it);
        ASSERT_EQ(r, q);
      }
      EXPECT_EQ(p, start) << b->name();
    }
  }
}

TEST(Play, IllegalJumpsAndUndosAreRefusedWithTheReason) {
  BoardPtr b = make_board("english");
  Position p = start_of(b);
  Position before = p;
  std::string e = error_of([&] { p.apply(parse_move(*b, "d4-d2")); });
  EXPECT_NE(e.find("d4-d2"), std::string::npos) << e;
  EXPECT_NE(e.find("no peg on d4"), std::string::npos) << e;
  e = error_of([&] { p.apply(Jump{0, 5, 2}); });
  EXPECT_NE(e.find("not a jump of board english"), std::string::npos) << e;
  e = error_of([&] { p.apply(Jump{0, 1, 99}); });
  EXPECT_NE(e.find("not a jump"), std::string::npos) << e;
  e = error_of([&] { p.undo(parse_move(*b, "d2-d4")); });
  EXPECT_NE(e.find("cannot take back jump d2-d4"), std::string::npos) << e;
  EXPECT_EQ(p, before);
  p.apply(parse_move(*b, "d2-d4"));
  e = error_of([&] { p.apply(parse_move(*b, "d2-d4")); });
  EXPECT_NE(e.find("no peg on d2"), std::string::npos) << e;
  e = error_of([&] { p.apply(parse_move(*b, "d6-d4")); });
  EXPECT_NE(e.find("d4 is not empty"), std::string::npos) << e;
  p.undo(parse_move(*b, "d2-d4"));
  EXPECT_EQ(p, before);
}

TEST(Play, PositionStringsAndDrawings) {
  BoardPtr b = make_board("english");
  Position p = start_of(b);
  EXPECT_EQ(p.to_string(), std::string(16, '1') + "0" + std::string(16, '1'));
  EXPECT_EQ(Position::parse(b, p.to_string()), p);
  EXPECT_EQ(Position::parse(b, " " + p.to_string() + "\n"), p);
  EXPECT_EQ(Position::parse(b, format_drawing(*b, p.pegs())), p);
  std::string e = error_of([&] { Position::parse(b, "1110", "arg"); });
  EXPECT_NE(e.find("arg: the position string has 4 characters; board english has 33"),
            std::string::npos)
      << e;
  e = error_of([&] { Position::parse(b, "  ooo\n  oxo\n", "pos.txt"); });
  EXPECT_NE(e.find("pos.txt:2:4"), std::string::npos) << e;
  e = error_of([&] { Position(b, HoleSet(5)); });
  EXPECT_NE(e.find("does not fit board english"), std::string::npos) << e;
}

TEST(Play, ChainsPrintAndParseBack) {
  std::mt19937 rng(7);
  for (const BoardPtr& b : test_boards()) {
    for (int game = 0; game < 10; ++game) {
      Position p = start_of(b);
      for (const Move& m : group_moves(playout(p, rng))) {
        std::string text = move_chain_text(*b, m);
        ASSERT_EQ(parse_move_chain(*b, text), m) << text;
        ASSERT_TRUE(p.is_legal(m)) << text;
        p.apply(m);
      }
    }
  }
  BoardPtr tri = make_board("triangle:5");
  Move m = parse_move_chain(*tri, "4-1-6");
  ASSERT_EQ(m.jumps.size(), 2u);
  EXPECT_EQ(m.jumps[0], (Jump{3, 1, 0}));
  EXPECT_EQ(m.jumps[1], (Jump{0, 2, 5}));
  EXPECT_EQ(move_chain_text(*tri, m), "4-1-6");
  BoardPtr eng = make_board("english");
  EXPECT_EQ(move_chain_text(*eng, parse_move_chain(*eng, "f3-d3-d5")), "f3-d3-d5");
}

// One reader of move lists: separators, move numbers as the command prints them, and errors that
// name the move's place; parse_moves() is the same list flattened into jumps.
TEST(Play, MoveListsReadWithSeparatorsAndNumbers) {
  BoardPtr b = make_board("english");
  const std::vector<Move> want{parse_move_chain(*b, "d2-d4"), parse_move_chain(*b, "f3-d3-d5")};
  for (const char* text : {"d2-d4 f3-d3-d5", " d2-d4,f3-d3-d5 ", "d2-d4\r\n\tf3-d3-d5\n",
                           "1.d2-d4 2.f3-d3-d5", "1.d2-d4, 2.F3-D3-D5"})
    EXPECT_EQ(parse_move_list(*b, text), want) << text;
  EXPECT_TRUE(parse_move_list(*b, " ,\n").empty());
  EXPECT_EQ(parse_moves(*b, "1.d2-d4 f3-d3-d5"), flatten(want));
  auto err = [&](const char* text) { return error_of([&] { parse_move_list(*b, text); }); };
  std::string e = err("d2-d4 zz");
  EXPECT_EQ(e.rfind("move 2: move 'zz': write the holes", 0), 0u) << e;
  e = err("d2-d4 f3-d3 d9-d7");
  EXPECT_EQ(e.rfind("move 3: move 'd9-d7': no hole named 'd9' on board english", 0), 0u) << e;
  e = err("x1.d2-d4");
  EXPECT_EQ(e.rfind("move 1: move 'x1.d2-d4': a move number is written as digits and a '.'", 0), 0u)
      << e;
  e = err("1.d2-d4 2.");
  EXPECT_EQ(e, "move 2: a move number without its move") << e;
  e = error_of([&] { parse_moves(*b, "d2-d4 d2-d5"); });
  EXPECT_EQ(e.rfind("move 2: move 'd2-d5': step 1 (d2-d5)", 0), 0u) << e;
}

TEST(Play, ChainErrorsNameTheTextAndTheStep) {
  BoardPtr b = make_board("english");
  auto err = [&](const char* text) { return error_of([&] { parse_move_chain(*b, text); }); };
  std::string e = err("f3-d3-d9");
  EXPECT_NE(e.find("move 'f3-d3-d9': no hole named 'd9' on board english"), std::string::npos) << e;
  e = err("f3-d3-d4");
  EXPECT_NE(e.find("move 'f3-d3-d4': step 2 (d3-d4)"), std::string::npos) << e;
  e = err("f3");
  EXPECT_NE(e.find("move 'f3': write the holes"), std::string::npos) << e;
  e = err("f3--d3");
  EXPECT_NE(e.find("hole 2 of the chain is missing"), std::string::npos) << e;
  // Legal steps in text, illegal on the board: the step is named and nothing changes.
  Position p = start_of(b);
  Position before = p;
  e = error_of([&] { p.apply(parse_move_chain(*b, "d2-d4-d6")); });
  EXPECT_NE(e.find("move d2-d4-d6: step 2 (jump d4-d6) is illegal: d6 is not empty"),
            std::string::npos)
      << e;
  EXPECT_EQ(p, before);
  Move broken{{parse_move(*b, "d2-d4"), parse_move(*b, "d6-d4")}};
  EXPECT_FALSE(p.is_legal(broken));
  e = error_of([&] { p.apply(broken); });
  EXPECT_NE(e.find("step 2 (jump d6-d4) is illegal: it does not start where"), std::string::npos)
      << e;
  e = error_of([&] { p.undo(broken); });
  EXPECT_NE(e.find("step 2 does not start where step 1 landed"), std::string::npos) << e;
  EXPECT_FALSE(p.is_legal(Move{}));
}

TEST(Play, LegalMovesAreTheLegalChains) {
  std::mt19937 rng(11);
  for (const BoardPtr& b : test_boards()) {
    Position p = start_of(b);
    std::vector<Jump> made = playout(p, rng);
    made.resize(made.size() / 2);
    for (const Jump& j : made) p.apply(j);
    std::vector<Move> moves = legal_moves(p);
    std::size_t singles = 0;
    std::set<std::string> seen;
    for (const Move& m : moves) {
      EXPECT_TRUE(p.is_legal(m));
      EXPECT_TRUE(seen.insert(move_chain_text(*b, m)).second);
      singles += m.jumps.size() == 1;
      // Every legal continuation of a chain is listed too.
      Position q = p;
      q.apply(m);
      for (const Jump& j : q.legal_jumps()) {
        if (j.from != m.to()) continue;
        Move longer = m;
        longer.jumps.push_back(j);
        EXPECT_TRUE(seen.count(move_chain_text(*b, longer)) ||
                    std::find(moves.begin(), moves.end(), longer) != moves.end());
      }
    }
    EXPECT_EQ(singles, p.legal_jumps().size());
  }
}

TEST(Play, GamePlayUndoRedo) {
  BoardPtr b = make_board("english");
  Game g(default_problem(b));
  EXPECT_FALSE(g.can_undo());
  EXPECT_FALSE(g.undo());
  EXPECT_FALSE(g.redo());
  g.play(parse_move_chain(*b, "d2-d4"));
  g.play(parse_move_chain(*b, "f3-d3"));
  Position after_two = g.position();
  EXPECT_TRUE(g.undo());
  EXPECT_EQ(g.cursor(), 1u);
  EXPECT_TRUE(g.can_redo());
  EXPECT_TRUE(g.redo());
  EXPECT_EQ(g.position(), after_two);
  EXPECT_TRUE(g.undo());
  EXPECT_TRUE(g.undo());
  EXPECT_EQ(g.position(), Position(b, g.problem().start));
  // Playing after an undo forgets the undone moves; an illegal move changes nothing.
  g.play(parse_move_chain(*b, "b4-d4"));
  EXPECT_EQ(g.moves().size(), 1u);
  EXPECT_THROW(g.play(parse_move_chain(*b, "b4-d4")), InputError);
  EXPECT_EQ(g.moves().size(), 1u);
  EXPECT_EQ(g.cursor(), 1u);
  EXPECT_FALSE(g.finished());
  EXPECT_FALSE(g.won());
}

TEST(Play, GameTextRoundTrips) {
  std::mt19937 rng(3);
  std::vector<Problem> problems;
  for (const BoardPtr& b : test_boards()) problems.push_back(default_problem(b));
  Drawing d = parse_drawing("lattice: triangular\n    .\n   o o\n  o o o\n o o o o\no o o o o\n",
                            "tri.txt");
  problems.push_back({d.board, d.pegs, {}});
  Drawing sq = parse_drawing("ooo\no.oo\n\n oooo\n", "sq.txt");
  problems.push_back({sq.board, sq.pegs, {Goal::Kind::Position, -1, HoleSet(sq.board->size())}});
  problems.back().goal.position.set(3);
  // One hole, named "1": the start "1" (its peg) must not read back as a vacancy there.
  Drawing one = parse_drawing("lattice: triangular\no\n", "one.txt");
  problems.push_back({one.board, one.pegs, {}});
  problems.push_back({one.board, HoleSet(1), {}});
  for (const Problem& p : problems) {
    for (int undone = 0; undone < 3; ++undone) {
      Game g(p);
      for (const Move& m : group_moves(playout(Position(p.board, p.start), rng))) g.play(m);
      for (int k = 0; k < undone; ++k) g.undo();
      std::string text = g.to_text();
      Game back = Game::parse(text, "round.txt");
      EXPECT_EQ(back.to_text(), text);
      EXPECT_EQ(back.moves(), g.moves());
      EXPECT_EQ(back.cursor(), g.cursor());
      EXPECT_EQ(back.position().pegs(), g.position().pegs());
      EXPECT_EQ(back.problem().start, p.start);
      EXPECT_EQ(back.problem().goal.kind, p.goal.kind);
      EXPECT_EQ(back.problem().goal.hole, p.goal.hole);
      EXPECT_EQ(back.problem().goal.position, p.goal.position);
      EXPECT_EQ(back.problem().board->size(), p.board->size());
      EXPECT_EQ(back.finished(), g.finished());
      EXPECT_TRUE(is_game_text(text));
    }
  }
}

TEST(Play, GameTextFormat) {
  BoardPtr b = make_board("english");
  Game g(default_problem(b));
  g.play(parse_move_chain(*b, "d2-d4"));
  g.play(parse_move_chain(*b, "f3-d3"));
  g.undo();
  EXPECT_EQ(g.to_text(),
            "pegsol game\n"
            "board: english\n"
            "start: 111111111111111101111111111111111\n"
            "goal: d4\n"
            "moves:\n"
            "d2-d4\n"
            "undone:\n"
            "f3-d3\n");
  // Comments, moves on one line with numbers and commas, a hole as the start, defaults.
  Game h = Game::parse(
      "# saved by hand\n"
      "pegsol game\n"
      "board: english   # the 33-hole cross\n"
      "start: d4\n"
      "moves: 1.d2-d4, 2.f3-d3\n"
      "  c3-e3\n");
  EXPECT_EQ(h.cursor(), 3u);
  EXPECT_EQ(h.problem().goal.kind, Goal::Kind::Any);
  Game t = Game::parse("pegsol game\nboard: triangle:5\nmoves:\n4-1\n6-4 1-6\n");
  EXPECT_EQ(t.problem().goal.kind, Goal::Kind::Any);
  EXPECT_EQ(t.problem().start, default_problem(t.problem().board).start);
  EXPECT_EQ(t.moves().size(), 3u);
  EXPECT_EQ(t.position().to_string(), "000101111111111");
  EXPECT_FALSE(is_game_text("  ooo\n  ooo\n"));
  EXPECT_FALSE(is_game_text(""));
  EXPECT_TRUE(is_game_text("\n# a game\npegsol game\n"));
}

TEST(Play, GameErrorsNameLineAndColumn) {
  auto err = [](const std::string& text) { return error_of([&] { Game::parse(text, "g.txt"); }); };
  const std::string head = "pegsol game\nboard: english\nstart: d4\ngoal: d4\n";
  std::string e = err(head + "moves:\nd2-d4 d2-d4\n");
  EXPECT_NE(e.find("g.txt:6:7: move 2: move d2-d4: step 1 (jump d2-d4) is illegal: there is no "
                   "peg on d2"),
            std::string::npos)
      << e;
  e = err(head + "moves:\n  z9-d4\n");
  EXPECT_NE(e.find("g.txt:6:3: move 'z9-d4': no hole named 'z9'"), std::string::npos) << e;
  e = err("board: english\n");
  EXPECT_NE(e.find("g.txt:1:1: a game file starts with the line 'pegsol game'"), std::string::npos)
      << e;
  e = err("pegsol game\nboard: english\nfinish: d4\n");
  EXPECT_NE(e.find("g.txt:3:1: unknown keyword 'finish'"), std::string::npos) << e;
  e = err("pegsol game\nboard: nope\n");
  EXPECT_NE(e.find("g.txt:2:8: unknown board 'nope'"), std::string::npos) << e;
  e = err("pegsol game\nboard: english\nstart: 1110\n");
  EXPECT_NE(e.find("g.txt:3:8: the start position has 4 characters"), std::string::npos) << e;
  e = err("pegsol game\nboard: english\ngoal: z9\n");
  EXPECT_NE(e.find("g.txt:3:7: goal 'z9'"), std::string::npos) << e;
  e = err("pegsol game\nstart: d4\n");
  EXPECT_NE(e.find("g.txt:2:1: 'board:' must come before 'start:'"), std::string::npos) << e;
  e = err("pegsol game\nboard:\n  ooo\n  oxo\nstart: 111111\n");
  EXPECT_NE(e.find("g.txt:4:4: unexpected 'x'"), std::string::npos) << e;
  e = err("pegsol game\nboard:\nstart: d4\n");
  EXPECT_NE(e.find("g.txt:2:7: 'board:' needs a catalogue board"), std::string::npos) << e;
  e = err(head + "d2-d4\n");
  EXPECT_NE(e.find("g.txt:5:1: expected 'board:'"), std::string::npos) << e;
  e = err(head + "moves: 3.\n");
  EXPECT_NE(e.find("g.txt:5:10: a move number without its move"), std::string::npos) << e;
  e = err(head + "moves:\nundone: d2-d4\nmoves:\n");
  EXPECT_NE(e.find("g.txt:7:1: 'moves:' is given twice"), std::string::npos) << e;
  e = err(head + "board: french\n");
  EXPECT_NE(e.find("g.txt:5:1: 'board:' is given twice"), std::string::npos) << e;
}

TEST(Play, EnglishCentralGameIsSolvableAndTheHintKeepsItSolvable) {
  BoardPtr b = make_board("english");
  Problem prob = default_problem(b);
  Position p(b, prob.start);
  SolvabilityAnswer a = is_solvable(p, prob.goal, 60);
  ASSERT_EQ(a.verdict, Solvability::Solvable) << a.reason;
  EXPECT_EQ(a.solution.size(), 31u);
  expect_reaches(p, prob.goal, a.solution);
  // Follow the hints to the end: each leads to a position that is still solvable.
  for (int step = 0; step < 40 && !goal_reached(prob, p.pegs()); ++step) {
    Hint h = hint(p, prob.goal, 60);
    ASSERT_EQ(h.answer.verdict, Solvability::Solvable) << h.answer.reason;
    ASSERT_TRUE(h.move.has_value());
    expect_reaches(p, prob.goal, h.answer.solution);
    ASSERT_TRUE(p.is_legal(*h.move));
    p.apply(*h.move);
  }
  EXPECT_TRUE(goal_reached(prob, p.pegs()));
  Hint done = hint(p, prob.goal, 1);
  EXPECT_EQ(done.answer.verdict, Solvability::Solvable);
  EXPECT_FALSE(done.move.has_value());
}

TEST(Play, NotSolvableComesWithTheProof) {
  BoardPtr b = make_board("french");
  Position p(b, single_vacancy(*b, *b->find("d4")));
  SolvabilityAnswer a = is_solvable(p, hole_goal(*b, "d4"), 10);
  EXPECT_EQ(a.verdict, Solvability::NotSolvable);
  EXPECT_NE(a.reason.find("position class"), std::string::npos) << a.reason;
  Hint h = hint(p, hole_goal(*b, "d4"), 10);
  EXPECT_EQ(h.answer.verdict, Solvability::NotSolvable);
  EXPECT_FALSE(h.move.has_value());
  // A stuck position with several pegs cannot reach one peg.
  BoardPtr e = make_board("english");
  std::mt19937 rng(5);
  Position q = start_of(e);
  for (const Jump& j : playout(q, rng)) q.apply(j);
  if (q.peg_count() > 1) {
    EXPECT_EQ(is_solvable(q, Goal{}, 10).verdict, Solvability::NotSolvable);
  }
  EXPECT_EQ(is_solvable(Position(e, HoleSet(e->size())), Goal{}, 1).verdict,
            Solvability::NotSolvable);
  EXPECT_THROW(is_solvable(q, Goal{Goal::Kind::Hole, 40, {}}, 1), InputError);
}

// Positions along random playouts on small boards: the answer agrees with the reference search,
// and a tiny time limit may say "unknown" but never contradicts it.
TEST(Play, AnswersAgreeWithTheReference) {
  std::mt19937 rng(99);
  for (const char* spec : {"triangle:5", "rect:4x4", "hexagon:2"}) {
    BoardPtr b = make_board(spec);
    for (int game = 0; game < 6; ++game) {
      Position p = start_of(b);
      std::vector<Jump> made = playout(p, rng);
      made.resize(made.size() / 3);
      for (const Jump& j : made) p.apply(j);
      for (int goal_hole = -1; goal_hole < b->size(); goal_hole += 3) {
        Goal goal;
        if (goal_hole >= 0) goal = Goal{Goal::Kind::Hole, goal_hole, {}};
        bool expected = reference::reaches(Problem{b, p.pegs(), goal});
        SolvabilityAnswer a = is_solvable(p, goal, 30);
        ASSERT_NE(a.verdict, Solvability::Unknown) << spec << " " << p.to_string();
        ASSERT_EQ(a.verdict == Solvability::Solvable, expected)
            << spec << " " << p.to_string() << " goal " << goal_hole << ": " << a.reason;
        if (expected) expect_reaches(p, goal, a.solution);
        SolvabilityAnswer quick = is_solvable(p, goal, 1e-9);
        if (quick.verdict == Solvability::NotSolvable) {
          EXPECT_FALSE(expected) << quick.reason;
        }
        if (quick.verdict == Solvability::Solvable) expect_reaches(p, goal, quick.solution);
        Hint h = hint(p, goal, 30);
        if (expected && h.move) {
          Position q = p;
          q.apply(*h.move);
          EXPECT_TRUE(reference::reaches(Problem{b, q.pegs(), goal}));
        }
      }
    }
  }
}

TEST(Play, TinyTimeLimitOnAHardProblemIsUnknown) {
  // A deadline already past stops the DFS at its first poll (1024 positions; this problem needs
  // more than 5000), so the answer is unknown whatever the machine's speed.
  BoardPtr b = make_board("diamond41");
  Position p(b, single_vacancy(*b, *b->find("e4")));
  Control limit;
  limit.set_time_limit(1e-9);
  SolveOptions o;
  o.control = &limit;
  o.algorithm = Algorithm::Dfs;
  SolvabilityAnswer a = is_solvable(p, Goal{}, o);
  EXPECT_EQ(a.verdict, Solvability::Unknown) << a.reason;
  std::atomic<bool> cancel{true};
  Control ctl;
  ctl.watch(&cancel);
  SolveOptions c;
  c.control = &ctl;
  EXPECT_EQ(is_solvable(p, Goal{}, c).verdict, Solvability::Unknown);
}
