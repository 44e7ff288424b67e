// SPDX-License-Identifier: MIT
// Board geometry, catalogue, layouts, invariants, drawings and their errors.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "core/geometry.hpp"
#include "core/layout.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/spec.hpp"
#include "reference/reference.hpp"

using namespace pegsol;

TEST(Catalogue, HoleJumpAndSymmetryCounts) {
  struct Row {
    const char* spec;
    int holes, jumps, syms;
  };
  // Jumps counted by hand from the shapes: each line of three holes gives two jumps.
  for (Row r :
       {Row{"english", 33, 76, 8}, Row{"french", 37, 92, 8}, Row{"diamond41", 41, 100, 8},
        Row{"wiegleb", 45, 108, 8}, Row{"triangle:5", 15, 36, 6}, Row{"triangle:4", 10, 18, 6},
        Row{"hexagon:2", 7, 6, 12}, Row{"hexagon:3", 19, 54, 12}, Row{"rect:3x4", 12, 20, 4},
        Row{"rect:4x4", 16, 32, 8}}) {
    BoardPtr b = make_board(r.spec);
    EXPECT_EQ(b->size(), r.holes) << r.spec;
    EXPECT_EQ(static_cast<int>(b->jumps().size()), r.jumps) << r.spec;
    EXPECT_EQ(static_cast<int>(b->symmetries().size()), r.syms) << r.spec;
  }
  EXPECT_EQ(make_board("triangle:32")->size(), 528);
  EXPECT_EQ(make_board("triangle:32")->width(), 1024);
  EXPECT_EQ(make_board("hexagon:4")->size(), 37);
  // Diagonal jumps on a 3x3 square: 2 per row, column and diagonal line of three.
  EXPECT_EQ(make_board("rect:3x3", Lattice::Square8)->jumps().size(), 16u);
}

