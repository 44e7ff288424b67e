// The JSON of every result (include/pegsol/json.hpp).
#include "pegsol/json.hpp"

#include <string>

#include "pegsol/catalogue.hpp"
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

}  // namespace

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
  }
  return {
      {"board", b.name()},
      {"holes", b.size()},
      {"start", p.start.to_bits()},
      {"status", std::string(status_name(r.status))},
      {"reason", r.reason},
      {"moves", moves},
      {"notation", notation},
      {"final", r.final.to_bits()},
      {"stats", stats},
  };
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
      {"complete", t.complete},
      {"stop", std::string(stop_reason_name(t.stop))},
      {"positions", t.positions},
      {"seconds", t.seconds},
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
          {"complete", t.complete()},
          {"open", open},
          {"stopped", t.stopped},
          {"method", std::string(table_method_name(method))},
          {"passes", t.passes},
          {"proved_without_search", t.proved},
          {"pairs_searched", t.searched},
          {"pairs_solved_by_search", t.solved_by_search},
          {"pairs_impossible_by_search", t.impossible_by_search},
          {"seconds", t.seconds},
          {"peak_bytes", t.peak_bytes}};
}

nlohmann::json solution_json(const Board& b, const std::vector<Jump>& moves) {
  nlohmann::json indices = nlohmann::json::array(), notation = nlohmann::json::array();
  for (const Jump& j : moves) {
    indices.push_back({j.from, j.over, j.to});
    notation.push_back(move_text(b, j));
  }
  return {{"moves", indices}, {"notation", notation}};
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
