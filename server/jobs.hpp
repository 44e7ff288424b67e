// SPDX-License-Identifier: MIT
// The server's jobs: long computations of the dispatcher's, each on a thread of its own, polled,
// paused, resumed and cancelled by the page, and cancelled when nobody polls them.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "pegsol/api.hpp"
#include "pegsol/control.hpp"
#include "server.hpp"

namespace pegsol::server::detail {

// One job: its control (under the server's), its latest progress and its outcome.
struct Job {
  explicit Job(const Control* parent) : control(parent) {}
  std::string id, kind;
  Control control;
  std::mutex m;
  nlohmann::json progress = nullptr, result = nullptr;
  std::string error;
  std::atomic<bool> finished{false};
  std::chrono::steady_clock::time_point last_poll = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point paused_at;  // when pause was asked (while paused)
  std::thread thread;

  // The job's state as /api/jobs/ID answers it.
  nlohmann::json to_json();
};

// The jobs started and kept for polling (at most max_jobs running, max_kept_jobs kept), by
// unguessable id.
class JobTable {
 public:
  JobTable(const ServeOptions& options, api::Dispatcher& dispatcher)
      : opt_(options), dispatcher_(dispatcher) {}
  ~JobTable() { stop_all(); }
  JobTable(const JobTable&) = delete;
  JobTable& operator=(const JobTable&) = delete;

  // Starts the job `body` asks for (checked by the dispatcher) on a thread of its own under
  // `parent`: its first state; api::ApiError 503 when max_jobs already run.
  nlohmann::json start(const nlohmann::json& body, const Control& parent);
  // The job `id`, marked as polled now; api::ApiError 404 when there is none.
  std::shared_ptr<Job> poll(const std::string& id);
  // Every job's state, for GET /api/jobs.
  nlohmann::json list();
  // `action` (pause, resume or cancel) on the job `id`: its state after it.
  nlohmann::json act(const std::string& id, const std::string& action);
  // DELETE /api/jobs/ID: the job cancelled (it is forgotten once finished and old).
  nlohmann::json remove(const std::string& id);
  // Cancels jobs nobody polls or paused too long, forgets old finished ones.
  void tend();
  // Cancels every job and waits for their threads.
  void stop_all();

 private:
  std::shared_ptr<Job> find(const std::string& id);
  std::string new_id();  // called with m_ held

  const ServeOptions& opt_;
  api::Dispatcher& dispatcher_;
  std::mutex m_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;
  std::deque<std::string> order_;
  std::random_device random_;  // job ids: unguessable, so another page cannot address a job
};

}  // namespace pegsol::server::detail
