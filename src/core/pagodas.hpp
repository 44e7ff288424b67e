// SPDX-License-Identifier: MIT
// The pagoda linear programs of pegsol/invariants.hpp under a Control (internal to the library).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pegsol/control.hpp"
#include "pegsol/invariants.hpp"

namespace pegsol::detail {

// find_separating_pagoda(); nullopt too when `control` (if given) says to stop first (the
// linear programs poll it between pivots).
std::optional<Pagoda> find_separating_pagoda(const Board& board, const HoleSet& start,
                                             const HoleSet& target, const Control* control);

// find_pruning_pagodas(); when `control` (if given) says to stop, the ones found so far.
std::vector<Pagoda> find_pruning_pagodas(const Board& board, const HoleSet& start,
                                         const HoleSet& goal, int max_count,
                                         const Control* control);

// find_tight_pagodas(); when `control` (if given) says to stop, the ones found so far.
std::vector<Pagoda> find_tight_pagodas(const Board& board, const HoleSet& start,
                                       const HoleSet& goal, int max_count, const Control* control);

// impossibility(); its pagoda linear program stops with `control` (if given), and a proof cut
// short is no proof (nullopt: the search has to say).
std::optional<std::string> impossibility(const Problem& p, const Control* control);

}  // namespace pegsol::detail
