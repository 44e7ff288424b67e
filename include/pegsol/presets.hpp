// SPDX-License-Identifier: MIT
/// @file
/// Presets: named classic problems graded from easy to difficult (the English board's patterns,
/// the French board's and the 15-hole triangle's), each a ProblemSpec a front end can solve.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/spec.hpp"

namespace pegsol {

/// A named classic problem.
struct PEGSOL_API Preset {
  std::string name;         ///< The key: "latin-cross", used by `pegsol solve --preset`.
  std::string title;        ///< "Latin cross".
  std::string description;  ///< One line.
  ProblemSpec spec;         ///< Board, start (a hole or a 0/1 string), end (a hole or "any").
  int difficulty = 1;       ///< 1 (easy) .. 5 (difficult); the list is sorted by it.
  int pegs = 0;             ///< Pegs at the start.
};

/// "easy", "moderate", "medium", "hard", "difficult" for 1..5 (a value outside is clamped).
PEGSOL_API std::string_view difficulty_name(int difficulty);

/// Every preset, easiest first (built once, then shared: safe from any thread).
PEGSOL_API const std::vector<Preset>& presets();

/// The preset named `name`, or nullptr when there is none.
PEGSOL_API const Preset* find_preset(std::string_view name);

/// The preset named `name`.
/// @throws InputError (field "preset") naming the closest name when there is none.
PEGSOL_API const Preset& preset(std::string_view name);

/// The preset's problem (build_problem() of its spec).
PEGSOL_API Problem preset_problem(const Preset& p);

}  // namespace pegsol
