// SPDX-License-Identifier: MIT
// `pegsol serve`: HTTP over the library's dispatcher (pegsol/api.hpp): the routes, the
// connections served (TCP_NODELAY, bounds, the policy) and /api/status (docs/api.md). The
// compute slots and connection watch are in admission.hpp, the jobs in jobs.hpp, the request
// streams in streams.hpp, the Host/Origin policy in policy.hpp.
#include "server.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "admission.hpp"
#include "assets.hpp"
#include "jobs.hpp"
#include "pegsol/api.hpp"
#include "pegsol/error.hpp"
#include "pegsol/json.hpp"
#include "policy.hpp"
#include "streams.hpp"

namespace pegsol::server {

namespace {

using api::ApiError;
using detail::BoundedStream;
using detail::Call;
using detail::Clients;
using detail::JobTable;
using detail::MemoryStream;
using detail::Policy;
using detail::Slots;
using detail::SocketStream;
using nlohmann::json;

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
  l.analysis_memo = o.analysis_memo;
  return l;
}

}  // namespace

// The routes and the HTTP server, in a named namespace: RawServer::Impl holds them, and a class
// with external linkage may not hold members of an anonymous namespace's types (in a unity build
// gcc warns, -Wsubobject-linkage).
namespace detail {

class Api {
 public:
  Api(const ServeOptions& o, const Control& c)
      : opt_(o),
        control_(c),
        slots_(o.compute_slots),
        dispatcher_(limits_of(o)),
        jobs_(o, dispatcher_) {}

  ~Api() { jobs_.stop_all(); }

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
      handle(res, [&] { send_json(res, jobs_.start(api::parse_body(req.body), control_), 202); });
    });
    s.Get("/api/jobs", wrap([this](const httplib::Request&) { return jobs_.list(); }));
    s.Get(R"(/api/jobs/([0-9a-z]+))", wrap([this](const httplib::Request& req) {
            return jobs_.poll(req.matches[1])->to_json();
          }));
    s.Post(R"(/api/jobs/([0-9a-z]+)/(pause|resume|cancel))",
           wrap([this](const httplib::Request& req) {
             return jobs_.act(req.matches[1], req.matches[2]);
           }));
    s.Delete(R"(/api/jobs/([0-9a-z]+))",
             wrap([this](const httplib::Request& req) { return jobs_.remove(req.matches[1]); }));
    s.Get("/", [this](const httplib::Request& req, httplib::Response& res) { asset(req, res); });
    s.Get(R"(/[A-Za-z0-9_./-]*)",
          [this](const httplib::Request& req, httplib::Response& res) { asset(req, res); });
  }

  // What is neither a route nor a page file: the dispatcher's answer (a 404 naming the path).
  void not_found(const httplib::Request& req, httplib::Response& res) {
    const api::Reply r = dispatcher_.handle(req.method, req.path, nullptr);
    send_json(res, r.body, r.status);
  }

  // Cancels computations whose client went away and jobs nobody polls, forgets old finished
  // jobs; called about five times a second.
  void tend() {
    clients_.check();
    jobs_.tend();
  }

  void stop_jobs() { jobs_.stop_all(); }

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

  const ServeOptions& opt_;
  const Control& control_;
  Slots slots_;
  Clients clients_;
  api::Dispatcher dispatcher_;  // the endpoints, the analyzers and the look-ups they share
  JobTable jobs_;               // after the dispatcher: its jobs stop before it goes
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

}  // namespace detail

namespace {

using detail::Api;
using detail::HttpServer;

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
