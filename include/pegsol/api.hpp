// SPDX-License-Identifier: MIT
/// @file
/// The JSON API of docs/api.md as library functions over JSON values: one dispatcher that every
/// front end drives (`pegsol serve` over HTTP, the WebAssembly worker, the C entry of pegsol.h).
/// Target pegsol::json.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "pegsol/analysis.hpp"
#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/json_export.h"
#include "pegsol/problem.hpp"

/// The JSON API of docs/api.md as functions over JSON values (target pegsol::json).
namespace pegsol::api {

/// The caps every request and job runs under (docs/api.md "Errors and limits").
struct PEGSOL_JSON_API Limits {
  double request_seconds = 5;   ///< Solve, hint, mistake: at most this ("time_limit" lowers it).
  double analysis_seconds = 2;  ///< An analysis's default when "time_limit" is not given.
  std::size_t request_memory = 256u << 20;  ///< Bytes for a request's search table.
  double job_seconds = 300;                 ///< A job's cap (0: none).
  std::size_t job_memory = 1024u << 20;     ///< Bytes for a job's tables.
  int max_census_holes = 41;  ///< Count and table jobs: boards up to this size (else 413).
  int analyzer_cache = 4;     ///< Boards and goals whose analyzers are kept.
  int idle_analyzers = 2;     ///< Idle analyzers kept per board and goal.
  std::size_t lookup_memory = 512u << 20;  ///< One solution-path look-up census (path_index.hpp).
  double lookup_seconds = 30;              ///< One look-up census's time limit.
  std::size_t lookup_keep = 256u << 20;    ///< Bytes of look-ups kept (least recent go first).
  /// False: look-ups are built in the calling thread (no threads: WebAssembly).
  bool background_lookups = true;
  bool lookups = true;  ///< False: no census look-ups at all, the searches answer (a spare worker).
  int lookup_threads = 0;         ///< Worker threads of a look-up census (0: the hardware's).
  int threads = 1;                ///< Worker threads of one computation.
  double progress_seconds = 0.2;  ///< A job's progress reports: at most one per this long.
  /// Bytes of each kept analyzer's search memo, per verdict (Analyzer(board, goal, memo_bytes)):
  /// up to analyzer_cache x idle_analyzers x 2 of them, each growing only as its searches fill it.
  std::size_t analysis_memo = kAnalyzerMemoBytes;
};

/// The limits named in a JSON object, the others left at their defaults: {"request_seconds": 2,
/// "background_lookups": false}.
/// @throws ApiError (400) naming an unknown key (with the closest name) or a value of the wrong
/// type.
PEGSOL_JSON_API Limits limits_from_json(const nlohmann::json& j);
/// Every field of `l` by name, as limits_from_json() reads them.
PEGSOL_JSON_API nlohmann::json limits_json(const Limits& l);

/// An answer: an HTTP-like status and the JSON body (an error is {"error": message, "status":
/// code}).
struct PEGSOL_JSON_API Reply {
  int status = 200;     ///< 200, or an error's status (400, 404, 413, 500, 503).
  nlohmann::json body;  ///< The endpoint's JSON, or error_body().
};

/// A request's error with its status (400, 404, 413, 503). Not a pegsol::Error: it belongs to the
/// JSON API, whose dispatcher turns it into a reply.
struct PEGSOL_JSON_API ApiError : std::runtime_error {
  /// An error of `status` whose what() is `message`.
  ApiError(int status, const std::string& message);
  int status;  ///< The reply's status.
};

/// An error's body: {"error": message, "status": status}.
PEGSOL_JSON_API nlohmann::json error_body(int status, std::string_view message);
/// A reply of error_body(status, message).
PEGSOL_JSON_API Reply error_reply(int status, std::string_view message);

/// A request body's text parsed: an object, or {} for an empty text.
/// @throws ApiError (400) for malformed JSON (naming the byte) or a value that is not an object.
PEGSOL_JSON_API nlohmann::json parse_body(std::string_view text);

/// A job, checked and ready to run: what POST /api/jobs starts.
struct PEGSOL_JSON_API JobSpec {
  std::string kind;       ///< "count", "table", "solve" or "fewest".
  Problem problem;        ///< From the position the request's moves leave, towards its goal.
  double time_limit = 0;  ///< Seconds, within the job cap (0: none).
};

/// The JSON API's requests answered as values. One dispatcher serves many threads at once: a
/// server calls handle() from each connection's thread; it keeps the analyzers and solution-path
/// look-ups that requests about the same board share.
class PEGSOL_JSON_API Dispatcher {
 public:
  /// A dispatcher under `limits`.
  explicit Dispatcher(Limits limits = {});
  /// Waits for no call: none may be running.
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;             ///< Not copyable: it owns its caches.
  Dispatcher& operator=(const Dispatcher&) = delete;  ///< Not copyable: it owns its caches.

