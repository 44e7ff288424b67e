// SPDX-License-Identifier: MIT
// The JSON API's endpoints over JSON values (include/pegsol/api.hpp, docs/api.md): the
// dispatcher, its errors in the API's words, its limits and the jobs' and status's JSON. A
// request's keys and problem are read in request.cpp, the analyzers kept in analyzer_cache.hpp.
#include "pegsol/api.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <limits>
#include <list>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

#include "analyzer_cache.hpp"
#include "pegsol/analysis.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/json.hpp"
#include "pegsol/path_index.hpp"
#include "pegsol/play.hpp"
#include "pegsol/presets.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/spec.hpp"
#include "request.hpp"

namespace pegsol::api {

namespace {

// A library field in the API's words: the look-ups' memory its limit's key ("lookup_memory"),
// an options field its bare name ("CensusOptions::threads": "threads").
std::string api_field(std::string_view field) {
  if (field == "PathIndex::Options::memory" || field == "PathIndexCache::Options::build_memory")
    return "lookup_memory";
  if (const auto at = field.find("Options::"); at != std::string_view::npos)
    return std::string(field.substr(at + 9));
  return {};
}

// A job's field in the API's words: the memory limit the dispatcher sets from the job's cap
// ("job_memory"), the others as api_field.
std::string job_field(std::string_view field) {
  if (field == "Control::memory_budget") return "job_memory";
  return api_field(field);
}

// The library's bad input in the API's words: a problem field as its JSON key ("start"), an
// options field by its bare name ("CensusOptions::threads": "threads"), in the text too.
std::string api_words(const InputError& e) {
  std::string field = e.field();
  std::string detail = rename_fields(e.detail(), api_field);
  const std::string catalogue =
      "(catalogue() lists the boards; a drawn board is read with parse_drawing)";
  if (const auto at = detail.find(catalogue); at != std::string::npos)
    detail.replace(at, catalogue.size(),
                   "(GET /api/boards lists them; \"drawing\" takes a drawn board)");
  const std::string listed = "(presets() lists them)";
  if (const auto at = detail.find(listed); at != std::string::npos)
    detail.replace(at, listed.size(), "(GET /api/presets lists them)");
  if (field.empty()) return detail;
  if (const std::string named = api_field(field); !named.empty()) field = named;
  return "\"" + field + "\": " + detail;
}

using detail::AnalyzerCache;
using detail::capped;
using detail::check_board_named;
using detail::check_keys;
using detail::field;
using detail::from_here;
using detail::number;
using detail::query_object;
using detail::request_board;
using detail::request_game;
using detail::request_problem;
using detail::seconds;
using nlohmann::json;

// Calls f(name, field) for every field of a Limits (const or not), in the header's order.
template <class L, class F>
void each_limit(L& l, F&& f) {
  f("request_seconds", l.request_seconds);
  f("analysis_seconds", l.analysis_seconds);
  f("request_memory", l.request_memory);
  f("job_seconds", l.job_seconds);
  f("job_memory", l.job_memory);
  f("max_census_holes", l.max_census_holes);
  f("analyzer_cache", l.analyzer_cache);
  f("idle_analyzers", l.idle_analyzers);
  f("lookup_memory", l.lookup_memory);
  f("lookup_seconds", l.lookup_seconds);
  f("lookup_keep", l.lookup_keep);
  f("background_lookups", l.background_lookups);
  f("lookups", l.lookups);
  f("lookup_threads", l.lookup_threads);
  f("threads", l.threads);
  f("progress_seconds", l.progress_seconds);
  f("analysis_memo", l.analysis_memo);
}

std::string no_endpoint(std::string_view path) {
  return "no page or API endpoint at " + std::string(path) + " (see docs/api.md)";
}

}  // namespace

ApiError::ApiError(int s, const std::string& message) : std::runtime_error(message), status(s) {}

json error_body(int status, std::string_view message) {
  return {{"error", std::string(message)}, {"status", status}};
}

Reply error_reply(int status, std::string_view message) {
  return {status, error_body(status, message)};
}

json parse_body(std::string_view text) {
  if (text.empty()) return json::object();
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw ApiError(400, "malformed JSON in the request body at byte " + std::to_string(e.byte) +
                            ": " + e.what());
  } catch (const json::exception& e) {
    // A number past a double's range ("1e999") is an out_of_range, not a parse_error.
    throw ApiError(400, std::string("malformed JSON in the request body: ") + e.what());
  }
  if (!j.is_object()) throw ApiError(400, "the request body must be a JSON object");
  return j;
}

