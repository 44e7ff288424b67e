// SPDX-License-Identifier: MIT
/// @file
/// Every solution (or every complete game) of a problem, streamed one by one in a fixed order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pegsol/control.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {

/// What enumerate_solutions streams, and within which bounds.
struct PEGSOL_API EnumerateOptions {
  std::uint64_t limit = 0;  ///< stop after this many (0: no limit)
  /// Only the lexicographically least sequence (by jump index) of each class of reorderings of
  /// independent jumps.
  bool distinct = false;
  bool games = false;                ///< every complete game instead of the solutions
  const Control* control = nullptr;  ///< deadline, cancel, pause, progress; may be null
};

/// What enumerate_solutions did.
struct PEGSOL_API EnumerateResult {
  std::uint64_t emitted = 0;           ///< solutions (or games) passed to `emit`
  StopReason stop = StopReason::None;  ///< why it stopped early (None: it finished or hit limit)
  std::string reason;  ///< the proof that there is no solution, when one was found without search
};

/// Streams solutions (or, with games, every complete game) of p in a fixed order, stopping after
/// `limit` or when `emit` returns false. Returns the number emitted and why it stopped early, if
/// it did (the control's deadline, cancel, signal). A problem that a proof without search shows
/// impossible (impossibility(), as solve() finds it) emits nothing and returns at once with the
/// proof in `reason`.
/// @throws InputError as check_problem, or (field "emit") for an empty `emit`.
PEGSOL_API EnumerateResult
enumerate_solutions(const Problem& p, const EnumerateOptions& options,
                    const std::function<bool(const std::vector<Jump>&)>& emit);

}  // namespace pegsol
