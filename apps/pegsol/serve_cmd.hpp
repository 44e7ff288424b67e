// SPDX-License-Identifier: MIT
// `pegsol serve`: the page and the JSON API (server/, docs/api.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pegsol/analysis.hpp"
#include "pegsol/control.hpp"

namespace pegsol::cli {

class ServeCommand {
 public:
  // Adds the subcommand to `app`.
  explicit ServeCommand(CLI::App& app);
  // Serves until `control` stops (SIGINT, SIGTERM) when the subcommand was given: the exit
  // status; nullopt otherwise.
  std::optional<int> run(const Control& control) const;

 private:
  CLI::App* cmd_ = nullptr;
  std::string host_ = "127.0.0.1";
  int port_ = 8080;
  bool open_ = false;
  double request_seconds_ = 5, job_seconds_ = 300;
  int compute_slots_ = 4, max_jobs_ = 2, max_connections_ = 128;
  double job_pause_seconds_ = 60;
  double analysis_memo_mb_ = static_cast<double>(kAnalyzerMemoBytes >> 20);
  std::vector<std::string> allow_origins_;
};

}  // namespace pegsol::cli
