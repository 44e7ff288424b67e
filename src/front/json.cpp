// SPDX-License-Identifier: MIT
// The JSON of every result (include/pegsol/json.hpp).
//
// Large because it holds every result's JSON shape, one function a result type, in one place
// beside docs/json.md and docs/json-schema.json, which describe them together.
#include "pegsol/json.hpp"

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/play.hpp"
#include "pegsol/spec.hpp"
#include "pegsol/version.hpp"

namespace pegsol {

namespace {

std::string goal_text(const Problem& p) {
  switch (p.goal.kind) {
    case Goal::Kind::Hole:
      return p.board->hole_name(p.goal.hole);
    case Goal::Kind::Any:
      return "any";
    case Goal::Kind::Position:
      return p.goal.position.to_bits();
  }
  return "";
}

std::string stop_text(StopReason r) {
  return std::string(stop_reason_name(r));
}

// `text` parsed, or an InputError "<where>malformed JSON[: the parser's message]". The parser's
// own message names the byte where it failed; it is not only a parse_error: a number too large
// for a double ("1e999") is an out_of_range (found by fuzz_json_spec).
nlohmann::json parse_or_throw(std::string_view text, const std::string& where) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_discarded()) return j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where + "malformed JSON: " + e.what());
  }
  throw InputError(where + "malformed JSON");
}

}  // namespace

std::string dump_json(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

ProblemSpec spec_from_json_value(const nlohmann::json& j) {
  if (!j.is_object())
    throw InputError(std::string("expected a JSON object with the keys board, lattice, start, "
                                 "end, goal; got ") +
                     j.type_name());
  ProblemSpec spec;
  for (const auto& [key, value] : j.items()) {
    std::string* field = key == "board"     ? &spec.board
                         : key == "lattice" ? &spec.lattice
                         : key == "start"   ? &spec.start
                         : key == "end"     ? &spec.end
                         : key == "goal"    ? &spec.goal
                                            : nullptr;
    if (!field) {
      const auto near = closest_name(key, {"board", "lattice", "start", "end", "goal"});
      throw InputError("unknown key " + dump_json(key) +
                       (near ? " (did you mean \"" + *near + "\"?)" : "") +
                       "; the keys are board, lattice, start, end and goal");
    }
    if (!value.is_string())
      throw InputError("\"" + key + "\" must be a string, not " + value.type_name());
    *field = value.get<std::string>();
    if (field->starts_with("@"))
      throw InputError("\"" + key + "\": files (@...) are not read from a request");
  }
  return spec;
}

ProblemSpec spec_from_json(std::string_view json_text) {
  return spec_from_json_value(parse_or_throw(json_text, ""));
}

std::vector<Jump> solution_from_text(const Board& board, std::string_view text,
                                     std::string_view source) {
  const std::string where(source);
  auto bad = [&](const std::string& why) { return InputError(where + ": " + why); };
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) throw bad("is empty: no solution in it");
  std::vector<Jump> jumps;
  if (text[first] == '{') {  // a result of `pegsol solve --json` or `pegsol fewest --json`
    const nlohmann::json j = parse_or_throw(text, where + ": ");
    if (!j.is_object()) throw bad("expected a JSON object (a result of --json)");
    if (auto it = j.find("board");
        it != j.end() && it->is_string() && it->get<std::string>() != board.name())
      throw bad("a solution on board " + it->get<std::string>() + ", not " + board.name());
    const auto moves = j.find("moves");
    if (moves == j.end() || moves->is_null())
      throw bad("has no \"moves\": no solution in it (the run found none?)");
    if (!moves->is_array()) throw bad("\"moves\" is not a list of [from, over, to]");
    for (std::size_t i = 0; i < moves->size(); ++i) {
      const nlohmann::json& m = (*moves)[i];
      const std::string at = "\"moves\"[" + std::to_string(i) + "]";
      if (!m.is_array() || m.size() != 3 || !m[0].is_number_integer() ||
          !m[1].is_number_integer() || !m[2].is_number_integer())
        throw bad(at + " is not [from, over, to] (three hole indices)");
      Jump jp;
      int* holes[3] = {&jp.from, &jp.over, &jp.to};
      for (std::size_t k = 0; k < 3; ++k) {
        const auto h = m[k].get<std::int64_t>();
        if (h < 0 || h >= board.size())
          throw bad(at + ": hole index " + std::to_string(h) + " is not on board " + board.name() +
                    " (0 to " + std::to_string(board.size() - 1) + ")");
        *holes[k] = static_cast<int>(h);
      }
      jumps.push_back(jp);
    }
  } else if (is_game_text(text)) {  // a saved game: its played moves
    const Game game = Game::parse(text, source);
    if (!game.problem().board->same_shape(board))
      throw bad("a game on board " + game.problem().board->name() + ", not " + board.name());
    jumps = flatten(game.played());
  } else {  // a move list, the moves optionally numbered ("1. d6-d4"): the numbers dropped
    std::string list(text);
    for (std::size_t i = 0; i < list.size();) {
      std::size_t e = i;
      while (e < list.size() && std::isdigit(static_cast<unsigned char>(list[e]))) ++e;
      const bool number =
          e > i && e < list.size() && list[e] == '.' &&
          (i == 0 || std::isspace(static_cast<unsigned char>(list[i - 1]))) &&
          (e + 1 == list.size() || std::isspace(static_cast<unsigned char>(list[e + 1])));
      if (number) {
        list.replace(i, e + 1 - i, e + 1 - i, ' ');
        i = e + 1;
      } else {
        i = std::max(e, i + 1);
      }
    }
    try {
      jumps = parse_moves(board, list);
    } catch (const InputError& e) {
      throw bad(e.what());
    }
  }
  if (jumps.empty()) throw bad("holds no moves");
  return jumps;
}

