// SPDX-License-Identifier: MIT
// `pegsol serve [--port 8080] [--host 127.0.0.1] [--open] [--allow-origin ORIGIN]...`.
#include "serve_cmd.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "cli.hpp"

#ifdef PEGSOL_HAVE_SERVER
#include "server.hpp"
#endif

namespace pegsol::cli {

ServeCommand::ServeCommand(CLI::App& app) {
  cmd_ = app.add_subcommand("serve", "Serve the page and the JSON API (docs/api.md)");
  cmd_->add_option("--port,-p", port_, "TCP port (0: any free port)")->check(CLI::Range(0, 65535));
  cmd_->add_option("--host", host_,
                   "Address to bind; the default serves this machine alone (loopback)");
  cmd_->add_flag("--open", open_, "Open the page in the desktop's browser (xdg-open)");
  cmd_->add_option("--request-seconds", request_seconds_,
                   "Time cap of a solve, hint or analysis request")
      ->check(cli::positive_check());
  cmd_->add_option("--job-seconds", job_seconds_, "Time cap of a job (count, table, solve)")
      ->check(cli::positive_check());
  cmd_->add_option("--slots", compute_slots_, "Requests computing at once (more get 503)")
      ->check(CLI::Range(1, 64));
  cmd_->add_option("--jobs", max_jobs_, "Jobs running at once (more get 503)")
      ->check(CLI::Range(1, 16));
  cmd_->add_option("--connections", max_connections_,
                   "Connections served at once (more get 503 and are closed)")
      ->check(CLI::Range(1, 4096));
  cmd_->add_option("--job-pause-seconds", job_pause_seconds_, "A job paused this long is cancelled")
      ->check(cli::positive_check());
  cmd_->add_option("--analysis-memo", analysis_memo_mb_,
                   "Megabytes of each kept analyzer's search memo, per verdict (up to 16 such "
                   "memos are kept; each grows only as its searches fill it)")
      ->check(cli::positive_check());
  cmd_->add_option("--allow-origin", allow_origins_,
                   "A page (scheme://host[:port]) besides the server's own that may use the API; "
                   "repeatable")
      ->allow_extra_args(false);
}

std::optional<int> ServeCommand::run(const Control& control) const {
  if (!*cmd_) return std::nullopt;
#ifdef PEGSOL_HAVE_SERVER
  server::ServeOptions o;
  o.host = host_;
  o.port = port_;
  o.request_seconds = request_seconds_;
  o.job_seconds = job_seconds_;
  o.compute_slots = compute_slots_;
  o.max_jobs = max_jobs_;
  o.max_connections = max_connections_;
  o.job_pause_seconds = job_pause_seconds_;
  o.allow_origins = allow_origins_;
  o.analysis_memo = static_cast<std::size_t>(analysis_memo_mb_ * (1 << 20));
  const bool loopback = host_ == "127.0.0.1" || host_ == "localhost" || host_ == "::1";
  int rc = server::serve(o, control, [&](int port) {
    const std::string url = fmt::format(
        "http://{}:{}/", host_.find(':') != std::string::npos ? "[" + host_ + "]" : host_, port);
    fmt::print("pegsol serve: listening on {}\n", url);
    if (!loopback)
      fmt::print("pegsol serve: bound to {}, not loopback: other machines can reach this server\n",
                 host_);
    fmt::print("pegsol serve: Ctrl-C stops\n");
    std::fflush(stdout);
    if (open_) {
      const std::string cmd = "xdg-open '" + url + "' >/dev/null 2>&1 &";
      if (std::system(cmd.c_str()) != 0)
        fmt::print(stderr, "pegsol serve: could not open a browser; visit {}\n", url);
    }
  });
  if (rc != 0) fmt::print(stderr, "pegsol serve: cannot listen on {}:{}\n", host_, port_);
  return rc == 0 ? 0 : 2;
#else
  (void)control;
  fmt::print(stderr, "pegsol serve: this pegsol was built without the server (cpp-httplib)\n");
  return 2;
#endif
}

}  // namespace pegsol::cli
