// SPDX-License-Identifier: MIT
/// @file
/// One control model for every long computation (docs/control.md): a deadline, a memory budget,
/// cancellation, pause and resume, and throttled progress reports. solve(), census(),
/// solvability_table() and enumerate_solutions() take a `const Control*` in their options and
/// return a result carrying a StopReason and what they settled before stopping.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>

#include "pegsol/error.hpp"
#include "pegsol/export.hpp"

namespace pegsol {

class ControlAccess;  // the engines' access to a control's internals (src/core/control_access.hpp)

// StopReason, stop_reason_name and Stopped: pegsol/error.hpp.

/// A beam search's figures in a progress report (ProgressReport::beam).
struct PEGSOL_API BeamProgress {
  int levels = 0;             ///< levels of a complete attempt (ProgressReport::level: those done)
  std::size_t capacity = 0;   ///< positions kept per level by the current attempt
  std::uint64_t pairs = 0;    ///< complement pairs found so far in the attempt
  std::string_view method{};  ///< "sweep", "meet" or "report"
};

/// A solvability table's figures in a progress report (ProgressReport::table).
struct PEGSOL_API TableProgress {
  int pass = 0;      ///< the forward pass running (from 1; 0 during the searches)
  int passes = 0;    ///< the forward passes the open pairs need
  int search = 0;    ///< the pair searches done (0 during the passes)
  int searches = 0;  ///< the pairs to search (0 during the passes)
};

/// A fewest-moves search's figures in a progress report (ProgressReport::fewest): the bounds
/// closing.
struct PEGSOL_API FewestBounds {
  int lower_bound = 0;     ///< every solution has at least this many moves
  int best_found = -1;     ///< moves of the best solution found so far (-1: none yet)
  int forward_level = 0;   ///< peg count of the deepest forward level done
  int backward_level = 0;  ///< peg count of the highest backward level done
  bool released = false;   ///< the pass, short of memory, keeps only each side's last levels
  /// The passes ran out of memory: the best solution is being shortened by windows at its ends.
  bool shortening = false;
  int window = 0;  ///< shortening: the moves of the window being searched
  /// A split board minimum (FewestOptions::split): the pair being searched (0-based; -1: none);
  /// lower_bound is then the board's (the least over the pairs), not the pair's.
  int pair = -1;
  int pairs = 0;  ///< a split board minimum: the pairs it searches
};

/// A progress report. done/total are in the engine's own units (levels, pairs, solutions);
/// total is 0 when the size of the work is not known, and then fraction and eta_seconds are 0.
/// The groups `beam`, `table` and `fewest` are set by those engines alone.
struct PEGSOL_API ProgressReport {
  std::uint64_t done = 0;       ///< work done, in the engine's units
  std::uint64_t total = 0;      ///< the whole work in the same units; 0 when not known
  double fraction = 0;          ///< done / total, in [0, 1]; engines report done never decreasing
  double seconds = 0;           ///< since the control started, paused time excluded
  double eta_seconds = 0;       ///< estimated time left (total known and done > 0)
  std::string_view phase;       ///< "dfs", "beam", "forward", "backward", "distinct", "search", ...
  std::uint64_t positions = 0;  ///< engine's figure: positions searched or stored so far
  std::size_t memory_bytes = 0;   ///< engine's figure: bytes held (census), 0 when not tracked
  int level = -1;                 ///< engine's figure: level (peg count or beam depth), -1 if none
  std::size_t table_entries = 0;  ///< first-solution DFS: entries of its failed-position table
  std::optional<BeamProgress> beam;    ///< the beam searches' figures
  std::optional<TableProgress> table;  ///< solvability_table's figures
  std::optional<FewestBounds> fewest;  ///< the fewest-moves searches' bounds
};

/// The state a caller shares with one or more computations. Thread-safe: cancel, pause, resume
/// and the queries may be called from any thread while a computation runs; the setters
/// (time limit, budget, watched flags, progress) are meant to be called before it starts.
/// The engines poll it (checkpoint(), throw_if_stopped(), should_stop()) and offer it reports
/// (report()); a caller needs none of those, but a caller's own long loop may use them the same
/// way, under the same control as the engines it calls.
class PEGSOL_API Control {
 public:
  using Clock = std::chrono::steady_clock;  ///< the clock of deadlines and progress
  /// A replacement clock (tests inject one that ticks on each read).
  using ClockFn = std::function<Clock::time_point()>;

  /// A control with no limits, timed by `clock` (steady_clock::now when empty).
  explicit Control(ClockFn clock = {});
  /// A child: obeys everything `parent` says (stop, pause, its deadline) and adds its own limits;
  /// progress goes to the parent's callback unless the child has one. The parent outlives it.
  explicit Control(const Control* parent);
  /// Whether a child obeys its parents' deadlines.
  enum class ParentDeadline {
    Obey,   ///< as Control(parent)
    Ignore  ///< stops on the parents' cancel and watched flags, pauses with them, never times out
  };
  /// A child as Control(parent); with ParentDeadline::Ignore, work that may outlive the parents'
  /// deadlines (a look-up built during one call for the calls after it) yet stops when they are
  /// cancelled. Its own limits, the parents' memory budget and progress apply as usual.
  Control(const Control* parent, ParentDeadline deadline);
  Control(const Control&) = delete;
  Control& operator=(const Control&) = delete;

