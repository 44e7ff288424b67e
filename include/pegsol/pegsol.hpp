// SPDX-License-Identifier: MIT
/// @file
/// The whole public API in one include: the library (target pegsol::pegsol) and, when
/// nlohmann-json is at hand, the JSON of results and the JSON API (target pegsol::json).
#pragma once

#include "pegsol/analysis.hpp"
#include "pegsol/beam.hpp"
#include "pegsol/board.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/control.hpp"
#include "pegsol/enumerate.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/holeset.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/path_index.hpp"
#include "pegsol/play.hpp"
#include "pegsol/presets.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/spec.hpp"
#include "pegsol/svg.hpp"
#include "pegsol/table.hpp"
#include "pegsol/version.hpp"

#if __has_include(<nlohmann/json.hpp>)
#include "pegsol/api.hpp"
#include "pegsol/json.hpp"
#endif

/// @namespace pegsol
/// The peg solitaire engine: boards and positions, problems, the searches (first solution,
/// census, fewest moves, beam), the play API and its analysis, and the front-end layer (problem
/// specs, presets, SVG, JSON). Every entry point checks its input (pegsol::InputError names the
/// argument at fault); a long computation takes a pegsol::Control and returns its stop reason in
/// its result.
