// SPDX-License-Identifier: MIT
// One beam attempt's frame, shared by the meet and the sweep: how a survivor was reached and the
// path back to the root, what stops an attempt and hears of its progress, what it returns.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "../core/control_access.hpp"
#include "pegsol/board.hpp"
#include "pegsol/control.hpp"
#include "pegsol/solve.hpp"

namespace pegsol::beam_detail {

using Clock = std::chrono::steady_clock;

// How a survivor was reached: its parent's index in the previous level and the jump.
struct Link {
  std::uint32_t parent;
  std::uint32_t jump;
};

// Jumps from the root to survivor i of level d, where links[k][i] says how survivor i of level
// k + 1 was reached.
inline std::vector<int> path_to(const std::vector<std::vector<Link>>& links, int d, std::size_t i) {
  std::vector<int> jumps;
  for (int k = d - 1; k >= 0; --k) {
    const Link& l = links[static_cast<std::size_t>(k)][i];
    jumps.push_back(static_cast<int>(l.jump));
    i = l.parent;
  }
  std::reverse(jumps.begin(), jumps.end());
  return jumps;
}

// What stops an attempt, and who hears of its progress.
struct AttemptControl {
  const Control* control = nullptr;  // the search's: deadline, cancel, pause, progress
  // Portfolio: the lowest index of an attempt that succeeded; attempts above it give up.
  std::atomic<int>* found_by = nullptr;
  int index = 0;
  // Positions for the progress reports: those of earlier attempts, and one slot per thread where
  // each attempt publishes its own count when it polls.
  std::uint64_t nodes_before = 0;
  std::vector<std::atomic<std::uint64_t>>* counts = nullptr;
};

// Polls an attempt's stop conditions (cancel, a lower-numbered attempt's success, the deadline)
// and publishes its position count; attempt 0 offers the control a report (phase "beam"), `fill`
// setting the search's own figures. True when the attempt should stop.
template <class Fill>
bool poll(const AttemptControl& ctl, std::uint64_t expanded, Fill&& fill) {
  if (ctl.counts)
    (*ctl.counts)[static_cast<std::size_t>(ctl.index)].store(expanded, std::memory_order_relaxed);
  if (ctl.control->checkpoint()) return true;
  if (ctl.found_by && ctl.found_by->load(std::memory_order_relaxed) < ctl.index) return true;
  if (ctl.index == 0 && ControlAccess::wants_progress(*ctl.control)) {
    ProgressReport rep;
    rep.phase = "beam";
    rep.positions = ctl.nodes_before;
    if (ctl.counts)
      for (const auto& c : *ctl.counts) rep.positions += c.load(std::memory_order_relaxed);
    else
      rep.positions += expanded;
    fill(rep, rep.beam.emplace());
    ctl.control->report(rep);
  }
  return false;
}

// What an attempt returns.
struct Outcome {
  bool found = false;
  bool stopped = false;
  std::vector<Jump> moves;  // start to goal
  std::uint64_t pairs = 0;
  std::uint64_t expanded = 0;
};

}  // namespace pegsol::beam_detail
