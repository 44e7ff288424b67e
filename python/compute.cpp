// SPDX-License-Identifier: MIT
// The long computations in Python: solve, count (the census), table and fewest, each returning
// a result object whose to_json() is what the command's --json prints.
#include <filesystem>
#include <optional>
#include <string>

#include "common.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/json.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::python {

namespace {

// A solve as the command runs it: a search, a game finished keeping its moves, or the fewest
// moves (from the start or from the kept moves' position).
struct SolveOutcome {
  enum class Kind { Search, Finish, Fewest, FewestFinish };
  Problem problem;
  Kind kind = Kind::Search;
  SolveResult search;   // Search
  FinishResult finish;  // Finish
  FewestFinish fewest;  // Fewest (its `rest` alone) and FewestFinish

  nlohmann::json json() const {
    switch (kind) {
      case Kind::Search:
        return solve_json(problem, search, python_field);
      case Kind::Finish:
        return finish_json(problem, finish);
      case Kind::Fewest:
        return fewest_json(problem, fewest.rest);
      case Kind::FewestFinish:
        return fewest_finish_json(problem, fewest);
    }
    return {};
  }
  // The whole game from the start as a first-solution result.
  SolveResult flat() const {
    switch (kind) {
      case Kind::Search:
        return search;
      case Kind::Finish:
        return finish.result;
      case Kind::Fewest:
        return to_solve_result(problem, fewest.rest);
      case Kind::FewestFinish: {
        FewestResult whole = fewest.rest;
        whole.jumps = fewest.jumps;
        return to_solve_result(problem, whole);
      }
    }
    return {};
  }
  bool minimized() const { return kind == Kind::Fewest || kind == Kind::FewestFinish; }
};

struct CensusOutcome {
  Problem problem;
  CensusResult result;
};

struct TableOutcome {
  BoardPtr board;
  SolvabilityTable table;
  TableMethod method = TableMethod::Auto;
};

struct FewestTableOutcome {
  BoardPtr board;
  FewestTable table;
};

struct FewestBoardOutcome {
  BoardPtr board;
  FewestBoardResult result;
};

// The value of a name option (algorithm, direction, ...): `parse` of the text, or InputError
// naming the option and the names it takes.
template <class T>
T named(py::handle v, const char* option, std::optional<T> (*parse)(std::string_view),
        const std::vector<std::string>& names, T fallback) {
  if (v.is_none()) return fallback;
  const std::string s = py::str(v).cast<std::string>();
  if (auto value = parse(s); value && py::isinstance<py::str>(v)) return *value;
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i)
    list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  throw InputError(std::string(option) + " '" + s + "': expected " + list);
}

// minimize: None or "moves".
bool minimize_arg(py::handle v) {
  if (v.is_none()) return false;
  if (py::isinstance<py::str>(v) && v.cast<std::string>() == "moves") return true;
  throw InputError("minimize " + py::repr(v).cast<std::string>() +
                   ": expected \"moves\" (the fewest moves) or None");
}

// The fewest-moves search's own options (the command's --fewest-beam, --no-bound,
// --no-pagodas); InputError when given to a call that does not minimize moves.
struct FewestFlags {
  py::object beam;
  bool bound = true, pagodas = true;