Limits limits_from_json(const json& j) {
  if (!j.is_object())
    throw ApiError(400, std::string("the limits must be a JSON object, not ") + j.type_name());
  Limits l;
  std::vector<std::string> names;
  each_limit(l, [&](const char* name, auto&) { names.emplace_back(name); });
  // Not a structured binding: clang 14 (the sanitizer and WebAssembly builds) cannot capture one.
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    const json& value = it.value();
    bool known = false;
    each_limit(l, [&](const char* name, auto& f) {
      if (key != name) return;
      known = true;
      using T = std::remove_reference_t<decltype(f)>;
      const std::string where = "limits: \"" + key + "\"";
      if constexpr (std::is_same_v<T, bool>) {
        if (!value.is_boolean()) throw ApiError(400, where + " must be true or false");
        f = value.get<bool>();
      } else {
        if (!value.is_number())
          throw ApiError(400, where + " must be a number, not " + std::string(value.type_name()));
        const double v = value.get<double>();
        if (!std::isfinite(v) || v < 0)
          throw ApiError(400, where + " must be a finite number of at least 0");
        if constexpr (std::is_same_v<T, double>) {
          f = v;
        } else {
          if (v != std::floor(v) || v > static_cast<double>(std::numeric_limits<T>::max()))
            throw ApiError(400, where + " must be a whole number that fits its type");
          f = value.is_number_unsigned() ? static_cast<T>(value.get<std::uint64_t>())
                                         : static_cast<T>(v);
        }
      }
    });
    if (!known) {
      const auto near = closest_name(key, names);
      throw ApiError(400, "limits: unknown key " + dump_json(key) +
                              (near ? " (did you mean \"" + *near + "\"?)" : ""));
    }
  }
  return l;
}

json limits_json(const Limits& l) {
  json out = json::object();
  each_limit(l, [&](const char* name, const auto& f) { out[name] = f; });
  return out;
}

EnumerateResult solutions(const Problem& p, const EnumerateOptions& o,
                          const std::function<bool(const std::vector<Jump>&)>& emit) {
  // Games always exist; a board the enumeration refuses, or a proof without search, is its own.
  if (!o.games && p.board->width() <= 128 && !impossibility(p)) {
    Control first(o.control);
    if (first.has_deadline()) first.set_time_limit(first.remaining_seconds() / 2);
    SolveOptions s;
    s.algorithm = Algorithm::Dfs;
    s.control = &first;
    s.node_limit = kFirstSearchNodes;
    const SolveResult r = pegsol::solve(p, s);
    if (r.status == Status::Impossible) {
      EnumerateResult none;
      none.reason = r.reason;
      return none;
    }
  }
  return enumerate_solutions(p, o, emit);
}

std::string_view job_state(bool finished, bool failed, StopReason stop, bool paused) {
  if (finished) return failed ? "failed" : stop == StopReason::Cancelled ? "cancelled" : "done";
  if (stop == StopReason::Cancelled) return "cancelling";
  if (paused) return "paused";
  return "running";
}

json job_json(std::string_view id, std::string_view kind, std::string_view state,
              const json& progress, const json& result, std::string_view error, StopReason stop) {
  return {{"id", std::string(id)},
          {"kind", std::string(kind)},
          {"state", std::string(state)},
          {"progress", progress},
          {"result", result},
          {"error", error.empty() ? json(nullptr) : json(std::string(error))},
          {"stop", stop == StopReason::None && result.is_object() && result.contains("stop") &&
                           result["stop"].is_string()
                       ? result["stop"]
                       : json(std::string(stop_reason_name(stop)))}};
}

json job_list_json(std::vector<json> jobs) {
  json all = json::array();
  for (json& j : jobs) all.push_back(std::move(j));
  return {{"jobs", all}};
}

json job_deleted_json(std::string_view id) {
  return {{"id", std::string(id)}, {"deleted", true}};
}