  /// One request of the JSON API. Never throws: errors are replies.
  ///
  /// Each endpoint takes the body (or query) keys of docs/api.md alone: an unknown key is a 400
  /// naming it and the endpoint, a value of the wrong type or range a 400 naming its key. Handles
  /// every endpoint of docs/api.md except the job table ones (/api/jobs...) and the page files,
  /// which belong to the front (a 404 reply for those, naming the path).
  /// @param method "GET", "POST" or "DELETE".
  /// @param target The path with an optional query ("/api/board?board=english").
  /// @param body The parsed JSON body (null when none).
  /// @param control Stops the call (a client gone, a server stopping); may be null.
  Reply handle(std::string_view method, std::string_view target, const nlohmann::json& body,
               const Control* control = nullptr);
  /// handle() with `admit` called once a computing request is checked, just before it computes (a
  /// server takes a compute slot there); an ApiError it throws is the reply.
  Reply handle(std::string_view method, std::string_view target, const nlohmann::json& body,
               const Control* control, const std::function<void()>& admit);
  /// The method and path of an endpoint handle() answers.
  struct Endpoint {
    std::string_view method;  ///< "GET" or "POST".
    std::string_view path;    ///< "/api/solve", ...
  };
  /// Every endpoint handle() answers (a front routes each to it).
  static const std::vector<Endpoint>& endpoints();
  /// Whether a request computes (a server gives it a compute slot): solve, hint, analysis,
  /// mistake, solutions.
  static bool computes(std::string_view method, std::string_view path);
  /// POST /api/jobs's body checked: kind, problem, moves, caps.
  /// @throws ApiError (status 400 or 413).
  JobSpec job(const nlohmann::json& body) const;
  /// Runs a job to its end in this thread under `control` (its time limit and memory budget are
  /// set here from the caps); progress reports go to `progress` as the JSON of docs/api.md (the
  /// fewest job's shape with lower_bound, best_found, shortening). Returns the job's "result",
  /// its notes in the API's words (a memory stop names "job_memory").
  /// @throws ApiError (400, in the API's words) for a problem the engine refuses, and what else
  /// the job's engine throws.
  nlohmann::json run(const JobSpec& job, Control& control,
                     const std::function<void(const nlohmann::json&)>& progress = {}) const;
  /// Builds the census look-ups a game of the body's problem needs (POST /api/lookups's body:
  /// board or drawing, lattice, start, end, goal) now, in this thread, under `control` (stop,
  /// deadline); progress reports go to `progress` as look-up status objects, the last of them the
  /// outcome. Returns the look-ups' status then (ready, failed and why, or none when they cannot
  /// be built). For fronts without background threads (WebAssembly), where POST /api/lookups only
  /// reports.
  nlohmann::json prepare(const nlohmann::json& body, Control& control,
                         const std::function<void(const nlohmann::json&)>& progress = {});
  /// Bytes held by the solution-path look-ups (for /api/status).
  std::size_t lookup_bytes() const;
  /// The limits it was made with.
  const Limits& limits() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The most positions solutions()'s first depth-first search visits.
inline constexpr std::uint64_t kFirstSearchNodes = 2'000'000;
/// The solutions of `p` as enumerate_solutions() (pegsol/census.hpp) streams them, after a
/// depth-first search for a first one (pegsol::solve's, at most kFirstSearchNodes positions and
/// half the time left under options.control): a problem that search proves impossible emits
/// nothing and returns at once, the proof in `reason`, as `pegsol solve` answers it. One
/// deadline for both. What `pegsol solutions` and POST /api/solutions run.
/// @throws InputError as enumerate_solutions().
PEGSOL_JSON_API EnumerateResult
solutions(const Problem& p, const EnumerateOptions& options,
          const std::function<bool(const std::vector<Jump>&)>& emit);

/// A job's state: "running", "paused", "cancelling", "done", "cancelled" or "failed" (docs/api.md).
PEGSOL_JSON_API std::string_view job_state(bool finished, bool failed, StopReason stop,
                                           bool paused);

/// A job as GET /api/jobs/ID shows it: {"id", "kind", "state", "progress", "result", "error",
/// "stop"}; "stop" is the result's own when the control did not stop it (a census out of memory).
PEGSOL_JSON_API nlohmann::json job_json(std::string_view id, std::string_view kind,
                                        std::string_view state, const nlohmann::json& progress,
                                        const nlohmann::json& result, std::string_view error,
                                        StopReason stop);
/// GET /api/jobs: {"jobs": [job_json, ...]}.
PEGSOL_JSON_API nlohmann::json job_list_json(std::vector<nlohmann::json> jobs);
/// DELETE /api/jobs/ID: {"id", "deleted": true}.
PEGSOL_JSON_API nlohmann::json job_deleted_json(std::string_view id);
/// GET /api/status: {"compute_slots", "free_slots", "lookup_bytes", "cancelled_client_gone"}.
PEGSOL_JSON_API nlohmann::json status_json(int compute_slots, int free_slots,
                                           std::size_t lookup_bytes,
                                           std::uint64_t cancelled_client_gone);

}  // namespace pegsol::api
