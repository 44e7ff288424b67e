// SPDX-License-Identifier: MIT
// Values between Python and the library: JSON, counts, holes, jumps, moves, limits.
#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "common.hpp"
#include "pegsol/error.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/play.hpp"

namespace pegsol::python {

namespace {

py::str utf8(const std::string& s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

std::string shown(py::handle v) {
  return py::repr(v).cast<std::string>();
}

bool is_number(py::handle v) {
  return !py::isinstance<py::bool_>(v) &&
         (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v));
}

}  // namespace

std::string python_field(std::string_view field) {
  if (field == "PathIndex::Options::memory" || field == "PathIndexCache::Options::build_memory")
    return "lookup_memory";
  if (field == "Control::memory_budget") return "memory_limit";
  const auto at = field.find("Options::");
  if (at == std::string_view::npos) return {};
  const std::string_view name = field.substr(at + 9);
  static const std::pair<std::string_view, std::string_view> renamed[] = {
      {"checkpoint_dir", "checkpoint"},
      {"distinct_max_positions", "distinct_limit"},
  };
  for (const auto& [from, to] : renamed)
    if (name == from) return std::string(to);
  return std::string(name);
}

std::string python_words(const std::string& text) {
  return rename_fields(text, python_field);
}

bool same_board(const Board& a, const Board& b) {
  if (&a == &b) return true;
  if (a.name() != b.name() || a.lattice() != b.lattice() || a.size() != b.size()) return false;
  for (int h = 0; h < a.size(); ++h)
    if (!(a.coord(h) == b.coord(h))) return false;
  return true;
}

py::object to_python(const nlohmann::json& j) {
  using T = nlohmann::json::value_t;
  switch (j.type()) {
    case T::null:
    case T::discarded:
      return py::none();
    case T::boolean:
      return py::bool_(j.get<bool>());
    case T::number_integer:
      return py::int_(j.get<std::int64_t>());
    case T::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case T::number_float:
      return py::float_(j.get<double>());
    case T::string:
      return utf8(j.get_ref<const std::string&>());
    case T::binary: {
      const auto& b = j.get_binary();
      return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
    }
    case T::array: {
      py::list l;
      for (const auto& v : j) l.append(to_python(v));
      return l;
    }
    case T::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[utf8(k)] = to_python(v);
      return d;
    }
  }
  return py::none();
}

py::int_ to_int(Count c) {
  const py::int_ high(static_cast<std::uint64_t>(c >> 64));
  const py::int_ low(static_cast<std::uint64_t>(c));
  PyObject* shifted = PyNumber_Lshift(high.ptr(), py::int_(64).ptr());
  if (!shifted) throw py::error_already_set();
  PyObject* sum = PyNumber_Or(shifted, low.ptr());
  Py_DECREF(shifted);
  if (!sum) throw py::error_already_set();
  return py::reinterpret_steal<py::int_>(sum);
}

py::list hole_names(const Board& b, const HoleSet& holes) {
  py::list l;
  for (int h : holes.members()) l.append(b.hole_name(h));
  return l;
}

py::list jump_list(const std::vector<Jump>& jumps) {
  py::list l;
  for (const Jump& j : jumps) l.append(py::cast(j));
  return l;
}

py::list move_list(const std::vector<Move>& moves) {
  py::list l;
  for (const Move& m : moves) l.append(py::cast(m));
  return l;
}

int hole_of(const Board& b, py::handle h, const char* what) {
  if (py::isinstance<py::str>(h)) {
    const std::string name = h.cast<std::string>();
    if (auto found = b.find(name)) return *found;
    throw InputError(std::string(what) + " '" + name + "': board " + b.name() +
                     " has no hole named '" + name + "' (holes are named like " +
                     b.hole_name(b.size() / 2) + ")");
  }
  if (py::isinstance<py::int_>(h) && !py::isinstance<py::bool_>(h)) {
    const long long i = h.cast<long long>();
    if (i < 0 || i >= b.size())
      throw InputError(std::string(what) + " " + std::to_string(i) + ": board " + b.name() +
                       " has holes 0 to " + std::to_string(b.size() - 1));
    return static_cast<int>(i);
  }
  throw py::type_error(std::string(what) + ": expected a hole name or index, got " + shown(h));
}