nlohmann::json error_json(std::string_view kind, std::string_view message) {
  return {{"status", "error"},
          {"error", {{"kind", std::string(kind)}, {"message", std::string(message)}}}};
}

nlohmann::json solve_json(const Problem& p, const SolveResult& r, const FieldNames& names) {
  const Board& b = *p.board;
  nlohmann::json moves = nlohmann::json::array(), notation = nlohmann::json::array();
  for (const Jump& j : r.moves) {
    moves.push_back({j.from, j.over, j.to});
    notation.push_back(move_text(b, j));
  }
  nlohmann::json stats = {{"nodes", r.nodes}, {"seconds", r.seconds}, {"width", r.width}};
  if (r.beam) {
    stats["pairs"] = r.beam->pairs;
    stats["expanded"] = r.nodes;
    stats["capacity"] = r.beam->capacity;
    stats["attempts"] = r.beam->attempts;
    stats["method"] = r.beam->method;
    if (r.beam->clamped_from) stats["clamped_from"] = r.beam->clamped_from;
  }
  return {
      {"board", b.name()},
      {"holes", b.size()},
      {"start", p.start.to_bits()},
      {"status", std::string(status_name(r.status))},
      {"stop", stop_text(r.stop)},
      {"reason", rename_fields(r.reason, names)},
      {"moves", moves},
      {"notation", notation},
      {"final", r.final.to_bits()},
      {"stats", stats},
  };
}

nlohmann::json finish_json(const Problem& p, const FinishResult& f) {
  nlohmann::json j = solve_json(p, f.result);
  j["kept_moves"] = f.kept_jumps;
  return j;
}

namespace {

nlohmann::json minimize_json(const Board& b, const FewestResult& r) {
  nlohmann::json chains = nlohmann::json::array(), notation = nlohmann::json::array();
  for (const Move& m : r.chains()) {
    nlohmann::json chain = nlohmann::json::array();
    for (const Jump& j : m.jumps) chain.push_back({j.from, j.over, j.to});
    chains.push_back(chain);
    notation.push_back(move_chain_text(b, m));
  }
  return {{"moves", r.moves >= 0 ? nlohmann::json(r.moves) : nlohmann::json()},
          {"lower_bound", r.lower_bound},
          {"proven", r.proven},
          {"chains", chains},
          {"notation", notation}};
}

}  // namespace

nlohmann::json fewest_json(const Problem& p, const FewestResult& r) {
  nlohmann::json j = solve_json(p, to_solve_result(p, r));
  j["minimize"] = minimize_json(*p.board, r);
  return j;
}

