// SPDX-License-Identifier: MIT
// A clock for the tests that moves 1 ms each time it is read: a deadline expires after a fixed
// number of an engine's polls, on any machine, without sleeping.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>

#include "pegsol/control.hpp"

namespace pegsol {

inline Control::ClockFn ticking_clock() {
  auto ns = std::make_shared<std::atomic<std::int64_t>>(1'000'000'000);
  return [ns] { return Control::Clock::time_point(std::chrono::nanoseconds(*ns += 1'000'000)); };
}

}  // namespace pegsol
