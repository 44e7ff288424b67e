// `pegsol serve`: HTTP over the library's dispatcher (pegsol/api.hpp): routes, the compute slots,
// the connection watcher, the job table and /api/status (docs/api.md).
#include "server.hpp"

#include <dirent.h>
#include <netdb.h>
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "assets.hpp"
#include "pegsol/api.hpp"
#include "pegsol/error.hpp"
#include "pegsol/json.hpp"

namespace pegsol::server {

namespace {

using nlohmann::json;
using SteadyClock = std::chrono::steady_clock;
using api::ApiError;

// `j` as the answer; bytes of user input that are not UTF-8 (a query's %FF) are replaced.
void send_json(httplib::Response& res, const json& j, int status = 200) {
  res.status = status;
  res.set_content(dump_json(j), "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  send_json(res, api::error_body(status, message), status);
}

// The caps of the dispatcher's requests and jobs, from the server's options.
api::Limits limits_of(const ServeOptions& o) {
  api::Limits l;
  l.request_seconds = o.request_seconds;
  l.request_memory = o.request_memory;
  l.job_seconds = o.job_seconds;
  l.job_memory = o.job_memory;
  l.max_census_holes = o.max_census_holes;
  l.analyzer_cache = o.analyzer_cache;
  l.idle_analyzers = o.idle_analyzers;
  l.lookup_memory = o.lookup_memory;
  l.lookup_seconds = o.lookup_seconds;
  l.lookup_keep = o.lookup_keep;
  return l;
}

// A bounded number of concurrent computations; a request that finds none free gets a 503.
class Slots {
 public:
  explicit Slots(int n) : free_(n) {}
  bool take() {
    std::lock_guard lock(m_);
    if (free_ == 0) return false;
    --free_;
    return true;
  }
  void give() {
    std::lock_guard lock(m_);
    ++free_;
  }
  int free() const {
    std::lock_guard lock(m_);
    return free_;
  }

 private:
  mutable std::mutex m_;
  int free_;
};

// A long computation run on its own thread, polled by the page.
struct Job {
  explicit Job(const Control* parent) : control(parent) {}
  std::string id, kind;
  Control control;
  std::mutex m;
  json progress = nullptr, result = nullptr;
  std::string error;
  std::atomic<bool> finished{false};
  SteadyClock::time_point last_poll = SteadyClock::now();
  std::thread thread;

  json to_json() {
    std::lock_guard lock(m);
    const StopReason stop = control.stop_reason();
    return api::job_json(id, kind, api::job_state(finished, !error.empty(), stop, control.paused()),
                         progress, result, error, stop);
  }
};

// The socket of the connection a request came on (its local port, remote address and port):
// httplib 0.11 gives a handler no handle to it, so the process's descriptors are searched. The
// socket stays open while the handler runs (httplib closes it after the response).
socket_t connection_of(const httplib::Request& req) {
  DIR* dir = opendir("/proc/self/fd");
  if (!dir) return INVALID_SOCKET;
  socket_t found = INVALID_SOCKET;
  const std::string want_port = std::to_string(req.remote_port);
  const std::string want_local = std::to_string(req.local_port);
  while (const dirent* e = readdir(dir)) {
    char* end = nullptr;
    const long fd = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end) continue;
    sockaddr_storage peer{}, self{};
    socklen_t peer_len = sizeof peer, self_len = sizeof self;
    const int s = static_cast<int>(fd);
    if (getpeername(s, reinterpret_cast<sockaddr*>(&peer), &peer_len) != 0 ||
        getsockname(s, reinterpret_cast<sockaddr*>(&self), &self_len) != 0)
      continue;
    char host[NI_MAXHOST], port[NI_MAXSERV], local[NI_MAXSERV];
    if (getnameinfo(reinterpret_cast<sockaddr*>(&peer), peer_len, host, sizeof host, port,
                    sizeof port, NI_NUMERICHOST | NI_NUMERICSERV) != 0 ||
        getnameinfo(reinterpret_cast<sockaddr*>(&self), self_len, nullptr, 0, local, sizeof local,
                    NI_NUMERICSERV) != 0)
      continue;
    if (req.remote_addr == host && want_port == port && want_local == local) {
      found = s;
      break;
    }
  }
  closedir(dir);
  return found;
}

// The connections of the requests computing now: check() cancels the computation of each whose
// client has closed its connection (end of stream or a reset; bytes waiting, a pipelined next
// request, mean the client is still there).
class Clients {
 public:
  int add(socket_t s, const Control* c) {
    std::lock_guard lock(m_);
    calls_[++next_] = {s, c};
    return next_;
  }
  void remove(int id) {
    std::lock_guard lock(m_);
    calls_.erase(id);
  }
  void check() {
    std::lock_guard lock(m_);
    for (auto& [id, call] : calls_) {
      if (call.first == INVALID_SOCKET) continue;
      char byte = 0;
      const ssize_t n = ::recv(call.first, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        call.second->cancel(StopReason::Cancelled);
        call.first = INVALID_SOCKET;
        ++gone_;
      }
    }
  }
  std::uint64_t gone() const {
    std::lock_guard lock(m_);
    return gone_;
  }

