// SPDX-License-Identifier: MIT
// The JSON API's dispatcher (pegsol/api.hpp) against the library called directly, its errors,
// its jobs, and the C entry of pegsol/pegsol.h.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "pegsol/analysis.hpp"
#include "pegsol/api.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/json.hpp"
#include "pegsol/path_index.hpp"
#include "pegsol/pegsol.h"
#include "pegsol/play.hpp"
#include "pegsol/presets.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/spec.hpp"

// Defined in test_dispatch_c.c, compiled as C: the C entry used from C.
extern "C" int pegsol_test_from_c(void);

namespace pegsol {
namespace {

using nlohmann::json;

// `j` without what varies from run to run: every "seconds" and "stats", at any depth, and a
// look-up's build time in "lookup_note" ("... (built in 3 ms)").
json steady(json j) {
  if (j.is_object()) {
    j.erase("seconds");
    j.erase("stats");
    if (j.contains("lookup_note") && j["lookup_note"].is_string()) {
      std::string note = j["lookup_note"];
      j["lookup_note"] = note.substr(0, note.find(" (built in "));
    }
    for (auto& [k, v] : j.items()) v = steady(v);
  } else if (j.is_array()) {
    for (auto& v : j) v = steady(v);
  }
  return j;
}

// Look-ups built in the calling thread, so that a request's answer does not depend on when a
// background build ends.
api::Limits foreground() {
  api::Limits l;
  l.background_lookups = false;
  return l;
}

// The options the dispatcher gives a search of a request with no "time_limit".
SolveOptions request_solve_options(Control& c, const api::Limits& l = {}) {
  c.set_time_limit(l.request_seconds);
  c.set_memory_budget(l.request_memory);
  SolveOptions o;
  o.control = &c;
  o.threads = l.threads;
  return o;
}

Problem problem_of(const std::string& board, const std::string& start = "",
                   const std::string& end = "") {
  ProblemSpec s;
  s.board = board;
  s.start = start;
  s.end = end;
  return build_problem(s);
}

std::vector<Move> moves_of(const Board& b, const std::vector<std::string>& chains) {
  std::vector<Move> out;
  for (const std::string& c : chains) out.push_back(parse_move_chain(b, c));
  return out;
}

// The error message of reply `r` after checking its status and shape.
std::string error_of(const api::Reply& r, int status) {
  EXPECT_EQ(r.status, status) << r.body.dump();
  EXPECT_EQ(r.body.value("status", 0), status) << r.body.dump();
  return r.body.value("error", "");
}

// The ApiError status and message job() throws for `body`; {0, ""} when it throws none.
std::pair<int, std::string> job_error(const api::Dispatcher& d, const json& body) {
  try {
    d.job(body);
  } catch (const api::ApiError& e) {
    return {e.status, e.what()};
  }
  return {0, ""};
}

TEST(Dispatch, CataloguePresetsAndBoards) {
  api::Dispatcher d;
  api::Reply r = d.handle("GET", "/api/boards", nullptr);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, catalogue_json());
  r = d.handle("GET", "/api/presets", nullptr);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, presets_json());

  // The geometry: GET with a query (escapes decoded), POST with a board or a drawing.
  r = d.handle("GET", "/api/board?board=triangle:5", nullptr);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, geometry_json(*make_board("triangle:5")));
  ProblemSpec s;
  s.board = "rect:3x5";
  s.lattice = "square8";
  const json rect = geometry_json(*build_board(s));
  EXPECT_EQ(d.handle("GET", "/api/board?board=rect%3A3x5&lattice=square8", nullptr).body, rect);
  EXPECT_EQ(
      d.handle("GET", "/api/board?lattice=square8&board=rect:3x5&board=english", nullptr).body,
      rect);
  EXPECT_EQ(d.handle("POST", "/api/board", {{"board", "rect:3x5"}, {"lattice", "square8"}}).body,
            rect);
  const std::string drawing = "o o o\no . o\no o o\n";
  r = d.handle("POST", "/api/board", {{"drawing", drawing}});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, geometry_json(*parse_drawing(drawing, "drawing").board));
  // A body left out names no board: a 400, never the default board.
  EXPECT_NE(error_of(d.handle("POST", "/api/board", nullptr), 400).find("body is empty"),
            std::string::npos);
  EXPECT_NE(error_of(d.handle("GET", "/api/board", nullptr), 400).find("?board="),
            std::string::npos);
  EXPECT_NE(error_of(d.handle("GET", "/api/board?board=", nullptr), 400).find("\"board\" is empty"),
            std::string::npos);
}

TEST(Dispatch, Game) {
  api::Dispatcher d;
  const Problem english = problem_of("english");
  const Game g = game_after(english, moves_of(*english.board, {"d2-d4", "b3-d3"}));
  api::Reply r =
      d.handle("POST", "/api/game", {{"board", "english"}, {"moves", {"d2-d4", "b3-d3"}}});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, game_json(g));
  // Moves as one string, separated by spaces or commas.
  EXPECT_EQ(d.handle("POST", "/api/game", {{"board", "english"}, {"moves", "d2-d4, b3-d3"}}).body,
            game_json(g));
  // A game file read back gives the same game.
  r = d.handle("POST", "/api/game", {{"text", g.to_text()}});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, game_json(Game::parse(g.to_text(), "game")));
  EXPECT_EQ(r.body, game_json(g));
  // A game file brings its own problem: a key beside it would be ignored, so it is refused.
  EXPECT_NE(
      error_of(d.handle("POST", "/api/game", {{"text", g.to_text()}, {"board", "french"}}), 400)
          .find("leave out \"board\""),
      std::string::npos);
  EXPECT_EQ(d.handle("POST", "/api/game", {{"text", g.to_text()}, {"moves", nullptr}}).body,
            game_json(g));
}

TEST(Dispatch, SolveAsTheLibrary) {
  api::Dispatcher d;
  {
    const Problem p = problem_of("triangle:5", "4", "1");
    Control c;
    const json want = solve_json(p, solve(p, request_solve_options(c)));
    const api::Reply r =
        d.handle("POST", "/api/solve", {{"board", "triangle:5"}, {"start", "4"}, {"end", "1"}});
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(steady(r.body), steady(want));
    // 4 -> 1 is proved impossible (a position class): the proof is the reason.
    EXPECT_EQ(r.body["status"], "impossible");
    EXPECT_NE(r.body["reason"].get<std::string>().find("position class"), std::string::npos);
  }
  {
    // With moves: the game finished keeping them.
    const Problem p = problem_of("english");
    Control c;
    const json want = finish_json(
        p, finish_game(p, moves_of(*p.board, {"d2-d4", "b3-d3"}), request_solve_options(c)));
    const api::Reply r =
        d.handle("POST", "/api/solve", {{"board", "english"}, {"moves", {"d2-d4", "b3-d3"}}});
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(steady(r.body), steady(want));
    EXPECT_EQ(r.body["kept_moves"], 2);
  }
  {
    // With an algorithm and a direction.
    const Problem p = problem_of("triangle:5", "1");
    Control c;
    SolveOptions o = request_solve_options(c);
    o.algorithm = Algorithm::Dfs;
    o.direction = Direction::Backward;
    const json want = solve_json(p, solve(p, o));
    const api::Reply r = d.handle(
        "POST", "/api/solve",
        {{"board", "triangle:5"}, {"start", "1"}, {"algorithm", "dfs"}, {"direction", "backward"}});
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(steady(r.body), steady(want));
    EXPECT_EQ(r.body["status"], "solved");
  }
}

