// The JSON of every result (include/pegsol/json.hpp).
#include "pegsol/json.hpp"

#include <string>

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

nlohmann::json finish_json(const Problem& p, const FinishResult& f) {
  nlohmann::json j = solve_json(p, f.result);
  j["kept_moves"] = f.kept_jumps;
  return j;
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

namespace {

nlohmann::json answer_json(const Board& b, const SolvabilityAnswer& s) {
  nlohmann::json chains = nlohmann::json::array();
  for (const Move& m : group_moves(s.solution)) chains.push_back(move_chain_text(b, m));
  return {{"verdict", std::string(solvability_name(s.verdict))},
          {"reason", s.reason},
          {"solution", chains},
          {"nodes", s.nodes},
          {"seconds", s.seconds}};
}

}  // namespace

nlohmann::json analysis_json(const Position& p, const Analysis& a) {
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
      {"goal", answer_json(b, a.goal)},
      {"one_peg", answer_json(b, a.one_peg)},
      {"hint", hint},
      {"hint_moves", hint_moves},
      {"hint_to_goal", a.hint_to_goal},
      {"counted", a.counted},
      {"ways_goal", a.counted ? nlohmann::json(count_text(a.ways_goal)) : nlohmann::json()},
      {"ways_one_peg", a.counted ? nlohmann::json(count_text(a.ways_one_peg)) : nlohmann::json()},
      {"end_holes", ends},
      {"end_hole_indices", end_indices},
      {"count_note", a.count_note},
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
          {"note", m.note},
          {"seconds", m.seconds}};
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
