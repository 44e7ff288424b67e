// SPDX-License-Identifier: MIT
// What threads may share: one board and one problem read by two solves at once (every search is
// reentrant: its state lives in its own tables), and a census cancelled from another thread
// through its Control. Exit status 0 when both solves agree and replay, and the census stopped.
#include <cstddef>
#include <iostream>
#include <thread>

#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"

int main() {
  // The board is immutable and shared (BoardPtr); the problem is a value only read here.
  const pegsol::Problem english = pegsol::default_problem(pegsol::make_board("english"));

  pegsol::SolveResult first, second;
  std::thread a([&] { first = pegsol::solve(english); });
  std::thread b([&] { second = pegsol::solve(english); });
  a.join();
  b.join();
  const pegsol::Replay check = pegsol::replay(*english.board, english.start, first.moves);
  const bool solved = first.status == pegsol::Status::Solved && first.moves == second.moves &&
                      check.ok && pegsol::goal_reached(english, check.final);
  std::cout << "two solves at once: " << pegsol::status_name(first.status) << " and "
            << pegsol::status_name(second.status) << ", " << first.moves.size() << " moves each, "
            << (first.moves == second.moves ? "the same" : "different") << '\n';

  // Control::cancel (and pause, resume, the queries) may be called from any thread while a
  // computation runs. The control is paused first so that the census cannot finish before the
  // cancel whatever the machine's load (a census waits at its checkpoints while paused); a real
  // caller cancels whenever its user asks.
  pegsol::Control control;
  control.set_memory_budget(std::size_t{512} << 20);
  control.pause();
  pegsol::CensusOptions options;
  options.control = &control;
  pegsol::CensusResult census;
  std::thread worker([&] { census = pegsol::census(english, options); });
  control.cancel();
  worker.join();
  std::cout << "census: stopped, " << pegsol::stop_reason_name(census.stop) << '\n';
  return solved && census.stop == pegsol::StopReason::Cancelled ? 0 : 1;
}
