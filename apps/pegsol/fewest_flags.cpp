// SPDX-License-Identifier: MIT
#include "fewest_flags.hpp"

#include "cli.hpp"
#include "pegsol/json.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::cli {

void FewestFlags::add(CLI::App* cmd, const std::string& note, const std::string& pagoda_help) {
  cmd->add_option("--fewest-beam", beam,
                  "Positions a level the first beam keeps (0: no beam; default " +
                      std::to_string(FewestOptions{}.beam) + ")" + note)
      ->check(whole_number_check(0, 1'000'000'000));
  cmd->add_flag("--no-bound", no_bound,
                "No region bound: one pass storing every position both sides reach (slower, the "
                "same answer; a cross-check)" +
                    note);
  cmd->add_flag("--no-pagodas", no_pagodas,
                !pagoda_help.empty()
                    ? pagoda_help
                    : "No pagodas (tight or pruning): keep the positions they show are on no "
                      "solution (slower, the same answer; a cross-check)" +
                          note);
}

void FewestFlags::check(const CLI::App* cmd, bool minimizing, bool pagodas_elsewhere) const {
  if (minimizing) return;
  if (cmd->count("--fewest-beam") > 0 || cmd->count("--no-bound") > 0 ||
      (!pagodas_elsewhere && cmd->count("--no-pagodas") > 0))
    throw InputError(std::string("--fewest-beam, --no-bound") +
                     (pagodas_elsewhere ? "" : " and --no-pagodas") +
                     " set the fewest-moves search: give them with --minimize moves");
}

void LongRunFlags::add(CLI::App* cmd, const std::string& note, Runner runner) {
  const bool ranks = runner == Runner::Ranks;
  auto* checkpoint = cmd->add_option(
      "--checkpoint", checkpoint_dir,
      std::string("Directory (made if missing) for the state after each completed pass") +
          (ranks ? ", kept by rank 0," : ",") + " so that a killed run can go on with --resume" +
          note);
  cmd->add_option("--resume", resume_dir,
                  std::string("Go on from the state in this directory (") +
                      (ranks ? "any number of ranks" : "the same command wrote it") +
                      "); checkpoints go on there" + note)
      ->check(CLI::ExistingDirectory)
      ->excludes(checkpoint);
  cmd->add_option("--checkpoint-seconds", checkpoint_seconds,
                  ranks ? "Accepted for pegsol fewest's command lines: the ranks save the pairs' "
                          "state after each pass of a pair" +
                              note
                        : std::string("With --checkpoint or --resume: a pass part way is saved "
                                      "(its last levels written again, and with --spill-dir a "
                                      "level part made, by groups of shards) at most this often; "
                                      "completed passes always are (default 300") +
                              (cmd->get_option_no_throw("--split") != nullptr
                                   ? "; with --split, the pairs' state after each pass of a pair"
                                   : "") +
                              ")" + note)
      ->check(seconds_check());
  cmd->add_option("--spill-dir", spill_dir,
                  std::string("Directory for the passes' levels past half of --memory-limit (") +
                      (ranks ? "unnamed files, every rank's in the same directory"
                             : "a file there, removed at the end, even after a kill") +
                      ") instead of stopping" + note)
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--spill-limit", spill_mb,
                  std::string(ranks ? "Megabytes each rank's spill files may hold"
                                    : "Megabytes the spill files may hold") +
                      " (default: what the disk has); past it, as past --memory-limit without a "
                      "spill" +
                      note)
      ->check(positive_check());
  add_known(cmd, note, runner);
}

void LongRunFlags::add_known(CLI::App* cmd, const std::string& note, Runner runner) {
  cmd->add_option("--known-solution", known_file,
                  std::string("A solution known (the --json of solve or fewest, a saved game or a "
                              "move list), ") +
                      (runner == Runner::Ranks ? "read by rank 0, " : "") +
                      "replayed and checked: the best found until a shorter one, so the proof "
                      "stops at its moves" +
                      (cmd->get_option_no_throw("--resume") != nullptr
                           ? "; on --resume it replaces the state's best when shorter"
                           : "") +
                      note);
}

void FewestFlags::apply(FewestOptions& o) const {
  o.beam = beam;
  o.prune = !no_bound;
  if (no_pagodas) o.pagoda_jumps = -1;
}

void LongRunFlags::check(const CLI::App* cmd, bool minimizing) const {
  if (minimizing) return;
  for (const char* name : {"--checkpoint", "--resume", "--checkpoint-seconds", "--spill-dir",
                           "--spill-limit", "--known-solution"})
    if (cmd->count(name) > 0)
      throw InputError(std::string(name) +
                       ": checkpoints and the spill are the fewest-moves search's: give them "
                       "with --minimize moves" +
                       (std::string(name) == "--known-solution" ? " (as a known solution)" : ""));
}

InputError LongRunFlags::known_error(const InputError& e) const {
  if (e.field() != "FewestOptions::known_solution") return e;
  return InputError(e.field(), known_file + ": " + e.detail());
}

void LongRunFlags::apply(FewestOptions& o, const Board& b) const {
  if (!known_file.empty())
    o.known_solution =
        solution_from_text(b, read_file(known_file, "--known-solution " + known_file),
                           "--known-solution " + known_file);
  apply_paths(o);
  if (!checkpoint_dir.empty())
    if (auto error = create_checkpoint_dir(checkpoint_dir)) throw InputError(*error);
}

void LongRunFlags::apply_paths(FewestOptions& o) const {
  o.checkpoint_dir = resume_dir.empty() ? checkpoint_dir : resume_dir;
  o.resume = !resume_dir.empty();
  o.level_checkpoint_seconds = checkpoint_seconds;
  o.spill_dir = spill_dir;
  o.spill_limit = megabytes(spill_mb);
}

}  // namespace pegsol::cli
