// SPDX-License-Identifier: MIT
// Errors that the front ends report as bad input (exit status 2).
#pragma once

#include <stdexcept>
#include <string>

#include "pegsol/export.hpp"

namespace pegsol {

// Bad user input: an unknown board, a malformed drawing, a hole name that does not exist. The
// message names what is wrong and where (file, line, column, option).
class PEGSOL_API InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace pegsol
