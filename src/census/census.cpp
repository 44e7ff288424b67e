// SPDX-License-Identifier: MIT
// The exact census's entry: checks the board, then runs the compact engine (layouts of up to 64
// bits: compact.cpp) or the wide one (wide.cpp). Both are built on the skeleton in skeleton.hpp:
//
//   census.cpp            census(): which engine
//   engine.hpp            the engines' entry points, control, progress, result totals
//   memory.hpp/.cpp       the memory ledger, huge-page tables, booked vectors, the default limit
//   skeleton.hpp          the skeleton: problem, group, threads, progress, the run and its result
//   paths.hpp             counts up to symmetry and up to reordering, shared by both engines
//   compact*.cpp/.hpp     the compact engine: 64-bit keys split by residue, per-CPU tiers
//   wide.cpp, wide_*.hpp  the wide engine: Bits<W> keys split by hash shard
#include "pegsol/census.hpp"

#include <new>

#include "../core/checks.hpp"
#include "../core/symmetry.hpp"
#include "engine.hpp"
#include "pegsol/error.hpp"

namespace pegsol {

std::string count_text(Count c) {
  if (c == 0) return "0";
  std::string s;
  while (c) {
    s.push_back(static_cast<char>('0' + static_cast<int>(c % 10)));
    c /= 10;
  }
  return {s.rbegin(), s.rend()};
}

std::string grouped_count_text(Count c) {
  const std::string digits = count_text(c);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

CensusResult census(const Problem& p, const CensusOptions& o) {
  check_problem(p);
  checks::census_options(o);
  if (p.start.count() == 0) throw InputError("start", "the start position has no pegs");
  const Board& b = *p.board;
  if (b.size() > 64)
    throw InputError("census: board " + b.name() + " has " + std::to_string(b.size()) +
                     " holes; the exact census handles boards of up to 64 holes");
  const bool compact = b.width() == 64 && o.engine != CensusEngine::Wide;
  if ((o.engine == CensusEngine::Compact || o.engine == CensusEngine::CompactPortable) && !compact)
    throw InputError("census: board " + b.name() + " needs a " + std::to_string(b.width()) +
                     "-bit layout; the compact engine takes layouts of up to 64 bits");
  if (!compact && (!o.spill_dir.empty() || !o.checkpoint_dir.empty()))
    throw InputError(
        o.spill_dir.empty() ? "CensusOptions::checkpoint_dir" : "CensusOptions::spill_dir",
        "board " + b.name() + " needs a " + std::to_string(b.width()) +
            "-bit layout, and only the compact engine (layouts of up to 64 bits) " +
            (o.spill_dir.empty() ? "writes checkpoints" : "spills"));
  if (!compact && b.width() != 64 && b.width() != 128)
    throw InputError("census: board " + b.name() + " needs a " + std::to_string(b.width()) +
                     "-bit layout; the census is built for layouts of up to 128 bits");
  if (!o.reach.empty()) {
    if (o.counts)
      throw InputError(
          "census: pagoda pruning (CensusOptions::reach) needs counts off: the "
          "positions it drops would be missing from every count");
    for (const CensusReach& r : o.reach) {
      if (r.goal.size() != b.size())
        throw InputError("census: a pruning goal has " + std::to_string(r.goal.size()) +
                         " holes; board " + b.name() + " has " + std::to_string(b.size()));
      for (const Pagoda& pg : r.pagodas)
        if (!is_pagoda(b, pg))  // a weight per hole, and the inequality on every jump
          throw InputError("census: a pruning pagoda for board " + b.name() +
                           " is not a pagoda function of its " + std::to_string(b.size()) +
                           " holes");
    }
  }
  if (o.meet) {
    if (o.counts)
      throw InputError(
          "census: the middle join (CensusOptions::meet) needs counts off: it stops half way down");
    if (!compact)
      throw InputError(
          "census: the middle join (CensusOptions::meet) needs the compact engine; board " +
          b.name() + " needs a " + std::to_string(b.width()) + "-bit layout");
    if (!complementary(p))
      throw InputError(
          "census: the middle join (CensusOptions::meet) needs a problem that is its own "
          "complement: no symmetry of board " +
          b.name() + " takes the start to the goal's complement");
  }
  try {
    if (compact) return census_detail::compact_census(p, o);
    return census_detail::wide::census(p, o, problem_symmetries(b, p, o.symmetry));
  } catch (const std::bad_alloc&) {
    // The machine (or `ulimit -v`) refused memory before the limit was reached: a memory stop
    // with nothing settled.
    CensusResult s;
    s.levels.resize(static_cast<std::size_t>(b.size()) + 1);
    s.solutions_by_hole.assign(static_cast<std::size_t>(b.size()), 0);
    s.p_by_hole.assign(static_cast<std::size_t>(b.size()), 0.0);
    s.width = b.width();
    s.stop = StopReason::Memory;
    s.stop_note = "an allocation failed before the memory limit was reached";
    return s;
  }
}

bool complementary(const Problem& p) {
  check_problem(p);
  return census_detail::complement_twist(*p.board, p) >= 0;
}

}  // namespace pegsol