nlohmann::json fewest_finish_json(const Problem& p, const FewestFinish& f) {
  FewestResult whole = f.rest;
  whole.jumps = f.jumps;
  nlohmann::json j = solve_json(p, to_solve_result(p, whole));
  j["kept_moves"] = f.kept_jumps;
  j["minimize"] = minimize_json(*p.board, f.rest);
  j["minimize"]["from"] = f.from.to_bits();
  return j;
}

nlohmann::json fewest_board_json(const Board& b, const FewestBoardResult& r) {
  const FewestResult& f = r.result;
  auto hole = [&](int h) { return h >= 0 ? nlohmann::json(b.hole_name(h)) : nlohmann::json(); };
  auto index = [&](int h) { return h >= 0 ? nlohmann::json(h) : nlohmann::json(); };
  nlohmann::json moves = nlohmann::json::array(), notation = nlohmann::json::array();
  for (const Jump& j : f.jumps) {
    moves.push_back({j.from, j.over, j.to});
    notation.push_back(move_text(b, j));
  }
  return {
      {"board", b.name()},
      {"fewest", f.moves >= 0 ? nlohmann::json(f.moves) : nlohmann::json()},
      {"proven", f.proven},
      {"start", hole(r.start)},
      {"end", hole(r.end)},
      {"start_index", index(r.start)},
      {"end_index", index(r.end)},
      {"status", std::string(status_name(f.status))},
      {"reason", f.reason},
      {"moves", moves},
      {"notation", notation},
      {"minimize", minimize_json(b, f)},
      {"stats", {{"positions", f.positions}, {"seconds", f.seconds}}},
      {"stop", std::string(stop_reason_name(f.stop))},
  };
}

nlohmann::json fewest_table_json(const Board& b, const FewestTable& t) {
  nlohmann::json names = nlohmann::json::array(), matrix = nlohmann::json::array();
  for (int s = 0; s < b.size(); ++s) {
    names.push_back(b.hole_name(s));
    nlohmann::json row = nlohmann::json::array();
    for (int e = 0; e < b.size(); ++e) {
      int m = t.at(s, e);
      row.push_back(m == FewestTable::kUnknown ? nlohmann::json() : nlohmann::json(m));
    }
    matrix.push_back(row);
  }
  auto hole = [&](int h) { return h >= 0 ? nlohmann::json(b.hole_name(h)) : nlohmann::json(); };
  return {
      {"board", b.name()},
      {"names", names},
      {"matrix", matrix},
      {"fewest", t.fewest >= 0 ? nlohmann::json(t.fewest) : nlohmann::json()},
      {"proven", t.complete && t.fewest >= 0},
      {"start", hole(t.start)},
      {"end", hole(t.end)},
      {"status", t.complete ? "complete" : "stopped"},
      {"stop", std::string(stop_reason_name(t.stop))},
      {"reason", t.complete ? std::string()
                            : "stopped (" + std::string(stop_reason_name(t.stop)) +
                                  ") before every pair was settled"},
      {"complete", t.complete},
      {"stats", {{"positions", t.positions}, {"seconds", t.seconds}}},
  };
}

std::string census_stop_reason(const CensusResult& r, const FieldNames& names) {
  if (r.stop == StopReason::None) return {};
  std::string note = rename_fields(r.stop_note, names);
  if (!note.empty() && note.back() == '.') note.pop_back();  // a sentence, joined by "; " below
  return "stopped (" + stop_text(r.stop) + ")" + (note.empty() ? "" : ": " + note) +
         (r.reachable_raw > 0 ? "; the figures cover the levels completed"
                              : "; no level was completed");
}