TEST(Dispatch, FewestMovesAsTheLibrary) {
  api::Dispatcher d;
  const api::Limits l;
  const Problem p = problem_of("triangle:5");
  auto options = [&](Control& c) {
    c.set_time_limit(l.request_seconds);
    c.set_memory_budget(l.request_memory);
    FewestOptions f;
    f.control = &c;
    f.threads = l.threads;
    return f;
  };
  {
    Control c;
    const json want = fewest_json(p, fewest_solve(p, options(c)));
    const api::Reply r =
        d.handle("POST", "/api/solve", {{"board", "triangle:5"}, {"minimize", "moves"}});
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(steady(r.body), steady(want));
    EXPECT_TRUE(r.body["minimize"]["proven"].get<bool>());
  }
  {
    Control c;
    const json want =
        fewest_finish_json(p, fewest_finish(p, moves_of(*p.board, {"4-1"}), options(c)));
    const api::Reply r = d.handle(
        "POST", "/api/solve", {{"board", "triangle:5"}, {"moves", {"4-1"}}, {"minimize", "moves"}});
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(steady(r.body), steady(want));
    EXPECT_EQ(r.body["kept_moves"], 1);
  }
}

// The analysis options the dispatcher gives a request with no "time_limit", with `paths`.
AnalysisOptions analysis_options(const Game& g, PathIndexCache& paths, const api::Limits& l) {
  AnalysisOptions o;
  o.start = g.problem().start;
  o.paths = &paths;
  o.time_limit = std::min(l.analysis_seconds, l.request_seconds);
  return o;
}

PathIndexCache::Options foreground_paths(const api::Limits& l) {
  PathIndexCache::Options o;
  o.build_memory = l.lookup_memory;
  o.build_seconds = l.lookup_seconds;
  o.keep_bytes = l.lookup_keep;
  o.background = false;
  return o;
}

TEST(Dispatch, AnalysisHintAndMistakeAsTheLibrary) {
  const api::Limits l = foreground();
  const Problem tri = problem_of("triangle:5");
  const Game g = game_after(tri, moves_of(*tri.board, {"4-1", "6-4"}));
  const json body = {{"board", "triangle:5"}, {"moves", {"4-1", "6-4"}}};
  {
    api::Dispatcher d(l);
    PathIndexCache paths(foreground_paths(l));
    Analyzer a(tri.board, tri.goal);
    json want = analysis_json(g.position(), a.analyze(g.position(), analysis_options(g, paths, l)));
    want["finished"] = g.finished();
    want["won"] = g.won();
    const api::Reply r = d.handle("POST", "/api/analysis", body);
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(steady(r.body), steady(want));
    EXPECT_TRUE(r.body["counted"].get<bool>());
  }
  {
    api::Dispatcher d(l);
    PathIndexCache paths(foreground_paths(l));
    Analyzer a(tri.board, tri.goal);
    AnalysisOptions o = analysis_options(g, paths, l);
    o.count = false;
    const Analysis an = a.analyze(g.position(), o);
    Hint h;
    h.answer = an.hint_to_goal || !an.hint ? an.goal : an.one_peg;
    h.move = an.hint;
    json want = hint_json(*tri.board, h);
    want["to_goal"] = an.hint_to_goal;
    const api::Reply r = d.handle("POST", "/api/hint", body);
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(steady(r.body), steady(want));
    // The hint's move is legal, and a search from the position it leaves solves the problem.
    ASSERT_TRUE(r.body["move"].is_object());
    Position after = g.position();
    after.apply(parse_move_chain(*tri.board, r.body["move"]["notation"].get<std::string>()));
    Problem rest = tri;
    rest.start = after.pegs();
    EXPECT_EQ(solve(rest).status, Status::Solved);
  }
  {
    // A lost game: the Latin cross played to lose its centre.
    const Preset* cross = nullptr;
    for (const Preset& p : presets())
      if (p.name == "latin-cross") cross = &p;
    ASSERT_NE(cross, nullptr);
    const Problem p = preset_problem(*cross);
    const Game lost = game_after(p, moves_of(*p.board, {"d3-d1"}));
    api::Dispatcher d(l);
    PathIndexCache paths(foreground_paths(l));
    Analyzer a(p.board, p.goal);
    AnalysisOptions o = analysis_options(lost, paths, l);
    o.time_limit = l.request_seconds;
    const json want = mistake_json(lost, a.first_mistake(lost, o));
    const api::Reply r = d.handle(
        "POST", "/api/mistake",
        {{"board", "english"}, {"start", p.start.to_bits()}, {"end", "d4"}, {"moves", {"d3-d1"}}});
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(steady(r.body), steady(want));
    EXPECT_EQ(r.body["move"], 0);
  }
}

