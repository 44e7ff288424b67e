// SPDX-License-Identifier: MIT
// Verdicts in plain words for a player (include/pegsol/analysis.hpp, explain()).
#include <optional>
#include <string>
#include <vector>

#include "explain.hpp"

#include "../core/pagodas.hpp"
#include "pegsol/analysis.hpp"
#include "pegsol/census.hpp"
#include "pegsol/invariants.hpp"

namespace pegsol {

namespace {

// "one peg on d4", "a single peg", "the goal position".
std::string target_words(const Board& b, const Goal& g) {
  switch (g.kind) {
    case Goal::Kind::Hole:
      return "one peg on " + b.hole_name(g.hole);
    case Goal::Kind::Any:
      return "a single peg";
    case Goal::Kind::Position:
      return "the goal position";
  }
  return "the goal";
}

std::string parity(int n) {
  return n % 2 ? "odd" : "even";
}

std::string pegs_words(int n) {
  return std::to_string(n) + (n == 1 ? " peg" : " pegs");
}

// The pagoda proof that no single peg can be left, in words, with the holes it is about.
Explanation one_peg_pagodas_words(const HoleSet& finals) {
  return Explanation{
      "pagoda weights: the last peg could only stand on the marked holes, and for "
      "each of them there is a way to weigh the holes that no jump ever raises "
      "and under which the pegs now weigh less than one peg there",
      finals.members()};
}

// Why p cannot reach g, by the position class, the peg types or a pagoda function, or nullopt.
// `one_peg_proved`: the verdict's reason is the pagoda proof that no single peg can be left.
// The linear programs stop with `control` (if given): nullopt then too.
std::optional<Explanation> proof(const Board& b, const HoleSet& pegs, const Goal& g,
                                 bool one_peg_proved, const Control* control) {
  const std::string target = target_words(b, g);
  if (g.kind == Goal::Kind::Any) {
    const HoleSet finals = admissible_finals(b, pegs);
    if (finals.count() == 0)
      return Explanation{
          "no hole can hold the last peg: for each hole, either its position class differs from "
          "this position's or no peg of its type is left",
          std::nullopt};
    if (one_peg_proved) return one_peg_pagodas_words(finals);
    for (int f : finals.members()) {
      HoleSet one(b.size());
      one.set(f);
      if (!detail::find_separating_pagoda(b, pegs, one, control)) return std::nullopt;
    }
    return one_peg_pagodas_words(finals);
  }
  HoleSet goal(b.size());
  if (g.kind == Goal::Kind::Hole)
    goal.set(g.hole);
  else
    goal = g.position;
  const auto& invs = b.class_invariants();
  for (const HoleSet& inv : invs) {
    int now = 0, then = 0;
    for (int h : inv.members()) {
      now += pegs.test(h);
      then += goal.test(h);
    }
    if ((now & 1) != (then & 1))
      return Explanation{
          "position class: every jump changes the number of pegs on the marked "
          "holes by 0 or 2, so whether it is odd or even never changes; there " +
              std::string(now == 1 ? "is " : "are ") + pegs_words(now) + " there now (" +
              parity(now) + "), and " + target + " has " + std::to_string(then) + " (" +
              parity(then) + ")",
          inv.members()};
  }
  for (int t = 0; t < b.peg_type_count(); ++t) {
    int have = 0, need = 0;
    std::vector<int> holes;
    for (int h = 0; h < b.size(); ++h)
      if (b.peg_type(h) == t) {
        holes.push_back(h);
        have += pegs.test(h);
        need += goal.test(h);
      }
    if (need > have)
      return Explanation{
          "peg types: a peg moves two holes at a time, so a peg on a marked hole "
          "only ever lands on another marked hole and no other peg can get "
          "there; " +
              target + " needs " + pegs_words(need) + " there and " + std::to_string(have) +
              (have == 1 ? " is" : " are") + " left",
          holes};
  }
  if (one_peg_proved && g.kind == Goal::Kind::Hole) {
    const HoleSet finals = admissible_finals(b, pegs);
    if (finals.count() > 0) return one_peg_pagodas_words(finals);
  }
  if (auto pag = detail::find_separating_pagoda(b, pegs, goal, control)) {
    std::vector<int> holes;
    for (int h = 0; h < b.size(); ++h)
      if (pag->weight[static_cast<std::size_t>(h)] != 0) holes.push_back(h);
    return Explanation{"pagoda weights: weigh the holes " + pagoda_text(b, *pag) +
                           " (the others 0); no jump ever raises the total weight of the pegs, "
                           "which is " +
                           std::to_string(pag->value(pegs)) + " now, while " + target +
                           " is worth " + std::to_string(pag->value(goal)),
                       holes};
  }
  return std::nullopt;
}

}  // namespace

Explanation explain(const Position& p, const Goal& goal, const SolvabilityAnswer& a,
                    std::optional<Count> ways) {
  return play_detail::explain(p, goal, a, ways, nullptr);
}

Explanation play_detail::explain(const Position& p, const Goal& goal, const SolvabilityAnswer& a,
                                 std::optional<Count> ways, const Control* control) {
  const Board& b = p.board();
  check_goal(b, goal);
  const std::string target = target_words(b, goal);
  const Problem pr{p.board_ptr(), p.pegs(), goal};
  switch (a.verdict) {
    case Solvability::Solvable:
      if (goal_reached(pr, p.pegs())) return {"done: " + target + " is left", std::nullopt};
      if (ways && *ways > 0)
        return {"still possible: " + grouped_count_text(*ways) +
                    (*ways == 1 ? " sequence of jumps from here ends"
                                : " sequences of jumps "
                                  "from here end") +
                    " with " + target,
                std::nullopt};
      return {"still possible: pegsol found a sequence of jumps from here that ends with " + target,
              std::nullopt};
    case Solvability::Unknown:
      return {"not decided: pegsol could not tell in the time it had whether " + target +
                  " can still be reached",
              std::nullopt};
    case Solvability::NotSolvable:
      break;
  }
  const int have = p.peg_count(), need = goal_pegs(pr);
  if (have == 0) return {"there are no pegs on the board", std::nullopt};
  if (need > have)
    return {"the goal needs " + pegs_words(need) + " and only " + std::to_string(have) +
                (have == 1 ? " is" : " are") + " left; every jump removes one",
            std::nullopt};
  if (need == have)
    return {"the goal has as many pegs as are left, on other holes, and every jump removes one",
            std::nullopt};
  if (p.stuck())
    return {"no jump is left, with " + pegs_words(have) + " on the board", std::nullopt};
  const bool one_peg_proved = a.reason.find(play_detail::kOnePegPagodas) != std::string::npos;
  if (auto why = proof(b, p.pegs(), goal, one_peg_proved, control)) return *why;
  if (control && control->should_stop())
    return {target +
                " can no longer be reached: pegsol has a proof (in the details); there was "
                "no time left to put it in plain words",
            std::nullopt};
  return {"no sequence of jumps from here ends with " + target + " (pegsol checked every one)",
          std::nullopt};
}

}  // namespace pegsol
