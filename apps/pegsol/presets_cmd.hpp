// SPDX-License-Identifier: MIT
// `pegsol presets`: the preset problems (pegsol/presets.hpp) as a table or JSON.
#pragma once

#include <optional>

#include <CLI/CLI.hpp>

namespace pegsol::cli {

class PresetsCommand {
 public:
  // Adds the subcommand to `app`.
  explicit PresetsCommand(CLI::App& app);
  // The exit status when the subcommand was given, nullopt otherwise.
  std::optional<int> run() const;

 private:
  CLI::App* cmd_ = nullptr;
  bool json_ = false;
};

}  // namespace pegsol::cli