TEST(Dispatch, ErrorsHaveTheirStatus) {
  api::Dispatcher d;
  auto post = [&](const char* path, const json& body) { return d.handle("POST", path, body); };
  EXPECT_EQ(error_of(post("/api/solve", {{"board", 5}}), 400), "\"board\" must be a string");
  EXPECT_EQ(error_of(post("/api/hint", {{"board", "english"}, {"moves", 5}}), 400),
            "\"moves\" must be an array of moves or a string");
  EXPECT_EQ(error_of(post("/api/game", {{"board", "english"}, {"moves", {1}}}), 400),
            "\"moves\" must hold strings like \"d2-d4\"");
  EXPECT_EQ(error_of(post("/api/solve", {{"board", "english"}, {"time_limit", "soon"}}), 400),
            "\"time_limit\" must be a number");
  EXPECT_EQ(error_of(post("/api/game", {{"text", 1}}), 400), "\"text\" must be a string");
  EXPECT_EQ(error_of(post("/api/solve", json::array({1})), 400),
            "the request body must be a JSON object");
  EXPECT_NE(error_of(post("/api/solve", {{"board", "nope"}}), 400).find("unknown board 'nope'"),
            std::string::npos);
  EXPECT_NE(error_of(post("/api/hint", {{"board", "english"}, {"start", "z9"}}), 400)
                .find("no hole named 'z9'"),
            std::string::npos);
  const std::string illegal =
      error_of(post("/api/analysis", {{"board", "english"}, {"moves", {"d2-d4", "d2-d4"}}}), 400);
  EXPECT_EQ(illegal.rfind("moves: move 2 (d2-d4): ", 0), 0u) << illegal;
  // The library's move-list reader: a move it cannot read is named by its place, in a string or an
  // array; numbered moves as the command prints them are read.
  const std::string unread =
      error_of(post("/api/analysis", {{"board", "english"}, {"moves", "1.d2-d4, 2.zz"}}), 400);
  EXPECT_EQ(unread.rfind("moves: move 2: move 'zz': ", 0), 0u) << unread;
  EXPECT_EQ(
      error_of(post("/api/analysis", {{"board", "english"}, {"moves", {"d2-d4", "zz"}}}), 400),
      unread);
  const api::Reply numbered =
      post("/api/game", {{"board", "english"}, {"moves", "1.d2-d4 2.f3-d3"}});
  ASSERT_EQ(numbered.status, 200) << numbered.body;
  EXPECT_EQ(numbered.body["moves"].size(), 2u);
  EXPECT_EQ(numbered.body["moves"],
            post("/api/game", {{"board", "english"}, {"moves", {"d2-d4", "f3-d3"}}}).body["moves"]);
  EXPECT_NE(error_of(post("/api/solve", {{"board", "@/etc/passwd"}}), 400).find("reads no files"),
            std::string::npos);
  EXPECT_NE(error_of(d.handle("GET", "/api/board?board=%40x", nullptr), 400).find("reads no files"),
            std::string::npos);
  EXPECT_NE(error_of(post("/api/solve", {{"board", "english"}, {"minimize", "jumps"}}), 400)
                .find("expected \"moves\""),
            std::string::npos);
  EXPECT_NE(error_of(post("/api/solve",
                          {{"board", "english"}, {"minimize", "moves"}, {"algorithm", "beam"}}),
                     400)
                .find("no \"algorithm\""),
            std::string::npos);
  EXPECT_NE(error_of(post("/api/solve", {{"board", "english"}, {"algorithm", "quick"}}), 400)
                .find("\"algorithm\": 'quick': expected auto, dfs, beam or beam-report"),
            std::string::npos);

  // What is not an endpoint of the dispatcher, the job table and page files included: 404.
  EXPECT_EQ(error_of(d.handle("GET", "/nowhere", nullptr), 404),
            "no page or API endpoint at /nowhere (see docs/api.md)");
  EXPECT_EQ(error_of(d.handle("GET", "/api/jobs?x=1", nullptr), 404),
            "no page or API endpoint at /api/jobs (see docs/api.md)");
  error_of(post("/api/jobs", {{"kind", "count"}}), 404);
  error_of(post("/api/boards", nullptr), 404);
  error_of(d.handle("DELETE", "/api/solve", nullptr), 404);
  error_of(d.handle("GET", "/", nullptr), 404);

  // Jobs: an unknown kind, a census board over the cap, a bad body.
  auto [status, message] = job_error(d, {{"kind", "dance"}});
  EXPECT_EQ(status, 400);
  EXPECT_NE(message.find("\"fewest\", not \"dance\""), std::string::npos) << message;
  std::tie(status, message) = job_error(d, {{"kind", "count"}, {"board", "wiegleb"}});
  EXPECT_EQ(status, 413);
  EXPECT_NE(message.find("has 45 holes"), std::string::npos) << message;
  EXPECT_NE(message.find("at most 41 holes"), std::string::npos) << message;
  EXPECT_EQ(job_error(d, {{"kind", "solve"}, {"board", "wiegleb"}}).first, 0);
  EXPECT_NE(job_error(d, {{"kind", "count"}, {"board", "english"}, {"moves", {"d4-d2"}}})
                .second.find("move 1 (d4-d2)"),
            std::string::npos);
  EXPECT_NE(job_error(d, {{"kind", "count"}, {"board", "english"}, {"time_limit", "x"}})
                .second.find("\"time_limit\""),
            std::string::npos);
  EXPECT_EQ(job_error(d, json::array()).first, 400);
  api::Limits small;
  small.max_census_holes = 15;
  api::Dispatcher s(small);
  EXPECT_EQ(job_error(s, {{"kind", "table"}, {"board", "triangle:5"}}).first, 0);
  EXPECT_EQ(job_error(s, {{"kind", "table"}, {"board", "triangle:6"}}).first, 413);
}

TEST(Dispatch, AdmitOnlyCheckedComputingRequests) {
  api::Dispatcher d;
  int admitted = 0;
  auto admit = [&] { ++admitted; };
  EXPECT_EQ(d.handle("POST", "/api/solve", {{"board", "nope"}}, nullptr, admit).status, 400);
  EXPECT_EQ(d.handle("POST", "/api/game", {{"board", "english"}}, nullptr, admit).status, 200);
  EXPECT_EQ(admitted, 0);
  EXPECT_EQ(d.handle("POST", "/api/solve", {{"board", "triangle:5"}}, nullptr, admit).status, 200);
  EXPECT_EQ(admitted, 1);
  // A refusal is the reply.
  const api::Reply r = d.handle("POST", "/api/hint", {{"board", "triangle:5"}}, nullptr,
                                [] { throw api::ApiError(503, "busy"); });
  EXPECT_EQ(error_of(r, 503), "busy");
  EXPECT_TRUE(api::Dispatcher::computes("POST", "/api/analysis"));
  EXPECT_TRUE(api::Dispatcher::computes("POST", "/api/mistake"));
  EXPECT_FALSE(api::Dispatcher::computes("POST", "/api/game"));
  EXPECT_FALSE(api::Dispatcher::computes("GET", "/api/solve"));
  // A control already stopped stops the computation: the search reports it.
  Control stopped;
  stopped.cancel();
  const api::Reply s = d.handle("POST", "/api/solve", {{"board", "english"}}, &stopped);
  EXPECT_EQ(s.status, 200);
  EXPECT_EQ(s.body["stop"], "cancelled");
}