Jump jump_of(const Board& b, py::handle j) {
  if (py::isinstance<Jump>(j)) return j.cast<Jump>();
  if (py::isinstance<py::str>(j)) return parse_move(b, j.cast<std::string>());
  if (py::isinstance<py::sequence>(j) && py::len(j) == 3) {
    const auto s = py::reinterpret_borrow<py::sequence>(j);
    return Jump{hole_of(b, s[0], "jump"), hole_of(b, s[1], "jump"), hole_of(b, s[2], "jump")};
  }
  throw py::type_error("expected a jump: a pegsol.Jump, (from, over, to) or \"d2-d4\", got " +
                       shown(j));
}

Move move_of(const Board& b, py::handle m) {
  if (py::isinstance<Move>(m)) return m.cast<Move>();
  if (py::isinstance<Jump>(m)) return Move{{m.cast<Jump>()}};
  if (py::isinstance<py::str>(m)) return parse_move_chain(b, m.cast<std::string>());
  if (py::isinstance<py::sequence>(m)) {
    Move move;
    for (py::handle j : m) move.jumps.push_back(jump_of(b, j));
    if (move.jumps.empty()) throw InputError("a move needs at least one jump");
    return move;
  }
  throw py::type_error(
      "expected a move: a pegsol.Move, a pegsol.Jump, \"f3-d3-d5\" or a list of jumps, got " +
      shown(m));
}

std::vector<Move> moves_of(const Board& b, py::handle moves) {
  std::vector<Move> out;
  if (moves.is_none()) return out;
  if (py::isinstance<py::str>(moves)) {
    // One string of moves, read as the dispatcher reads the API's "moves".
    try {
      return parse_move_list(b, moves.cast<std::string>());
    } catch (const InputError& e) {
      throw InputError(std::string("moves: ") + e.what());
    }
  }
  if (!py::isinstance<py::sequence>(moves))
    throw py::type_error("moves: expected a string of moves or a list of moves, got " +
                         shown(moves));
  std::vector<py::object> items;
  for (py::handle m : moves) items.push_back(py::reinterpret_borrow<py::object>(m));
  for (std::size_t i = 0; i < items.size(); ++i) {
    try {
      out.push_back(move_of(b, items[i]));
    } catch (const InputError& e) {
      throw InputError("moves: move " + std::to_string(i + 1) + " (" +
                       py::str(items[i]).cast<std::string>() + "): " + e.what());
    }
  }
  return out;
}

double seconds_arg(py::handle v, const char* name) {
  if (v.is_none()) return 0;
  if (!is_number(v))
    throw py::type_error(std::string(name) + ": expected a number of seconds, got " + shown(v));
  const double s = v.cast<double>();
  if (std::isnan(s) || s < 0)
    throw InputError(std::string(name) + " " + shown(v) +
                     ": expected a number of seconds >= 0 (0 or None: no limit)");
  return s;
}

std::optional<std::size_t> megabytes_arg(py::handle v, const char* name) {
  if (v.is_none()) return std::nullopt;
  if (!is_number(v))
    throw py::type_error(std::string(name) + ": expected megabytes, got " + shown(v));
  const double mb = v.cast<double>();
  if (!(mb > 0)) throw InputError(std::string(name) + " " + shown(v) + ": expected megabytes > 0");
  // A positive amount is at least a byte: 0 would mean no limit.
  return std::max<std::size_t>(
      1, static_cast<std::size_t>(std::min(mb, double(1 << 24)) * 1024 * 1024));
}

int threads_arg(int threads) {
  const int most = 4 * static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (threads < 0 || threads > most)
    throw InputError("threads " + std::to_string(threads) + ": expected 0 (one per core) to " +
                     std::to_string(most));
  return threads;
}

}  // namespace pegsol::python