nlohmann::json census_json(const Problem& p, const CensusResult& r, const FieldNames& names) {
  const Board& b = *p.board;
  nlohmann::json levels = nlohmann::json::array();
  for (int k = static_cast<int>(r.levels.size()) - 1; k >= 0; --k) {
    const CensusLevel& l = r.levels[static_cast<std::size_t>(k)];
    if (l.reachable_raw == 0) continue;
    levels.push_back({{"pegs", k},
                      {"reachable", l.reachable_raw},
                      {"reachable_up_to_symmetry", l.reachable_sym},
                      {"on_solution_path", l.on_path_raw},
                      {"on_solution_path_up_to_symmetry", l.on_path_sym},
                      {"games_ending", count_text(l.games)}});
  }
  nlohmann::json by_hole = nlohmann::json::object(), p_by_hole = nlohmann::json::object();
  for (int h = 0; h < b.size(); ++h)
    if (r.solutions_by_hole[static_cast<std::size_t>(h)] > 0) {
      by_hole[b.hole_name(h)] = count_text(r.solutions_by_hole[static_cast<std::size_t>(h)]);
      p_by_hole[b.hole_name(h)] = r.p_by_hole[static_cast<std::size_t>(h)];
    }
  nlohmann::json stop_limit = nullptr;
  if (r.stop == StopReason::Memory && !r.stop_field.empty()) {
    const std::string named = names ? names(r.stop_field) : std::string();
    stop_limit = {{"field", named.empty() ? r.stop_field : named}, {"bytes", r.stop_limit}};
  }
  return {
      {"board", b.name()},
      {"holes", b.size()},
      {"start", p.start.to_bits()},
      {"goal", goal_text(p)},
      {"status", r.stop == StopReason::None ? "complete" : "stopped"},
      {"stop", stop_text(r.stop)},
      {"reason", census_stop_reason(r, names)},
      {"group_size", r.group_size},
      {"levels", levels},
      {"reachable", r.reachable_raw},
      {"reachable_up_to_symmetry", r.reachable_sym},
      {"on_solution_path", r.on_path_raw},
      {"on_solution_path_up_to_symmetry", r.on_path_sym},
      {"solutions", count_text(r.solutions)},
      {"solutions_up_to_symmetry", count_text(r.solutions_up_to_symmetry)},
      {"solutions_up_to_reordering",
       r.distinct_solutions ? nlohmann::json(count_text(*r.distinct_solutions)) : nullptr},
      {"solutions_up_to_reordering_note", rename_fields(r.distinct_note, names)},
      {"games", count_text(r.games)},
      {"solutions_by_final_hole", by_hole},
      {"random_player", r.random_player ? nlohmann::json{{"p_one_peg", r.p_one_peg},
                                                         {"p_goal", r.p_goal},
                                                         {"p_by_final_hole", p_by_hole},
                                                         {"arithmetic", "binary64"}}
                                        : nlohmann::json(nullptr)},
      {"stats",
       {{"seconds", r.seconds},
        {"peak_bytes", r.peak_bytes},
        {"spill_peak_bytes", r.spill_peak_bytes},
        {"threads", r.threads},
        {"width", r.width}}},
      {"stop_limit", stop_limit},
  };
}

nlohmann::json table_json(const Board& b, const SolvabilityTable& t, TableMethod method,
                          const FieldNames& fields) {
  nlohmann::json names = nlohmann::json::array(), matrix = nlohmann::json::array(),
                 by_name = nlohmann::json::object(), open = nlohmann::json::object();
  for (int v = 0; v < b.size(); ++v) {
    names.push_back(b.hole_name(v));
    nlohmann::json row = nlohmann::json::array(), finals = nlohmann::json::array(),
                   undecided = nlohmann::json::array();
    for (int h = 0; h < b.size(); ++h) {
      const bool ok = t.finals[static_cast<std::size_t>(v)].test(h);
      const bool unknown = t.open[static_cast<std::size_t>(v)].test(h);
      if (unknown)
        row.push_back(nullptr);
      else
        row.push_back(ok ? 1 : 0);
      if (ok) finals.push_back(b.hole_name(h));
      if (unknown) undecided.push_back(b.hole_name(h));
    }
    matrix.push_back(row);
    by_name[b.hole_name(v)] = finals;
    if (!undecided.empty()) open[b.hole_name(v)] = undecided;
  }
  nlohmann::json certificates = nlohmann::json::array();
  for (const TableCertificate& c : t.certificates) {
    nlohmann::json moves = nlohmann::json::array();
    for (const Jump& j : c.moves) moves.push_back(move_text(b, j));
    nlohmann::json e{
        {"vacancy", b.hole_name(c.vacancy)}, {"end", b.hole_name(c.end)}, {"solvable", c.solvable}};
    if (c.solvable)
      e["moves"] = moves;
    else
      e["reason"] = c.reason;
    certificates.push_back(e);
  }
  return {{"board", b.name()},
          {"holes", b.size()},
          {"names", names},
          {"matrix", matrix},
          {"certificates", certificates},
          {"finals", by_name},
          {"status", t.complete() ? "complete" : "stopped"},
          {"stop", stop_text(t.stop)},
          {"reason", rename_fields(t.stopped, fields)},
          {"complete", t.complete()},
          {"open", open},
          {"method", std::string(table_method_name(method))},
          {"passes", t.passes},
          {"half_passes", t.half_passes},
          {"proved_without_search", t.proved},
          {"pairs_searched", t.searched},
          {"pairs_solved_by_search", t.solved_by_search},
          {"pairs_impossible_by_search", t.impossible_by_search},
          {"stats",
           {{"seconds", t.seconds},
            {"peak_bytes", t.peak_bytes},
            {"spill_peak_bytes", t.spill_peak_bytes}}}};
}

