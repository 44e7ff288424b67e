// SPDX-License-Identifier: MIT
#include "pegsol/control.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "pegsol/error.hpp"

namespace pegsol {

std::string_view stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::None:
      return "finished";
    case StopReason::Time:
      return "time";
    case StopReason::Memory:
      return "memory";
    case StopReason::Cancelled:
      return "cancelled";
    case StopReason::Signal:
      return "signal";
  }
  return "?";
}

namespace {

std::string stopped_message(StopReason r) {
  switch (r) {
    case StopReason::Time:
      return "stopped: time limit";
    case StopReason::Memory:
      return "stopped: memory budget";
    case StopReason::Cancelled:
      return "stopped: cancelled";
    case StopReason::Signal:
      return "stopped: signal";
    case StopReason::None:
      break;
  }
  return "stopped";
}

}  // namespace

std::string rename_fields(std::string_view message,
                          const std::function<std::string(std::string_view)>& name) {
  auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  auto word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  std::string out;
  std::size_t i = 0;
  while (i < message.size()) {
    // A field starts a word with a capital: Type(::Type)*::field.
    if (!upper(message[i]) || (i > 0 && word(message[i - 1]))) {
      out.push_back(message[i++]);
      continue;
    }
    std::size_t end = i, field_at = std::string_view::npos;
    while (true) {
      std::size_t j = end;
      while (j < message.size() && word(message[j])) ++j;
      if (j + 2 < message.size() && message[j] == ':' && message[j + 1] == ':' &&
          word(message[j + 2])) {
        end = j + 2;
        if (!upper(message[end])) field_at = end;
        if (field_at != std::string_view::npos) {
          while (end < message.size() && word(message[end])) ++end;
          break;
        }
        continue;
      }
      end = j;
      break;
    }
    if (field_at == std::string_view::npos) {
      out.append(message.substr(i, end - i));
      i = end;
      continue;
    }
    const std::string_view field = message.substr(i, end - i);
    const std::string named = name ? name(field) : std::string();
    out.append(named.empty() ? field : std::string_view(named));
    i = end;
  }
  return out;
}

InputError::InputError(const std::string& message)
    : Error(message), parts_(std::make_shared<const Parts>(Parts{{}, message})) {}

InputError::InputError(std::string field, std::string detail)
    : Error(field.empty() ? detail : field + ": " + detail),
      parts_(std::make_shared<const Parts>(Parts{std::move(field), std::move(detail)})) {}

const std::string& InputError::field() const noexcept {
  return parts_->field;
}

const std::string& InputError::detail() const noexcept {
  return parts_->detail;
}

Stopped::Stopped(StopReason r) : Error(stopped_message(r)), reason(r) {}

Control::Control(ClockFn clock) : clock_(std::move(clock)) {
  start_ns_ = active_ns();
}

Control::Control(const Control* parent)
    : parent_(parent), clock_(parent ? parent->clock_ : ClockFn{}) {
  start_ns_ = active_ns();
}

Control::Control(const Control* parent, ParentDeadline deadline) : Control(parent) {
  blind_ = parent && deadline == ParentDeadline::Ignore;
  slow_ = blind_;
}

std::int64_t Control::paused_ns() const {
  return paused_total_ns_.load(std::memory_order_relaxed) + (parent_ ? parent_->paused_ns() : 0);
}

std::int64_t Control::active_ns() const {
  const auto t = std::chrono::duration_cast<std::chrono::nanoseconds>(now().time_since_epoch());
  return static_cast<std::int64_t>(t.count()) - paused_ns();
}

void Control::set_time_limit(double seconds) {
  if (std::isnan(seconds)) throw InputError("seconds", "the time limit is not a number");
  // Past about 30 years (and for infinity) there is no limit: the sum below would overflow.
  constexpr double kNoLimit = 1e9;
  if (!(seconds > 0) || seconds >= kNoLimit) {
    deadline_ns_ = INT64_MAX;
  } else {
    deadline_ns_ = active_ns() + static_cast<std::int64_t>(seconds * 1e9);
  }
  slow_ = deadline_ns_ != INT64_MAX || nflags_ > 0 || blind_;
}

bool Control::has_deadline() const {
  return deadline_ns_ != INT64_MAX || (parent_ && !blind_ && parent_->has_deadline());
}

double Control::remaining_seconds() const {
  double own = deadline_ns_ == INT64_MAX ? std::numeric_limits<double>::infinity()
                                         : static_cast<double>(deadline_ns_ - active_ns()) * 1e-9;
  if (parent_ && !blind_) own = std::min(own, parent_->remaining_seconds());
  return std::max(own, 0.0);
}

std::size_t Control::memory_budget() const {
  std::size_t up = parent_ ? parent_->memory_budget() : 0;
  if (memory_budget_ == 0) return up;
  return up == 0 ? memory_budget_ : std::min(up, memory_budget_);
}

