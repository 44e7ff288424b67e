// SPDX-License-Identifier: MIT
// A JSON API request's parts (request.hpp): its keys checked, its strings, numbers and seconds,
// its problem, board and game, and a query string's parameters.
#include "request.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>

#include "pegsol/api.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/json.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::api::detail {

using nlohmann::json;

namespace {

// `head` followed by `more`.
std::vector<std::string> with(std::vector<std::string> head,
                              std::initializer_list<const char*> more) {
  head.insert(head.end(), more.begin(), more.end());
  return head;
}

// The body keys each request takes, listed once: a problem's, a game's (its moves too), then
// each endpoint's own.
const std::vector<std::string>& keys_of(std::string_view method, std::string_view path) {
  struct Entry {
    std::string_view method, path;
    std::vector<std::string> keys;
  };
  static const std::vector<std::string> problem = {"board", "drawing", "lattice",
                                                   "start", "end",     "goal"};
  static const std::vector<std::string> game = with(problem, {"moves"});
  static const std::vector<Entry> all = {
      {"GET", "/api/board", {"board", "lattice"}},
      {"POST", "/api/board", {"board", "drawing", "lattice"}},
      {"POST", "/api/game", with(game, {"text"})},
      {"POST", "/api/solve", with(game, {"algorithm", "direction", "time_limit", "minimize"})},
      {"POST", "/api/hint", with(game, {"time_limit"})},
      {"POST", "/api/analysis", with(game, {"count", "time_limit"})},
      {"POST", "/api/mistake", game},
      {"POST", "/api/lookups", problem},
      {"POST", "/api/solutions", with(game, {"distinct", "limit", "time_limit"})},
      {"POST", "/api/jobs", with(game, {"kind", "time_limit"})},
  };
  static const std::vector<std::string> none;
  for (const Entry& e : all)
    if (e.method == method && e.path == path) return e.keys;
  return none;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

// The string at `key`, empty when absent; a request reads no files, so no @FILE.
std::string field(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_string()) throw ApiError(400, std::string("\"") + key + "\" must be a string");
  std::string s = it->get<std::string>();
  if (s.find('\0') != std::string::npos)
    throw ApiError(400, std::string("\"") + key + "\" holds a NUL character");
  if (!s.empty() && s[0] == '@')
    throw ApiError(400, std::string("\"") + key + "\": the server reads no files (" + s +
                            "); send a drawn board as \"drawing\" and positions as 0/1 strings");
  return s;
}

double number(const json& j, const char* key, double fallback) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if (!it->is_number()) throw ApiError(400, std::string("\"") + key + "\" must be a number");
  return it->get<double>();
}

// A request's "time_limit" (seconds above 0), or `fallback` when absent.
double seconds(const json& j, const char* key, double fallback) {
  const double v = number(j, key, fallback);
  if (j.contains(key) && !j[key].is_null() && !(std::isfinite(v) && v > 0))
    throw ApiError(400, std::string("\"") + key + "\" must be a number of seconds above 0");
  return v;
}

// Throws ApiError (400) naming the first key of `body` that `method` `path` does not take.
void check_keys(const json& body, std::string_view method, std::string_view path) {
  const std::vector<std::string>& keys = keys_of(method, path);
  for (auto it = body.begin(); it != body.end(); ++it) {
    if (std::find(keys.begin(), keys.end(), it.key()) != keys.end()) continue;
    std::string list;
    for (const std::string& k : keys) list += (list.empty() ? "" : ", ") + k;
    const auto near = closest_name(it.key(), keys);
    throw ApiError(400, "unknown key " + dump_json(it.key()) + " in " + std::string(method) + " " +
                            std::string(path) + (near ? " (did you mean \"" + *near + "\"?)" : "") +
                            "; its keys are " + list);
  }
}

// Throws ApiError (400) unless `body` names the board of its problem: a "board" or a "drawing"
// that is neither null nor empty. A body left out, {}, "board": null or "board": "" never
// means the default board (issue 44): the error names the key and the request.
void check_board_named(const json& body, std::string_view method, std::string_view path) {
  auto given = [&](const char* key) {
    auto it = body.find(key);
    return it != body.end() && !it->is_null() &&
           !(it->is_string() && it->get_ref<const std::string&>().empty());
  };
  if (given("board") || given("drawing")) return;
  const std::string where = std::string(method) + " " + std::string(path);
  const std::string how =
      method == "GET"
          ? "name it in the query: " + std::string(path) + "?board=english (docs/api.md)"
          : "name it as \"board\" (a catalogue board: \"english\", \"triangle:5\", ...) or draw "
            "it as \"drawing\" (docs/api.md)";
  for (const char* key : {"board", "drawing"})
    if (auto it = body.find(key); it != body.end())
      throw ApiError(400, "\"" + std::string(key) + "\" is " + (it->is_null() ? "null" : "empty") +
                              " in " + where + ": the request needs its board; " + how);
  throw ApiError(400, where + (body.empty() ? ": the body is empty" : ": no board given") +
                          "; the request needs its board: " + how);
}