nlohmann::json solution_json(const Board& b, const std::vector<Jump>& moves) {
  nlohmann::json indices = nlohmann::json::array(), notation = nlohmann::json::array();
  for (const Jump& j : moves) {
    indices.push_back({j.from, j.over, j.to});
    notation.push_back(move_text(b, j));
  }
  return {{"moves", indices}, {"notation", notation}};
}

SolutionsJson::SolutionsJson(const Problem& p, const EnumerateOptions& o) : p_(p), o_(o) {
  check_problem(p_);
}

std::string SolutionsJson::head() const {
  const nlohmann::json h = {{"board", p_.board->name()},
                            {"holes", p_.board->size()},
                            {"start", p_.start.to_bits()},
                            {"goal", goal_text(p_)},
                            {"kind", o_.games      ? "games"
                                     : o_.distinct ? "distinct"
                                                   : "solutions"},
                            {"limit", o_.limit}};
  std::string s = dump_json(h);
  s.pop_back();  // the closing brace: the object goes on
  return s + ",\"solutions\":[";
}

std::string SolutionsJson::item(const std::vector<Jump>& moves) {
  std::string s = first_ ? "" : ",";
  first_ = false;
  return s + dump_json(solution_json(*p_.board, moves));
}

std::string SolutionsJson::status(const EnumerateResult& r) const {
  if (r.stop != StopReason::None) return "stopped";
  if (o_.limit && r.emitted >= o_.limit) return "limit";
  return r.emitted > 0 ? "complete" : "impossible";
}

std::string SolutionsJson::tail(const EnumerateResult& r, double seconds) const {
  const std::string st = status(r);
  const std::string what = o_.games ? "games" : o_.distinct ? "distinct solutions" : "solutions";
  const std::string reason =
      st == "stopped"
          ? "stopped (" + stop_text(r.stop) + ") after " + std::to_string(r.emitted) + " " + what
      : st == "limit" ? "the limit of " + std::to_string(o_.limit) + " was reached"
      : st == "impossible"
          ? (r.reason.empty() ? "no solution exists (the enumeration completed)" : r.reason)
          : "";
  const nlohmann::json t = {{"count", std::to_string(r.emitted)},
                            {"status", st},
                            {"stop", stop_text(r.stop)},
                            {"reason", reason},
                            {"stats", {{"seconds", seconds}}}};
  return "]," + dump_json(t).substr(1);  // the rest of the object, its opening brace dropped
}

namespace {

// The holes of an explanation's proof, or null.
nlohmann::json proof_holes_json(const Explanation& e) {
  if (!e.holes) return nullptr;
  return *e.holes;
}

nlohmann::json answer_json(const Board& b, const SolvabilityAnswer& s, const Explanation& e) {
  nlohmann::json chains = nlohmann::json::array();
  for (const Move& m : group_moves(s.solution)) chains.push_back(move_chain_text(b, m));
  return {{"verdict", std::string(solvability_name(s.verdict))},
          {"reason", s.reason},
          {"explanation", e.text},
          {"proof_holes", proof_holes_json(e)},
          {"solution", chains},
          {"nodes", s.nodes},
          {"seconds", s.seconds}};
}

}  // namespace

nlohmann::json progress_json(const ProgressReport& r) {
  return {{"done", r.done},
          {"total", r.total},
          {"fraction", r.fraction},
          {"seconds", r.seconds},
          {"eta_seconds", r.eta_seconds},
          {"phase", std::string(r.phase)},
          {"positions", r.positions},
          {"memory_bytes", r.memory_bytes},
          {"level", r.level}};
}

