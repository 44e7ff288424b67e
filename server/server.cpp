// SPDX-License-Identifier: MIT
// `pegsol serve`: HTTP over the library's dispatcher (pegsol/api.hpp): routes, the compute slots,
// the connection watcher, the job table and /api/status (docs/api.md).
#include "server.hpp"

#include <dirent.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
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
#include <random>
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
  SteadyClock::time_point paused_at;  // when pause was asked (while paused)
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
      auto seconds_since = [&](SteadyClock::time_point t) {
        return std::chrono::duration<double>(now - t).count();
      };
      for (auto& [id, job] : jobs_) {
        if (job->finished) continue;
        SteadyClock::time_point paused_at;
        {
          std::lock_guard lock(job->m);
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

  // 128 random bits in hex; called with jobs_m_ held.
  std::string new_job_id() {
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
      job->id = new_job_id();
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
  std::random_device random_;   // job ids: unguessable, so another page cannot address a job
};

// A stream of one connection's bytes that bounds each request: at most `budget` bytes read for
// it (line, headers and body) and, on a socket, all of them before its deadline.
class BoundedStream : public httplib::Stream {
 public:
  // A new request begins: `bytes` of budget, `seconds` to read it all.
  void start_request(std::size_t bytes, double seconds) {
    budget_ = bytes;
    deadline_ = SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                         std::chrono::duration<double>(seconds));
    over_ = expired_ = false;
  }
  bool over() const { return over_; }        // the request needed more than its budget
  bool expired() const { return expired_; }  // a read waited past the request's deadline
  bool buffered() const { return pos_ < len_; }

  ssize_t read(char* ptr, size_t size) override {
    if (pos_ == len_) {
      if (budget_ == 0) {
        over_ = true;
        return -1;
      }
      const ssize_t n = fill(buf_, std::min(sizeof buf_, budget_));
      if (n <= 0) return -1;
      budget_ -= static_cast<std::size_t>(n);
      pos_ = 0;
      len_ = static_cast<std::size_t>(n);
    }
    const std::size_t n = std::min(size, len_ - pos_);
    std::memcpy(ptr, buf_ + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }

 protected:
  // Up to `size` new bytes into `to`: their number, or 0 or less at the end, an error or the
  // request's deadline.
  virtual ssize_t fill(char* to, std::size_t size) = 0;
  // Milliseconds left before the request's deadline (0 when past).
  int left_ms() const {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - SteadyClock::now());
    return left.count() > 0 ? static_cast<int>(std::min<long long>(left.count(), 1 << 30)) : 0;
  }

 private:
  char buf_[4096];
  std::size_t pos_ = 0, len_ = 0, budget_ = 0;
  SteadyClock::time_point deadline_ = SteadyClock::now();
  bool over_ = false;

 protected:
  bool expired_ = false;
};

// A connection's socket.
class SocketStream final : public BoundedStream {
 public:
  SocketStream(socket_t fd, int write_ms) : fd_(fd), write_ms_(write_ms) {}
  // Whether a request's first byte comes within `ms`.
  bool wait_request(int ms) const { return buffered() || poll_for(POLLIN, ms); }
  bool is_readable() const override { return buffered() || poll_for(POLLIN, left_ms()); }
  bool is_writable() const override { return poll_for(POLLOUT, write_ms_); }
  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    return ::send(fd_, ptr, size, MSG_NOSIGNAL);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address(&getpeername, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address(&getsockname, ip, port);
  }
  socket_t socket() const override { return fd_; }

 private:
  ssize_t fill(char* to, std::size_t size) override {
    if (!poll_for(POLLIN, left_ms())) {
      expired_ = true;
      return -1;
    }
    ssize_t n;
    do n = ::recv(fd_, to, size, 0);
    while (n < 0 && errno == EINTR);
    return n;
  }
  bool poll_for(short events, int ms) const {
    pollfd p{fd_, events, 0};
    int n;
    do n = ::poll(&p, 1, ms);
    while (n < 0 && errno == EINTR);
    return n > 0 && (p.revents & (events | POLLHUP | POLLERR));
  }
  void address(int (*get)(int, sockaddr*, socklen_t*), std::string& ip, int& port) const {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    char host[NI_MAXHOST], serv[NI_MAXSERV];
    if (get(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0 &&
        getnameinfo(reinterpret_cast<sockaddr*>(&a), len, host, sizeof host, serv, sizeof serv,
                    NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
      ip = host;
      port = std::atoi(serv);
    }
  }
  socket_t fd_;
  int write_ms_;
};

// Bytes in memory as a client on loopback: what RawServer reads, and what it writes back.
class MemoryStream final : public BoundedStream {
 public:
  explicit MemoryStream(std::string_view in) : in_(in) {}
  bool at_end() const { return !buffered() && at_ == in_.size(); }
  bool is_readable() const override { return !at_end(); }
  bool is_writable() const override { return true; }
  ssize_t write(const char* ptr, size_t size) override {
    out.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 40000;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 8080;
  }
  socket_t socket() const override { return INVALID_SOCKET; }
  std::string out;

 private:
  ssize_t fill(char* to, std::size_t size) override {
    const std::size_t n = std::min(size, in_.size() - at_);
    std::memcpy(to, in_.data() + at_, n);
    at_ += n;
    return static_cast<ssize_t>(n);
  }
  std::string_view in_;
  std::size_t at_ = 0;
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Who may use the server: the names a Host header may give (loopback, the bound address, the
// hosts of the allowed origins) and the origins of pages that may call it (the server's own
// page under those names, and --allow-origin).
class Policy {
 public:
  Policy(const ServeOptions& o, int port) {
    std::vector<std::string> own = {"127.0.0.1", "[::1]", "localhost"};
    const std::string host = lower(o.host);
    if (!host.empty() && host != "0.0.0.0" && host != "::")
      own.push_back(host.find(':') != std::string::npos ? "[" + host + "]" : host);
    for (const std::string& h : own) {
      hosts_.push_back(h);
      origins_.push_back("http://" + h + ":" + std::to_string(port));
      if (port == 80) origins_.push_back("http://" + h);
    }
    for (std::string origin : o.allow_origins) {
      origin = lower(origin);
      while (!origin.empty() && origin.back() == '/') origin.pop_back();
      origins_.push_back(origin);
      const std::size_t scheme = origin.find("://");
      std::string rest = scheme == std::string::npos ? origin : origin.substr(scheme + 3);
      hosts_.push_back(name_of(rest));
    }
  }

  // Why `req` is refused (the status and message), or status 0 when it may be served.
  std::pair<int, std::string> check(const httplib::Request& req) const {
    if (req.has_header("Host")) {
      const std::string host = req.get_header_value("Host");
      if (!allowed(hosts_, name_of(lower(host))))
        return {403, "this server answers to " + list(hosts_) + ", not to the host \"" +
                         printable(host) +
                         "\" (a page of another site reaching it through its own name is "
                         "refused; pegsol serve --allow-origin widens)"};
    }
    if (req.has_header("Origin")) {
      const std::string origin = req.get_header_value("Origin");
      std::string o = lower(origin);
      while (!o.empty() && o.back() == '/') o.pop_back();
      if (!allowed(origins_, o))
        return {403, "requests from the page at \"" + printable(origin) +
                         "\" are refused: only this server's own page may use it (pegsol serve "
                         "--allow-origin " +
                         printable(origin) + " allows that page)"};
    }
    if (req.has_header("Transfer-Encoding"))
      return {411, "a request body must come with a Content-Length (a chunked body is refused)"};
    if (req.method != "GET" && req.method != "HEAD" &&
        req.get_header_value("Content-Length") != "0") {
      const std::string type = lower(req.get_header_value("Content-Type"));
      const std::string media = type.substr(0, type.find(';'));
      if (media.find_first_not_of(' ') == std::string::npos ||
          media.substr(0, media.find_last_not_of(' ') + 1) != "application/json")
        return {415, "a request body must be JSON sent as Content-Type: application/json, not \"" +
                         printable(req.get_header_value("Content-Type")) + "\""};
    }
    return {0, {}};
  }

 private:
  // A Host header's name: without its port, an IPv6 address in brackets.
  static std::string name_of(const std::string& host) {
    if (!host.empty() && host[0] == '[') return host.substr(0, host.find(']') + 1);
    return host.substr(0, host.find(':'));
  }
  static bool allowed(const std::vector<std::string>& set, const std::string& s) {
    return std::find(set.begin(), set.end(), s) != set.end();
  }
  static std::string list(const std::vector<std::string>& set) {
    std::string out;
    for (const std::string& s : set) out += (out.empty() ? "" : ", ") + s;
    return out;
  }
  // At most 200 bytes of a header, for a message.
  static std::string printable(const std::string& s) {
    return s.size() > 200 ? s.substr(0, 200) + "..." : s;
  }
  std::vector<std::string> hosts_, origins_;
};

// cpp-httplib's server with its connections served here: TCP_NODELAY, at most max_connections
// at once (the others get 503 and are closed), each request read whole within read_seconds and
// its body within max_body bytes however it is sent (a body without a length is empty; a
// chunked one is refused), and no request read before the Policy let its headers through.
class HttpServer final : public httplib::Server {
 public:
  explicit HttpServer(const ServeOptions& o) : opt_(o), policy_(o, o.port) {
    set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      std::pair<int, std::string> refused;
      {
        std::lock_guard lock(policy_m_);
        refused = policy_.check(req);
      }
      if (refused.first == 0) return HandlerResponse::Unhandled;
      send_error(res, refused.first, refused.second);
      return HandlerResponse::Handled;
    });
  }

  // The port the server answers on, once bound (the origins of its own page name it).
  void bound(int port) {
    std::lock_guard lock(policy_m_);
    policy_ = Policy(opt_, port);
  }

  // Every request of `in` as one connection's, in turn: the bytes written back for each.
  std::vector<std::string> serve_memory(MemoryStream& in) {
    std::vector<std::string> answers;
    for (int n = 0; n < 100 && !in.at_end(); ++n) {
      const bool more = serve_one(in, false);
      if (!in.out.empty()) answers.push_back(std::move(in.out));
      in.out.clear();
      if (!more) break;
    }
    return answers;
  }

 private:
  // Serves one request of `strm`; false when the connection must close.
  bool serve_one(BoundedStream& strm, bool last) {
    strm.start_request(opt_.max_body + kHeadBytes, opt_.read_seconds);
    bool closed = false, unread = false;
    bool ok = false;
    try {
      ok = process_request(strm, last, closed, [&unread](httplib::Request& req) {
        // A body with no length is none (curl -X POST), not one read until the client closes.
        if (!req.has_header("Content-Length") && !req.has_header("Transfer-Encoding"))
          req.set_header("Content-Length", "0");
        unread = req.has_header("Transfer-Encoding");
      });
    } catch (...) {
      ok = false;
    }
    return ok && !closed && !unread && !strm.over() && !strm.expired();
  }

  bool process_and_close_socket(socket_t sock) override {
    const int one = 1;
    ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    SocketStream strm(sock, 5000);
    if (active_.fetch_add(1) >= opt_.max_connections) {
      httplib::Response res;
      const std::string body = dump_json(
          api::error_body(503, "the server serves " + std::to_string(opt_.max_connections) +
                                   " connections, its most; retry shortly"));
      const std::string head =
          "HTTP/1.1 503 Service Unavailable\r\nContent-Type: "
          "application/json\r\nRetry-After: 1\r\nConnection: close\r\n"
          "Content-Length: " +
          std::to_string(body.size()) + "\r\n\r\n";
      strm.write(head.data(), head.size());
      strm.write(body.data(), body.size());
    } else {
      const int wait_ms = static_cast<int>(opt_.keep_alive_seconds * 1000);
      for (int n = 0; n < 100 && is_running(); ++n)
        if (!strm.wait_request(wait_ms) || !serve_one(strm, n == 99)) break;
    }
    active_.fetch_sub(1);
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return true;
  }

  static constexpr std::size_t kHeadBytes = 64u << 10;  // a request's line and headers at most
  const ServeOptions& opt_;
  std::mutex policy_m_;
  Policy policy_;
  std::atomic<int> active_{0};
};

// The error handler: a body naming the error for every status httplib sets without one.
void error_page(const ServeOptions& options, Api& api, const httplib::Request& req,
                httplib::Response& res) {
  if (res.status == 413 && res.body.empty())
    send_error(res, 413,
               "the request body is larger than the server's " + std::to_string(options.max_body) +
                   " bytes");
  else if (res.status == 404 && res.body.empty())
    api.not_found(req, res);
  else if (res.body.empty())
    send_error(res, res.status,
               "the request could not be served (HTTP " + std::to_string(res.status) + ")");
}

}  // namespace

struct RawServer::Impl {
  Impl(const ServeOptions& o, const Control& c) : options(o), server(options), api(options, c) {
    api.routes(server);
    server.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
      error_page(options, api, req, res);
    });
    server.bound(options.port);
  }
  ServeOptions options;
  HttpServer server;
  Api api;
};