  void check(bool minimizing, bool pagodas_elsewhere = false) const {
    if (minimizing) return;
    if (!beam.is_none() || !bound || (!pagodas_elsewhere && !pagodas))
      throw InputError(std::string("fewest_beam, bound") +
                       (pagodas_elsewhere ? "" : " and pagodas") +
                       " set the fewest-moves search: give them with minimize=\"moves\"");
  }
  void apply(FewestOptions& o) const {
    if (!beam.is_none()) {
      const long long b = beam.cast<long long>();
      if (b < 0 || b > 1'000'000'000)
        throw InputError("fewest_beam " + std::to_string(b) + ": expected 0 to 1,000,000,000");
      o.beam = static_cast<std::size_t>(b);
    }
    o.prune = bound;
    if (!pagodas) o.pagoda_jumps = -1;
  }
};

// A directory the call reads or writes: `spill_dir` and `resume` must exist; `checkpoint` is
// made when missing. Empty for None.
std::string directory_arg(py::handle v, const char* option, bool make) {
  if (v.is_none()) return {};
  const std::string dir = py::str(v).cast<std::string>();
  std::error_code ec;
  if (make) std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(std::string(option) + " " + dir + ": " + ec.message());
  if (!std::filesystem::is_directory(dir, ec))
    throw InputError(std::string(option) + " " + dir + ": no such directory");
  return dir;
}

// checkpoint and resume (excluding each other) into a census's or a fewest search's options.
template <class Options>
void checkpoints(Options& o, py::handle checkpoint, py::handle resume) {
  if (!checkpoint.is_none() && !resume.is_none())
    throw InputError("give either checkpoint (a new run) or resume (going on), not both");
  const std::string resumed = directory_arg(resume, "resume", false);
  o.checkpoint_dir = resumed.empty() ? directory_arg(checkpoint, "checkpoint", true) : resumed;
  o.resume = !resumed.empty();
}

py::object optional_hole(const Board& b, int h) {
  return h >= 0 ? py::object(py::str(b.hole_name(h))) : py::object(py::none());
}

SolveOutcome run_solve(const ProblemArgs& args, py::object moves, py::object algorithm,
                       py::object direction, py::object time_limit, py::object memory_limit,
                       py::object capacity, py::object seed, py::object beam_method,
                       py::object minimize, int threads, const FewestFlags& flags,
                       py::object progress) {
  SolveOutcome out;
  out.problem = problem_of(args);
  const Problem& p = out.problem;
  const bool fewest = minimize_arg(minimize);
  flags.check(fewest);
  threads_arg(threads);
  const std::vector<Move> kept = moves_of(*p.board, moves);
  const std::optional<std::size_t> memory = megabytes_arg(memory_limit, "memory_limit");
  if (fewest) {
    if (!algorithm.is_none() || !direction.is_none() || !capacity.is_none() || !seed.is_none() ||
        !beam_method.is_none())
      throw InputError(
          "minimize=\"moves\" is a search of its own: algorithm, direction, capacity, seed and "
          "beam_method do not go with it");
    Call call(seconds_arg(time_limit, "time_limit"), memory.value_or(0), progress);
    FewestOptions o;
    o.control = &call.control();
    o.threads = threads;
    flags.apply(o);
    out.kind = kept.empty() ? SolveOutcome::Kind::Fewest : SolveOutcome::Kind::FewestFinish;
    std::optional<SolveOutcome> partial;
    call.run(
        [&] {
          if (kept.empty()) {
            out.fewest.rest = fewest_solve(p, o);
            out.fewest.jumps = out.fewest.rest.jumps;
          } else {
            out.fewest = fewest_finish(p, kept, o);
          }
          partial = out;
        },
        [&] { return py::cast(*partial); });
    return out;
  }
  SolveOptions o;
  o.direction =
      named(direction, "direction", parse_direction, direction_names(), Direction::Forward);
  o.algorithm = named(algorithm, "algorithm", parse_algorithm, algorithm_names(), Algorithm::Auto);
  o.beam_method =
      named(beam_method, "beam_method", parse_beam_method, beam_method_names(), BeamMethod::Auto);
  o.threads = threads;
  if (!capacity.is_none()) {
    const long long c = capacity.cast<long long>();
    if (c < 0 || c > 1'000'000'000'000)
      throw InputError("capacity " + std::to_string(c) + ": expected 0 to 1,000,000,000,000");
    o.capacity = static_cast<std::size_t>(c);
  }
  if (!seed.is_none()) {
    if (o.algorithm == Algorithm::Dfs)
      throw InputError("seed: seeds the beam searches' tie-breaking; algorithm \"dfs\" runs none");
    o.seed = seed.cast<std::uint64_t>();
  }
  check_solve_options(o);
  Call call(seconds_arg(time_limit, "time_limit"), memory.value_or(0), progress);
  o.control = &call.control();
  out.kind = kept.empty() ? SolveOutcome::Kind::Search : SolveOutcome::Kind::Finish;
  std::optional<SolveOutcome> partial;
  call.run(
      [&] {
        if (kept.empty())
          out.search = solve(p, o);
        else
          out.finish = finish_game(p, kept, o);
        partial = out;
      },
      [&] { return py::cast(*partial); });
  return out;
}

CensusOutcome run_count(const ProblemArgs& args, py::object time_limit, py::object memory_limit,
                        int threads, py::object spill_dir, py::object checkpoint, py::object resume,
                        bool symmetry, bool distinct, bool random_player, py::object distinct_limit,
                        py::object progress) {
  CensusOutcome out;
  out.problem = problem_of(args);
  CensusOptions o;
  o.threads = threads_arg(threads);
  const std::size_t memory = megabytes_arg(memory_limit, "memory_limit").value_or(0);
  o.spill_dir = directory_arg(spill_dir, "spill_dir", false);
  checkpoints(o, checkpoint, resume);
  o.symmetry = symmetry;
  o.distinct = distinct;
  o.random_player = random_player;
  if (!distinct_limit.is_none()) {
    if (!distinct) throw InputError("distinct_limit: the reordering count is off (distinct=False)");
    o.distinct_max_positions = distinct_limit.cast<std::uint64_t>();
  }
  Call call(seconds_arg(time_limit, "time_limit"), memory, progress);
  o.control = &call.control();
  bool done = false;
  call.run(
      [&] {
        out.result = census(out.problem, o);
        done = true;
      },
      [&] { return done ? py::cast(out) : py::object(py::none()); });
  return out;
}

py::object run_table(const ProblemArgs& args, py::object method, py::object search_seconds,
                     py::object minimize, py::object time_limit, py::object memory_limit,
                     int threads, py::object spill_dir, py::object checkpoint, py::object resume,
                     bool level_checkpoints, const FewestFlags& flags, py::object progress) {
  BoardPtr board = board_of(args, "table");
  const bool fewest = minimize_arg(minimize);
  flags.check(fewest, true);
  const std::optional<std::size_t> memory = megabytes_arg(memory_limit, "memory_limit");
  const double seconds = seconds_arg(time_limit, "time_limit");
  if (fewest) {
    for (auto [given, name] : {std::pair{!method.is_none(), "method"},
                               {!search_seconds.is_none(), "search_seconds"},
                               {!spill_dir.is_none(), "spill_dir"},
                               {threads != 0, "threads"},
                               {!checkpoint.is_none() || !resume.is_none(), "checkpoint"},
                               {!level_checkpoints, "level_checkpoints"}})
      if (given)
        throw InputError(std::string("table(minimize=\"moves\"): ") + name +
                         " is an option of the solvability table, which minimize=\"moves\" does "
                         "not make");
    Call call(seconds, memory.value_or(0), progress);
    FewestOptions o;
    o.control = &call.control();
    flags.apply(o);
    FewestTableOutcome out{board, {}};
    bool done = false;
    call.run(
        [&] {
          out.table = fewest_table(board, o);
          done = true;
        },
        [&] { return done ? py::cast(out) : py::object(py::none()); });
    return py::cast(std::move(out));
  }
  TableOptions to;
  to.method = named(method, "method", parse_table_method, table_method_names(), TableMethod::Auto);
  if (!search_seconds.is_none()) {
    if (to.method == TableMethod::Passes)
      throw InputError(
          "search_seconds: the time of a pair's search, and method \"passes\" runs "
          "no search");
    to.search_seconds = seconds_arg(search_seconds, "search_seconds");
    if (!(to.search_seconds > 0)) throw InputError("search_seconds 0: expected seconds > 0");
  }
  if (!level_checkpoints && checkpoint.is_none() && resume.is_none())
    throw InputError("level_checkpoints=False: applies with checkpoint or resume alone");
  to.level_checkpoints = level_checkpoints;
  to.pagodas = flags.pagodas;
  CensusOptions o;
  o.threads = threads_arg(threads);
  o.spill_dir = directory_arg(spill_dir, "spill_dir", false);
  checkpoints(o, checkpoint, resume);
  Call call(seconds, memory.value_or(0), progress);
  o.control = &call.control();
  TableOutcome out{board, {}, to.method};
  bool done = false;
  call.run(
      [&] {
        out.table = solvability_table(board, o, to);
        done = true;
      },
      [&] { return done ? py::cast(out) : py::object(py::none()); });
  return py::cast(std::move(out));
}

FewestBoardOutcome run_fewest(const ProblemArgs& args, py::object time_limit,
                              py::object memory_limit, py::object checkpoint, py::object resume,
                              bool split, int threads, const FewestFlags& flags,
                              py::object progress) {
  FewestBoardOutcome out{board_of(args, "fewest"), {}};
  FewestOptions o;
  flags.apply(o);
  o.threads = threads_arg(threads);
  o.split = split;
  checkpoints(o, checkpoint, resume);
  Call call(seconds_arg(time_limit, "time_limit"),
            megabytes_arg(memory_limit, "memory_limit").value_or(0), progress);
  o.control = &call.control();
  bool done = false;
  call.run(
      [&] {
        out.result = fewest_board(out.board, o);
        done = true;
      },
      [&] { return done ? py::cast(out) : py::object(py::none()); });
  return out;
}

std::string stop_name(StopReason r) {
  return std::string(stop_reason_name(r));
}

}  // namespace