TEST(Dispatch, JobsAsTheLibrary) {
  api::Dispatcher d;
  const api::Limits l;
  const Problem p = problem_of("triangle:5");
  Control budget;
  budget.set_memory_budget(l.job_memory);
  CensusOptions co;
  co.threads = l.threads;
  co.control = &budget;
  {
    const api::JobSpec job = d.job({{"kind", "count"}, {"board", "triangle:5"}});
    EXPECT_EQ(job.kind, "count");
    EXPECT_EQ(job.time_limit, l.job_seconds);
    Control c;
    std::vector<json> reports;
    const json result = d.run(job, c, [&](const json& r) { reports.push_back(r); });
    EXPECT_EQ(steady(result), steady(census_json(p, census(p, co))));
    EXPECT_EQ(result["status"], "complete");
    for (const json& r : reports) EXPECT_TRUE(r.contains("phase") && r.contains("fraction"));
  }
  {
    Control c;
    const json result = d.run(d.job({{"kind", "table"}, {"board", "triangle:5"}}), c);
    EXPECT_EQ(steady(result),
              steady(table_json(*p.board, solvability_table(p.board, co), TableMethod::Auto)));
    EXPECT_EQ(result["complete"], true);
  }
  {
    // A job runs from the position the moves leave.
    const api::JobSpec job =
        d.job({{"kind", "solve"}, {"board", "triangle:5"}, {"moves", {"4-1"}}, {"time_limit", 9}});
    EXPECT_EQ(job.time_limit, 9);
    Problem rest = p;
    rest.start = game_after(p, moves_of(*p.board, {"4-1"})).position().pegs();
    EXPECT_EQ(job.problem.start, rest.start);
    Control c, same;
    same.set_time_limit(job.time_limit);
    same.set_memory_budget(l.job_memory);
    SolveOptions o;
    o.control = &same;
    o.threads = l.threads;
    EXPECT_EQ(steady(d.run(job, c)), steady(solve_json(rest, solve(rest, o))));
  }
  {
    const api::JobSpec job = d.job({{"kind", "fewest"}, {"board", "triangle:5"}, {"moves", "4-1"}});
    Problem rest = p;
    rest.start = job.problem.start;
    Control c, same;
    const json result = d.run(job, c);
    same.set_time_limit(job.time_limit);
    same.set_memory_budget(l.job_memory);
    FewestOptions f;
    f.control = &same;
    f.threads = l.threads;
    EXPECT_EQ(steady(result), steady(fewest_json(rest, fewest_solve(rest, f))));
    EXPECT_EQ(result["minimize"]["proven"], true);
  }
  // A time limit over the cap, or none, is the cap.
  EXPECT_EQ(d.job({{"kind", "count"}, {"board", "english"}, {"time_limit", 1e6}}).time_limit,
            l.job_seconds);
  EXPECT_THROW(d.job({{"kind", "count"}, {"board", "english"}, {"time_limit", -1}}), api::ApiError);
}

// A job stopped by its memory cap says so in the API's words: the cap's key (job_memory) and
// MiB, with the key and bytes as data in "stop_limit"; never the library's field name or an
// option of the command line (issue 44, case 9).
TEST(Dispatch, MemoryStoppedJobInTheApisWords) {
  api::Limits l;
  l.job_memory = std::size_t{1} << 20;
  l.threads = 1;
  api::Dispatcher d(l);
  Control c;
  const json result = d.run(d.job({{"kind", "count"}, {"board", "english"}}), c);
  EXPECT_EQ(result["stop"], "memory");
  const std::string reason = result["reason"];
  EXPECT_NE(reason.find("memory limit of 1 MiB (job_memory) reached at level"), std::string::npos)
      << reason;
  // The note's sentence joins the rest without its period: "... (docs/mpi.md); the figures ...".
  EXPECT_EQ(reason.find(".;"), std::string::npos) << reason;
  EXPECT_NE(reason.find("docs/mpi.md); the figures cover the levels completed"), std::string::npos)
      << reason;
  for (const char* library : {"Options::", "CensusOptions", "--"})
    EXPECT_EQ(result.dump().find(library), std::string::npos) << library << ": " << reason;
  EXPECT_EQ(result["stop_limit"], (json{{"field", "job_memory"}, {"bytes", 1 << 20}}));
  // The library's own JSON, without a front end's names, keeps the library's.
  Control budget;
  budget.set_memory_budget(l.job_memory);
  CensusOptions co;
  co.threads = 1;
  co.control = &budget;
  const Problem p = problem_of("english");
  const CensusResult stopped = census(p, co);
  const json plain = census_json(p, stopped);
  EXPECT_EQ(plain["reason"], census_stop_reason(stopped));
  EXPECT_NE(plain["reason"].get<std::string>().find("(Control::memory_budget)"), std::string::npos);
  EXPECT_EQ(plain["stop_limit"], (json{{"field", "Control::memory_budget"}, {"bytes", 1 << 20}}));
  co.control = nullptr;  // the default: triangle:5's census finishes
  const Problem small = problem_of("triangle:5");
  const json done = census_json(small, census(small, co));
  EXPECT_EQ(done["stop"], "finished");
  EXPECT_EQ(done["stop_limit"], nullptr);
}

TEST(Dispatch, RunCancelledFromItsProgress) {
  api::Limits l;
  l.progress_seconds = 0;  // every report
  api::Dispatcher d(l);
  for (const char* kind : {"count", "fewest"}) {
    Control c;
    int reports = 0;
    const json result = d.run(d.job({{"kind", kind}, {"board", "english"}}), c, [&](const json& r) {
      ++reports;
      EXPECT_TRUE(r.contains("seconds")) << r.dump();
      // A fewest job's own reports carry its bounds (its first search reports as a solve).
      if (r.value("phase", "") == "fewest") {
        EXPECT_TRUE(r.contains("lower_bound")) << r.dump();
      }
      c.cancel();
    });
    EXPECT_GE(reports, 1) << kind;
    EXPECT_EQ(result["stop"], "cancelled") << kind;
    EXPECT_EQ(c.stop_reason(), StopReason::Cancelled) << kind;
  }
}