RawServer::RawServer(const ServeOptions& options, const Control& control)
    : impl_(std::make_unique<Impl>(options, control)) {}

RawServer::~RawServer() = default;

std::vector<std::string> RawServer::answer(std::string_view requests) {
  MemoryStream in(requests);
  std::vector<std::string> out = impl_->server.serve_memory(in);
  impl_->api.tend();
  return out;
}

int serve(const ServeOptions& options, const Control& control,
          const std::function<void(int port)>& on_listen) {
  HttpServer s(options);
  // Threads beyond the connection bound answer the connections past it (a 503 at once).
  const int threads = options.max_connections + 8;
  s.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  s.set_payload_max_length(options.max_body);
  s.set_read_timeout(5, 0);
  s.set_write_timeout(5, 0);
  s.set_keep_alive_max_count(100);
  s.set_keep_alive_timeout(5);
  s.set_tcp_nodelay(true);
  Api api(options, control);
  api.routes(s);
  s.set_error_handler([&options, &api](const httplib::Request& req, httplib::Response& res) {
    error_page(options, api, req, res);
  });
  // The library listens with a backlog of 5, which drops and resets connections when dozens of
  // clients connect at once; listen() again on the bound socket raises it. Its own options add
  // SO_REUSEPORT, which lets a second server share the port: SO_REUSEADDR alone here, so a port
  // taken is an error at start.
  int listen_fd = -1;
  s.set_socket_options([&listen_fd](socket_t fd) {
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
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
  s.bound(port);
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