void bind_compute(py::module_& m) {
  py::class_<SolveOutcome>(m, "SolveResult",
                           "A solve: status (solved, impossible, unknown), the solution's jumps, "
                           "why it stopped; to_json() is `pegsol solve --json`.")
      .def_property_readonly("problem", [](const SolveOutcome& s) { return s.problem; })
      .def_property_readonly(
          "status", [](const SolveOutcome& s) { return std::string(status_name(s.flat().status)); })
      .def_property_readonly(
          "solved", [](const SolveOutcome& s) { return s.flat().status == Status::Solved; })
      .def_property_readonly("stop", [](const SolveOutcome& s) { return stop_name(s.flat().stop); })
      .def_property_readonly("reason",
                             [](const SolveOutcome& s) { return python_words(s.flat().reason); })
      .def_property_readonly(
          "moves", [](const SolveOutcome& s) { return jump_list(s.flat().moves); },
          "The solution's jumps from the start (kept moves first), replayed by "
          "the library; empty when not solved.")
      .def_property_readonly("notation",
                             [](const SolveOutcome& s) {
                               py::list l;
                               for (const Jump& j : s.flat().moves)
                                 l.append(move_text(*s.problem.board, j));
                               return l;
                             })
      .def_property_readonly(
          "chains", [](const SolveOutcome& s) { return move_list(group_moves(s.flat().moves)); },
          "The solution as moves (consecutive jumps by one peg).")
      .def_property_readonly(
          "final", [](const SolveOutcome& s) { return Position(s.problem.board, s.flat().final); })
      .def_property_readonly("nodes", [](const SolveOutcome& s) { return s.flat().nodes; })
      .def_property_readonly("seconds", [](const SolveOutcome& s) { return s.flat().seconds; })
      .def_property_readonly(
          "kept_moves",
          [](const SolveOutcome& s) -> std::size_t {
            return s.kind == SolveOutcome::Kind::Finish         ? s.finish.kept_jumps
                   : s.kind == SolveOutcome::Kind::FewestFinish ? s.fewest.kept_jumps
                                                                : 0;
          },
          "Jumps of `moves` the caller played (the moves argument).")
      .def_property_readonly(
          "fewest",
          [](const SolveOutcome& s) -> py::object {
            if (!s.minimized() || s.fewest.rest.moves < 0) return py::none();
            return py::int_(s.fewest.rest.moves);
          },
          "minimize=\"moves\": the solution's moves (after the kept ones), or None.")
      .def_property_readonly(
          "lower_bound",
          [](const SolveOutcome& s) -> py::object {
            return s.minimized() ? py::object(py::int_(s.fewest.rest.lower_bound)) : py::none();
          },
          "minimize=\"moves\": every solution has at least this many moves.")
      .def_property_readonly(
          "proven",
          [](const SolveOutcome& s) -> py::object {
            return s.minimized() ? py::object(py::bool_(s.fewest.rest.proven)) : py::none();
          },
          "minimize=\"moves\": no solution has fewer moves.")
      .def(
          "to_json", [](const SolveOutcome& s) { return to_python(s.json()); },
          "What `pegsol solve --json` prints for the same problem and options.")
      .def("__repr__", [](const SolveOutcome& s) {
        const SolveResult r = s.flat();
        return "<pegsol.SolveResult " + std::string(status_name(r.status)) + ", " +
               std::to_string(r.moves.size()) + " jumps>";
      });

  py::class_<CensusOutcome>(m, "CensusResult",
                            "An exact census; to_json() is `pegsol count --json`.")
      .def_property_readonly("problem", [](const CensusOutcome& c) { return c.problem; })
      .def_property_readonly("status",
                             [](const CensusOutcome& c) {
                               return c.result.stop == StopReason::None ? "complete" : "stopped";
                             })
      .def_property_readonly("stop",
                             [](const CensusOutcome& c) { return stop_name(c.result.stop); })
      .def_property_readonly(
          "stop_note", [](const CensusOutcome& c) { return python_words(c.result.stop_note); },
          "For a memory stop: what the run held and needed, naming the keyword argument whose "
          "limit "
          "was reached.")
      .def_property_readonly(
          "solutions", [](const CensusOutcome& c) { return to_int(c.result.solutions); },
          "Jump sequences from the start to the goal.")
      .def_property_readonly(
          "games", [](const CensusOutcome& c) { return to_int(c.result.games); },
          "Jump sequences from the start to a position with no jump left.")
      .def_property_readonly(
          "solutions_up_to_symmetry",
          [](const CensusOutcome& c) { return to_int(c.result.solutions_up_to_symmetry); })
      .def_property_readonly("solutions_up_to_reordering",
                             [](const CensusOutcome& c) -> py::object {
                               if (!c.result.distinct_solutions) return py::none();
                               return to_int(*c.result.distinct_solutions);
                             })
      .def_property_readonly(
          "solutions_up_to_reordering_note",
          [](const CensusOutcome& c) { return python_words(c.result.distinct_note); })
      .def_property_readonly(
          "solutions_by_final_hole",
          [](const CensusOutcome& c) {
            py::dict d;
            const Board& b = *c.problem.board;
            for (int h = 0; h < b.size(); ++h)
              if (c.result.solutions_by_hole[static_cast<std::size_t>(h)] > 0)
                d[py::str(b.hole_name(h))] =
                    to_int(c.result.solutions_by_hole[static_cast<std::size_t>(h)]);
            return d;
          },
          "Sequences ending with one peg on each hole (holes with none left out).")
      .def_property_readonly("reachable",
                             [](const CensusOutcome& c) { return c.result.reachable_raw; })
      .def_property_readonly("reachable_up_to_symmetry",
                             [](const CensusOutcome& c) { return c.result.reachable_sym; })
      .def_property_readonly("on_solution_path",
                             [](const CensusOutcome& c) { return c.result.on_path_raw; })
      .def_property_readonly("on_solution_path_up_to_symmetry",
                             [](const CensusOutcome& c) { return c.result.on_path_sym; })
      .def_property_readonly(
          "levels",
          [](const CensusOutcome& c) {
            py::list l;
            for (int k = static_cast<int>(c.result.levels.size()) - 1; k >= 0; --k) {
              const CensusLevel& v = c.result.levels[static_cast<std::size_t>(k)];
              if (v.reachable_raw == 0) continue;
              py::dict d;
              d["pegs"] = k;
              d["reachable"] = v.reachable_raw;
              d["reachable_up_to_symmetry"] = v.reachable_sym;
              d["on_solution_path"] = v.on_path_raw;
              d["on_solution_path_up_to_symmetry"] = v.on_path_sym;
              d["games_ending"] = to_int(v.games);
              l.append(d);
            }
            return l;
          },
          "One dict per level reached, most pegs first.")
      .def_property_readonly(
          "p_one_peg",
          [](const CensusOutcome& c) -> py::object {
            if (!c.result.random_player) return py::none();
            return py::float_(c.result.p_one_peg);
          },
          "A random player's chance of ending with one peg (None: not computed).")
      .def_property_readonly("p_goal",
                             [](const CensusOutcome& c) -> py::object {
                               if (!c.result.random_player) return py::none();
                               return py::float_(c.result.p_goal);
                             })
      .def_property_readonly("group_size",
                             [](const CensusOutcome& c) { return c.result.group_size; })
      .def_property_readonly("seconds", [](const CensusOutcome& c) { return c.result.seconds; })
      .def_property_readonly("peak_bytes",
                             [](const CensusOutcome& c) { return c.result.peak_bytes; })
      .def_property_readonly("threads", [](const CensusOutcome& c) { return c.result.threads; })
      .def(
          "to_json",
          [](const CensusOutcome& c) {
            return to_python(census_json(c.problem, c.result, python_field));
          },
          "What `pegsol count --json` prints for the same problem and options.")
      .def("__repr__", [](const CensusOutcome& c) {
        return "<pegsol.CensusResult " +
               std::string(c.result.stop == StopReason::None ? "complete" : "stopped") + ", " +
               count_text(c.result.solutions) + " solutions>";
      });

  py::class_<TableOutcome>(m, "TableResult",
                           "A solvability table (single vacancy -> single survivor); to_json() "
                           "is `pegsol table --json`.")
      .def_property_readonly("board", [](const TableOutcome& t) { return BoardRef{t.board}; })
      .def_property_readonly("complete", [](const TableOutcome& t) { return t.table.complete(); })
      .def_property_readonly(
          "status",
          [](const TableOutcome& t) { return t.table.complete() ? "complete" : "stopped"; })
      .def_property_readonly("stop", [](const TableOutcome& t) { return stop_name(t.table.stop); })
      .def_property_readonly("reason",
                             [](const TableOutcome& t) { return python_words(t.table.stopped); })
      .def(
          "solvable",
          [](const TableOutcome& t, py::handle start, py::handle end) -> py::object {
            const int v = hole_of(*t.board, start, "start"), h = hole_of(*t.board, end, "end");
            if (t.table.open[static_cast<std::size_t>(v)].test(h)) return py::none();
            return py::bool_(t.table.finals[static_cast<std::size_t>(v)].test(h));
          },
          py::arg("start"), py::arg("end"),
          "Whether the single vacancy `start` can end with one peg on `end` (None: not settled).")
      .def_property_readonly(
          "finals",
          [](const TableOutcome& t) {
            py::dict d;
            for (int v = 0; v < t.board->size(); ++v)
              d[py::str(t.board->hole_name(v))] =
                  hole_names(*t.board, t.table.finals[static_cast<std::size_t>(v)]);
            return d;
          },
          "For each vacancy, the holes one last peg can end on.")
      .def_property_readonly("passes", [](const TableOutcome& t) { return t.table.passes; })
      .def_property_readonly("seconds", [](const TableOutcome& t) { return t.table.seconds; })
      .def(
          "to_json",
          [](const TableOutcome& t) {
            return to_python(table_json(*t.board, t.table, t.method, python_field));
          },
          "What `pegsol table --json` prints.")
      .def("__repr__", [](const TableOutcome& t) {
        return "<pegsol.TableResult " + t.board->name() + ", " +
               (t.table.complete() ? "complete" : "stopped") + ">";
      });

  py::class_<FewestTableOutcome>(m, "FewestTableResult",
                                 "Every single vacancy's fewest moves to each last hole; to_json() "
                                 "is `pegsol table --minimize moves --json`.")
      .def_property_readonly("board", [](const FewestTableOutcome& t) { return BoardRef{t.board}; })
      .def_property_readonly("complete",
                             [](const FewestTableOutcome& t) { return t.table.complete; })
      .def_property_readonly("stop",
                             [](const FewestTableOutcome& t) { return stop_name(t.table.stop); })
      .def_property_readonly("fewest",
                             [](const FewestTableOutcome& t) -> py::object {
                               if (t.table.fewest < 0) return py::none();
                               return py::int_(t.table.fewest);
                             })
      .def_property_readonly(
          "start",
          [](const FewestTableOutcome& t) { return optional_hole(*t.board, t.table.start); })
      .def_property_readonly(
          "end", [](const FewestTableOutcome& t) { return optional_hole(*t.board, t.table.end); })
      .def(
          "moves",
          [](const FewestTableOutcome& t, py::handle start, py::handle end) -> py::object {
            const int m =
                t.table.at(hole_of(*t.board, start, "start"), hole_of(*t.board, end, "end"));
            if (m == FewestTable::kUnknown) return py::none();
            return py::int_(m);
          },
          py::arg("start"), py::arg("end"),
          "The pair's fewest moves, -1 when impossible, None when not settled.")
      .def("to_json", [](const FewestTableOutcome& t) {
        return to_python(fewest_table_json(*t.board, t.table));
      });

  py::class_<FewestBoardOutcome>(m, "FewestBoardResult",
                                 "A board's fewest moves over its single-vacancy problems; "
                                 "to_json() is `pegsol fewest --json`.")
      .def_property_readonly("board", [](const FewestBoardOutcome& f) { return BoardRef{f.board}; })
      .def_property_readonly("fewest",
                             [](const FewestBoardOutcome& f) -> py::object {
                               if (f.result.result.moves < 0) return py::none();
                               return py::int_(f.result.result.moves);
                             })
      .def_property_readonly("proven",
                             [](const FewestBoardOutcome& f) { return f.result.result.proven; })
      .def_property_readonly(
          "lower_bound", [](const FewestBoardOutcome& f) { return f.result.result.lower_bound; })
      .def_property_readonly(
          "start",
          [](const FewestBoardOutcome& f) { return optional_hole(*f.board, f.result.start); })
      .def_property_readonly(
          "end", [](const FewestBoardOutcome& f) { return optional_hole(*f.board, f.result.end); })
      .def_property_readonly("status",
                             [](const FewestBoardOutcome& f) {
                               return std::string(status_name(f.result.result.status));
                             })
      .def_property_readonly(
          "stop", [](const FewestBoardOutcome& f) { return stop_name(f.result.result.stop); })
      .def_property_readonly("reason",
                             [](const FewestBoardOutcome& f) { return f.result.result.reason; })
      .def_property_readonly(
          "moves", [](const FewestBoardOutcome& f) { return jump_list(f.result.result.jumps); })
      .def_property_readonly(
          "chains", [](const FewestBoardOutcome& f) { return move_list(f.result.result.chains()); })
      .def("to_json", [](const FewestBoardOutcome& f) {
        return to_python(fewest_board_json(*f.board, f.result));
      });

  m.def(
      "solve",
      [](py::object problem, py::object board, py::object start, py::object end, py::object goal,
         std::string lattice, py::object moves, py::object algorithm, py::object direction,
         py::object time_limit, py::object memory_limit, py::object capacity, py::object seed,
         py::object beam_method, py::object minimize, int threads, py::object fewest_beam,
         bool bound, bool pagodas, py::object progress) {
        return run_solve({problem, board, start, end, goal, lattice}, moves, algorithm, direction,
                         time_limit, memory_limit, capacity, seed, beam_method, minimize, threads,
                         FewestFlags{fewest_beam, bound, pagodas}, progress);
      },
      py::arg("problem") = py::none(), py::kw_only(), py::arg("board") = py::none(),
      py::arg("start") = py::none(), py::arg("end") = py::none(), py::arg("goal") = py::none(),
      py::arg("lattice") = "", py::arg("moves") = py::none(), py::arg("algorithm") = py::none(),
      py::arg("direction") = py::none(), py::arg("time_limit") = py::none(),
      py::arg("memory_limit") = py::none(), py::arg("capacity") = py::none(),
      py::arg("seed") = py::none(), py::arg("beam_method") = py::none(),
      py::arg("minimize") = py::none(), py::arg("threads") = 0, py::arg("fewest_beam") = py::none(),
      py::arg("bound") = true, py::arg("pagodas") = true, py::arg("progress") = py::none(),
      "Solves a problem as `pegsol solve` does (docs/python.md): a solution, a proof that there "
      "is none, or unknown when stopped.");

  m.def(
      "count",
      [](py::object problem, py::object board, py::object start, py::object end, py::object goal,
         std::string lattice, py::object time_limit, py::object memory_limit, int threads,
         py::object spill_dir, py::object checkpoint, py::object resume, bool symmetry,
         bool distinct, bool random_player, py::object distinct_limit, py::object progress) {
        return run_count({problem, board, start, end, goal, lattice}, time_limit, memory_limit,
                         threads, spill_dir, checkpoint, resume, symmetry, distinct, random_player,
                         distinct_limit, progress);
      },
      py::arg("problem") = py::none(), py::kw_only(), py::arg("board") = py::none(),
      py::arg("start") = py::none(), py::arg("end") = py::none(), py::arg("goal") = py::none(),
      py::arg("lattice") = "", py::arg("time_limit") = py::none(),
      py::arg("memory_limit") = py::none(), py::arg("threads") = 0,
      py::arg("spill_dir") = py::none(), py::arg("checkpoint") = py::none(),
      py::arg("resume") = py::none(), py::arg("symmetry") = true, py::arg("distinct") = true,
      py::arg("random_player") = true, py::arg("distinct_limit") = py::none(),
      py::arg("progress") = py::none(),
      "The exact census of a problem as `pegsol count` computes it.");

  m.def(
      "table",
      [](py::object board, std::string lattice, py::object method, py::object search_seconds,
         py::object minimize, py::object time_limit, py::object memory_limit, int threads,
         py::object spill_dir, py::object checkpoint, py::object resume, bool level_checkpoints,
         py::object fewest_beam, bool bound, bool pagodas, py::object progress) {
        return run_table({py::none(), board, py::none(), py::none(), py::none(), lattice}, method,
                         search_seconds, minimize, time_limit, memory_limit, threads, spill_dir,
                         checkpoint, resume, level_checkpoints,
                         FewestFlags{fewest_beam, bound, pagodas}, progress);
      },
      py::arg("board") = py::none(), py::kw_only(), py::arg("lattice") = "",
      py::arg("method") = py::none(), py::arg("search_seconds") = py::none(),
      py::arg("minimize") = py::none(), py::arg("time_limit") = py::none(),
      py::arg("memory_limit") = py::none(), py::arg("threads") = 0,
      py::arg("spill_dir") = py::none(), py::arg("checkpoint") = py::none(),
      py::arg("resume") = py::none(), py::arg("level_checkpoints") = true,
      py::arg("fewest_beam") = py::none(), py::arg("bound") = true, py::arg("pagodas") = true,
      py::arg("progress") = py::none(),
      "The board's solvability table as `pegsol table` computes it (with minimize=\"moves\": "
      "every pair's fewest moves).");

  m.def(
      "fewest",
      [](py::object board, std::string lattice, py::object time_limit, py::object memory_limit,
         py::object checkpoint, py::object resume, bool split, int threads, py::object fewest_beam,
         bool bound, bool pagodas, py::object progress) {
        return run_fewest({py::none(), board, py::none(), py::none(), py::none(), lattice},
                          time_limit, memory_limit, checkpoint, resume, split, threads,
                          FewestFlags{fewest_beam, bound, pagodas}, progress);
      },
      py::arg("board") = py::none(), py::kw_only(), py::arg("lattice") = "",
      py::arg("time_limit") = py::none(), py::arg("memory_limit") = py::none(),
      py::arg("checkpoint") = py::none(), py::arg("resume") = py::none(), py::arg("split") = false,
      py::arg("threads") = 0, py::arg("fewest_beam") = py::none(), py::arg("bound") = true,
      py::arg("pagodas") = true, py::arg("progress") = py::none(),
      "The board's fewest moves over every single-vacancy-to-one-peg problem (`pegsol fewest`).");
}

}  // namespace pegsol::python