json status_json(int compute_slots, int free_slots, std::size_t lookup_bytes,
                 std::uint64_t cancelled_client_gone) {
  return {{"compute_slots", compute_slots},
          {"free_slots", free_slots},
          {"lookup_bytes", lookup_bytes},
          {"cancelled_client_gone", cancelled_client_gone}};
}

// The dispatcher's state: its caps, the analyzers kept (analyzer_cache.hpp) and the shared
// solution-path look-ups.
struct Dispatcher::Impl {
  explicit Impl(const Limits& l)
      : limits(l),
        analyzers(l.analyzer_cache, l.idle_analyzers, l.analysis_memo),
        paths(path_options(l)) {}

  static PathIndexCache::Options path_options(const Limits& l) {
    PathIndexCache::Options o;
    o.build_memory = l.lookup_memory;
    o.build_seconds = l.lookup_seconds;
    o.build_threads = l.lookup_threads;
    o.keep_bytes = l.lookup_keep;
    o.background = l.background_lookups;
    return o;
  }

  // A search's options under the caps: "time_limit" (seconds) at most request_seconds, the
  // table at most request_memory.
  SolveOptions request_options(const json& body, Control& c) const {
    c.set_time_limit(
        capped(seconds(body, "time_limit", limits.request_seconds), limits.request_seconds));
    c.set_memory_budget(limits.request_memory);
    SolveOptions o;
    o.control = &c;
    o.threads = limits.threads;
    return o;
  }

  // The options of an analysis of `g`'s position from the request body: the game's moves were
  // replayed from its start, so the shared solution-path look-ups answer once built.
  AnalysisOptions analysis_options(const json& body, const Control* c, const Game& g) {
    AnalysisOptions o;
    o.control = c;
    o.start = g.problem().start;
    o.paths = limits.lookups ? &paths : nullptr;
    o.lookup = limits.lookups;
    const double fallback = limits.request_seconds > 0
                                ? std::min(limits.analysis_seconds, limits.request_seconds)
                                : limits.analysis_seconds;
    o.time_limit = capped(seconds(body, "time_limit", fallback), limits.request_seconds);
    if (auto count = body.find("count"); count != body.end() && !count->is_null()) {
      if (!count->is_boolean()) throw ApiError(400, "\"count\" must be true or false");
      o.count = count->get<bool>();
    }
    return o;
  }

  // Without moves: what `pegsol solve --json` prints. With moves: what `pegsol solve --moves
  // ... --json` prints, the game finished keeping them (finish_json: the whole game from the
  // start, the kept jumps first, "kept_moves" of them). With "minimize": "moves", the same with
  // --minimize moves: the fewest moves from the start, or from the position the moves leave.
  json solve(const json& body, const Control* control, const std::function<void()>& admit) {
    Game g = request_game(body);
    const std::string minimize = field(body, "minimize");
    if (!minimize.empty() && minimize != "moves")
      throw InputError("\"minimize\": expected \"moves\", got \"" + minimize + "\"");
    if (!minimize.empty() && (body.contains("algorithm") || body.contains("direction")))
      throw InputError(
          "\"minimize\": the fewest-moves search takes no \"algorithm\" or \"direction\"");
    if (admit) admit();
    Control c(control);
    SolveOptions o = request_options(body, c);
    if (!minimize.empty()) {
      c.set_memory_budget(limits.request_memory);
      FewestOptions f;
      f.control = &c;
      f.threads = limits.threads;
      if (g.cursor() == 0) return fewest_json(g.problem(), fewest_solve(g.problem(), f));
      return fewest_finish_json(g.problem(), fewest_finish(g.problem(), g.played(), f));
    }
    if (std::string a = field(body, "algorithm"); !a.empty()) {
      auto alg = parse_algorithm(a);
      if (!alg)
        throw InputError("\"algorithm\": '" + a + "': expected auto, dfs, beam or beam-report");
      o.algorithm = *alg;
    }
    if (std::string d = field(body, "direction"); !d.empty()) {
      auto dir = parse_direction(d);
      if (!dir) throw InputError("\"direction\": '" + d + "': expected forward or backward");
      o.direction = *dir;
    }
    check_solve_options(o);
    if (g.cursor() > 0) return finish_json(g.problem(), finish_game(g.problem(), g.played(), o));
    return pegsol::solve_json(g.problem(), pegsol::solve(g.problem(), o), api_field);
  }

