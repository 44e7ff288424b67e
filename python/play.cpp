// SPDX-License-Identifier: MIT
// The play API in Python: boards, jumps, moves, positions, problems and games.
#include <string>

#include "common.hpp"
#include "pegsol/error.hpp"
#include "pegsol/json.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/presets.hpp"
#include "pegsol/spec.hpp"
#include "pegsol/version.hpp"

namespace pegsol::python {

namespace {

BoardRef board_arg(py::handle board, const std::string& lattice) {
  ProblemArgs a;
  a.board = py::reinterpret_borrow<py::object>(board);
  a.lattice = lattice;
  return BoardRef{board_of(a, "a board")};
}

// The pegs `pegs` names on `b`: a 0/1 string or a drawing, or a collection of holes.
HoleSet pegs_arg(const BoardPtr& b, py::handle pegs) {
  if (py::isinstance<py::str>(pegs)) return Position::parse(b, pegs.cast<std::string>()).pegs();
  HoleSet set(b->size());
  for (py::handle h : pegs) set.set(hole_of(*b, h, "pegs"));
  return set;
}

// A jump when `x` is one (a pegsol.Jump, or three holes); otherwise nullopt (a move).
std::optional<Jump> single_jump(const Board& b, py::handle x) {
  if (py::isinstance<Jump>(x)) return x.cast<Jump>();
  if (py::isinstance<py::str>(x) || !py::isinstance<py::sequence>(x) || py::len(x) != 3)
    return std::nullopt;
  for (py::handle h : x)
    if (!py::isinstance<py::int_>(h)) return std::nullopt;
  return jump_of(b, x);
}

std::string goal_text(const Problem& p) {
  switch (p.goal.kind) {
    case Goal::Kind::Hole:
      return "one peg on " + p.board->hole_name(p.goal.hole);
    case Goal::Kind::Any:
      return "one peg anywhere";
    case Goal::Kind::Position:
      return "the position " + p.goal.position.to_bits();
  }
  return "";
}

std::string jump_repr(const Jump& j) {
  return "pegsol.Jump(" + std::to_string(j.from) + ", " + std::to_string(j.over) + ", " +
         std::to_string(j.to) + ")";
}

}  // namespace

void bind_play(py::module_& m) {
  m.def(
      "version", [] { return std::string(version()); },
      "The library's version, as `pegsol --version` prints it.");
  m.def(
      "boards",
      [] {
        py::list l;
        for (const CatalogueEntry& e : catalogue()) l.append(py::make_tuple(e.spec, e.description));
        return l;
      },
      "The catalogue as (spec, description) pairs, one example size per family.");
  m.def(
      "catalogue_json", [] { return to_python(catalogue_json()); },
      "What `pegsol boards --json` prints.");
  m.def(
      "presets_json", [] { return to_python(presets_json()); },
      "What `pegsol presets --json` prints: the named classic problems, easiest first.");

  py::class_<Jump>(m, "Jump",
                   "One jump: the peg on from_ jumps over `over` into `to` (0-based "
                   "hole indices in reading order).")
      .def(py::init([](int from, int over, int to) {
             return Jump{from, over, to};
           }),
           py::arg("from_"), py::arg("over"), py::arg("to"))
      .def_readonly("from_", &Jump::from)
      .def_readonly("over", &Jump::over)
      .def_readonly("to", &Jump::to)
      .def("__iter__", [](const Jump& j) { return py::iter(py::make_tuple(j.from, j.over, j.to)); })
      .def("__len__", [](const Jump&) { return 3; })
      .def("__getitem__",
           [](const Jump& j, py::object i) {
             return py::make_tuple(j.from, j.over, j.to).attr("__getitem__")(i);
           })
      .def("__eq__",
           [](const Jump& j, py::object o) {
             if (py::isinstance<Jump>(o)) return j == o.cast<Jump>();
             return py::make_tuple(j.from, j.over, j.to).equal(o);
           })
      .def("__hash__", [](const Jump& j) { return py::hash(py::make_tuple(j.from, j.over, j.to)); })
      .def("__repr__", &jump_repr);

  py::class_<Move>(m, "Move", "A move: a chain of jumps by one peg.")
      .def(py::init([](std::vector<Jump> jumps) {
             if (jumps.empty()) throw InputError("a move needs at least one jump");
             for (std::size_t i = 1; i < jumps.size(); ++i)
               if (jumps[i].from != jumps[i - 1].to)
                 throw InputError("jump " + std::to_string(i + 1) +
                                  " of the move does not start where the one before landed");
             return Move{std::move(jumps)};
           }),
           py::arg("jumps"))
      .def_property_readonly("jumps", [](const Move& mv) { return jump_list(mv.jumps); })
      .def_property_readonly("from_", &Move::from, "The hole the moving peg starts from.")
      .def_property_readonly("to", &Move::to, "The hole the moving peg ends on.")
      .def("__len__", [](const Move& mv) { return mv.jumps.size(); })
      .def("__iter__", [](const Move& mv) { return py::iter(jump_list(mv.jumps)); })
      .def("__eq__", [](const Move& a,
                        py::object o) { return py::isinstance<Move>(o) && a == o.cast<Move>(); })
      .def("__repr__", [](const Move& mv) {
        std::string s = "pegsol.Move([";
        for (std::size_t i = 0; i < mv.jumps.size(); ++i)
          s += (i ? ", " : "") + jump_repr(mv.jumps[i]);
        return s + "])";
      });

  py::class_<BoardRef>(m, "Board",
                       "An immutable board: a catalogue board (\"english\", \"triangle:5\", "
                       "\"rect:3x4\", ...) or one drawn as text (pegsol.draw).")
      .def(py::init([](py::object spec, std::string lattice) { return board_arg(spec, lattice); }),
           py::arg("spec") = "english", py::arg("lattice") = "")
      .def_property_readonly("name", [](const BoardRef& b) { return b->name(); })
      .def_property_readonly(
          "lattice", [](const BoardRef& b) { return std::string(lattice_name(b->lattice())); })
      .def_property_readonly("size", [](const BoardRef& b) { return b->size(); })
      .def("__len__", [](const BoardRef& b) { return b->size(); })
      .def_property_readonly("hole_names",
                             [](const BoardRef& b) {
                               py::list l;
                               for (int h = 0; h < b->size(); ++h) l.append(b->hole_name(h));
                               return l;
                             })
      .def(
          "hole_name",
          [](const BoardRef& b, py::handle h) { return b->hole_name(hole_of(*b, h, "hole")); },
          py::arg("hole"))
      .def(
          "hole", [](const BoardRef& b, py::handle h) { return hole_of(*b, h, "hole"); },
          py::arg("hole"), "The index of a hole given by name (or index); InputError if none.")
      .def_property_readonly("coords",
                             [](const BoardRef& b) {
                               py::list l;
                               for (int h = 0; h < b->size(); ++h)
                                 l.append(py::make_tuple(b->coord(h).r, b->coord(h).c));
                               return l;
                             })
      .def_property_readonly("jumps", [](const BoardRef& b) { return jump_list(b->jumps()); })
      .def_property_readonly("symmetries", [](const BoardRef& b) { return b->symmetries(); })
      .def(
          "notation",
          [](const BoardRef& b, py::handle x) {
            if (auto j = single_jump(*b, x)) return move_text(*b, *j);
            return move_chain_text(*b, move_of(*b, x));
          },
          py::arg("move"), "A jump's or a move's text: \"d2-d4\", \"f3-d3-d5\".")
      .def(
          "parse_move",
          [](const BoardRef& b, const std::string& text) { return parse_move_chain(*b, text); },
          py::arg("text"), "The move a chain's text names (\"f3-d3-d5\", \"4-1\").")
      .def(
          "position",
          [](const BoardRef& b, py::handle pegs) { return Position(b.ptr, pegs_arg(b.ptr, pegs)); },
          py::arg("pegs"), "A position: a 0/1 string, a drawing, or the holes with pegs.")
      .def(
          "single_vacancy",
          [](const BoardRef& b, py::handle h) {
            return Position(b.ptr, single_vacancy(*b, hole_of(*b, h, "hole")));
          },
          py::arg("hole"), "Every hole filled but `hole`.")
      .def(
          "default_problem",
          [](const BoardRef& b) -> py::object {
            try {
              return py::cast(default_problem(b.ptr));
            } catch (const InputError&) {
              return py::none();
            }
          },
          "The catalogue's default problem, or None (drawn boards).")
      .def(
          "to_json", [](const BoardRef& b) { return to_python(board_json(*b)); },
          "What `pegsol show --json` prints.")
      .def(
          "geometry_json", [](const BoardRef& b) { return to_python(geometry_json(*b)); },
          "to_json() with the coordinates, the jump list and the default problem.")
      .def("__eq__",
           [](const BoardRef& a, py::object o) {
             return py::isinstance<BoardRef>(o) && same_board(*a, *o.cast<const BoardRef&>());
           })
      .def("__hash__",
           [](const BoardRef& b) { return py::hash(py::make_tuple(b->name(), b->size())); })
      .def("__str__",
           [](const BoardRef& b) { return format_drawing(*b, HoleSet(b->size(), true)); })
      .def("__repr__", [](const BoardRef& b) { return "pegsol.Board('" + b->name() + "')"; });

  m.def(
      "draw",
      [](const std::string& text, std::string lattice, const std::string& source) {
        std::optional<Lattice> l;
        if (!lattice.empty()) {
          l = parse_lattice(lattice);
          if (!l)
            throw InputError("lattice " + lattice + ": expected square, square8 or triangular");
        }
        Drawing d = parse_drawing(text, source, l);
        return Position(d.board, d.pegs);
      },
      py::arg("text"), py::arg("lattice") = "", py::arg("source") = "drawing",
      "A board drawn as text (docs/board-format.md) with the drawing's pegs, as a Position; its "
      "board is position.board.");

  py::class_<Position>(m, "Position", "The pegs on a board.")
      .def(py::init([](py::object board, py::handle pegs) {
             BoardRef b =
                 py::isinstance<BoardRef>(board) ? board.cast<BoardRef>() : board_arg(board, "");
             return Position(b.ptr, pegs_arg(b.ptr, pegs));
           }),
           py::arg("board"), py::arg("pegs"))
      .def_property_readonly("board", [](const Position& p) { return BoardRef{p.board_ptr()}; })
      .def_property_readonly(
          "pegs", [](const Position& p) { return p.pegs().members(); },
          "The holes with a peg (indices).")
      .def_property_readonly("peg_names",
                             [](const Position& p) { return hole_names(p.board(), p.pegs()); })
      .def_property_readonly("peg_count", &Position::peg_count)
      .def(
          "is_peg",
          [](const Position& p, py::handle h) { return p.is_peg(hole_of(p.board(), h, "hole")); },
          py::arg("hole"))
      .def("legal_jumps", [](const Position& p) { return jump_list(p.legal_jumps()); })
      .def(
          "legal_moves", [](const Position& p) { return move_list(legal_moves(p)); },
          "Every legal move: each jump, and each longer chain the same peg can go on with.")
      .def(
          "is_legal",
          [](const Position& p, py::handle x) {
            if (auto j = single_jump(p.board(), x)) return p.is_legal(*j);
            return p.is_legal(move_of(p.board(), x));
          },
          py::arg("move"))
      .def(
          "apply",
          [](Position& p, py::handle x) {
            if (auto j = single_jump(p.board(), x))
              p.apply(*j);
            else
              p.apply(move_of(p.board(), x));
          },
          py::arg("move"),
          "Makes a jump or a move (a Jump, a Move, \"d2-d4\", \"f3-d3-d5\"); InputError naming "
          "why it is illegal.")
      .def(
          "undo",
          [](Position& p, py::handle x) {
            if (auto j = single_jump(p.board(), x))
              p.undo(*j);
            else
              p.undo(move_of(p.board(), x));
          },
          py::arg("move"), "Takes back a jump or a move, the exact inverse of apply.")
      .def("stuck", &Position::stuck, "No jump is legal.")
      .def("copy", [](const Position& p) { return p; })
      .def("__copy__", [](const Position& p) { return p; })
      .def(
          "__deepcopy__", [](const Position& p, py::object) { return p; }, py::arg("memo"))
      .def("to_string", &Position::to_string, "The 0/1 string (solve's JSON's \"start\").")
      .def("__str__", [](const Position& p) { return format_drawing(p.board(), p.pegs()); })
      .def("__repr__",
           [](const Position& p) {
             return "pegsol.Position(pegsol.Board('" + p.board().name() + "'), '" + p.to_string() +
                    "')";
           })
      .def("__eq__",
           [](const Position& a, py::object o) {
             if (!py::isinstance<Position>(o)) return false;
             const Position& b = o.cast<const Position&>();
             return same_board(a.board(), b.board()) && a.pegs() == b.pegs();
           })
      .def("__hash__", [](const Position& p) {
        return py::hash(py::make_tuple(p.board().name(), p.to_string()));
      });

  py::class_<Problem>(m, "Problem", "A board, a start position and a goal.")
      .def(py::init([](py::object board, py::object start, py::object end, py::object goal,
                       std::string lattice) {
             return problem_of(ProblemArgs{py::none(), board, start, end, goal, lattice});
           }),
           py::kw_only(), py::arg("board") = py::none(), py::arg("start") = py::none(),
           py::arg("end") = py::none(), py::arg("goal") = py::none(), py::arg("lattice") = "")
      .def_property_readonly("board", [](const Problem& p) { return BoardRef{p.board}; })
      .def_property_readonly("start", [](const Problem& p) { return Position(p.board, p.start); })
      .def_property_readonly(
          "end",
          [](const Problem& p) -> py::object {
            if (p.goal.kind == Goal::Kind::Hole) return py::str(p.board->hole_name(p.goal.hole));
            if (p.goal.kind == Goal::Kind::Any) return py::str("any");
            return py::none();
          },
          "The last peg's hole, \"any\", or None for a whole-position goal.")
      .def_property_readonly(
          "goal",
          [](const Problem& p) -> py::object {
            if (p.goal.kind != Goal::Kind::Position) return py::none();
            return py::cast(Position(p.board, p.goal.position));
          },
          "The whole target position, or None.")
      .def(
          "reached",
          [](const Problem& p, const Position& pos) { return goal_reached(p, pos.pegs()); },
          py::arg("position"), "Whether `position` satisfies the goal.")
      .def("__str__", [](const Problem& p) { return describe(p); })
      .def("__repr__", [](const Problem& p) {
        return "<pegsol.Problem " + p.board->name() + ": " + goal_text(p) + ">";
      });

  m.def(
      "preset", [](const std::string& name) { return preset_problem(preset(name)); },
      py::arg("name"), "The preset problem of that name (`pegsol presets`).");

  py::class_<Game>(m, "Game", "A game: a problem and the moves played, with undo and redo.")
      .def(py::init([](py::object problem, py::object board, py::object start, py::object end,
                       py::object goal, std::string lattice, py::object moves) {
             Problem p = problem_of(ProblemArgs{problem, board, start, end, goal, lattice});
             return game_after(p, moves_of(*p.board, moves));
           }),
           py::arg("problem") = py::none(), py::kw_only(), py::arg("board") = py::none(),
           py::arg("start") = py::none(), py::arg("end") = py::none(), py::arg("goal") = py::none(),
           py::arg("lattice") = "", py::arg("moves") = py::none())
      .def_static("parse", &Game::parse, py::arg("text"), py::arg("source") = "game",
                  "Reads a game file's text (docs/game-format.md).")
      .def("to_text", &Game::to_text, "The game file's text; Game.parse reads it back.")
      .def(
          "to_json", [](const Game& g) { return to_python(game_json(g)); },
          "The game as the API's POST /api/game answers it.")
      .def_property_readonly("problem", &Game::problem)
      .def_property_readonly("board", [](const Game& g) { return BoardRef{g.problem().board}; })
      .def_property_readonly(
          "moves", [](const Game& g) { return move_list(g.moves()); },
          "Every move, played and undone; the first `cursor` are played.")
      .def_property_readonly("played", [](const Game& g) { return move_list(g.played()); })
      .def_property_readonly("cursor", &Game::cursor)
      .def_property_readonly("position", [](const Game& g) { return g.position(); })
      .def_property_readonly("can_undo", &Game::can_undo)
      .def_property_readonly("can_redo", &Game::can_redo)
      .def_property_readonly("finished", &Game::finished, "No legal jump is left.")
      .def_property_readonly("won", &Game::won, "The position reaches the goal.")
      .def(
          "play", [](Game& g, py::handle mv) { g.play(move_of(*g.problem().board, mv)); },
          py::arg("move"), "Plays a move and forgets the undone ones; InputError if illegal.")
      .def("undo", &Game::undo, "Takes back the last move; False when none is played.")
      .def("redo", &Game::redo, "Plays the next undone move again; False when none is left.")
      .def("__repr__", [](const Game& g) {
        return "<pegsol.Game " + g.problem().board->name() + ", " + std::to_string(g.cursor()) +
               " moves played>";
      });
}

}  // namespace pegsol::python
