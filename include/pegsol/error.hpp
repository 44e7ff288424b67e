// SPDX-License-Identifier: MIT
/// @file
/// The library's errors: one hierarchy under pegsol::Error (bad input, a stopped run, an internal
/// failure), and the reasons a computation stops.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "pegsol/export.hpp"

namespace pegsol {

/// Why a computation ended.
enum class StopReason : std::uint8_t {
  None,       ///< It finished (or gave up within its own budget, as an incomplete search does).
  Time,       ///< The deadline passed.
  Memory,     ///< The memory budget ran out.
  Cancelled,  ///< The caller cancelled (Control::cancel).
  Signal,     ///< A signal arrived (the command's SIGINT, SIGTERM, SIGHUP).
};

/// The reason's name: "finished", "time", "memory", "cancelled" or "signal".
PEGSOL_API std::string_view stop_reason_name(StopReason r);

/// The base of every error the library throws. what() is the message in the library's words,
/// naming the argument or field at fault.
class PEGSOL_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input: an argument out of range, a position of another board's size, an unknown board, a
/// malformed drawing, a hole name that does not exist, options that do not go together.
///
/// field() names the argument or field at fault ("hole", "start", "goal.hole",
/// "CensusOptions::threads"; empty when the message alone says where, as a drawing's
/// "file:line:column"); what() is "FIELD: DETAIL" (DETAIL alone without a field), detail() the
/// part after the field. Copying one never throws.
class PEGSOL_API InputError : public Error {
 public:
  /// An error with no field: what() and detail() are `message`.
  explicit InputError(const std::string& message);
  /// An error about `field`: what() is "field: detail" ("detail" alone when `field` is empty).
  InputError(std::string field, std::string detail);

  /// The argument or field at fault, or empty.
  const std::string& field() const noexcept;
  /// The message without the field's name.
  const std::string& detail() const noexcept;

 private:
  struct Parts {
    std::string field, detail;
  };
  std::shared_ptr<const Parts> parts_;  // shared: copying an exception never throws
};

/// `message` in a front end's words: every library field it names (a word of the form
/// Type::field, as "CensusOptions::threads" or "Control::memory_budget") replaced by
/// name(field), the field kept where `name` gives "" (or is empty). The command line and the
/// JSON API translate InputError's field and detail and the results' notes
/// (CensusResult::stop_note) with it (docs/errors.md).
PEGSOL_API std::string rename_fields(std::string_view message,
                                     const std::function<std::string(std::string_view)>& name);

/// A computation stopped by its limits or its caller (a deadline, the memory budget, a cancel, a
/// signal). Thrown inside an engine to unwind to the entry point, which turns it into a result's
/// stop reason; escapes the library only from a callback's own throw.
class PEGSOL_API Stopped : public Error {
 public:
  /// A stop for `r`; what() is "stopped: time limit", "stopped: memory budget", "stopped:
  /// cancelled", ...
  explicit Stopped(StopReason r);
  StopReason reason;  ///< Why it stopped.
};

/// The library could not go on for a reason of its own: a figure past what it can represent (a
/// census's count beyond 2^128), a file it writes or reads back failing, a broken invariant.
class PEGSOL_API InternalError : public Error {
 public:
  using Error::Error;
};

}  // namespace pegsol
