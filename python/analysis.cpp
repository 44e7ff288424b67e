// SPDX-License-Identifier: MIT
// The analysis in Python: verdicts with their proofs, ways left, end holes, hints and "where did
// I go wrong", over the library's Analyzer.
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "common.hpp"
#include "pegsol/analysis.hpp"
#include "pegsol/error.hpp"
#include "pegsol/json.hpp"
#include "pegsol/path_index.hpp"

namespace pegsol::python {

namespace {

// One verdict (to the goal, or to one peg anywhere) with its explanation.
struct Verdict {
  BoardPtr board;
  SolvabilityAnswer answer;
  Explanation explanation;
};

struct AnalysisOutcome {
  Position position;
  Analysis analysis;
};

struct MistakeOutcome {
  Game game;
  Mistake mistake;
};

struct HintOutcome {
  Position position;
  Hint hint;
};

// The analysis options from the keyword arguments (the analyses' defaults where None).
struct OptionArgs {
  py::object time_limit, count, hint, explain, lookup, lookup_memory, lookup_seconds;

  AnalysisOptions options() const {
    AnalysisOptions o;
    if (!time_limit.is_none()) o.time_limit = seconds_arg(time_limit, "time_limit");
    if (!count.is_none()) o.count = count.cast<bool>();
    if (!hint.is_none()) o.hint = hint.cast<bool>();
    if (!explain.is_none()) o.explain = explain.cast<bool>();
    if (!lookup.is_none()) o.lookup = lookup.cast<bool>();
    if (auto bytes = megabytes_arg(lookup_memory, "lookup_memory")) o.lookup_memory = *bytes;
    if (!lookup_seconds.is_none()) o.lookup_seconds = seconds_arg(lookup_seconds, "lookup_seconds");
    return o;
  }
};

#define PEGSOL_OPTION_ARGS                                                                         \
  py::arg("time_limit") = py::none(), py::arg("count") = py::none(), py::arg("hint") = py::none(), \
  py::arg("explain") = py::none(), py::arg("lookup") = py::none(),                                 \
  py::arg("lookup_memory") = py::none(), py::arg("lookup_seconds") = py::none(),                   \
  py::arg("progress") = py::none()

// The goal `end` or `goal` names on the position's board (one peg anywhere when neither).
Goal goal_of(const Position& p, py::object end, py::object goal) {
  return problem_of(ProblemArgs{py::none(), py::none(), py::cast(p), end, goal, ""}).goal;
}

// The census look-ups of the module-level analyze() and first_mistake(), which make an Analyzer
// per call: one cache shared by their calls, owned by the module's functions (the library keeps
// no state of its own), so that a game's look-ups are built once, and a build stopped by its
// bounds is not tried again at every call, as an Analyzer keeps its own. Builds run in the
// calling thread (stopped by the call's cancel, not its deadline) within lookup_memory and
// lookup_seconds; a call with other bounds replaces the cache by one with its bounds.
class ModuleLookups {
 public:
  ModuleLookups() : cache_(make(AnalysisOptions{})) {}

  // The cache for calls with o's bounds.
  std::shared_ptr<PathIndexCache> cache(const AnalysisOptions& o) {
    std::lock_guard lock(m_);
    if (memory_ != o.lookup_memory || seconds_ != o.lookup_seconds) cache_ = make(o);
    return cache_;
  }
  // The cache the last calls used.
  std::shared_ptr<PathIndexCache> current() {
    std::lock_guard lock(m_);
    return cache_;
  }
  // Drops every index and every failure remembered.
  void clear() {
    std::lock_guard lock(m_);
    AnalysisOptions o;
    o.lookup_memory = memory_;
    o.lookup_seconds = seconds_;
    cache_ = make(o);
  }

 private:
  std::shared_ptr<PathIndexCache> make(const AnalysisOptions& o) {
    memory_ = o.lookup_memory;
    seconds_ = o.lookup_seconds;
    PathIndexCache::Options co;
    co.background = false;
    co.build_memory = o.lookup_memory;
    co.build_seconds = o.lookup_seconds;
    return std::make_shared<PathIndexCache>(co);
  }

