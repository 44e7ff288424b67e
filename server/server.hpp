// SPDX-License-Identifier: MIT
// The HTTP server of `pegsol serve`: the page embedded from web/ and the JSON API of the
// library's dispatcher (pegsol/api.hpp, docs/api.md) over HTTP. Built when cpp-httplib is found;
// the library itself needs no HTTP.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/analysis.hpp"
#include "pegsol/control.hpp"

namespace pegsol::server {

// The server's caps: every request's work is bounded by them (docs/api.md); the dispatcher's
// api::Limits are taken from them.
struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                // 0: any free port (on_listen says which)
  int max_connections = 128;      // connections served at once; more get 503 and are closed
  double read_seconds = 10;       // a request's line, headers and body: read within this, or closed
  double keep_alive_seconds = 5;  // a kept-alive connection's wait for its next request
  std::vector<std::string> allow_origins;   // pages besides the server's own that may use it
  double job_pause_seconds = 60;            // a job paused this long is cancelled
  int compute_slots = 4;                    // solves, hints and analyses at once; more: 503
  int max_jobs = 2;                         // jobs running at once; more: 503
  int max_kept_jobs = 32;                   // jobs kept for polling, finished ones evicted first
  double request_seconds = 5;               // a solve's, hint's or analysis's time cap
  double job_seconds = 300;                 // a job's time cap
  double job_lease_seconds = 30;            // a job nobody polled for this long is cancelled
  std::size_t request_memory = 256u << 20;  // bytes for a request's search table
  std::size_t job_memory = 1024u << 20;     // bytes for a job's census tables
  std::size_t max_body = 64u << 10;         // bytes of a request body
  int max_census_holes = 41;                // count and table jobs: boards up to this size
  int analyzer_cache = 4;                   // boards and goals whose analyzers are kept
  int idle_analyzers = 2;                   // idle analyzers kept per board and goal
  // Solution-path look-ups (pegsol/path_index.hpp): one census per game start and goal, built in
  // the background one at a time, within these bounds; kept up to lookup_keep bytes in all.
  std::size_t lookup_memory = 512u << 20;
  double lookup_seconds = 30;
  std::size_t lookup_keep = 256u << 20;
  // Each kept analyzer's search memo, per verdict (api::Limits::analysis_memo).
  std::size_t analysis_memo = kAnalyzerMemoBytes;
};

// Serves until `control` says to stop (a signal), then stops every job and returns 0; returns 1
// when the address cannot be bound. `on_listen` gets the bound port before the first request.
int serve(const ServeOptions& options, const Control& control,
          const std::function<void(int port)>& on_listen = {});

// The server's request handling without a socket: the bytes of HTTP requests in (one or more,
// pipelined), the bytes of the answers out, as a connection would carry them. For the fuzz
// target over raw requests (fuzz/http.cpp); jobs it starts run as under serve().
class RawServer {
 public:
  RawServer(const ServeOptions& options, const Control& control);
  ~RawServer();
  RawServer(const RawServer&) = delete;
  RawServer& operator=(const RawServer&) = delete;
  // The answers to `requests`: the bytes written back for each request, in order.
  std::vector<std::string> answer(std::string_view requests);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pegsol::server