// The seconds a request asked for within `cap` (0: no cap): the cap when it asked for none, for
// more, or for a value that is not positive.
double capped(double asked, double cap) {
  if (!(cap > 0)) return asked > 0 ? asked : 0;
  return asked > 0 && asked <= cap ? asked : cap;
}

// The request's problem: the CLI's option names as keys ("board", "lattice", "start", "end"),
// or "drawing" (a board drawn as text, docs/board-format.md) instead of "board", and "goal" as
// a 0/1 string for a whole target position.
Problem request_problem(const json& body) {
  ProblemSpec spec;
  spec.board = field(body, "board");
  spec.lattice = field(body, "lattice");
  spec.start = field(body, "start");
  spec.end = field(body, "end");
  const std::string drawing = field(body, "drawing"), goal = field(body, "goal");
  if (!goal.empty() && !spec.end.empty())
    throw InputError("\"goal\" and \"end\" exclude each other");
  Problem p;
  if (!drawing.empty()) {
    if (!spec.board.empty()) throw InputError("\"drawing\" and \"board\" exclude each other");
    std::optional<Lattice> lattice;
    if (!spec.lattice.empty()) {
      lattice = parse_lattice(spec.lattice);
      if (!lattice)
        throw InputError("\"lattice\": '" + spec.lattice +
                         "': expected square, square8 or triangular");
    }
    Drawing d = parse_drawing(drawing, "drawing", lattice);
    p.board = d.board;
    if (spec.start.empty())
      p.start = d.pegs;
    else if (auto h = d.board->find(spec.start))
      p.start = single_vacancy(*d.board, *h);
    else
      p.start = Position::parse(d.board, spec.start, "\"start\"").pegs();
    if (spec.end.empty() || spec.end == "any") {
      p.goal.kind = Goal::Kind::Any;
    } else if (auto h = d.board->find(spec.end)) {
      p.goal.kind = Goal::Kind::Hole;
      p.goal.hole = *h;
    } else {
      throw InputError("\"end\": no hole of the drawing is named '" + spec.end + "'");
    }
  } else {
    p = build_problem(spec);
  }
  if (!goal.empty()) {
    p.goal.kind = Goal::Kind::Position;
    p.goal.hole = -1;
    p.goal.position = Position::parse(p.board, goal, "\"goal\"").pegs();
  }
  return p;
}

// The board of a request: "board" (and "lattice"), or the board of its "drawing".
BoardPtr request_board(const json& body) {
  if (body.contains("drawing")) return request_problem(body).board;
  ProblemSpec spec;
  spec.board = field(body, "board");
  spec.lattice = field(body, "lattice");
  return build_board(spec);
}

// The request's game: its problem and "moves" (parse_move_list: an array of moves or one string
// of them) played in turn; a move that cannot be read or played is named with its number.
Game request_game(const json& body) {
  Problem p = request_problem(body);
  std::vector<Move> moves;
  auto it = body.find("moves");
  try {
    if (it == body.end() || it->is_null()) {
    } else if (it->is_string()) {
      moves = parse_move_list(*p.board, it->get<std::string>());
    } else if (it->is_array()) {
      for (const json& m : *it) {
        if (!m.is_string()) throw ApiError(400, "\"moves\" must hold strings like \"d2-d4\"");
        try {
          moves.push_back(parse_move_chain(*p.board, m.get<std::string>()));
        } catch (const InputError& e) {
          throw InputError("move " + std::to_string(moves.size() + 1) + ": " + e.what());
        }
      }
    } else {
      throw ApiError(400, "\"moves\" must be an array of moves or a string");
    }
    return game_after(p, moves);
  } catch (const InputError& e) {
    throw InputError(std::string("moves: ") + e.what());
  }
}

// The problem of going on from the game's current position towards its goal.
Problem from_here(const Game& g) {
  Problem p = g.problem();
  p.start = g.position().pegs();
  return p;
}

// A query's key or value decoded: %XX escapes and '+' for a space (a bad escape stays as is).
std::string url_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 &&
               hex_digit(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The query's parameters as a JSON object of strings (the first of a repeated key).
json query_object(std::string_view query) {
  json out = json::object();
  std::size_t i = 0;
  while (i <= query.size()) {
    std::size_t amp = query.find('&', i);
    if (amp == std::string_view::npos) amp = query.size();
    const std::string_view pair = query.substr(i, amp - i);
    if (!pair.empty()) {
      const std::size_t eq = pair.find('=');
      const std::string key = url_decode(pair.substr(0, eq));
      const std::string value =
          eq == std::string_view::npos ? std::string() : url_decode(pair.substr(eq + 1));
      if (!out.contains(key)) out[key] = value;
    }
    i = amp + 1;
  }
  return out;
}

}  // namespace pegsol::api::detail