  std::mutex m_;
  std::size_t memory_ = 0;
  double seconds_ = 0;
  std::shared_ptr<PathIndexCache> cache_;
};

// Runs one analyzer call through a Call (the GIL released, Ctrl-C honoured).
template <class R>
R watched(py::object progress, const std::function<R(const Control*)>& work) {
  Call call(0, 0, progress);
  std::optional<R> out;
  call.run([&] { out.emplace(work(&call.control())); },
           [&] { return out ? py::cast(*out) : py::object(py::none()); });
  return std::move(*out);
}

AnalysisOutcome analyze_with(const Analyzer& a, py::handle x, py::object start,
                             const OptionArgs& args, py::object progress,
                             ModuleLookups* shared = nullptr) {
  AnalysisOptions o = args.options();
  std::optional<Position> pos;
  if (py::isinstance<Game>(x)) {
    const Game& g = x.cast<const Game&>();
    pos = g.position();
    o.start = g.problem().start;
  } else if (py::isinstance<Position>(x)) {
    pos = x.cast<Position>();
  } else {
    throw py::type_error("expected a pegsol.Game or a pegsol.Position, got " +
                         py::repr(x).cast<std::string>());
  }
  if (!start.is_none()) {
    if (py::isinstance<Game>(x)) throw InputError("start: a game's analysis starts from its start");
    ProblemArgs s{py::none(), py::cast(BoardRef{pos->board_ptr()}), start, py::none(), py::none(),
                  ""};
    o.start = problem_of(s).start;
  }
  std::shared_ptr<PathIndexCache> paths;
  if (shared && o.lookup && o.start) o.paths = (paths = shared->cache(o)).get();
  return watched<AnalysisOutcome>(progress, [&](const Control* c) {
    o.control = c;
    return AnalysisOutcome{*pos, a.analyze(*pos, o)};
  });
}

MistakeOutcome mistake_with(const Analyzer& a, const Game& g, const OptionArgs& args,
                            py::object progress, ModuleLookups* shared = nullptr) {
  AnalysisOptions o = args.options();
  o.start = g.problem().start;
  std::shared_ptr<PathIndexCache> paths;
  if (shared && o.lookup) o.paths = (paths = shared->cache(o)).get();
  return watched<MistakeOutcome>(progress, [&](const Control* c) {
    o.control = c;
    return MistakeOutcome{g, a.first_mistake(g, o)};
  });
}

py::object ways(const Analysis& a, Count c) {
  return a.counted ? py::object(to_int(c)) : py::object(py::none());
}

py::object holes_or_none(const std::optional<std::vector<int>>& holes) {
  return holes ? py::cast(*holes) : py::object(py::none());
}

}  // namespace

void bind_analysis(py::module_& m) {
  py::class_<Verdict>(m, "Verdict", "Whether a position can still reach a target, and why.")
      .def_property_readonly(
          "verdict",
          [](const Verdict& v) { return std::string(solvability_name(v.answer.verdict)); },
          "\"solvable\", \"not solvable\" or \"unknown\".")
      .def_property_readonly(
          "solvable",
          [](const Verdict& v) -> py::object {
            if (v.answer.verdict == Solvability::Unknown) return py::none();
            return py::bool_(v.answer.verdict == Solvability::Solvable);
          },
          "True, False, or None when the bounded work could not decide.")
      .def_property_readonly(
          "reason", [](const Verdict& v) { return v.answer.reason; },
          "The engine's proof (not solvable) or why it is unknown.")
      .def_property_readonly(
          "explanation", [](const Verdict& v) { return v.explanation.text; },
          "The verdict in plain words for a player.")
      .def_property_readonly("proof_holes",
                             [](const Verdict& v) { return holes_or_none(v.explanation.holes); })
      .def_property_readonly(
          "solution", [](const Verdict& v) { return jump_list(v.answer.solution); },
          "Solvable: a solution from the position, replayed by the library.")
      .def_property_readonly("nodes", [](const Verdict& v) { return v.answer.nodes; })
      .def_property_readonly("seconds", [](const Verdict& v) { return v.answer.seconds; })
      .def("__repr__", [](const Verdict& v) {
        return "<pegsol.Verdict " + std::string(solvability_name(v.answer.verdict)) + ">";
      });

  py::class_<AnalysisOutcome>(m, "Analysis",
                              "A position's analysis; to_json() is the API's /api/analysis "
                              "object (analysis_json).")
      .def_property_readonly("position", [](const AnalysisOutcome& a) { return a.position; })
      .def_property_readonly(
          "goal",
          [](const AnalysisOutcome& a) {
            return Verdict{a.position.board_ptr(), a.analysis.goal, a.analysis.goal_explanation};
          })
      .def_property_readonly("one_peg",
                             [](const AnalysisOutcome& a) {
                               return Verdict{a.position.board_ptr(), a.analysis.one_peg,
                                              a.analysis.one_peg_explanation};
                             })
      .def_property_readonly(
          "hint",
          [](const AnalysisOutcome& a) -> py::object {
            if (!a.analysis.hint) return py::none();
            return py::cast(*a.analysis.hint);
          },
          "The next move of a solution, or None.")
      .def_property_readonly("hint_to_goal",
                             [](const AnalysisOutcome& a) { return a.analysis.hint_to_goal; })
      .def_property_readonly("counted", [](const AnalysisOutcome& a) { return a.analysis.counted; })
      .def_property_readonly("exact", [](const AnalysisOutcome& a) { return a.analysis.exact; })
      .def_property_readonly(
          "ways_goal",
          [](const AnalysisOutcome& a) { return ways(a.analysis, a.analysis.ways_goal); },
          "Jump sequences from here to the goal (None: not counted).")
      .def_property_readonly(
          "ways_one_peg",
          [](const AnalysisOutcome& a) { return ways(a.analysis, a.analysis.ways_one_peg); },
          "Jump sequences from here to one peg anywhere (None: not counted).")
      .def_property_readonly(
          "end_holes",
          [](const AnalysisOutcome& a) -> py::object {
            if (!a.analysis.counted) return py::none();
            return hole_names(a.position.board(), a.analysis.end_holes);
          },
          "The holes one last peg can still end on (None: not counted).")
      .def_property_readonly("count_note",
                             [](const AnalysisOutcome& a) { return a.analysis.count_note; })
      .def_property_readonly("lookup_note",
                             [](const AnalysisOutcome& a) { return a.analysis.lookup_note; })
      .def_property_readonly("seconds", [](const AnalysisOutcome& a) { return a.analysis.seconds; })
      .def("to_json", [](const AnalysisOutcome& a) {
        return to_python(analysis_json(a.position, a.analysis));
      });

  py::class_<MistakeOutcome>(m, "Mistake",
                             "\"Where did I go wrong\": the first move after which the goal was "
                             "lost; to_json() is the API's /api/mistake object.")
      .def_property_readonly(
          "now",
          [](const MistakeOutcome& x) { return std::string(solvability_name(x.mistake.now)); })
      .def_property_readonly("start_lost",
                             [](const MistakeOutcome& x) { return x.mistake.start_lost; })
      .def_property_readonly(
          "move",
          [](const MistakeOutcome& x) -> py::object {
            if (!x.mistake.move) return py::none();
            return py::int_(*x.mistake.move);
          },
          "Index in game.moves of the first losing move, or None.")
      .def_property_readonly("rewind_to",
                             [](const MistakeOutcome& x) { return x.mistake.rewind_to; })
      .def_property_readonly("reason", [](const MistakeOutcome& x) { return x.mistake.reason; })
      .def_property_readonly("explanation",
                             [](const MistakeOutcome& x) { return x.mistake.explanation.text; })
      .def_property_readonly(
          "proof_holes",
          [](const MistakeOutcome& x) { return holes_or_none(x.mistake.explanation.holes); })
      .def_property_readonly("note", [](const MistakeOutcome& x) { return x.mistake.note; })
      .def("to_json",
           [](const MistakeOutcome& x) { return to_python(mistake_json(x.game, x.mistake)); });

  py::class_<HintOutcome>(m, "Hint", "The first move of a solution, or why there is none.")
      .def_property_readonly(
          "verdict",
          [](const HintOutcome& h) { return std::string(solvability_name(h.hint.answer.verdict)); })
      .def_property_readonly("reason", [](const HintOutcome& h) { return h.hint.answer.reason; })
      .def_property_readonly("move",
                             [](const HintOutcome& h) -> py::object {
                               if (!h.hint.move) return py::none();
                               return py::cast(*h.hint.move);
                             })
      .def_property_readonly("solution",
                             [](const HintOutcome& h) { return jump_list(h.hint.answer.solution); })
      .def("to_json",
           [](const HintOutcome& h) { return to_python(hint_json(h.position.board(), h.hint)); });

  py::class_<Analyzer>(m, "Analyzer",
                       "Analyses positions of one board towards one goal, keeping what it learnt "
                       "for later calls (thread-safe).")
      .def(py::init([](py::object problem, py::object board, py::object end, py::object goal,
                       std::string lattice, py::object memo_memory) {
             const std::size_t memo =
                 megabytes_arg(memo_memory, "memo_memory").value_or(kAnalyzerMemoBytes);
             if (py::isinstance<Game>(problem)) {
               const Problem& p = problem.cast<const Game&>().problem();
               return std::make_unique<Analyzer>(p.board, p.goal, memo);
             }
             ProblemArgs a{problem, board, py::none(), end, goal, lattice};
             if (problem.is_none()) {
               // The board and the goal alone matter: any start of the board will do.
               a.board = py::cast(BoardRef{board_of(
                   {py::none(), board, py::none(), py::none(), py::none(), lattice}, "Analyzer")});
               a.lattice.clear();
               a.start = py::int_(0);
             }
             const Problem p = problem_of(a);
             return std::make_unique<Analyzer>(p.board, p.goal, memo);
           }),
           py::arg("problem") = py::none(), py::kw_only(), py::arg("board") = py::none(),
           py::arg("end") = py::none(), py::arg("goal") = py::none(), py::arg("lattice") = "",
           py::arg("memo_memory") = py::none(),
           "An analyzer of a game's (or a problem's, or board=/end=/goal=) board and goal; "
           "memo_memory: megabytes of table each verdict's search memo may keep across calls "
           "(64 by default).")
      .def_property_readonly("memo_bytes", &Analyzer::memo_bytes,
                             "Bytes of table each verdict's search memo may keep (memo_memory).")
      .def(
          "analyze",
          [](const Analyzer& a, py::handle x, py::object start, py::object time_limit,
             py::object count, py::object hint, py::object explain, py::object lookup,
             py::object lookup_memory, py::object lookup_seconds, py::object progress) {
            return analyze_with(
                a, x, start,
                {time_limit, count, hint, explain, lookup, lookup_memory, lookup_seconds},
                progress);
          },
          py::arg("position"), py::kw_only(), py::arg("start") = py::none(), PEGSOL_OPTION_ARGS,
          "Everything about a position (or a game's current position).")
      .def(
          "first_mistake",
          [](const Analyzer& a, const Game& g, py::object time_limit, py::object count,
             py::object hint, py::object explain, py::object lookup, py::object lookup_memory,
             py::object lookup_seconds, py::object progress) {
            return mistake_with(
                a, g, {time_limit, count, hint, explain, lookup, lookup_memory, lookup_seconds},
                progress);
          },
          py::arg("game"), py::kw_only(), PEGSOL_OPTION_ARGS,
          "The first played move after which the game's goal could no longer be reached.");

  auto shared = std::make_shared<ModuleLookups>();
  m.def(
      "analyze",
      [shared](py::handle x, py::object end, py::object goal, py::object start,
               py::object time_limit, py::object count, py::object hint, py::object explain,
               py::object lookup, py::object lookup_memory, py::object lookup_seconds,
               py::object progress) {
        OptionArgs args{time_limit, count, hint, explain, lookup, lookup_memory, lookup_seconds};
        if (py::isinstance<Game>(x)) {
          if (!end.is_none() || !goal.is_none())
            throw InputError("end, goal: a game's analysis is towards the game's goal");
          const Game& g = x.cast<const Game&>();
          Analyzer a(g.problem().board, g.problem().goal);
          return analyze_with(a, x, start, args, progress, shared.get());
        }
        if (!py::isinstance<Position>(x))
          throw py::type_error("analyze: expected a pegsol.Game or a pegsol.Position, got " +
                               py::repr(x).cast<std::string>());
        const Position& p = x.cast<const Position&>();
        Analyzer a(p.board_ptr(), goal_of(p, end, goal));
        return analyze_with(a, x, start, args, progress, shared.get());
      },
      py::arg("position"), py::kw_only(), py::arg("end") = py::none(), py::arg("goal") = py::none(),
      py::arg("start") = py::none(), PEGSOL_OPTION_ARGS,
      "A position's (or a game's current position's) analysis: verdicts with their proofs, ways "
      "left, end holes, a hint. For a game, the census look-ups of its start answer exactly; "
      "the module's calls share them (lookup_status, clear_lookups).");

  m.def(
      "first_mistake",
      [shared](const Game& g, py::object time_limit, py::object count, py::object hint,
               py::object explain, py::object lookup, py::object lookup_memory,
               py::object lookup_seconds, py::object progress) {
        Analyzer a(g.problem().board, g.problem().goal);
        return mistake_with(
            a, g, {time_limit, count, hint, explain, lookup, lookup_memory, lookup_seconds},
            progress, shared.get());
      },
      py::arg("game"), py::kw_only(), PEGSOL_OPTION_ARGS,
      "\"Where did I go wrong\": the first move of the game after which its goal was lost.");

  m.def(
      "lookup_status",
      [shared](const Game& g) {
        return to_python(lookup_status_json(shared->current()->status(g.problem())));
      },
      py::arg("game"),
      "How far the census look-ups that the module's analyze() and first_mistake() share are "
      "for a game: the API's /api/lookups object (state none, ready or failed, why, bytes, ...).");
  m.def(
      "clear_lookups", [shared] { shared->clear(); },
      "Drops the census look-ups the module's analyze() and first_mistake() share, and the "
      "builds they remember as failed.");

  m.def(
      "hint",
      [](py::handle x, py::object end, py::object goal, py::object time_limit,
         py::object progress) {
        std::optional<Position> p;
        Goal target;
        if (py::isinstance<Game>(x)) {
          if (!end.is_none() || !goal.is_none())
            throw InputError("end, goal: a game's hint is towards the game's goal");
          const Game& g = x.cast<const Game&>();
          p = g.position();
          target = g.problem().goal;
        } else {
          p = x.cast<Position>();
          target = goal_of(*p, end, goal);
        }
        const double seconds = time_limit.is_none() ? 2 : seconds_arg(time_limit, "time_limit");
        return watched<HintOutcome>(progress, [&](const Control* c) {
          Control limit(c);
          limit.set_time_limit(seconds);
          SolveOptions o;
          o.control = &limit;
          return HintOutcome{*p, pegsol::hint(*p, target, o)};
        });
      },
      py::arg("position"), py::kw_only(), py::arg("end") = py::none(), py::arg("goal") = py::none(),
      py::arg("time_limit") = py::none(), py::arg("progress") = py::none(),
      "The first move of a solution from a position (or a game's position), searching at most "
      "time_limit seconds (default 2); to_json() is the API's /api/hint object's core.");
}

}  // namespace pegsol::python
