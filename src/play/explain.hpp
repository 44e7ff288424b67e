// SPDX-License-Identifier: MIT
// explain() under a Control, for the analysis (internal to the library).
#pragma once

#include <optional>
#include <string_view>

#include "pegsol/analysis.hpp"
#include "pegsol/control.hpp"

namespace pegsol::play_detail {

// How the reason of a verdict proved by pagoda functions, one for each hole a last peg could
// stand on, begins (the analysis writes it; explain() puts it in words without a linear program).
inline constexpr std::string_view kOnePegPagodas =
    "pagoda functions: for each hole a last peg could stand on";

// explain(); its pagoda linear programs stop with `control` (if given), and a proof they could
// not finish is not put in words: the text then says that the verdict's proof is in its reason.
Explanation explain(const Position& p, const Goal& goal, const SolvabilityAnswer& a,
                    std::optional<Count> ways, const Control* control);

}  // namespace pegsol::play_detail