 private:
  mutable std::mutex m_;
  std::map<int, std::pair<socket_t, const Control*>> calls_;
  int next_ = 0;
  std::uint64_t gone_ = 0;  // computations cancelled because their client went away
};

// One computing request: a control under the server's (stopped at shutdown) and, once admitted,
// a compute slot (503 when none is free) and its connection watched (cancelled when the client
// goes away).
class Call {
 public:
  Call(const httplib::Request& req, Slots& slots, const Control& server, Clients& clients)
      : control(&server), req_(req), slots_(slots), clients_(clients) {}
  ~Call() {
    if (!admitted_) return;
    clients_.remove(id_);
    slots_.give();
  }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  // Takes a compute slot (ApiError 503 when none is free, and busy() says so) and watches the
  // client's connection.
  void admit() {
    if (!slots_.take()) {
      busy_ = true;
      throw ApiError(503, "the server is busy (every compute slot is taken); retry shortly");
    }
    admitted_ = true;
    id_ = clients_.add(connection_of(req_), &control);
  }
  bool busy() const { return busy_; }

  Control control;

 private:
  const httplib::Request& req_;
  Slots& slots_;
  Clients& clients_;
  bool admitted_ = false, busy_ = false;
  int id_ = 0;
};

class Api {
 public:
  Api(const ServeOptions& o, const Control& c)
      : opt_(o), control_(c), slots_(o.compute_slots), dispatcher_(limits_of(o)) {}

  ~Api() { stop_jobs(); }

