// SPDX-License-Identifier: MIT
// The server's job table (jobs.hpp).
#include "jobs.hpp"

#include <cstdio>
#include <exception>
#include <utility>
#include <vector>

namespace pegsol::server::detail {

using nlohmann::json;
using SteadyClock = std::chrono::steady_clock;

json Job::to_json() {
  std::lock_guard lock(m);
  const StopReason stop = control.stop_reason();
  return api::job_json(id, kind, api::job_state(finished, !error.empty(), stop, control.paused()),
                       progress, result, error, stop);
}

std::string JobTable::new_id() {
  std::string id;
  do {
    id.clear();
    for (int i = 0; i < 4; ++i) {
      char part[9];
      std::snprintf(part, sizeof part, "%08x", static_cast<unsigned>(random_()));
      id += part;
    }
  } while (jobs_.count(id));
  return id;
}

std::shared_ptr<Job> JobTable::find(const std::string& id) {
  std::lock_guard lock(m_);
  auto it = jobs_.find(id);
  if (it == jobs_.end())
    throw api::ApiError(404, "no job " + id + " (finished jobs are kept a while)");
  return it->second;
}

std::shared_ptr<Job> JobTable::poll(const std::string& id) {
  auto job = find(id);
  job->last_poll = SteadyClock::now();
  return job;
}

json JobTable::start(const json& body, const Control& parent) {
  const api::JobSpec spec = dispatcher_.job(body);
  auto job = std::make_shared<Job>(&parent);
  {
    std::lock_guard lock(m_);
    int running = 0;
    for (auto& [id, j] : jobs_) running += !j->finished;
    if (running >= opt_.max_jobs)
      throw api::ApiError(503, "the server runs " + std::to_string(running) +
                                   " jobs, its most; retry when one ends");
    job->id = new_id();
    job->kind = spec.kind;
    jobs_[job->id] = job;
    order_.push_back(job->id);
  }
  job->thread = std::thread([&dispatcher = dispatcher_, job, spec] {
    Job* raw = job.get();
    json result;
    std::string error;
    try {
      result = dispatcher.run(spec, job->control, [raw](const json& p) {
        std::lock_guard lock(raw->m);
        raw->progress = p;
      });
    } catch (const std::exception& e) {
      error = e.what();
    }
    std::lock_guard lock(job->m);
    job->result = std::move(result);
    job->error = std::move(error);
    job->finished = true;
  });
  return job->to_json();
}

json JobTable::list() {
  std::vector<json> all;
  std::lock_guard lock(m_);
  for (auto& [id, job] : jobs_) all.push_back(job->to_json());
  return api::job_list_json(std::move(all));
}

json JobTable::act(const std::string& id, const std::string& action) {
  auto job = poll(id);
  if (!job->finished) {
    if (action == "pause") {
      std::lock_guard lock(job->m);
      if (!job->control.paused()) job->paused_at = SteadyClock::now();
      job->control.pause();
    }
    if (action == "resume") job->control.resume();
    if (action == "cancel") {
      job->control.cancel(StopReason::Cancelled);
      job->control.resume();
    }
  }
  return job->to_json();
}

json JobTable::remove(const std::string& id) {
  auto job = find(id);
  job->control.cancel(StopReason::Cancelled);
  job->control.resume();
  return api::job_deleted_json(job->id);
}

void JobTable::tend() {
  std::vector<std::shared_ptr<Job>> done;
  {
    std::lock_guard lock(m_);
    const auto now = SteadyClock::now();
    auto seconds_since = [&](SteadyClock::time_point t) {
      return std::chrono::duration<double>(now - t).count();
    };
    for (auto& [id, job] : jobs_) {
      if (job->finished) continue;
      SteadyClock::time_point paused_at;
      {
        std::lock_guard job_lock(job->m);
        paused_at = job->paused_at;
      }
      if (seconds_since(job->last_poll) > opt_.job_lease_seconds ||
          (job->control.paused() && seconds_since(paused_at) > opt_.job_pause_seconds)) {
        job->control.cancel(StopReason::Cancelled);
        job->control.resume();
      }
    }
    while (static_cast<int>(jobs_.size()) > opt_.max_kept_jobs && !order_.empty()) {
      auto it = jobs_.find(order_.front());
      if (it == jobs_.end()) {
        order_.pop_front();
        continue;
      }
      if (!it->second->finished) break;
      done.push_back(it->second);
      jobs_.erase(it);
      order_.pop_front();
    }
  }
  for (auto& j : done)
    if (j->thread.joinable()) j->thread.join();
}

void JobTable::stop_all() {
  std::map<std::string, std::shared_ptr<Job>> all;
  {
    std::lock_guard lock(m_);
    all.swap(jobs_);
  }
  for (auto& [id, job] : all) {
    job->control.cancel(StopReason::Cancelled);
    job->control.resume();
  }
  for (auto& [id, job] : all)
    if (job->thread.joinable()) job->thread.join();
}

}  // namespace pegsol::server::detail
