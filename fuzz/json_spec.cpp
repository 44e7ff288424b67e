// SPDX-License-Identifier: MIT
// Fuzzes the JSON a server accepts for a problem ({"board": "triangle:5", "start": "4", ...}):
// spec_from_json, then the problem it names.
#include "fuzz_util.hpp"
#include "pegsol/error.hpp"
#include "pegsol/json.hpp"
#include "pegsol/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pegsol;
  try {
    const ProblemSpec spec = spec_from_json(fuzz::text(data, size));
    const Problem p = build_problem(spec);
    if (p.start.size() != p.board->size()) fuzz::broken();
    // The answer's JSON is printable whatever the names hold.
    (void)dump_json(board_json(*p.board));
  } catch (const InputError&) {
  }
  return 0;
}
