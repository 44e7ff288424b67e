// SPDX-License-Identifier: MIT
#include "census_text.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "cli.hpp"

namespace pegsol::cli {

std::string census_text(const Problem& p, const CensusResult& r, int columns) {
  const Board& b = *p.board;
  std::string out = fmt::format(
      "{}\ncensus group: {} symmetr{} (positions \"up to symmetry\" "
      "are orbits under it)\n\n",
      describe(p), r.group_size, r.group_size == 1 ? "y" : "ies");
  out += fmt::format("{:>4}  {:>15}  {:>13}  {:>15}  {:>13}  {:>20}\n", "pegs", "reachable",
                     "up to sym", "on a solution", "up to sym", "games ending here");
  std::uint64_t widest = 1;
  for (const CensusLevel& l : r.levels) widest = std::max(widest, l.reachable_raw);
  for (int k = static_cast<int>(r.levels.size()) - 1; k >= 0; --k) {
    const CensusLevel& l = r.levels[static_cast<std::size_t>(k)];
    if (l.reachable_raw == 0) continue;
    out += fmt::format("{:>4}  {:>15}  {:>13}  {:>15}  {:>13}  {:>20}\n", k,
                       grouped(l.reachable_raw), grouped(l.reachable_sym), grouped(l.on_path_raw),
                       grouped(l.on_path_sym), grouped(l.games));
  }
  out += fmt::format("{:>4}  {:>15}  {:>13}  {:>15}  {:>13}  {:>20}\n\n", "all",
                     grouped(r.reachable_raw), grouped(r.reachable_sym), grouped(r.on_path_raw),
                     grouped(r.on_path_sym), grouped(r.games));
  // The funnel: reachable positions per peg count ('#' on a solution path, '-' off it), on a
  // linear scale.
  int bar = std::max(10, std::min(columns, 120) - 8);
  out += "funnel (reachable positions per peg count; # on a solution path, - not):\n";
  for (int k = static_cast<int>(r.levels.size()) - 1; k >= 0; --k) {
    const CensusLevel& l = r.levels[static_cast<std::size_t>(k)];
    if (l.reachable_raw == 0) continue;
    auto len = [&](std::uint64_t v) {
      return static_cast<int>(
          std::ceil(static_cast<double>(v) * bar / static_cast<double>(widest)));
    };
    int all = len(l.reachable_raw), on = std::min(all, len(l.on_path_raw));
    out += fmt::format("{:>4} |{}{}\n", k, std::string(static_cast<std::size_t>(on), '#'),
                       std::string(static_cast<std::size_t>(all - on), '-'));
  }
  out += "\n";
  auto line = [&](const char* what, const std::string& v) {
    out += fmt::format("{:<48} {:>30}\n", what, v);
  };
  line("solutions", grouped(r.solutions));
  line("solutions up to symmetry", grouped(r.solutions_up_to_symmetry));
  line("solutions up to reordering of independent jumps",
       r.distinct_solutions ? grouped(*r.distinct_solutions) : "not computed");
  if (!r.distinct_note.empty()) out += fmt::format("  ({})\n", option_words(r.distinct_note));
  line("complete games", grouped(r.games));
  if (r.random_player) {
    line("random player ends with one peg", fmt::format("{:.6e}", r.p_one_peg));
    if (p.goal.kind != Goal::Kind::Any)
      line("random player reaches the goal", fmt::format("{:.6e}", r.p_goal));
  } else {
    line("random player", "not computed");
  }
  if (p.goal.kind == Goal::Kind::Any) {
    out += "\nsolutions by final hole:\n";
    for (int h = 0; h < b.size(); ++h)
      if (r.solutions_by_hole[static_cast<std::size_t>(h)] > 0)
        out += fmt::format("  {:>4}  {:>30}\n", b.hole_name(h),
                           grouped(r.solutions_by_hole[static_cast<std::size_t>(h)]));
  }
  out += fmt::format(
      "\n{:.3f} s, {} peak in tables{}, {} thread{}, {}-bit positions\n", r.seconds,
      mib(r.peak_bytes),
      r.spill_peak_bytes ? fmt::format(" and {} on disk", mib(r.spill_peak_bytes)) : std::string(),
      r.threads, r.threads == 1 ? "" : "s", r.width);
  return out;
}

}  // namespace pegsol::cli