  // POST /api/solutions: what `pegsol solutions --json` prints, from the position the moves
  // leave: the distinct solutions (up to reordering independent jumps; "distinct": false for
  // every one), at most "limit" (1 to 1000, 100 by default), under the request's time cap.
  json solutions(const json& body, const Control* control, const std::function<void()>& admit) {
    const Problem p = from_here(request_game(body));
    EnumerateOptions o;
    o.distinct = true;
    if (auto it = body.find("distinct"); it != body.end() && !it->is_null()) {
      if (!it->is_boolean()) throw ApiError(400, "\"distinct\" must be true or false");
      o.distinct = it->get<bool>();
    }
    const double limit = number(body, "limit", 100);
    if (!(limit >= 1 && limit <= 1000) || limit != std::floor(limit))
      throw ApiError(400, "\"limit\" must be a whole number from 1 to 1000");
    o.limit = static_cast<std::uint64_t>(limit);
    if (admit) admit();
    Control c(control);
    c.set_time_limit(
        capped(seconds(body, "time_limit", limits.request_seconds), limits.request_seconds));
    c.set_memory_budget(limits.request_memory);
    o.control = &c;
    SolutionsJson js(p, o);
    std::string text = js.head();
    const auto t0 = std::chrono::steady_clock::now();
    const EnumerateResult n = api::solutions(p, o, [&](const std::vector<Jump>& moves) {
      text += js.item(moves);
      return true;
    });
    text +=
        js.tail(n, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return json::parse(text);
  }

  // Live feedback (pegsol/analysis.hpp): solvable to one peg and to the goal (the proof when
  // not), the ways left and the holes the last peg can end on, a hint; "finished" and "won".
  json analysis(const json& body, const Control* control, const std::function<void()>& admit) {
    Game g = request_game(body);
    if (admit) admit();
    AnalyzerCache::Lease a = analyzers.lease(g);
    AnalysisOptions o = analysis_options(body, control, g);
    json out = analysis_json(g.position(), a->analyze(g.position(), o), api_field);
    out["finished"] = g.finished();
    out["won"] = g.won();
    return out;
  }

  // A hint: the next move of a solution to the goal (or, when the goal is lost, to one peg), and
  // "to_goal" saying which.
  json hint(const json& body, const Control* control, const std::function<void()>& admit) {
    Game g = request_game(body);
    if (admit) admit();
    AnalysisOptions o = analysis_options(body, control, g);
    o.count = false;
    Analysis a = [&] {
      AnalyzerCache::Lease an = analyzers.lease(g);
      return an->analyze(g.position(), o);
    }();
    Hint h;
    h.answer = a.hint_to_goal || !a.hint ? a.goal : a.one_peg;
    h.move = a.hint;
    json out = hint_json(*g.problem().board, h);
    out["to_goal"] = a.hint_to_goal;
    return out;
  }

  // "Where did I go wrong": the first played move after which the goal was lost.
  json mistake(const json& body, const Control* control, const std::function<void()>& admit) {
    Game g = request_game(body);
    if (admit) admit();
    AnalysisOptions o = analysis_options(body, control, g);
    o.time_limit = limits.request_seconds;
    AnalyzerCache::Lease an = analyzers.lease(g);
    return mistake_json(g, an->first_mistake(g, o));
  }

  // POST /api/lookups: the census look-ups of the game's problem, started in the background
  // (where there is one) and their status; without background builds, the status alone
  // (prepare() builds them).
  json lookups_status(const json& body) {
    const Problem p = request_problem(body);
    if (!limits.lookups)
      return lookup_status_json(LookupStatus{
          LookupStatus::State::None, {}, -1, 0, 0, 0, "look-ups are off in this engine", 1});
    return lookup_status_json(limits.background_lookups ? paths.start(p) : paths.status(p),
                              api_field);
  }

  json game(const json& body) {
    if (auto it = body.find("text"); it != body.end() && !it->is_null()) {
      if (!it->is_string()) throw ApiError(400, "\"text\" must be a string");
      for (const char* key : {"board", "drawing", "lattice", "start", "end", "goal", "moves"})
        if (auto k = body.find(key); k != body.end() && !k->is_null())
          throw ApiError(400, std::string("\"text\" (a game file) brings its own board, start, "
                                          "goal and moves: leave out \"") +
                                  key + "\"");
      return game_json(Game::parse(it->get<std::string>(), "game"));
    }
    return game_json(request_game(body));
  }

  const Limits limits;
  AnalyzerCache analyzers;
  PathIndexCache paths;  // shared by every analyzer
};

Dispatcher::Dispatcher(Limits limits) : impl_(std::make_unique<Impl>(limits)) {}

Dispatcher::~Dispatcher() = default;

const Limits& Dispatcher::limits() const {
  return impl_->limits;
}

std::size_t Dispatcher::lookup_bytes() const {
  return impl_->paths.bytes();
}

const std::vector<Dispatcher::Endpoint>& Dispatcher::endpoints() {
  static const std::vector<Endpoint> all = {
      {"GET", "/api/boards"},   {"GET", "/api/presets"},   {"GET", "/api/board"},
      {"POST", "/api/board"},   {"POST", "/api/game"},     {"POST", "/api/solve"},
      {"POST", "/api/hint"},    {"POST", "/api/analysis"}, {"POST", "/api/mistake"},
      {"POST", "/api/lookups"}, {"POST", "/api/solutions"}};
  return all;
}

bool Dispatcher::computes(std::string_view method, std::string_view path) {
  if (const std::size_t q = path.find('?'); q != std::string_view::npos) path = path.substr(0, q);
  return method == "POST" &&
         (path == "/api/solve" || path == "/api/hint" || path == "/api/analysis" ||
          path == "/api/mistake" || path == "/api/solutions");
}

Reply Dispatcher::handle(std::string_view method, std::string_view target, const json& body,
                         const Control* control) {
  return handle(method, target, body, control, {});
}

Reply Dispatcher::handle(std::string_view method, std::string_view target, const json& body,
                         const Control* control, const std::function<void()>& admit) {
  try {
    const std::size_t q = target.find('?');
    const std::string_view path = target.substr(0, q);
    const std::string_view query =
        q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
    if (method == "GET") {
      if (path == "/api/boards") return {200, catalogue_json()};
      if (path == "/api/presets") return {200, presets_json()};
      if (path == "/api/board") {
        const json params = query_object(query);
        check_keys(params, method, path);
        check_board_named(params, method, path);
        return {200, geometry_json(*request_board(params))};
      }
    } else if (method == "POST") {
      enum class Endpoint { None, Board, Game, Solve, Hint, Analysis, Mistake, Lookups, Solutions };
      Endpoint e = path == "/api/board"       ? Endpoint::Board
                   : path == "/api/game"      ? Endpoint::Game
                   : path == "/api/lookups"   ? Endpoint::Lookups
                   : path == "/api/solutions" ? Endpoint::Solutions
                   : path == "/api/solve"     ? Endpoint::Solve
                   : path == "/api/hint"      ? Endpoint::Hint
                   : path == "/api/analysis"  ? Endpoint::Analysis
                   : path == "/api/mistake"   ? Endpoint::Mistake
                                              : Endpoint::None;
      if (e != Endpoint::None) {
        if (!body.is_null() && !body.is_object())
          throw ApiError(400, "the request body must be a JSON object");
        const json empty = json::object();
        const json& b = body.is_null() ? empty : body;
        check_keys(b, method, path);
        if (e != Endpoint::Game || !b.contains("text") || b["text"].is_null())
          check_board_named(b, method, path);
        switch (e) {
          case Endpoint::Board:
            return {200, geometry_json(*request_board(b))};
          case Endpoint::Game:
            return {200, impl_->game(b)};
          case Endpoint::Solve:
            return {200, impl_->solve(b, control, admit)};
          case Endpoint::Hint:
            return {200, impl_->hint(b, control, admit)};
          case Endpoint::Analysis:
            return {200, impl_->analysis(b, control, admit)};
          case Endpoint::Mistake:
            return {200, impl_->mistake(b, control, admit)};
          case Endpoint::Lookups:
            return {200, impl_->lookups_status(b)};
          case Endpoint::Solutions:
            return {200, impl_->solutions(b, control, admit)};
          case Endpoint::None:
            break;
        }
      }
    }
    return error_reply(404, no_endpoint(path));
  } catch (const ApiError& e) {
    return error_reply(e.status, e.what());
  } catch (const InputError& e) {
    return error_reply(400, api_words(e));
  } catch (const std::bad_alloc&) {
    return error_reply(503, "out of memory for this request");
  } catch (const std::exception& e) {
    return error_reply(500, std::string("internal error: ") + e.what());
  } catch (...) {
    return error_reply(500, "internal error");
  }
}

json Dispatcher::prepare(const json& body_in, Control& control,
                         const std::function<void(const json&)>& progress) {
  if (!body_in.is_null() && !body_in.is_object())
    throw ApiError(400, "the request body must be a JSON object");
  const json& body = body_in.is_null() ? json::object() : body_in;
  check_keys(body, "POST", "/api/lookups");
  check_board_named(body, "POST", "/api/lookups");
  const Problem p = request_problem(body);
  if (!impl_->limits.lookups)
    return lookup_status_json(LookupStatus{
        LookupStatus::State::None, {}, -1, 0, 0, 0, "look-ups are off in this engine", 1});
  if (progress) {
    // The look-ups' own status, as the build advances (the census's reports carry its level).
    control.set_progress(
        [&](const ProgressReport&) {
          progress(lookup_status_json(impl_->paths.status(p), api_field));
        },
        impl_->limits.progress_seconds);
  }
  const json done = lookup_status_json(impl_->paths.start(p, &control), api_field);
  if (progress) progress(done);  // the last report is the outcome, however short the build
  return done;
}

JobSpec Dispatcher::job(const json& body_in) const {
  if (!body_in.is_null() && !body_in.is_object())
    throw ApiError(400, "the request body must be a JSON object");
  const json body = body_in.is_null() ? json::object() : body_in;
  check_keys(body, "POST", "/api/jobs");
  const Limits& l = impl_->limits;
  JobSpec spec;
  spec.kind = field(body, "kind");
  const std::string& kind = spec.kind;
  if (kind != "count" && kind != "table" && kind != "solve" && kind != "fewest")
    throw ApiError(400, "\"kind\" must be \"count\", \"table\", \"solve\" or \"fewest\", not \"" +
                            kind + "\"");
  check_board_named(body, "POST", "/api/jobs");
  try {
    spec.problem = from_here(request_game(body));
  } catch (const InputError& e) {
    throw ApiError(400, api_words(e));
  }
  const Board& b = *spec.problem.board;
  if (kind != "solve" && kind != "fewest" && b.size() > l.max_census_holes)
    throw ApiError(413, "board " + b.name() + " has " + std::to_string(b.size()) + " holes: a " +
                            kind + " job takes boards of at most " +
                            std::to_string(l.max_census_holes) + " holes here");
  spec.time_limit = capped(seconds(body, "time_limit", l.job_seconds), l.job_seconds);
  return spec;
}

json Dispatcher::run(const JobSpec& job, Control& control,
                     const std::function<void(const json&)>& progress) const {
  try {
    const Limits& l = impl_->limits;
    const Problem& p = job.problem;
    control.set_time_limit(job.time_limit);
    control.set_memory_budget(l.job_memory);
    // A fewest job's first-solution search reports as a solve does, its passes with their bounds.
    if (progress)
      control.set_progress(
          [progress](const ProgressReport& r) {
            progress(r.fewest ? fewest_progress_json(r) : progress_json(r));
          },
          l.progress_seconds);
    if (job.kind == "count" || job.kind == "table") {
      CensusOptions co;
      co.control = &control;
      co.threads = l.threads;
      if (job.kind == "count") return census_json(p, census(p, co), job_field);
      return table_json(*p.board, solvability_table(p.board, co), TableMethod::Auto, job_field);
    }
    if (job.kind == "fewest") {
      FewestOptions f;
      f.control = &control;
      f.threads = l.threads;
      return fewest_json(p, fewest_solve(p, f));
    }
    if (job.kind == "solve") {
      SolveOptions o;
      o.control = &control;
      o.threads = l.threads;
      return solve_json(p, pegsol::solve(p, o), job_field);
    }
    throw ApiError(400, "\"kind\" must be \"count\", \"table\", \"solve\" or \"fewest\", not \"" +
                            job.kind + "\"");
  } catch (const InputError& e) {
    throw ApiError(400, api_words(e));
  }
}

}  // namespace pegsol::api
