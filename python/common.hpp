// SPDX-License-Identifier: MIT
// What the Python module's files share: value conversions, the board handle, problems from
// keyword arguments, and long calls run with the GIL released and Ctrl-C honoured.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <nlohmann/json.hpp>

#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/play.hpp"
#include "pegsol/problem.hpp"

namespace pegsol::python {

namespace py = pybind11;

// A board as Python holds it: the shared immutable board (pegsol.Board).
struct BoardRef {
  BoardPtr ptr;
  const Board& operator*() const { return *ptr; }
  const Board* operator->() const { return ptr.get(); }
};

// Same lattice, same name and the same holes at the same coordinates.
bool same_board(const Board& a, const Board& b);

// The object json.loads gives for the value's dump: dicts (keys in the dump's order), lists,
// str (bytes that are not UTF-8 replaced), int, float, bool, None.
py::object to_python(const nlohmann::json& j);
// An exact count as a Python int.
py::int_ to_int(Count c);
// Hole names of `holes` on `b`.
py::list hole_names(const Board& b, const HoleSet& holes);
// Jumps as a list of pegsol.Jump.
py::list jump_list(const std::vector<Jump>& jumps);
// Moves as a list of pegsol.Move.
py::list move_list(const std::vector<Move>& moves);

// The hole `h` names on `b`: an index (0-based, reading order) or a hole name. Throws InputError
// naming `what`.
int hole_of(const Board& b, py::handle h, const char* what);
// A jump of `b`: a pegsol.Jump, a (from, over, to) sequence of indices, or its text ("d2-d4").
Jump jump_of(const Board& b, py::handle j);
// A move of `b`: a pegsol.Move, a pegsol.Jump, its chain's text ("f3-d3-d5") or a sequence of
// jumps.
Move move_of(const Board& b, py::handle m);
// Moves of `b`: None (none), one string of moves as parse_move_list reads it (numbered or not,
// separated by spaces or commas), or a sequence of moves. Errors name the move by its number.
std::vector<Move> moves_of(const Board& b, py::handle moves);

// A problem as the keyword arguments name it (the command's options): `board` a catalogue spec,
// @FILE or pegsol.Board; `start` a hole (name or index), a 0/1 string, @FILE or a
// pegsol.Position; `end` a hole or "any"; `goal` a pegsol.Position, a 0/1 string or @FILE.
struct ProblemArgs {
  py::object problem = py::none();  // a pegsol.Problem: then none of the others may be given
  py::object board = py::none(), start = py::none(), end = py::none(), goal = py::none();
  std::string lattice;
};
Problem problem_of(const ProblemArgs& a);
// The arguments' board alone (board and lattice; start, end and goal must be absent).
BoardPtr board_of(const ProblemArgs& a, const char* function);

// A library field as the module names it: its keyword argument ("Control::memory_budget":
// "memory_limit", "CensusOptions::checkpoint_dir": "checkpoint"), for rename_fields and the JSON
// functions' FieldNames; "" for a field no keyword sets.
std::string python_field(std::string_view field);
// The library's prose (a stop note, a reason) with its fields named as python_field names them.
std::string python_words(const std::string& text);

// Seconds from a keyword argument: None or a number >= 0 (0: no limit). Throws InputError.
double seconds_arg(py::handle v, const char* name);
// Bytes from megabytes given as a keyword argument (a number > 0); nullopt for None.
std::optional<std::size_t> megabytes_arg(py::handle v, const char* name);
// A worker thread count: 0 (the hardware's) up to four per hardware thread. Throws InputError.
int threads_arg(int threads);

// One long call: its control (the call's time limit and memory budget), an optional Python
// progress callback, and the run itself on a thread of its own.
class Call {
 public:
  // A control with the deadline `time_limit` seconds from now (0: none) and `memory` bytes (0:
  // none). `progress`, when not None, receives the control's reports as dicts (progress_json; a
  // fewest-moves search's: fewest_progress_json). Exceptions it raises cancel the call and are
  // raised by run().
  Call(double time_limit, std::size_t memory, py::object progress);
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  Control& control() { return control_; }

  // Runs `work` with the GIL released in a thread of its own while the calling thread polls
  // Python's signal handlers. A handler's exception (KeyboardInterrupt on Ctrl-C) cancels the
  // control with StopReason::Signal and is raised once `work` has returned, carrying
  // `partial()` (the result so far, when `work` returned one) as its `result` attribute.
  // Exceptions thrown by `work` or by the progress callback are raised here.
  void run(const std::function<void()>& work, const std::function<py::object()>& partial = {});

 private:
  // Calls the Python callback with `report` (the GIL taken here); keeps its first exception.
  void deliver(const nlohmann::json& report);

  Control control_;
  py::object progress_;
  std::mutex error_m_;
  std::unique_ptr<py::error_already_set> progress_error_;
};

// The classes and functions of each part of the module.
void bind_play(py::module_& m);
void bind_compute(py::module_& m);
void bind_analysis(py::module_& m);

}  // namespace pegsol::python
