// SPDX-License-Identifier: MIT
// What a server or a binding does with pegsol::json: a problem from its text fields, solved, and
// the result as the JSON the pegsol command prints, wrapped in a reply of the caller's own.
#include <iostream>

#include "pegsol/error.hpp"
#include "pegsol/json.hpp"
#include "pegsol/spec.hpp"

int main() {
  pegsol::ProblemSpec spec;
  spec.board = "triangle:5";
  spec.start = "4";
  const pegsol::Problem problem = pegsol::build_problem(spec);
  pegsol::SolveOptions options;
  options.algorithm = *pegsol::parse_algorithm("dfs");
  pegsol::check_solve_options(options);
  const pegsol::SolveResult r = pegsol::solve(problem, options);
  nlohmann::json reply = {{"id", 1}, {"result", pegsol::solve_json(problem, r)}};
  reply["result"]["stats"].erase("seconds");  // replies that repeat byte for byte
  std::cout << reply.dump() << '\n';
  // Bad input is an InputError naming the field, for the caller to send back.
  spec.start = "z9";
  try {
    pegsol::build_problem(spec);
  } catch (const pegsol::InputError& e) {
    std::cout << nlohmann::json{{"id", 2}, {"error", e.what()}}.dump() << '\n';
  }
  return r.status == pegsol::Status::Solved ? 0 : 1;
}
