// SPDX-License-Identifier: MIT
// Long calls: the engine on a thread of its own with the GIL released, the calling thread
// polling Python's signal handlers so that Ctrl-C stops the engine cleanly.
#include <chrono>
#include <condition_variable>
#include <exception>
#include <thread>

#include "common.hpp"
#include "pegsol/json.hpp"

namespace pegsol::python {

namespace {

// A fewest-moves search's reports carry its bounds; every other report is progress_json's.
nlohmann::json report_json(const ProgressReport& r) {
  return r.fewest ? fewest_progress_json(r) : progress_json(r);
}

}  // namespace

Call::Call(double time_limit, std::size_t memory, py::object progress)
    : progress_(std::move(progress)) {
  control_.set_time_limit(time_limit);
  if (memory > 0) control_.set_memory_budget(memory);
  if (progress_.is_none()) return;
  if (!PyCallable_Check(progress_.ptr()))
    throw py::type_error("progress: expected a callable taking one dict, got " +
                         py::repr(progress_).cast<std::string>());
  control_.set_progress([this](const ProgressReport& r) { deliver(report_json(r)); });
}

void Call::deliver(const nlohmann::json& report) {
  py::gil_scoped_acquire gil;
  {
    std::lock_guard lock(error_m_);
    if (progress_error_) return;
  }
  try {
    progress_(to_python(report));
  } catch (py::error_already_set& e) {
    std::lock_guard lock(error_m_);
    progress_error_ = std::make_unique<py::error_already_set>(std::move(e));
    control_.cancel(StopReason::Cancelled);
  }
}

void Call::run(const std::function<void()>& work, const std::function<py::object()>& partial) {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::exception_ptr error;
  std::unique_ptr<py::error_already_set> signal;  // a signal handler's exception
  {
    py::gil_scoped_release release;
    std::thread worker([&] {
      try {
        work();
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard lock(m);
      done = true;
      cv.notify_all();
    });
    std::unique_lock lock(m);
    while (!cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) {
      if (signal) continue;  // cancelled: waiting for the engine to stop
      lock.unlock();
      {
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) {
          signal = std::make_unique<py::error_already_set>();
          control_.cancel(StopReason::Signal);
        }
      }
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (signal) {
    if (!error && partial) {
      py::object result = partial();
      if (PyObject_SetAttrString(signal->value().ptr(), "result", result.ptr()) != 0)
        PyErr_Clear();  // an exception type without attributes: raised without the result
    }
    throw *signal;
  }
  if (error) std::rethrow_exception(error);
  std::lock_guard lock(error_m_);
  if (progress_error_) throw *progress_error_;
}

}  // namespace pegsol::python