void Control::watch(const std::atomic<bool>* flag, StopReason reason) {
  if (!flag) return;
  if (reason == StopReason::None)
    throw InputError("reason",
                     "a watched flag stops with a reason (time, memory, cancelled, signal)");
  if (nflags_ == static_cast<int>(flags_.size()))
    throw InputError("flag", "a control watches at most four flags");
  flags_[static_cast<std::size_t>(nflags_++)] = {flag, reason};
  slow_ = true;
}

void Control::latch(StopReason r) const {
  std::uint32_t s = state_.load();
  while (!(s & kStopMask) &&
         !state_.compare_exchange_weak(s, (s & ~kStopMask) | static_cast<std::uint32_t>(r))) {
  }
  std::lock_guard<std::mutex> lock(m_);
  cv_.notify_all();
}

bool Control::poll_slow() const {
  for (int i = 0; i < nflags_; ++i) {
    const auto& [flag, reason] = flags_[static_cast<std::size_t>(i)];
    if (flag->load(std::memory_order_relaxed)) {
      latch(reason);
      return true;
    }
  }
  if (deadline_ns_ != INT64_MAX && active_ns() >= deadline_ns_) {
    latch(StopReason::Time);
    return true;
  }
  if (!parent_) return false;
  if (!blind_) return parent_->should_stop();
  const StopReason asked = parent_->asked_stop();
  if (asked == StopReason::None) return false;
  latch(asked);
  return true;
}

StopReason Control::asked_stop() const {
  if (const auto a = asked_.load(std::memory_order_relaxed)) return static_cast<StopReason>(a);
  for (int i = 0; i < nflags_; ++i) {
    const auto& [flag, reason] = flags_[static_cast<std::size_t>(i)];
    if (flag->load(std::memory_order_relaxed)) return reason;
  }
  return parent_ ? parent_->asked_stop() : StopReason::None;
}

void Control::cancel(StopReason reason) const {
  if (reason == StopReason::None) reason = StopReason::Cancelled;
  // Kept apart from the latched reason, which may already be this control's deadline.
  if (reason != StopReason::Time) {
    std::uint8_t none = 0;
    asked_.compare_exchange_strong(none, static_cast<std::uint8_t>(reason));
  }
  latch(reason);
}

void Control::pause() const {
  std::lock_guard<std::mutex> lock(m_);
  if (state_.fetch_or(kPaused) & kPaused) return;
  paused_at_ = now();
}

void Control::resume() const {
  {
    std::lock_guard<std::mutex> lock(m_);
    if (!(state_.load() & kPaused)) return;
    const auto d = std::chrono::duration_cast<std::chrono::nanoseconds>(now() - paused_at_);
    paused_total_ns_.fetch_add(static_cast<std::int64_t>(d.count()));
    state_.fetch_and(~kPaused);
  }
  cv_.notify_all();
}

bool Control::paused() const {
  return (state_.load(std::memory_order_relaxed) & kPaused) || (parent_ && parent_->paused());
}

void Control::wait_if_paused() const {
  if (parent_) parent_->wait_if_paused();
  if (!(state_.load() & kPaused)) return;
  std::unique_lock<std::mutex> lock(m_);
  waiting_.fetch_add(1);
  cv_.wait(lock, [&] {
    const std::uint32_t s = state_.load();
    return !(s & kPaused) || (s & kStopMask);
  });
  waiting_.fetch_sub(1);
}

StopReason Control::stop_reason() const {
  const std::uint32_t s = state_.load() & kStopMask;
  if (s) return static_cast<StopReason>(s);
  if (!parent_) return StopReason::None;
  return blind_ ? parent_->asked_stop() : parent_->stop_reason();
}

void Control::set_progress(std::function<void(const ProgressReport&)> callback,
                           double interval_seconds) {
  if (std::isnan(interval_seconds) || interval_seconds > 1e9)
    throw InputError("interval_seconds", "an interval of 0 to a billion seconds");
  progress_ = std::move(callback);
  interval_ = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(std::max(0.0, interval_seconds)));
  next_report_ = now() + interval_;
}

bool Control::wants_progress() const {
  return !muted_ && (progress_ || (parent_ && parent_->wants_progress()));
}

void Control::report(ProgressReport r, bool force) const {
  if (muted_) return;
  if (!progress_) {
    if (parent_) parent_->report(r, force);
    return;
  }
  std::unique_lock<std::mutex> lock(progress_m_, std::try_to_lock);
  if (!lock.owns_lock()) {
    if (!force) return;
    lock.lock();
  }
  const auto t = now();
  if (!force && t < next_report_) return;
  next_report_ = t + interval_;
  r.seconds = static_cast<double>(active_ns() - start_ns_) * 1e-9;
  if (r.total > 0) {
    r.fraction = std::min(1.0, static_cast<double>(r.done) / static_cast<double>(r.total));
    r.eta_seconds = r.fraction > 0 ? r.seconds * (1 - r.fraction) / r.fraction : 0;
  } else {
    r.fraction = r.eta_seconds = 0;
  }
  progress_(r);
}

double Control::elapsed_seconds() const {
  return static_cast<double>(active_ns() - start_ns_) * 1e-9;
}

}  // namespace pegsol