  /// Deadline `seconds` from now. 0, negatives, infinity and anything over ~30 years: no limit.
  /// @throws InputError (field "seconds") for NaN.
  void set_time_limit(double seconds);
  /// Seconds left before the deadline (own or a parent's, whichever comes first); +infinity
  /// when there is none.
  double remaining_seconds() const;
  /// Whether this control or a parent has a deadline.
  bool has_deadline() const;

  /// Bytes a computation may hold (0: no budget of its own; the engine's default applies).
  void set_memory_budget(std::size_t bytes) { memory_budget_ = bytes; }
  /// The smallest nonzero budget of this control and its parents, or 0.
  std::size_t memory_budget() const;

  /// Polls `flag` (set from anywhere, a signal handler included) as a stop with `reason`; a null
  /// flag is ignored. At most four flags; the flag outlives the control.
  /// @throws InputError for a fifth flag (field "flag") or the reason None (field "reason").
  void watch(const std::atomic<bool>* flag, StopReason reason = StopReason::Cancelled);

  /// Asks every computation under this control to stop with `reason` (the first reason wins).
  void cancel(StopReason reason = StopReason::Cancelled) const;
  /// Workers block at their next poll until resume(); time paused does not count against the
  /// deadline (the deadline moves by the pause's length) nor in progress seconds.
  void pause() const;
  /// Releases the workers pause() held; the computation goes on where it was.
  void resume() const;
  /// Whether this control or a parent is paused.
  bool paused() const;

  /// The cheap poll, which does not wait out a pause (for a loop that must not block there; a
  /// loop that may uses checkpoint()): one relaxed load when there is no deadline or watched
  /// flag; otherwise the flags and one clock read. A deadline or flag found past is latched as
  /// the stop reason.
  bool should_stop() const {
    if (state_.load(std::memory_order_relaxed) & kStopMask) return true;
    if (!slow_) return parent_ && parent_->should_stop();
    return poll_slow();
  }
  /// Waits while this control or a parent is paused (returning at once if stopped meanwhile), then
  /// should_stop(): what a worker calls at each of its polls.
  bool checkpoint() const {
    if (state_.load(std::memory_order_relaxed) & kPaused || (parent_ && parent_->paused()))
      wait_if_paused();
    return should_stop();
  }
  /// Stops the caller's work by an exception when checkpoint() says to stop.
  /// @throws Stopped when the computation is to stop.
  void throw_if_stopped() const {
    if (checkpoint()) throw Stopped(stop_reason());
  }
  /// The first stop asked or found (own, then parents'), or None.
  StopReason stop_reason() const;

  /// Calls `callback` with reports at most once per `interval_seconds` (of the control's clock).
  /// @throws InputError (field "interval_seconds") for NaN or more than a billion seconds.
  void set_progress(std::function<void(const ProgressReport&)> callback,
                    double interval_seconds = 0.5);
  /// Offers a report: fills seconds, fraction and eta, and passes it on to this control's callback
  /// or the nearest parent's when the interval has passed since the last one (always when
  /// `force`); nothing without a callback. Never called concurrently on the callback.
  void report(ProgressReport r, bool force = false) const;

  /// Seconds since construction, paused time excluded.
  double elapsed_seconds() const;
  /// The control's clock (the injected one, or steady_clock).
  Clock::time_point now() const { return clock_ ? clock_() : Clock::now(); }

 private:
  friend class ControlAccess;
  void wait_if_paused() const;  // blocks while this control or a parent is paused
  bool wants_progress() const;  // whether this control or a parent has a callback, unmuted
  static constexpr std::uint32_t kStopMask = 0xFF, kPaused = 0x100;
  bool poll_slow() const;
  /// The first stop asked of this control or a parent other than by a deadline (cancel(), a
  /// watched flag), or None.
  StopReason asked_stop() const;
  void latch(StopReason r) const;
  /// The clock less every pause of this control and its parents, in nanoseconds: deadlines and
  /// elapsed time are measured on it, so pauses do not count.
  std::int64_t active_ns() const;
  std::int64_t paused_ns() const;

  const Control* parent_ = nullptr;
  ClockFn clock_;
  std::int64_t start_ns_ = 0;                             ///< active_ns() at construction
  std::int64_t deadline_ns_ = INT64_MAX;                  ///< in active_ns(); max: none
  mutable std::atomic<std::int64_t> paused_total_ns_{0};  ///< own pauses, finished ones
  std::size_t memory_budget_ = 0;
  std::array<std::pair<const std::atomic<bool>*, StopReason>, 4> flags_{};
  int nflags_ = 0;
  bool slow_ = false;   ///< a deadline, a watched flag or blind_: should_stop() looks further
  bool blind_ = false;  ///< ParentDeadline::Ignore

  mutable std::atomic<std::uint32_t> state_{0};  ///< stop reason in the low byte, kPaused
  /// The first stop asked by cancel() other than Time, kept apart from state_: a deadline
  /// latched first must not hide it from a child that ignores deadlines.
  mutable std::atomic<std::uint8_t> asked_{0};
  mutable std::mutex m_;  ///< pause bookkeeping and the condition
  mutable std::condition_variable cv_;
  mutable Clock::time_point paused_at_{};
  mutable std::atomic<int> waiting_{0};

  std::function<void(const ProgressReport&)> progress_;
  bool muted_ = false;  ///< drops every report offered here or by a child
  Clock::duration interval_{};
  mutable std::mutex progress_m_;
  mutable Clock::time_point next_report_{};
};

}  // namespace pegsol
