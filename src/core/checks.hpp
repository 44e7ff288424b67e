// SPDX-License-Identifier: MIT
// Checks of option values at the library's entry points: each throws InputError naming the field.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include "pegsol/census.hpp"
#include "pegsol/error.hpp"

namespace pegsol::checks {

// The most worker threads an option may ask for (0 asks for the hardware's count).
inline constexpr int kMaxThreads = 1024;

// Seconds as an option takes them: a number, 0 or more (0 and infinity: no limit).
inline void seconds(double v, const char* field) {
  if (std::isnan(v)) throw InputError(field, "the number of seconds is not a number");
  if (v < 0) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    throw InputError(field, std::string(text) + " seconds; a time is 0 (no limit) or more");
  }
}

// A worker thread count: 0 (the hardware's) up to kMaxThreads.
inline void threads(int v, const char* field) {
  if (v < 0 || v > kMaxThreads)
    throw InputError(field, std::to_string(v) + " threads; 0 (the hardware's count) up to " +
                                std::to_string(kMaxThreads));
}

// A census's options: threads, and resume only with a checkpoint directory.
inline void census_options(const CensusOptions& o) {
  threads(o.threads, "CensusOptions::threads");
  if (o.resume && o.checkpoint_dir.empty())
    throw InputError("CensusOptions::resume", "resuming needs a checkpoint directory");
}

}  // namespace pegsol::checks
