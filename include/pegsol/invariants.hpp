// SPDX-License-Identifier: MIT
/// @file
/// Proofs of impossibility that need no search: position classes, peg types, pagoda functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {

/// The parity of the pegs on each of the board's class invariants (a bit per invariant): two
/// positions of different classes cannot reach each other.
/// @throws InputError (field "pegs") unless `pegs` is a position of `board`.
PEGSOL_API std::vector<bool> position_class(const Board& board, const HoleSet& pegs);

/// The holes where a single final peg may stand for this start: same position class as the start
/// and a peg type that the start has pegs of.
/// @throws InputError (field "start") unless `start` is a position of `board`.
PEGSOL_API HoleSet admissible_finals(const Board& board, const HoleSet& start);

/// A pagoda function: weights with w(from) + w(over) >= w(to) for every jump, so the weighted sum
/// of the pegs never increases. Integer weights, negative ones too, checked exactly.
struct PEGSOL_API Pagoda {
  std::vector<long long> weight;  ///< One per hole, in reading order.
  /// The weights of the pegs summed.
  /// @throws InputError (field "pegs") unless `pegs` has a hole per weight.
  long long value(const HoleSet& pegs) const;
  /// What the jump takes off the value: w(from) + w(over) - w(to) (never negative for a pagoda).
  /// @throws InputError (field "j") for a hole without a weight.
  long long loss(const Jump& j) const { return w(j.from) + w(j.over) - w(j.to); }

 private:
  long long w(int hole) const {
    if (hole < 0 || static_cast<std::size_t>(hole) >= weight.size()) no_weight(hole);
    return weight[static_cast<std::size_t>(hole)];
  }
  [[noreturn]] void no_weight(int hole) const;
};

/// The nonzero weights by hole name: "d1=-1 e2=1 ...".
/// @throws InputError (field "p") unless `p` has a weight per hole of `board`.
PEGSOL_API std::string pagoda_text(const Board& board, const Pagoda& p);

/// Whether `p` satisfies the pagoda inequality for every jump of `board` (false when it has not a
/// weight per hole).
PEGSOL_API bool is_pagoda(const Board& board, const Pagoda& p);

/// Looks for a pagoda function with value(start) < value(target): a proof that `target` cannot be
/// reached from `start`. Solves a small linear program over weights in [0, 1], then one over
/// weights in [-1, 1], and rounds and re-checks the answer exactly; nullopt when none is found.
/// @throws InputError (field "start" or "target") unless both are positions of `board`.
PEGSOL_API std::optional<Pagoda> find_separating_pagoda(const Board& board, const HoleSet& start,
                                                        const HoleSet& target);

/// Pagoda functions with value(start) <= value(goal), weights in [-1, 1]: on a solvable problem
/// the values are equal, so a solution only ever makes the jumps such a pagoda loses nothing on
/// (w(from) + w(over) == w(to)), and a position worth less than the goal cannot reach it. Each
/// one found loses on the most jumps (in total) that the earlier ones do not; at most
/// `max_count`, none that loses nothing. Checked exactly, like find_separating_pagoda().
/// @throws InputError (field "start" or "goal") unless both are positions of `board`.
PEGSOL_API std::vector<Pagoda> find_tight_pagodas(const Board& board, const HoleSet& start,
                                                  const HoleSet& goal, int max_count = 4);

/// Pagoda functions for pruning a search towards `goal`: each loses on as many jumps as it can
/// (in total, beyond those the earlier ones lose on) while the start is worth at most one unit of
/// the largest weight more than the goal. A position worth less than the goal by any of them
/// cannot reach it, and a game soon loses that unit. At most `max_count`; checked exactly.
/// @throws InputError (field "start" or "goal") unless both are positions of `board`.
PEGSOL_API std::vector<Pagoda> find_pruning_pagodas(const Board& board, const HoleSet& start,
                                                    const HoleSet& goal, int max_count = 4);

/// A reason why the problem cannot be solved, found without search, or nullopt. The text is a
/// complete, checkable argument ("position class: ...", "peg types: ...", "pagoda: ...").
/// @throws InputError as check_problem().
PEGSOL_API std::optional<std::string> impossibility(const Problem& p);

}  // namespace pegsol