// Every endpoint's keys are listed once: an unknown key (a typing slip) or a value of the wrong
// type is a 400 naming the key, on every endpoint and for jobs; what the page sends is accepted.
TEST(Dispatch, UnknownKeysAndWrongTypesNameTheKey) {
  api::Dispatcher d(foreground());
  auto post = [&](const char* path, const json& body) { return d.handle("POST", path, body); };
  const std::string slip =
      error_of(post("/api/solve", {{"board", "english"}, {"strat", "c1"}, {"end", "c1"}}), 400);
  EXPECT_NE(slip.find("unknown key \"strat\""), std::string::npos) << slip;
  EXPECT_NE(slip.find("did you mean \"start\""), std::string::npos) << slip;
  EXPECT_NE(slip.find("/api/solve"), std::string::npos) << slip;
  for (const char* path : {"/api/hint", "/api/analysis", "/api/mistake", "/api/game", "/api/board",
                           "/api/lookups", "/api/solutions"}) {
    const std::string m = error_of(post(path, {{"board", "english"}, {"colour", "red"}}), 400);
    EXPECT_NE(m.find("unknown key \"colour\""), std::string::npos) << path << ": " << m;
  }
  EXPECT_NE(error_of(d.handle("GET", "/api/board?board=english&size=3", nullptr), 400)
                .find("unknown key \"size\""),
            std::string::npos);
  auto [status, message] = job_error(d, {{"kind", "count"}, {"bored", "english"}});
  EXPECT_EQ(status, 400);
  EXPECT_NE(message.find("unknown key \"bored\""), std::string::npos) << message;
  // Wrong types and values name the key.
  EXPECT_NE(error_of(post("/api/analysis", {{"board", "english"}, {"count", "yes"}}), 400)
                .find("\"count\""),
            std::string::npos);
  for (const json& t : {json(-1), json(0), json(true)}) {
    EXPECT_NE(error_of(post("/api/solve", {{"board", "english"}, {"time_limit", t}}), 400)
                  .find("\"time_limit\""),
              std::string::npos)
        << t;
    EXPECT_NE(job_error(d, {{"kind", "count"}, {"board", "english"}, {"time_limit", t}})
                  .second.find("\"time_limit\""),
              std::string::npos)
        << t;
  }
  // A NUL inside a string is named, not cut short.
  const std::string nul =
      error_of(post("/api/solve", {{"board", std::string("eng\0lish", 8)}}), 400);
  EXPECT_NE(nul.find("\"board\""), std::string::npos) << nul;
  // The keys the page sends, each where it sends it (web/game.js, web/app.js, web/jobs.js).
  const json game = {
      {"board", "triangle:5"}, {"start", "4"}, {"end", "1"}, {"moves", json::array()}};
  auto with = [&](json extra) {
    json b = game;
    b.update(extra);
    return b;
  };
  EXPECT_EQ(post("/api/analysis", with({{"count", false}, {"time_limit", 1}})).status, 200);
  EXPECT_EQ(post("/api/hint", with({{"time_limit", 1}})).status, 200);
  EXPECT_EQ(post("/api/mistake", game).status, 200);
  EXPECT_EQ(post("/api/game", game).status, 200);
  EXPECT_EQ(post("/api/solve", with({{"minimize", "moves"}, {"time_limit", 4}})).status, 200);
  EXPECT_EQ(post("/api/solutions", with({{"distinct", true}, {"limit", 2}})).status, 200);
  EXPECT_EQ(post("/api/board", {{"drawing", "o o\no ."}, {"lattice", "square"}}).status, 200);
  EXPECT_EQ(job_error(d, with({{"kind", "count"}, {"time_limit", 10}})).first, 0);
}

json c_answer(char* text);

// No body, {}, a null or empty "board" (or "drawing"): a 400 naming the key and the request on
// every endpoint that takes a problem, never the default board; other keys given as null are
// keys not given (the page's "end": null).
TEST(Dispatch, ABoardIsNamedNeverTheDefault) {
  api::Dispatcher d(foreground());
  for (const char* path : {"/api/board", "/api/game", "/api/solve", "/api/hint", "/api/analysis",
                           "/api/mistake", "/api/lookups", "/api/solutions"}) {
    const std::string where = std::string("POST ") + path;
    for (const json& body : {json(nullptr), json::object(), json{{"lattice", "square"}}}) {
      const std::string m = error_of(d.handle("POST", path, body), 400);
      EXPECT_NE(m.find(where), std::string::npos) << m;
      EXPECT_NE(m.find("\"board\""), std::string::npos) << m;
      EXPECT_NE(m.find(body.empty() ? "the body is empty" : "no board given"), std::string::npos)
          << m;
    }
    for (const char* key : {"board", "drawing"})
      for (const json& value : {json(nullptr), json("")}) {
        const std::string m = error_of(d.handle("POST", path, {{key, value}}), 400);
        // Built by appending: GCC 12's -O2 warns (-Wrestrict, a false positive of its own) on
        // "literal" + std::string&&, which inserts at the front.
        std::string want = "\"";
        want += key;
        want += std::string("\" is ") + (value.is_null() ? "null" : "empty") + " in " + where;
        EXPECT_EQ(m.rfind(want, 0), 0u) << m;
      }
  }
  // A job: its kind first, then its board.
  EXPECT_NE(job_error(d, nullptr).second.find("\"kind\""), std::string::npos);
  for (const json& body : {json{{"kind", "count"}}, json{{"kind", "count"}, {"board", nullptr}}}) {
    const auto [status, message] = job_error(d, body);
    EXPECT_EQ(status, 400) << body.dump();
    EXPECT_NE(message.find("\"board\""), std::string::npos) << message;
  }
  Control c;
  EXPECT_THROW(d.prepare(nullptr, c), api::ApiError);
  EXPECT_THROW(d.prepare({{"board", nullptr}}, c), api::ApiError);
  // The C entry: a request with no body.
  pegsol_dispatcher* cd = pegsol_new(R"({"background_lookups": false})");
  ASSERT_NE(cd, nullptr);
  const json none = c_answer(pegsol_request(cd, R"({"method": "POST", "path": "/api/solve"})"));
  EXPECT_EQ(none["status"], 400);
  EXPECT_NE(none["body"]["error"].get<std::string>().find("\"board\""), std::string::npos);
  EXPECT_EQ(c_answer(pegsol_run_job(cd, "", nullptr, nullptr))["status"], 400);
  EXPECT_EQ(c_answer(pegsol_check_job(cd, R"({"kind": "count"})"))["status"], 400);
  pegsol_delete(cd);
  // Null beside a named board: the key not given.
  const json game = {{"board", "english"}, {"moves", {"d2-d4"}}};
  json nulls = game;
  for (const char* key : {"drawing", "lattice", "start", "end", "goal", "text"})
    nulls[key] = nullptr;
  EXPECT_EQ(d.handle("POST", "/api/game", nulls).body, d.handle("POST", "/api/game", game).body);
  const json drawn = {{"drawing", "o o o\no . o\n"}, {"board", nullptr}};
  EXPECT_EQ(d.handle("POST", "/api/board", drawn).status, 200);
}

// A job's top-level "stop" is its result's when the engine stopped itself (memory, time).
TEST(Dispatch, JobStopIsTheResults) {
  const json result = {{"status", "stopped"}, {"stop", "memory"}};
  EXPECT_EQ(api::job_json("a", "count", "done", nullptr, result, "", StopReason::None)["stop"],
            "memory");
  EXPECT_EQ(
      api::job_json("a", "count", "cancelled", nullptr, result, "", StopReason::Cancelled)["stop"],
      "cancelled");
}