nlohmann::json fewest_progress_json(const ProgressReport& r) {
  const FewestBounds f = r.fewest.value_or(FewestBounds{});
  return {{"done", 0},
          {"total", 0},
          {"fraction", 0},
          {"seconds", r.seconds},
          {"eta_seconds", 0},
          {"phase", "fewest"},
          {"positions", r.positions},
          {"memory_bytes", 0},
          {"level", -1},
          {"lower_bound", f.lower_bound},
          {"best_found", f.best_found},
          {"shortening", f.shortening}};
}

nlohmann::json analysis_json(const Position& p, const Analysis& a, const FieldNames& names) {
  const Board& b = p.board();
  nlohmann::json hint = nullptr, hint_moves = nlohmann::json::array();
  if (a.hint) {
    hint = move_chain_text(b, *a.hint);
    for (const Jump& j : a.hint->jumps) hint_moves.push_back({j.from, j.over, j.to});
  }
  nlohmann::json ends = nullptr, end_indices = nullptr;
  if (a.counted) {
    ends = nlohmann::json::array();
    end_indices = nlohmann::json::array();
    for (int h : a.end_holes.members()) {
      ends.push_back(b.hole_name(h));
      end_indices.push_back(h);
    }
  }
  return {
      {"position", p.to_string()},
      {"pegs", p.peg_count()},
      {"goal", answer_json(b, a.goal, a.goal_explanation)},
      {"one_peg", answer_json(b, a.one_peg, a.one_peg_explanation)},
      {"hint", hint},
      {"hint_moves", hint_moves},
      {"hint_to_goal", a.hint_to_goal},
      {"counted", a.counted},
      {"exact", a.exact},
      {"ways_goal", a.counted ? nlohmann::json(count_text(a.ways_goal)) : nlohmann::json()},
      {"ways_one_peg", a.counted ? nlohmann::json(count_text(a.ways_one_peg)) : nlohmann::json()},
      {"end_holes", ends},
      {"end_hole_indices", end_indices},
      {"count_note", rename_fields(a.count_note, names)},
      {"lookup_note", rename_fields(a.lookup_note, names)},
      {"positions", a.positions},
      {"seconds", a.seconds}};
}

nlohmann::json mistake_json(const Game& game, const Mistake& m) {
  nlohmann::json move = nullptr, chain = nullptr;
  if (m.move) {
    move = *m.move;
    chain = move_chain_text(*game.problem().board, game.moves()[*m.move]);
  }
  return {{"now", std::string(solvability_name(m.now))},
          {"start_lost", m.start_lost},
          {"move", move},
          {"move_notation", chain},
          {"rewind_to", m.rewind_to},
          {"reason", m.reason},
          {"explanation", m.explanation.text},
          {"proof_holes", proof_holes_json(m.explanation)},
          {"note", m.note},
          {"seconds", m.seconds}};
}

nlohmann::json lookup_status_json(const LookupStatus& s, const FieldNames& names) {
  return {{"state", lookup_state_name(s.state)},
          {"phase", s.phase},
          {"level", s.level},
          {"fraction", s.fraction},
          {"seconds", s.seconds},
          {"bytes", s.bytes},
          {"why", rename_fields(s.why, names)},
          {"censuses", s.censuses}};
}

nlohmann::json board_json(const Board& b) {
  nlohmann::json names = nlohmann::json::array();
  for (int h = 0; h < b.size(); ++h) names.push_back(b.hole_name(h));
  return {{"board", b.name()},
          {"lattice", std::string(lattice_name(b.lattice()))},
          {"holes", b.size()},
          {"jumps", b.jumps().size()},
          {"symmetries", b.symmetries().size()},
          {"class_invariants", b.class_invariants().size()},
          {"peg_types", b.peg_type_count()},
          {"bit_width", b.width()},
          {"names", names}};
}