  void routes(httplib::Server& s) {
    // The endpoints of the dispatcher: each request one call to it.
    for (const api::Dispatcher::Endpoint& e : api::Dispatcher::endpoints()) {
      const std::string path(e.path);
      if (e.method == "GET")
        s.Get(path, [this](const httplib::Request& req, httplib::Response& res) {
          forward(req, res, "GET");
        });
      else
        s.Post(path, [this](const httplib::Request& req, httplib::Response& res) {
          forward(req, res, "POST");
        });
    }
    s.Get("/api/status", wrap([this](const httplib::Request&) {
            return api::status_json(opt_.compute_slots, slots_.free(), dispatcher_.lookup_bytes(),
                                    clients_.gone());
          }));
    s.Post("/api/jobs", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] { send_json(res, start_job(api::parse_body(req.body)), 202); });
    });
    s.Get("/api/jobs", wrap([this](const httplib::Request&) {
            std::vector<json> all;
            std::lock_guard lock(jobs_m_);
            for (auto& [id, job] : jobs_) all.push_back(job->to_json());
            return api::job_list_json(std::move(all));
          }));
    s.Get(R"(/api/jobs/([0-9a-z]+))", wrap([this](const httplib::Request& req) {
            auto job = find_job(req.matches[1]);
            job->last_poll = SteadyClock::now();
            return job->to_json();
          }));
    s.Post(R"(/api/jobs/([0-9a-z]+)/(pause|resume|cancel))",
           wrap([this](const httplib::Request& req) {
             auto job = find_job(req.matches[1]);
             const std::string action = req.matches[2];
             job->last_poll = SteadyClock::now();
             if (!job->finished) {
               if (action == "pause") job->control.pause();
               if (action == "resume") job->control.resume();
               if (action == "cancel") {
                 job->control.cancel(StopReason::Cancelled);
                 job->control.resume();
               }
             }
             return job->to_json();
           }));
    s.Delete(R"(/api/jobs/([0-9a-z]+))", wrap([this](const httplib::Request& req) {
               auto job = find_job(req.matches[1]);
               job->control.cancel(StopReason::Cancelled);
               job->control.resume();
               return api::job_deleted_json(job->id);
             }));
    s.Get("/", [this](const httplib::Request& req, httplib::Response& res) { asset(req, res); });
    s.Get(R"(/[A-Za-z0-9_./-]*)",
          [this](const httplib::Request& req, httplib::Response& res) { asset(req, res); });
  }

  // What is neither a route nor a page file: the dispatcher's answer (a 404 naming the path).
  void not_found(const httplib::Request& req, httplib::Response& res) {
    const api::Reply r = dispatcher_.handle(req.method, req.path, nullptr);
    send_json(res, r.body, r.status);
  }

  // Cancels jobs nobody polls, forgets old finished ones; called about five times a second.
  void tend() {
    clients_.check();
    std::vector<std::shared_ptr<Job>> done;
    {
      std::lock_guard lock(jobs_m_);
      const auto now = SteadyClock::now();
      for (auto& [id, job] : jobs_)
        if (!job->finished &&
            std::chrono::duration<double>(now - job->last_poll).count() > opt_.job_lease_seconds) {
          job->control.cancel(StopReason::Cancelled);
          job->control.resume();
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

  void stop_jobs() {
    std::map<std::string, std::shared_ptr<Job>> all;
    {
      std::lock_guard lock(jobs_m_);
      all.swap(jobs_);
    }
    for (auto& [id, job] : all) {
      job->control.cancel(StopReason::Cancelled);
      job->control.resume();
    }
    for (auto& [id, job] : all)
      if (job->thread.joinable()) job->thread.join();
  }

 private:
  template <class F>
  static void handle(httplib::Response& res, F&& f) {
    try {
      f();
    } catch (const ApiError& e) {
      if (e.status == 503) res.set_header("Retry-After", "1");
      send_error(res, e.status, e.what());
    } catch (const InputError& e) {
      send_error(res, 400, e.what());
    } catch (const std::bad_alloc&) {
      send_error(res, 503, "out of memory for this request");
    } catch (const std::exception& e) {
      send_error(res, 500, std::string("internal error: ") + e.what());
    }
  }

  template <class F>
  static httplib::Server::Handler wrap(F f) {
    return [f](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] { send_json(res, f(req)); });
    };
  }

  // One request of the dispatcher's: the body parsed (POST), the path with the query as it came;
  // a computing one under a Call, admitted once the dispatcher has checked it.
  void forward(const httplib::Request& req, httplib::Response& res, std::string_view method) {
    handle(res, [&] {
      const json body = method == "POST" ? api::parse_body(req.body) : json(nullptr);
      std::string target = req.path;
      if (const std::size_t q = req.target.find('?'); q != std::string::npos)
        target += req.target.substr(q);
      if (!api::Dispatcher::computes(method, req.path)) {
        const api::Reply r = dispatcher_.handle(method, target, body, &control_);
        send_json(res, r.body, r.status);
        return;
      }
      Call call(req, slots_, control_, clients_);
      const api::Reply r =
          dispatcher_.handle(method, target, body, &call.control, [&call] { call.admit(); });
      if (call.busy()) res.set_header("Retry-After", "1");
      send_json(res, r.body, r.status);
    });
  }

  void asset(const httplib::Request& req, httplib::Response& res) {
    std::size_t n = 0;
    const WebAsset* a = web_assets(n);
    std::string path = req.path == "/" ? "/index.html" : req.path;
    for (std::size_t i = 0; i < n; ++i)
      if (a[i].path == path) {
        res.set_content(std::string(a[i].data), std::string(a[i].type).c_str());
        res.set_header("Cache-Control", "no-cache");
        return;
      }
    not_found(req, res);
  }

  std::shared_ptr<Job> find_job(const std::string& id) {
    std::lock_guard lock(jobs_m_);
    auto it = jobs_.find(id);
    if (it == jobs_.end())
      throw ApiError(404, "no job " + id + " (finished jobs are kept a while)");
    return it->second;
  }

  // POST /api/jobs: the body checked by the dispatcher, then its job run on a thread of its own
  // (at most max_jobs at once).
  json start_job(const json& body) {
    const api::JobSpec spec = dispatcher_.job(body);
    auto job = std::make_shared<Job>(&control_);
    {
      std::lock_guard lock(jobs_m_);
      int running = 0;
      for (auto& [id, j] : jobs_) running += !j->finished;
      if (running >= opt_.max_jobs)
        throw ApiError(503, "the server runs " + std::to_string(running) +
                                " jobs, its most; retry when one ends");
      job->id = std::to_string(++next_id_);
      job->kind = spec.kind;
      jobs_[job->id] = job;
      order_.push_back(job->id);
    }
    job->thread = std::thread([this, job, spec] {
      Job* raw = job.get();
      json result;
      std::string error;
      try {
        result = dispatcher_.run(spec, job->control, [raw](const json& p) {
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

  const ServeOptions& opt_;
  const Control& control_;
  Slots slots_;
  std::mutex jobs_m_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;
  std::deque<std::string> order_;
  Clients clients_;
  api::Dispatcher dispatcher_;  // the endpoints, the analyzers and the look-ups they share
  std::uint64_t next_id_ = 0;
};

}  // namespace

int serve(const ServeOptions& options, const Control& control,
          const std::function<void(int port)>& on_listen) {
  httplib::Server s;
  const int threads = options.http_threads;
  s.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  s.set_payload_max_length(options.max_body);
  s.set_read_timeout(5, 0);
  s.set_write_timeout(5, 0);
  s.set_keep_alive_max_count(100);
  s.set_keep_alive_timeout(5);
  Api api(options, control);
  api.routes(s);
  s.set_error_handler([&options, &api](const httplib::Request& req, httplib::Response& res) {
    if (res.status == 413 && res.body.empty())
      send_error(res, 413,
                 "the request body is larger than the server's " +
                     std::to_string(options.max_body) + " bytes");
    else if (res.status == 404 && res.body.empty())
      api.not_found(req, res);
    else if (res.body.empty())
      send_error(res, res.status,
                 "the request could not be served (HTTP " + std::to_string(res.status) + ")");
  });
  // The library listens with a backlog of 5, which drops and resets connections when dozens of
  // clients connect at once; listen() again on the bound socket raises it.
  int listen_fd = -1;
  s.set_socket_options([&listen_fd](socket_t fd) {
    httplib::default_socket_options(fd);
    listen_fd = fd;
  });
  int port = options.port;
  if (port == 0) {
    port = s.bind_to_any_port(options.host);
    if (port < 0) return 1;
  } else if (!s.bind_to_port(options.host, port)) {
    return 1;
  }
  if (listen_fd >= 0) ::listen(listen_fd, SOMAXCONN);
  if (on_listen) on_listen(port);
  std::atomic<bool> done{false};
  // httplib's stop() does nothing before listen_after_bind() has started, so a signal that comes
  // first (right after the "listening" line) waits here until the server runs.
  std::thread watcher([&] {
    bool stopped = false;
    while (!done.load()) {
      const bool stopping = control.should_stop();
      if (stopping && !stopped && s.is_running()) {
        s.stop();
        stopped = true;
      }
      if (!stopping) api.tend();
      std::this_thread::sleep_for(std::chrono::milliseconds(stopping ? 5 : 100));
    }
  });
  s.listen_after_bind();
  done = true;
  watcher.join();
  api.stop_jobs();
  return 0;
}

}  // namespace pegsol::server