TEST(Dispatch, JobAndStatusShapes) {
  const json j = api::job_json("7", "count", "running", nullptr, nullptr, "", StopReason::None);
  EXPECT_EQ(j, (json{{"id", "7"},
                     {"kind", "count"},
                     {"state", "running"},
                     {"progress", nullptr},
                     {"result", nullptr},
                     {"error", nullptr},
                     {"stop", "finished"}}));
  EXPECT_EQ(
      api::job_json("1", "solve", "failed", nullptr, nullptr, "boom", StopReason::Time)["error"],
      "boom");
  EXPECT_EQ(api::job_state(false, false, StopReason::None, false), "running");
  EXPECT_EQ(api::job_state(false, false, StopReason::None, true), "paused");
  EXPECT_EQ(api::job_state(false, false, StopReason::Cancelled, true), "cancelling");
  EXPECT_EQ(api::job_state(true, false, StopReason::Cancelled, false), "cancelled");
  EXPECT_EQ(api::job_state(true, false, StopReason::Time, false), "done");
  EXPECT_EQ(api::job_state(true, true, StopReason::None, false), "failed");
  EXPECT_EQ(api::status_json(4, 3, 10, 2), (json{{"compute_slots", 4},
                                                 {"free_slots", 3},
                                                 {"lookup_bytes", 10},
                                                 {"cancelled_client_gone", 2}}));
}