nlohmann::json catalogue_json() {
  nlohmann::json all = nlohmann::json::array();
  for (const CatalogueEntry& e : catalogue()) {
    BoardPtr b = make_board(e.spec);
    nlohmann::json j = board_json(*b);
    j.erase("names");
    j["description"] = e.description;
    j["default_problem"] = describe(default_problem(b));
    all.push_back(j);
  }
  const KernelInfo k = kernel_info();
  return {{"version", std::string(version())},
          {"kernels",
           {{"cpu", std::string(isa_name(k.cpu))},
            {"census", std::string(isa_name(k.census))},
            {"cap", k.cap}}},
          {"boards", all}};
}

nlohmann::json geometry_json(const Board& b) {
  nlohmann::json j = board_json(b);
  nlohmann::json coords = nlohmann::json::array(), jumps = nlohmann::json::array();
  for (int h = 0; h < b.size(); ++h) coords.push_back({b.coord(h).r, b.coord(h).c});
  for (const Jump& jp : b.jumps()) jumps.push_back({jp.from, jp.over, jp.to});
  j["coords"] = coords;
  j["jump_list"] = jumps;
  j["default"] = nullptr;
  try {
    BoardPtr shared = make_board(b.name());
    if (shared->size() == b.size()) {
      Problem p = default_problem(shared);
      std::string end = p.goal.kind == Goal::Kind::Hole ? b.hole_name(p.goal.hole) : "any";
      j["default"] = {{"start", p.start.to_bits()}, {"end", end}};
    }
  } catch (const InputError&) {
    // A drawn board has no default problem.
  }
  return j;
}

nlohmann::json solvability_json(const Board& b, const SolvabilityAnswer& a) {
  nlohmann::json moves = nlohmann::json::array(), notation = nlohmann::json::array();
  for (const Jump& jp : a.solution) {
    moves.push_back({jp.from, jp.over, jp.to});
    notation.push_back(b.hole_name(jp.from) + "-" + b.hole_name(jp.to));
  }
  return {{"verdict", std::string(solvability_name(a.verdict))},
          {"reason", a.reason},
          {"moves", moves},
          {"notation", notation},
          {"nodes", a.nodes},
          {"seconds", a.seconds}};
}

nlohmann::json hint_json(const Board& b, const Hint& h) {
  nlohmann::json j = solvability_json(b, h.answer);
  j["move"] = nullptr;
  if (h.move) {
    nlohmann::json jumps = nlohmann::json::array();
    for (const Jump& jp : h.move->jumps) jumps.push_back({jp.from, jp.over, jp.to});
    j["move"] = {{"jumps", jumps}, {"notation", move_chain_text(b, *h.move)}};
  }
  return j;
}

nlohmann::json game_json(const Game& g) {
  const Problem& p = g.problem();
  const Board& b = *p.board;
  nlohmann::json goal;
  switch (p.goal.kind) {
    case Goal::Kind::Hole:
      goal = {{"kind", "hole"}, {"hole", b.hole_name(p.goal.hole)}};
      break;
    case Goal::Kind::Any:
      goal = {{"kind", "any"}};
      break;
    case Goal::Kind::Position:
      goal = {{"kind", "position"}, {"position", p.goal.position.to_bits()}};
      break;
  }
  nlohmann::json played = nlohmann::json::array(), undone = nlohmann::json::array();
  for (std::size_t i = 0; i < g.moves().size(); ++i)
    (i < g.cursor() ? played : undone).push_back(move_chain_text(b, g.moves()[i]));
  return {{"board", b.name()},
          {"holes", b.size()},
          {"start", p.start.to_bits()},
          {"goal", goal},
          {"moves", played},
          {"undone", undone},
          {"position", g.position().to_string()},
          {"pegs", g.position().peg_count()},
          {"finished", g.finished()},
          {"won", g.won()},
          {"text", g.to_text()}};
}

nlohmann::json presets_json() {
  nlohmann::json all = nlohmann::json::array();
  for (const Preset& p : presets()) {
    Problem prob = preset_problem(p);
    all.push_back({{"name", p.name},
                   {"title", p.title},
                   {"description", p.description},
                   {"board", p.spec.board},
                   {"start", prob.start.to_bits()},
                   {"end", p.spec.end},
                   {"difficulty", p.difficulty},
                   {"difficulty_name", std::string(difficulty_name(p.difficulty))},
                   {"pegs", p.pegs}});
  }
  return {{"presets", all}};
}

}  // namespace pegsol
