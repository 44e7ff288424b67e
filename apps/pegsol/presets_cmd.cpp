// SPDX-License-Identifier: MIT
// `pegsol presets [--json]`: the named classic problems, easiest first.
#include "presets_cmd.hpp"

#include <fmt/format.h>

#include "pegsol/json.hpp"
#include "pegsol/presets.hpp"

namespace pegsol::cli {

PresetsCommand::PresetsCommand(CLI::App& app) {
  cmd_ = app.add_subcommand("presets", "List the preset problems, easiest first");
  cmd_->add_flag("--json", json_, "Print JSON");
}

std::optional<int> PresetsCommand::run() const {
  if (!*cmd_) return std::nullopt;
  if (json_) {
    fmt::print("{}\n", dump_json(presets_json()));
    return 0;
  }
  fmt::print("{:<18} {:<10} {:>4}  {:<11} {:<6} {}\n", "name", "difficulty", "pegs", "board", "end",
             "description");
  for (const Preset& p : presets())
    fmt::print("{:<18} {:<10} {:>4}  {:<11} {:<6} {}\n", p.name, difficulty_name(p.difficulty),
               p.pegs, p.spec.board, p.spec.end, p.description);
  return 0;
}

}  // namespace pegsol::cli
