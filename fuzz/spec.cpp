// SPDX-License-Identifier: MIT
// Fuzzes problem specs as the command line gives them: board, lattice, start, end and goal, one
// per line. Files (@...) are left out: the fuzzer reads no files.
#include <string>

#include "fuzz_util.hpp"
#include "pegsol/error.hpp"
#include "pegsol/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pegsol;
  std::string_view in = fuzz::text(data, size);
  ProblemSpec spec;
  std::string* fields[] = {&spec.board, &spec.lattice, &spec.start, &spec.end, &spec.goal};
  for (std::string* f : fields) {
    const auto nl = in.find('\n');
    *f = std::string(in.substr(0, nl));
    in = nl == std::string_view::npos ? std::string_view() : in.substr(nl + 1);
    if (f->starts_with("@")) return 0;
  }
  try {
    const Problem p = build_problem(spec);
    if (p.start.size() != p.board->size()) fuzz::broken();
  } catch (const InputError&) {
  }
  return 0;
}
