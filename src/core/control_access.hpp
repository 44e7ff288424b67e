// SPDX-License-Identifier: MIT
// The engines' access to a Control beyond its public interface.
#pragma once

#include "pegsol/control.hpp"

namespace pegsol {

// What only the engines do to a control.
class ControlAccess {
 public:
  // Makes `c` and its children drop every progress report (an inner search's own reports).
  static void mute(Control& c) { c.muted_ = true; }
  // Whether a report offered to `c` can reach a callback: engines build reports only then.
  static bool wants_progress(const Control& c) { return c.wants_progress(); }
  // Threads blocked at a poll of `c` by its pause right now (its own waits; for tests).
  static int waiting(const Control& c) { return c.waiting_.load(); }
};

}  // namespace pegsol
