// SPDX-License-Identifier: MIT
// The front-end layer: problems named as text, names and their rules, the command's bench cases,
// and (with pegsol::json) the JSON of results.
#include <gtest/gtest.h>

#include <string>

#include "pegsol/error.hpp"
#include "pegsol/spec.hpp"
#ifdef PEGSOL_TEST_JSON
#include "pegsol/json.hpp"
#endif
#ifdef PEGSOL_TEST_BENCH
#include "bench_cases.hpp"  // the command's (apps/pegsol)
#endif

namespace pegsol {
namespace {

// The InputError message of build_problem(s); empty when it succeeds.
std::string field_of(const ProblemSpec& s) {
  try {
    build_problem(s);
  } catch (const InputError& e) {
    return e.field();
  }
  return "<none>";
}

std::string error_of(const ProblemSpec& s) {
  try {
    build_problem(s);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Spec, Defaults) {
  const Problem english = build_problem({});
  EXPECT_EQ(describe(english), "english: vacancy d4 -> one peg at d4");
  ProblemSpec t;
  t.board = "triangle:5";
  EXPECT_EQ(describe(build_problem(t)), describe(default_problem(make_board("triangle:5"))));
  // A start of one's own: the goal is then any hole unless --end says otherwise.
  t.start = "4";
  EXPECT_EQ(describe(build_problem(t)), "triangle:5: vacancy 4 -> one peg anywhere");
  t.end = "13";
  EXPECT_EQ(build_problem(t).goal.kind, Goal::Kind::Hole);
  // The JSON's start string is accepted back.
  ProblemSpec bits = t;
  bits.start = build_problem(t).start.to_bits();
  EXPECT_EQ(build_problem(bits).start, build_problem(t).start);
}

// The library's words: the spec's field, never a command-line option.
TEST(Spec, ErrorsNameTheField) {
  ProblemSpec s;
  s.start = "z9";
  EXPECT_NE(error_of(s).find("start: board english has no hole named 'z9'"), std::string::npos);
  s = {};
  s.lattice = "hexagonal";
  EXPECT_NE(error_of(s).find("lattice: 'hexagonal': expected square, square8 or triangular"),
            std::string::npos);
  s = {};
  s.end = "d4";
  s.goal = "@x";
  EXPECT_EQ(error_of(s), "goal: give either an end hole or a goal position, not both");
  s = {};
  s.board = "@";
  EXPECT_EQ(error_of(s), "board: @FILE: the file name is missing");
  s = {};
  s.start = "@/nonexistent/pegsol-start";
  EXPECT_EQ(field_of(s), "start");
  s = {};
  s.end = "z9";
  EXPECT_EQ(field_of(s), "end");
  s = {};
  s.board = "nope";
  EXPECT_EQ(field_of(s), "board");
  s = {};
  s.board = "nope";
  EXPECT_NE(error_of(s).find("unknown board 'nope'"), std::string::npos);
}

TEST(Names, RoundTripAndRules) {
  for (const std::string& n : algorithm_names()) EXPECT_EQ(algorithm_name(*parse_algorithm(n)), n);
  for (const std::string& n : beam_method_names())
    EXPECT_EQ(beam_method_name(*parse_beam_method(n)), n);
  for (const std::string& n : direction_names()) EXPECT_EQ(direction_name(*parse_direction(n)), n);
  for (const std::string& n : table_method_names())
    EXPECT_EQ(table_method_name(*parse_table_method(n)), n);
  EXPECT_EQ(algorithm_names(), (std::vector<std::string>{"auto", "dfs", "beam", "beam-report"}));
  EXPECT_FALSE(parse_algorithm("bfs"));
  EXPECT_FALSE(parse_beam_method(""));
  SolveOptions o;
  o.beam_method = BeamMethod::Meet;
  for (Algorithm a : {Algorithm::Auto, Algorithm::Beam}) {
    o.algorithm = a;
    EXPECT_NO_THROW(check_solve_options(o));
  }
  for (Algorithm a : {Algorithm::Dfs, Algorithm::BeamReport}) {
    o.algorithm = a;
    EXPECT_THROW(check_solve_options(o), InputError);
  }
}

#ifdef PEGSOL_TEST_BENCH
TEST(Bench, CaseLists) {
  const auto solve_cases = solve_bench_cases();
  ASSERT_EQ(solve_cases.size(), 8u);
  EXPECT_EQ(solve_cases[0].name, "english default");
  EXPECT_EQ(solve_cases[4].problems.size(), 15u);  // triangle:5, every vacancy
  const auto beam_cases = beam_bench_cases();
  ASSERT_EQ(beam_cases.size(), 9u);
  EXPECT_EQ(beam_cases[0].options.algorithm, Algorithm::BeamReport);
  EXPECT_EQ(beam_cases[5].problem.goal.position.count(), 20);  // the bottom row of triangle:20
  const auto census_cases = census_bench_cases();
  ASSERT_EQ(census_cases.size(), 4u);
  EXPECT_FALSE(census_cases[1].options.on_path);
  EXPECT_FALSE(census_cases[3].options.random_player);
}
#endif

#ifdef PEGSOL_TEST_JSON
TEST(Json, SpecFromJson) {
  const ProblemSpec s = spec_from_json(R"({"board": "triangle:5", "start": "4", "end": "1"})");
  EXPECT_EQ(s.board, "triangle:5");
  EXPECT_EQ(s.start, "4");
  EXPECT_EQ(s.end, "1");
  EXPECT_EQ(s.lattice, "");
  EXPECT_EQ(build_problem(s).board->size(), 15);
  EXPECT_EQ(spec_from_json("{}").board, "");  // every key optional
  auto error = [](std::string_view text) {
    try {
      spec_from_json(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error(R"({"board": "english",)").find("malformed JSON"), std::string::npos);
  EXPECT_NE(error(R"({"bord": "english"})").find("did you mean \"board\""), std::string::npos);
  EXPECT_NE(error(R"({"board": 5})").find("\"board\" must be a string, not number"),
            std::string::npos);
  EXPECT_NE(error(R"({"start": "@/etc/passwd"})").find("files (@...) are not read"),
            std::string::npos);
  EXPECT_NE(error("[1, 2]").find("expected a JSON object"), std::string::npos);
  EXPECT_NE(error("").find("malformed JSON"), std::string::npos);
  // A number past a double's range: out_of_range, not parse_error, inside nlohmann (a fuzzer's
  // find).
  EXPECT_NE(error("6001566999999e999").find("number overflow"), std::string::npos);
  EXPECT_NE(error(R"({"board": 1e999})").find("malformed JSON"), std::string::npos);
}

TEST(Json, ErrorsAndDumps) {
  const nlohmann::json e = error_json("input", "unknown board 'x'");
  EXPECT_EQ(e["status"], "error");
  EXPECT_EQ(e["error"]["kind"], "input");
  EXPECT_EQ(e["error"]["message"], "unknown board 'x'");
  // Bytes that are not UTF-8 are replaced, not thrown over.
  EXPECT_EQ(dump_json(nlohmann::json(std::string("a\xFFz"))), "\"a\xEF\xBF\xBDz\"");
}

TEST(Json, SolutionsStreamIsOneObject) {
  ProblemSpec s;
  s.board = "triangle:5";
  s.start = "1";
  s.end = "13";
  const Problem p = build_problem(s);
  EnumerateOptions o;
  o.distinct = true;
  SolutionsJson js(p, o);
  std::string text = js.head();
  const EnumerateResult r = enumerate_solutions(p, o, [&](const std::vector<Jump>& m) {
    text += js.item(m);
    return true;
  });
  text += js.tail(r, 0.5);
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["solutions"].size(), r.emitted);
  EXPECT_EQ(j["count"], std::to_string(r.emitted));
  EXPECT_EQ(j["status"], "complete");
  EXPECT_EQ(j["stop"], "finished");
  EXPECT_EQ(j["stats"]["seconds"], 0.5);
  EXPECT_EQ(j["kind"], "distinct");
  // Nothing streamed: still one object, and "impossible" when the enumeration completed.
  s.end = "2";
  const Problem q = build_problem(s);
  SolutionsJson none(q, EnumerateOptions{});
  EnumerateResult empty;
  const nlohmann::json k = nlohmann::json::parse(none.head() + none.tail(empty, 0));
  EXPECT_EQ(k["status"], "impossible");
  EXPECT_TRUE(k["solutions"].empty());
}

TEST(Json, SolveAndBoard) {
  ProblemSpec s;
  s.board = "triangle:5";
  const Problem p = build_problem(s);
  SolveOptions o;
  o.algorithm = Algorithm::Dfs;
  const SolveResult r = solve(p, o);
  const nlohmann::json j = solve_json(p, r);
  EXPECT_EQ(j["status"], "solved");
  EXPECT_EQ(j["moves"].size(), r.moves.size());
  EXPECT_EQ(j["notation"][0], "4-1");
  EXPECT_FALSE(j["stats"].contains("method"));  // beam figures only for beam searches
  const nlohmann::json b = board_json(*p.board);
  EXPECT_EQ(b["holes"], 15);
  EXPECT_EQ(b["names"].size(), 15u);
  const nlohmann::json one = solution_json(*p.board, r.moves);
  EXPECT_EQ(one["notation"], j["notation"]);
  EXPECT_EQ(one["moves"], j["moves"]);
}
#endif

}  // namespace
}  // namespace pegsol