TEST(Catalogue, BadSpecsNameTheProblem) {
  for (const char* spec : {"nope", "triangle", "triangle:2", "triangle:99", "rect:0x3", "rect:3",
                           "english:3", "hexagon:x"}) {
    try {
      make_board(spec);
      ADD_FAILURE() << spec << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(spec), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(make_board("triangle:5", Lattice::Square), InputError);
}

TEST(Board, NamesFollowTheDesign) {
  BoardPtr e = make_board("english");
  EXPECT_EQ(e->hole_name(0), "c1");
  EXPECT_EQ(*e->find("d4"), 16);  // the centre is the 17th hole in reading order
  EXPECT_EQ(*e->find("D4"), 16);
  EXPECT_FALSE(e->find("a1"));
  BoardPtr t = make_board("triangle:5");
  EXPECT_EQ(t->hole_name(0), "1");
  EXPECT_EQ(t->hole_name(14), "15");
  EXPECT_EQ(move_text(*t, t->jumps()[0]), "1-6");  // down-right: 1 over 3 into 6
  EXPECT_EQ(move_text(*t, parse_move(*t, "1-4")), "1-4");
  EXPECT_EQ(move_text(*e, parse_move(*e, "d2-d4")), "d2-d4");
  EXPECT_THROW(parse_move(*e, "d2-d5"), InputError);
  EXPECT_THROW(parse_move(*e, "z9-d4"), InputError);
}

TEST(Board, LayoutIsInjectiveAndClassesCoverEveryJump) {
  for (const char* spec : {"english", "french", "diamond41", "wiegleb", "triangle:8", "triangle:11",
                           "hexagon:5", "rect:7x9", "triangle:30"}) {
    BoardPtr b = make_board(spec);
    const auto& lay = layout(*b);
    EXPECT_EQ(lay.width(), b->width()) << spec;
    EXPECT_LE(lay.span(), lay.width()) << spec;
    std::set<int> bits;
    for (int h = 0; h < b->size(); ++h) {
      EXPECT_LT(lay.bit(h), lay.span());
      EXPECT_EQ(lay.hole_at_bit(lay.bit(h)), h);
      bits.insert(lay.bit(h));
    }
    EXPECT_EQ(static_cast<int>(bits.size()), b->size()) << spec;
    std::size_t covered = 0;
    for (const auto& c : lay.shift_classes())
      for (int j : c.jumps) {
        const Jump& jp = b->jumps()[static_cast<std::size_t>(j)];
        EXPECT_EQ(lay.bit(jp.over) - lay.bit(jp.from), c.mid);
        EXPECT_EQ(lay.bit(jp.to) - lay.bit(jp.from), c.to);
        ++covered;
      }
    EXPECT_EQ(covered, b->jumps().size()) << spec;
  }
  // The 41-hole diamond packs into 64 bits with one class per direction.
  EXPECT_EQ(make_board("diamond41")->width(), 64);
  EXPECT_EQ(layout(*make_board("diamond41")).shift_classes().size(), 4u);
  // A board's copy shares its layout; the layout checks its arguments.
  BoardPtr e = make_board("english");
  const Board copy = *e;
  EXPECT_EQ(&layout(copy), &layout(*e));
  EXPECT_THROW((void)layout(*e).bit(33), InputError);
  EXPECT_THROW((void)layout(*e).hole_at_bit(e->width()), InputError);
  EXPECT_EQ(layout(*e).hole_at_bit(e->width() - 1), -1);
}

TEST(Board, InvariantsAndPegTypesHoldForEveryJump) {
  for (const char* spec :
       {"english", "french", "triangle:5", "triangle:7", "hexagon:3", "rect:3x5", "rect:4x5"}) {
    BoardPtr b = make_board(spec);
    for (const HoleSet& inv : b->class_invariants())
      for (const Jump& j : b->jumps())
        EXPECT_EQ((inv.test(j.from) + inv.test(j.over) + inv.test(j.to)) % 2, 0) << spec;
    for (const Jump& j : b->jumps()) EXPECT_EQ(b->peg_type(j.from), b->peg_type(j.to));
    // Symmetries map jumps to jumps.
    std::set<std::tuple<int, int, int>> js;
    for (const Jump& j : b->jumps()) js.insert({j.from, j.over, j.to});
    for (const auto& s : b->symmetries())
      for (const Jump& j : b->jumps())
        EXPECT_TRUE(
            js.count({s[static_cast<std::size_t>(j.from)], s[static_cast<std::size_t>(j.over)],
                      s[static_cast<std::size_t>(j.to)]}));
  }
  EXPECT_EQ(make_board("english")->class_invariants().size(), 4u);  // the 16 position classes
  EXPECT_EQ(make_board("english")->peg_type_count(), 4);
}

// Move generation by shift classes against a plain loop over the jump list.
template <int W>
void compare_movegen(const char* spec, Lattice lattice, int samples) {
  BoardPtr b = make_board(spec, lattice);
  ASSERT_EQ(b->width(), W) << spec;
  Geometry<W> g(*b);
  std::mt19937_64 rng(std::hash<std::string>{}(spec));
  for (int i = 0; i < samples; ++i) {
    HoleSet pos(b->size());
    int density = static_cast<int>(rng() % 100);
    for (int h = 0; h < b->size(); ++h) pos.set(h, static_cast<int>(rng() % 100) < density);
    std::set<int> fast;
    g.for_each_jump(g.to_bits(pos), [&](int j) { fast.insert(j); });
    const std::vector<int> legal = reference::legal_jump_indices(*b, pos);
    const std::set<int> simple(legal.begin(), legal.end());
    ASSERT_EQ(fast, simple) << spec << " sample " << i;
    EXPECT_EQ(g.to_holes(g.to_bits(pos)), pos);
    // Symmetries: the image through the bit tables equals the image through the hole permutation.
    for (int s = 0; s < g.symmetry_count(); ++s) {
      HoleSet img(b->size());
      for (int h : pos.members())
        img.set(b->symmetries()[static_cast<std::size_t>(s)][static_cast<std::size_t>(h)]);
      ASSERT_EQ(g.to_holes(g.apply(s, g.to_bits(pos))), img) << spec << " symmetry " << s;
    }
  }
}

TEST(MoveGen, MatchesSimpleGenerator) {
  compare_movegen<64>("english", Lattice::Square, 2000);
  compare_movegen<64>("diamond41", Lattice::Square, 2000);
  compare_movegen<64>("wiegleb", Lattice::Square, 1000);
  compare_movegen<64>("triangle:6", Lattice::Triangular, 2000);
  compare_movegen<64>("hexagon:4", Lattice::Triangular, 1000);
  compare_movegen<64>("english", Lattice::Square8, 1000);
  compare_movegen<128>("triangle:12", Lattice::Triangular, 500);
  compare_movegen<128>("rect:9x11", Lattice::Square8, 300);
  compare_movegen<512>("triangle:30", Lattice::Triangular, 100);
}

TEST(Drawing, ParsesSquareAndTriangular) {
  Drawing d = parse_drawing("# a comment\n  ooo\n  o.o\nooooooo\n", "t.txt");
  EXPECT_EQ(d.board->size(), 13);
  EXPECT_EQ(d.pegs.count(), 12);
  EXPECT_EQ(d.board->lattice(), Lattice::Square);
  Drawing t =
      parse_drawing("lattice: triangular\n    .\n   o o\n  o o o\n o o o o\no o o o o\n", "t.txt");
  EXPECT_EQ(t.board->size(), 15);
  EXPECT_EQ(t.board->jumps().size(), 36u);
  EXPECT_EQ(t.board->symmetries().size(), 6u);
  EXPECT_FALSE(t.pegs.test(0));
  // Round trip through the writer.
  BoardPtr e = make_board("english");
  HoleSet pos = single_vacancy(*e, 16);
  EXPECT_EQ(parse_position(*e, format_drawing(*e, pos), "x"), pos);
  BoardPtr tri = make_board("triangle:6");
  HoleSet tp = single_vacancy(*tri, 4);
  EXPECT_EQ(parse_position(*tri, format_drawing(*tri, tp), "x"), tp);
  Drawing d8 = parse_drawing("lattice square8\nooo\noo.\n", "d8");
  EXPECT_EQ(d8.board->lattice(), Lattice::Square8);
}

namespace {
std::string error_of(std::string_view text, std::optional<Lattice> l = std::nullopt) {
  try {
    parse_drawing(text, "f.txt", l);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Drawing, EdgesOfTheFormat) {
  // A UTF-8 byte-order mark is skipped; the rest reads as without it.
  EXPECT_EQ(error_of("\xEF\xBB\xBFooo\n"), "");
  EXPECT_EQ(parse_drawing("\xEF\xBB\xBFlattice: triangular\n  .\n o o\n", "f.txt").board->size(),
            3);
  // One lattice line; strict lattice names.
  EXPECT_NE(error_of("lattice: square\nlattice: square8\nooo\n")
                .find("f.txt:2:1: a second lattice line (the first is line 1)"),
            std::string::npos);
  EXPECT_NE(error_of("lattice: hex\nooo\n").find("unknown lattice 'hex'"), std::string::npos);
  EXPECT_FALSE(parse_lattice("triangle"));
  EXPECT_EQ(parse_lattice("triangular"), Lattice::Triangular);
  // Bytes that are not printable are named, never copied into the message.
  const std::string nul = error_of(std::string("oo\0o\n", 5));
  EXPECT_NE(nul.find("f.txt:1:3: unexpected byte 0x00"), std::string::npos) << nul;
  EXPECT_EQ(nul.find('\0'), std::string::npos);
  EXPECT_NE(error_of("o\xC3\xA9o\n").find("unexpected byte 0xc3"), std::string::npos);
  // More holes than any board holds: refused at the first one too many, before a board exists.
  const std::string big = error_of(std::string(1025, 'o') + "\n");
  EXPECT_NE(big.find("f.txt:1:1025: the drawing has more than 1024 holes"), std::string::npos)
      << big;
  EXPECT_EQ(error_of(std::string(1024, 'o') + "\n"), "");
}

TEST(Catalogue, RectangleSidesDoNotOverflow) {
  // R * C past int's range once wrapped around (undefined behaviour; found by fuzzing).
  EXPECT_THROW(make_board("rect:611111119x6"), InputError);
  EXPECT_THROW(make_board("rect:65536x65537"), InputError);
  EXPECT_THROW(make_board("rect:2147483647x2147483647"), InputError);
  EXPECT_EQ(make_board("rect:1x1024")->size(), 1024);
}

TEST(Names, ClosestName) {
  const std::vector<std::string> names{"solve", "count", "table", "solutions", "show"};
  EXPECT_EQ(closest_name("sovle", names), "solve");   // a swap
  EXPECT_EQ(closest_name("cont", names), "count");    // a deletion
  EXPECT_EQ(closest_name("tables", names), "table");  // an insertion
  EXPECT_EQ(closest_name("solutons", names), "solutions");
  EXPECT_EQ(closest_name("zzzzz", names), std::nullopt);  // nothing near
  EXPECT_EQ(closest_name("solve", names), std::nullopt);  // the name itself needs no suggestion
  EXPECT_EQ(closest_name("", names), std::nullopt);
}

TEST(Drawing, StrictErrorsNameLineAndColumn) {
  EXPECT_EQ(error_of("ooo\noxo\n").substr(0, 10), "f.txt:2:2:");
  EXPECT_NE(error_of("ooo\no\to\n").find("tab"), std::string::npos);
  EXPECT_NE(error_of("\n\n   \n").find("no holes"), std::string::npos);
  EXPECT_NE(error_of("").find("no holes"), std::string::npos);
  EXPECT_NE(error_of("lattice: hexx\nooo\n").find("f.txt:1:1: unknown lattice"), std::string::npos);
  // Ragged triangle: the third row is not shifted.
  std::string ragged = error_of("  o\n o o\n o o o\n", Lattice::Triangular);
  EXPECT_EQ(ragged.substr(0, 10), "f.txt:3:2:") << ragged;
  EXPECT_NE(ragged.find("ragged"), std::string::npos);
  EXPECT_NE(error_of(" oo\n", Lattice::Triangular).find("separated by a space"), std::string::npos);
  EXPECT_NE(error_of("ooo\nlattice: square\n").find("before the drawing"), std::string::npos);
  BoardPtr e = make_board("english");
  try {
    parse_position(*e, "  ooo\n  ooo\nooooooo\nooooooo\nooooooo\n  ooo\n  oo\n", "p.txt");
    ADD_FAILURE();
  } catch (const InputError& ex) {
    EXPECT_NE(std::string(ex.what()).find("missing"), std::string::npos) << ex.what();
  }
  try {
    parse_position(*e, "oooo\n", "p.txt");
    ADD_FAILURE();
  } catch (const InputError& ex) {
    EXPECT_NE(std::string(ex.what()).find("p.txt:1:"), std::string::npos) << ex.what();
  }
}