TEST(Dispatch, BodiesAndLimitsFromText) {
  EXPECT_EQ(api::parse_body(""), json::object());
  EXPECT_EQ(api::parse_body(R"({"board": "english"})"), (json{{"board", "english"}}));
  auto status_of = [](const std::string& text) {
    try {
      api::parse_body(text);
    } catch (const api::ApiError& e) {
      EXPECT_NE(std::string(e.what()).find("request body"), std::string::npos) << e.what();
      return e.status;
    }
    return 0;
  };
  EXPECT_EQ(status_of(R"({"board": )"), 400);
  EXPECT_EQ(status_of("[1]"), 400);
  EXPECT_EQ(status_of(R"({"time_limit": 1e999})"), 400);

  const api::Limits l = api::limits_from_json({{"request_seconds", 2},
                                               {"threads", 2},
                                               {"background_lookups", false},
                                               {"job_memory", 1 << 20},
                                               {"analysis_memo", 8 << 20}});
  EXPECT_EQ(l.request_seconds, 2);
  EXPECT_EQ(l.threads, 2);
  EXPECT_FALSE(l.background_lookups);
  EXPECT_EQ(l.job_memory, std::size_t{1} << 20);
  EXPECT_EQ(l.job_seconds, api::Limits{}.job_seconds);
  EXPECT_EQ(l.analysis_memo, std::size_t{8} << 20);
  EXPECT_EQ(api::Limits{}.analysis_memo, kAnalyzerMemoBytes);
  // Every field read back from its JSON.
  EXPECT_EQ(api::limits_json(api::limits_from_json(api::limits_json(l))), api::limits_json(l));
  auto bad = [](const json& j) {
    try {
      api::limits_from_json(j);
    } catch (const api::ApiError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(bad({{"request_second", 2}}).find("did you mean \"request_seconds\""),
            std::string::npos);
  EXPECT_NE(bad({{"threads", "2"}}).find("\"threads\" must be a number"), std::string::npos);
  EXPECT_NE(bad({{"threads", 1.5}}).find("whole number"), std::string::npos);
  EXPECT_NE(bad({{"job_seconds", -1}}).find("at least 0"), std::string::npos);
  EXPECT_NE(bad({{"background_lookups", 1}}).find("true or false"), std::string::npos);
  EXPECT_FALSE(bad(json::array()).empty());
}

// The C entry's answer as JSON, the text freed.
json c_answer(char* text) {
  EXPECT_NE(text, nullptr);
  if (!text) return nullptr;
  json j = json::parse(text);
  pegsol_free(text);
  return j;
}

TEST(CEntry, RequestRoundTrip) {
  pegsol_dispatcher* d = pegsol_new(nullptr);
  ASSERT_NE(d, nullptr);
  const json body = {{"board", "triangle:5"}, {"start", "4"}, {"end", "1"}};
  const json request = {{"method", "POST"}, {"path", "/api/solve"}, {"body", body}};
  const json r = c_answer(pegsol_request(d, request.dump().c_str()));
  api::Dispatcher same;
  EXPECT_EQ(r["status"], 200);
  EXPECT_EQ(steady(r["body"]), steady(same.handle("POST", "/api/solve", body).body));
  // A query in the path, no body.
  const json g =
      c_answer(pegsol_request(d, R"({"method": "GET", "path": "/api/board?board=triangle:5"})"));
  EXPECT_EQ(g["status"], 200);
  EXPECT_EQ(g["body"], geometry_json(*make_board("triangle:5")));
  // The dispatcher's errors pass through.
  const json e = c_answer(
      pegsol_request(d, R"({"method": "POST", "path": "/api/solve", "body": {"board": "nope"}})"));
  EXPECT_EQ(e["status"], 400);
  EXPECT_EQ(e["body"]["status"], 400);
  pegsol_delete(d);
  EXPECT_EQ(pegsol_test_from_c(), 1);
}

TEST(CEntry, BadRequestsAndNullPointers) {
  pegsol_dispatcher* d = pegsol_new("");
  ASSERT_NE(d, nullptr);
  for (const char* text : {"", "{", "[1]", "null", R"({"path": "/api/boards"})",
                           R"({"method": "GET"})", R"({"method": 1, "path": "/api/boards"})",
                           R"({"method": "GET", "path": "/api/boards", "verb": "x"})"}) {
    const json r = c_answer(pegsol_request(d, text));
    EXPECT_EQ(r["status"], 400) << text;
    EXPECT_TRUE(r["body"]["error"].is_string()) << text;
    EXPECT_EQ(r["body"]["status"], 400) << text;
  }
  EXPECT_EQ(c_answer(pegsol_request(d, nullptr))["status"], 400);
  EXPECT_EQ(
      c_answer(pegsol_request(nullptr, R"({"method": "GET", "path": "/api/boards"})"))["status"],
      400);
  EXPECT_EQ(c_answer(pegsol_run_job(nullptr, "{}", nullptr, nullptr))["status"], 400);
  EXPECT_EQ(c_answer(pegsol_run_job(d, nullptr, nullptr, nullptr))["status"], 400);
  const json kind = c_answer(pegsol_run_job(d, R"({"kind": "dance"})", nullptr, nullptr));
  EXPECT_EQ(kind["status"], 400);
  EXPECT_EQ(kind["body"]["status"], 400);
  EXPECT_EQ(c_answer(pegsol_run_job(d, R"({"kind": "count", "board": "wiegleb"})", nullptr,
                                    nullptr))["status"],
            413);
  EXPECT_EQ(c_answer(pegsol_run_job(d, "{", nullptr, nullptr))["status"], 400);
  pegsol_free(nullptr);
  pegsol_delete(nullptr);
  pegsol_delete(d);

  // Limits: by name; an unknown key, a wrong type or malformed text gives no dispatcher.
  pegsol_dispatcher* l = pegsol_new(R"({"request_seconds": 2, "background_lookups": false})");
  EXPECT_NE(l, nullptr);
  pegsol_delete(l);
  EXPECT_EQ(pegsol_new(R"({"request_secs": 2})"), nullptr);
  EXPECT_EQ(pegsol_new(R"({"threads": "1"})"), nullptr);
  EXPECT_EQ(pegsol_new("{"), nullptr);
  EXPECT_EQ(pegsol_new("[]"), nullptr);
}

struct Seen {
  int reports = 0;
  bool parsed = true;
};

int cancel_at_once(const char* progress_json, void* user) {
  auto* seen = static_cast<Seen*>(user);
  ++seen->reports;
  seen->parsed = seen->parsed && json::accept(progress_json);
  return 1;
}

int go_on(const char* progress_json, void* user) {
  auto* seen = static_cast<Seen*>(user);
  ++seen->reports;
  seen->parsed = seen->parsed && json::accept(progress_json);
  return 0;
}

TEST(CEntry, RunJob) {
  pegsol_dispatcher* d = pegsol_new(R"({"progress_seconds": 0})");
  ASSERT_NE(d, nullptr);
  Seen seen;
  const json done =
      c_answer(pegsol_run_job(d, R"({"kind": "count", "board": "triangle:5"})", go_on, &seen));
  EXPECT_EQ(done["status"], 200);
  const Problem p = problem_of("triangle:5");
  CensusOptions co;
  co.threads = 1;
  EXPECT_EQ(steady(done["body"]), steady(census_json(p, census(p, co))));
  EXPECT_TRUE(seen.parsed);

  Seen cancelled;
  const json stopped = c_answer(
      pegsol_run_job(d, R"({"kind": "count", "board": "english"})", cancel_at_once, &cancelled));
  EXPECT_EQ(stopped["status"], 200);
  EXPECT_EQ(stopped["body"]["stop"], "cancelled");
  EXPECT_EQ(stopped["body"]["status"], "stopped");
  EXPECT_GE(cancelled.reports, 1);
  EXPECT_TRUE(cancelled.parsed);
  pegsol_delete(d);
}

// POST /api/lookups with background builds: started and reported, then ready; the analysis then
// answers from them. Without background builds: reported, never built there; prepare() builds them
// with progress. Off: never built, and said so.
TEST(Dispatch, LookupsStartedReportedAndPrepared) {
  const json body = {{"board", "triangle:6"}, {"start", "4"}, {"end", "4"}};
  {
    api::Dispatcher d;
    const api::Reply first = d.handle("POST", "/api/lookups", body);
    ASSERT_EQ(first.status, 200) << first.body.dump();
    EXPECT_NE(first.body["state"], "none") << first.body.dump();
    json now = first.body;
    for (int i = 0; i < 600 && now["state"] != "ready" && now["state"] != "failed"; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      now = d.handle("POST", "/api/lookups", body).body;
    }
    EXPECT_EQ(now["state"], "ready") << now.dump();
    EXPECT_EQ(now["fraction"], 1.0);
    EXPECT_GT(now["bytes"].get<std::size_t>(), 0u);
    for (const char* k : {"phase", "level", "seconds", "why", "censuses"})
      EXPECT_TRUE(now.contains(k)) << k;
    json req = body;
    req["moves"] = json::array({"13-4"});
    const json a = d.handle("POST", "/api/analysis", req).body;
    EXPECT_TRUE(a["counted"].get<bool>()) << a.dump();
    EXPECT_EQ(a["lookup_note"].get<std::string>().rfind("census look-up", 0), 0u) << a.dump();
  }
  {
    api::Dispatcher d(foreground());
    EXPECT_EQ(d.handle("POST", "/api/lookups", body).body["state"], "none");
    Control c;
    std::vector<json> seen;
    const json ready = d.prepare(body, c, [&](const json& s) { seen.push_back(s); });
    EXPECT_EQ(ready["state"], "ready") << ready.dump();
    EXPECT_EQ(d.handle("POST", "/api/lookups", body).body["state"], "ready");
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.back(), ready);
    for (std::size_t i = 0; i + 1 < seen.size(); ++i)
      EXPECT_EQ(seen[i]["state"], "building") << seen[i].dump();
    // Stopped by its caller: forgotten, to be started again.
    const json other = {{"board", "english"}, {"end", "any"}};
    Control stop;
    const json stopped = d.prepare(other, stop, [&](const json&) { stop.cancel(); });
    EXPECT_EQ(stopped["state"], "none") << stopped.dump();
    EXPECT_EQ(d.handle("POST", "/api/lookups", other).body["state"], "none");
  }
  {
    api::Limits off = foreground();
    off.lookups = false;
    api::Dispatcher d(off);
    const json none = d.handle("POST", "/api/lookups", body).body;
    EXPECT_EQ(none["state"], "none");
    EXPECT_NE(none["why"], "");
    Control c;
    EXPECT_EQ(d.prepare(body, c)["state"], "none");
    json req = body;
    req["moves"] = json::array({"13-4"});
    const json a = d.handle("POST", "/api/analysis", req).body;
    EXPECT_EQ(a["lookup_note"].get<std::string>().find("census look-up:"), std::string::npos)
        << a.dump();
  }
  api::Dispatcher d;
  EXPECT_EQ(d.handle("POST", "/api/lookups", {{"board", "englsh"}}).status, 400);
  EXPECT_EQ(d.handle("POST", "/api/lookups", json::array()).status, 400);
}

// POST /api/solutions: what `pegsol solutions --json` prints (the enumeration called directly),
// distinct by default, from the position the moves leave, within its limit; bad options are 400.
TEST(Dispatch, SolutionsAsTheLibrary) {
  api::Dispatcher d;
  for (const bool distinct : {true, false}) {
    const Problem p = problem_of("triangle:5", "1", "any");
    EnumerateOptions o;
    o.distinct = distinct;
    o.limit = 7;
    SolutionsJson js(p, o);
    std::string text = js.head();
    const EnumerateResult n = enumerate_solutions(
        p, o, [&](const std::vector<Jump>& m) { return text += js.item(m), true; });
    text += js.tail(n, 0);
    const api::Reply r = d.handle("POST", "/api/solutions",
                                  {{"board", "triangle:5"},
                                   {"start", "1"},
                                   {"end", "any"},
                                   {"distinct", distinct},
                                   {"limit", 7}});
    ASSERT_EQ(r.status, 200) << r.body.dump();
    EXPECT_EQ(steady(r.body), steady(json::parse(text)));
    EXPECT_EQ(r.body["solutions"].size(), 7u);
  }
  // From a game's position: every solution starts there (replayed from it).
  const json from = d.handle("POST", "/api/solutions",
                             {{"board", "triangle:5"}, {"start", "1"}, {"moves", {"4-1"}}})
                        .body;
  ASSERT_FALSE(from["solutions"].empty()) << from.dump();
  const Problem p = problem_of("triangle:5", "1", "any");
  Position after(p.board, p.start);
  after.apply(parse_move_chain(*p.board, "4-1").jumps[0]);
  for (const json& sol : from["solutions"]) {
    Position q = after;
    for (const json& j : sol["moves"]) q.apply(Jump{j[0], j[1], j[2]});
    EXPECT_EQ(q.pegs().count(), 1);
  }
  // Impossible: the proof, no search.
  const json none =
      d.handle("POST", "/api/solutions", {{"board", "french"}, {"start", "d4"}, {"end", "d4"}})
          .body;
  EXPECT_EQ(none["status"], "impossible") << none.dump();
  for (const json& bad :
       {json{{"board", "triangle:5"}, {"limit", 0}}, json{{"board", "triangle:5"}, {"limit", 1001}},
        json{{"board", "triangle:5"}, {"limit", 2.5}},
        json{{"board", "triangle:5"}, {"distinct", "yes"}}})
    EXPECT_EQ(d.handle("POST", "/api/solutions", bad).status, 400) << bad.dump();
  EXPECT_TRUE(api::Dispatcher::computes("POST", "/api/solutions"));
  // Every endpoint listed answers something other than "no endpoint".
  for (const auto& e : api::Dispatcher::endpoints()) {
    const api::Reply r =
        d.handle(e.method, std::string(e.path) + "?board=triangle:5", {{"board", "triangle:5"}});
    EXPECT_NE(r.status, 404) << e.method << " " << e.path << " " << r.body.dump();
  }
}

// api::solutions: a problem no proof without search settles but the first search exhausts is
// impossible at once, with the search's reason, where the enumeration alone also finds nothing;
// a solvable one streams what the enumeration alone streams; a stopped control stops both.
TEST(Dispatch, SolutionsSearchFirst) {
  auto stream = [](const Problem& p, const EnumerateOptions& o, bool first) {
    std::vector<std::vector<Jump>> out;
    auto keep = [&](const std::vector<Jump>& m) { return out.push_back(m), true; };
    const EnumerateResult r = first ? api::solutions(p, o, keep) : enumerate_solutions(p, o, keep);
    EXPECT_EQ(r.emitted, out.size());
    return std::make_pair(r, out);
  };
  EnumerateOptions o;
  o.distinct = true;
  const Problem lost = problem_of("triangle:5", "5", "5");
  ASSERT_FALSE(impossibility(lost));
  const auto [searched, none] = stream(lost, o, true);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(searched.stop, StopReason::None);
  EXPECT_EQ(searched.reason.rfind("exhaustive search: no solution among", 0), 0u)
      << searched.reason;
  const auto [alone, none_alone] = stream(lost, o, false);
  EXPECT_TRUE(none_alone.empty());
  EXPECT_EQ(alone.stop, StopReason::None);
  EXPECT_TRUE(alone.reason.empty()) << alone.reason;
  // Solvable: the same solutions in the same order; games are not searched for.
  for (const bool games : {false, true}) {
    EnumerateOptions g = o;
    g.games = games;
    g.limit = 50;
    const Problem p = problem_of("triangle:5", "1", "any");
    EXPECT_EQ(stream(p, g, true).second, stream(p, g, false).second) << games;
  }
  // The dispatcher's answer says the same.
  api::Dispatcher d;
  const json r =
      d.handle("POST", "/api/solutions", {{"board", "triangle:5"}, {"start", "5"}, {"end", "5"}})
          .body;
  EXPECT_EQ(r["status"], "impossible") << r.dump();
  EXPECT_EQ(r["reason"], searched.reason);
  // A control already stopped: the search proves nothing and the enumeration reports the stop.
  Control stopped;
  stopped.cancel();
  EnumerateOptions c = o;
  c.control = &stopped;
  const auto [cancelled, some] = stream(problem_of("english"), c, true);
  EXPECT_EQ(cancelled.stop, StopReason::Cancelled);
  EXPECT_TRUE(cancelled.reason.empty());
}

// The C entry's job check and look-ups.
TEST(CEntry, CheckJobAndPrepare) {
  pegsol_dispatcher* d = pegsol_new(R"({"background_lookups": false, "lookup_threads": 1})");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(c_answer(pegsol_check_job(d, R"({"kind": "count", "board": "triangle:5"})")),
            json({{"status", 200}, {"body", {{"kind", "count"}}}}));
  EXPECT_EQ(c_answer(pegsol_check_job(d, R"({"kind": "dance"})"))["status"], 400);
  EXPECT_EQ(c_answer(pegsol_check_job(d, R"({"kind": "table", "board": "wiegleb"})"))["status"],
            413);
  EXPECT_EQ(c_answer(pegsol_check_job(nullptr, "{}"))["status"], 400);
  EXPECT_EQ(c_answer(pegsol_check_job(d, nullptr))["status"], 400);
  Seen seen;
  const json ready = c_answer(
      pegsol_prepare(d, R"({"board": "triangle:6", "start": "4", "end": "4"})", go_on, &seen));
  EXPECT_EQ(ready["status"], 200);
  EXPECT_EQ(ready["body"]["state"], "ready") << ready.dump();
  EXPECT_GE(seen.reports, 1);
  EXPECT_TRUE(seen.parsed);
  EXPECT_EQ(c_answer(pegsol_prepare(d, "{", nullptr, nullptr))["status"], 400);
  EXPECT_EQ(c_answer(pegsol_prepare(nullptr, "{}", nullptr, nullptr))["status"], 400);
  Seen cancelled;
  const json stopped = c_answer(
      pegsol_prepare(d, R"({"board": "english", "end": "any"})", cancel_at_once, &cancelled));
  EXPECT_EQ(stopped["body"]["state"], "none") << stopped.dump();
  pegsol_delete(d);
}

}  // namespace
}  // namespace pegsol
