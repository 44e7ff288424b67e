// SPDX-License-Identifier: MIT
/// @file
/// SVG pictures of positions and solutions: the same drawings for the CLI (pegsol solve --svg),
/// a server and printing. Plain SVG 1.1, no scripts, no external references.
#pragma once

#include <string>
#include <vector>

#include "pegsol/board.hpp"
#include "pegsol/error.hpp"
#include "pegsol/export.hpp"
#include "pegsol/holeset.hpp"

namespace pegsol {

/// How a picture is drawn.
struct PEGSOL_API SvgOptions {
  double spacing = 16;  ///< Distance between neighbouring holes, in SVG user units (0 .. 1e6].
  int columns = 0;      ///< Frames per row of a solution (0: about the square root of the count).
  bool names = false;   ///< Write each hole's name beside it (positions only).
};

/// One position: a circle per hole (class "hole"), a circle per peg (class "peg"), inside one
/// `<g class="frame">`.
/// @throws InputError when `pegs` does not fit the board (field "pegs") or an option is out of
/// range (field "SvgOptions::spacing", "SvgOptions::columns").
PEGSOL_API std::string position_svg(const Board& board, const HoleSet& pegs,
                                    const SvgOptions& options = {});

/// A solution as a sequence of small boards: the start, then the position after each move (a
/// chain of jumps by one peg is one move), each a `<g class="frame">` titled with the move ("3.
/// f3-d3-d5"), the moving peg's landing hole marked (class "landed"), the holes it left and
/// jumped over marked (class "emptied").
/// @throws InputError when a jump is illegal in turn, and as position_svg().
PEGSOL_API std::string solution_svg(const Board& board, const HoleSet& start,
                                    const std::vector<Jump>& moves, const SvgOptions& options = {});

}  // namespace pegsol
