// SPDX-License-Identifier: MIT
// Exact census of triangle:5 with hole 1 (the top corner) vacant: every reachable position, every
// solution (one peg left anywhere) and every complete game, level by level.
#include <iomanip>
#include <iostream>

#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/problem.hpp"

int main() {
  const pegsol::Problem problem = pegsol::default_problem(pegsol::make_board("triangle:5"));
  // A run's bounds are its control's: here a memory budget far above what this board needs.
  pegsol::Control limits;
  limits.set_memory_budget(std::size_t{256} << 20);
  pegsol::CensusOptions options;
  options.control = &limits;

  const pegsol::CensusResult r = pegsol::census(problem, options);
  std::cout << pegsol::describe(problem) << '\n';
  std::cout << "pegs  reachable  on solution paths  games ending here\n";
  for (int k = static_cast<int>(r.levels.size()) - 1; k >= 1; --k) {
    const pegsol::CensusLevel& level = r.levels[k];
    if (level.reachable_raw == 0) continue;
    std::cout << std::setw(4) << k << std::setw(11) << level.reachable_raw << std::setw(19)
              << level.on_path_raw << std::setw(19) << pegsol::count_text(level.games) << '\n';
  }
  std::cout << "reachable positions: " << r.reachable_raw << " (" << r.reachable_sym
            << " up to symmetry)\n"
            << "solutions: " << pegsol::count_text(r.solutions) << '\n'
            << "games: " << pegsol::count_text(r.games) << '\n'
            << "a random player ends with one peg with chance " << r.p_one_peg << '\n';
  return r.solutions > 0 ? 0 : 1;
}
