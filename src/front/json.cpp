// The JSON of every result (include/pegsol/json.hpp).
#include "pegsol/json.hpp"

#include <string>

#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/notation.hpp"
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
  nlohmann::json j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    // Parse again for the parser's own message, which names the byte where it failed. Not only
    // parse_error: a number too large for a double ("1e999") is an out_of_range (found by
    // fuzz_json_spec).
    try {
      j = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::exception& e) {
      throw InputError(std::string("malformed JSON: ") + e.what());
    }
    throw InputError("malformed JSON");
  }
  return spec_from_json_value(j);
}

nlohmann::json error_json(std::string_view kind, std::string_view message) {
  return {{"status", "error"},
          {"error", {{"kind", std::string(kind)}, {"message", std::string(message)}}}};
}

nlohmann::json solve_json(const Problem& p, const SolveResult& r) {
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
      {"reason", r.reason},
      {"moves", moves},
      {"notation", notation},
      {"final", r.final.to_bits()},
      {"stats", stats},
  };
}

nlohmann::json census_json(const Problem& p, const CensusResult& r) {
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
  return {
      {"board", b.name()},
      {"holes", b.size()},
      {"start", p.start.to_bits()},
      {"goal", goal_text(p)},
      {"status", r.stop == StopReason::None ? "complete" : "stopped"},
      {"stop", stop_text(r.stop)},
      {"reason", r.stop == StopReason::None ? std::string()
                                            : "stopped (" + stop_text(r.stop) + ")" +
                                                  (r.stop_note.empty() ? "" : ": " + r.stop_note) +
                                                  "; the figures cover the levels completed"},
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
      {"solutions_up_to_reordering_note", r.distinct_note},
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
        {"threads", r.threads},
        {"width", r.width}}},
  };
}

nlohmann::json table_json(const Board& b, const SolvabilityTable& t, TableMethod method) {
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
          {"reason", t.stopped},
          {"complete", t.complete()},
          {"open", open},
          {"method", std::string(table_method_name(method))},
          {"passes", t.passes},
          {"proved_without_search", t.proved},
          {"pairs_searched", t.searched},
          {"pairs_solved_by_search", t.solved_by_search},
          {"pairs_impossible_by_search", t.impossible_by_search},
          {"stats", {{"seconds", t.seconds}, {"peak_bytes", t.peak_bytes}}}};
}

nlohmann::json solution_json(const Board& b, const std::vector<Jump>& moves) {
  nlohmann::json indices = nlohmann::json::array(), notation = nlohmann::json::array();
  for (const Jump& j : moves) {
    indices.push_back({j.from, j.over, j.to});
    notation.push_back(move_text(b, j));
  }
  return {{"moves", indices}, {"notation", notation}};
}

SolutionsJson::SolutionsJson(const Problem& p, const EnumerateOptions& o) : p_(p), o_(o) {}

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
      : st == "limit"      ? "the limit of " + std::to_string(o_.limit) + " was reached"
      : st == "impossible" ? "no solution exists (the enumeration completed)"
                           : "";
  const nlohmann::json t = {{"count", std::to_string(r.emitted)},
                            {"status", st},
                            {"stop", stop_text(r.stop)},
                            {"reason", reason},
                            {"stats", {{"seconds", seconds}}}};
  return "]," + dump_json(t).substr(1);  // the rest of the object, its opening brace dropped
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

nlohmann::json bench_json(const std::vector<SolveBenchRow>& rows, std::uint64_t signature) {
  nlohmann::json cases = nlohmann::json::array();
  for (const SolveBenchRow& r : rows)
    cases.push_back({{"problem", r.name},
                     {"instances", r.instances},
                     {"solved", r.solved},
                     {"nodes", r.nodes},
                     {"median_seconds", r.median_seconds}});
  return {{"cases", cases}, {"signature", signature}};
}

nlohmann::json bench_json(const std::vector<BeamBenchRow>& rows, std::uint64_t signature) {
  nlohmann::json cases = nlohmann::json::array();
  for (const BeamBenchRow& r : rows)
    cases.push_back({{"problem", r.name},
                     {"status", std::string(status_name(r.status))},
                     {"pairs", r.pairs},
                     {"capacity", r.capacity},
                     {"positions", r.positions},
                     {"median_seconds", r.median_seconds}});
  return {{"cases", cases}, {"signature", signature}};
}

nlohmann::json bench_json(const std::vector<CensusBenchRow>& rows, std::uint64_t signature) {
  nlohmann::json cases = nlohmann::json::array();
  for (const CensusBenchRow& r : rows)
    cases.push_back({{"census", r.name},
                     {"reachable", r.reachable},
                     {"on_solution_path", r.on_solution_path},
                     {"solutions", count_text(r.solutions)},
                     {"median_seconds", r.median_seconds},
                     {"peak_bytes", r.peak_bytes},
                     {"threads", r.threads}});
  return {{"cases", cases}, {"signature", signature}};
}

}  // namespace pegsol
