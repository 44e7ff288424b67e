// SPDX-License-Identifier: MIT
// The fewest-moves answers as text, shared by `pegsol fewest`, `pegsol solve --minimize moves`
// and `pegsol-mpi fewest` (docs/fewest.md).
#pragma once

#include <string>
#include <vector>

#include <fmt/format.h>

#include "pegsol/board.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/play.hpp"
#include "text.hpp"

namespace pegsol::cli {

// "1. d2-d4  2. f3-d3-d5 ...", wrapped at `columns`.
inline std::string numbered_moves(const Board& b, const FewestResult& r, int columns) {
  std::vector<std::string> numbered;
  const std::vector<Move> chains = r.chains();
  for (std::size_t i = 0; i < chains.size(); ++i)
    numbered.push_back(fmt::format("{}. {}", i + 1, move_chain_text(b, chains[i])));
  return wrapped(numbered, columns, 2);
}

// The answer in one line: the fewest moves proven, impossible, or the bounds a stop left.
inline std::string fewest_verdict(const FewestResult& r) {
  if (r.status == Status::Solved)
    return fmt::format("fewest moves: {}, proven minimal by a completed search ({} jumps)", r.moves,
                       r.jumps.size());
  if (r.status == Status::Impossible) return "impossible: " + r.reason;
  return fmt::format("unknown ({}): every solution has at least {} moves{}", r.reason,
                     r.lower_bound,
                     r.moves >= 0 ? fmt::format("; the best found has {}", r.moves) : "");
}

// `pegsol fewest`'s text: the verdict, the pair and its solution, the positions and the time.
inline std::string fewest_board_text(const Board& b, const FewestBoardResult& r, int columns) {
  std::string out =
      fmt::format("{}: the fewest moves over every single-vacancy-to-one-peg problem\n{}\n",
                  b.name(), fewest_verdict(r.result));
  if (r.start >= 0)
    out += fmt::format("achieved by vacancy {} -> one peg at {}:\n{}", b.hole_name(r.start),
                       b.hole_name(r.end), numbered_moves(b, r.result, columns));
  out += fmt::format("{} positions stored (up to symmetry){}, {:.3f} s\n", r.result.positions,
                     r.result.spill_peak_bytes
                         ? fmt::format(", at most {:.1f} MB on disk",
                                       static_cast<double>(r.result.spill_peak_bytes) / 1e6)
                         : std::string(),
                     r.result.seconds);
  return out;
}

}  // namespace pegsol::cli
