// `pegsol serve`: routes, request limits, the compute slots and the job table (docs/api.md).
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
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "assets.hpp"
#include "pegsol/analysis.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/json.hpp"
#include "pegsol/path_index.hpp"
#include "pegsol/play.hpp"
#include "pegsol/presets.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/spec.hpp"

namespace pegsol::server {

namespace {

using nlohmann::json;
using SteadyClock = std::chrono::steady_clock;

// An answer other than 200, with the message the client gets as {"error": message}.
struct HttpError : std::runtime_error {
  HttpError(int s, const std::string& m) : std::runtime_error(m), status(s) {}
  int status;
};

void send_json(httplib::Response& res, const json& j, int status = 200) {
  res.status = status;
  res.set_content(j.dump(), "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  send_json(res, {{"error", message}, {"status", status}}, status);
}

json parse_body(const httplib::Request& req) {
  if (req.body.empty()) return json::object();
  json j;
  try {
    j = json::parse(req.body);
  } catch (const json::parse_error& e) {
    throw HttpError(400, "malformed JSON in the request body at byte " + std::to_string(e.byte) +
                             ": " + e.what());
  } catch (const json::exception& e) {
    // A number past a double's range ("1e999") is an out_of_range, not a parse_error.
    throw HttpError(400, std::string("malformed JSON in the request body: ") + e.what());
  }
  if (!j.is_object()) throw HttpError(400, "the request body must be a JSON object");
  return j;
}

// The string at `key`, empty when absent; the server never reads files, so no @FILE.
std::string field(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_string()) throw HttpError(400, std::string("\"") + key + "\" must be a string");
  std::string s = it->get<std::string>();
  if (!s.empty() && s[0] == '@')
    throw HttpError(400, std::string("\"") + key + "\": the server reads no files (" + s +
                             "); send a drawn board as \"drawing\" and positions as 0/1 strings");
  return s;
}

double number(const json& j, const char* key, double fallback) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if (!it->is_number()) throw HttpError(400, std::string("\"") + key + "\" must be a number");
  return it->get<double>();
}

// The request's problem: the CLI's option names as keys ("board", "lattice", "start", "end"),
// or "drawing" (a board drawn as text, docs/board-format.md) instead of "board", and "goal" as
// a 0/1 string for a whole target position.
Problem request_problem(const json& body) {
  ProblemSpec spec;
  spec.board = field(body, "board");
  spec.lattice = field(body, "lattice");
  spec.start = field(body, "start");
  spec.end = field(body, "end");
  const std::string drawing = field(body, "drawing"), goal = field(body, "goal");
  if (!goal.empty() && !spec.end.empty())
    throw InputError("\"goal\" and \"end\" exclude each other");
  Problem p;
  if (!drawing.empty()) {
    if (!spec.board.empty()) throw InputError("\"drawing\" and \"board\" exclude each other");
    std::optional<Lattice> lattice;
    if (!spec.lattice.empty()) {
      lattice = parse_lattice(spec.lattice);
      if (!lattice)
        throw InputError("--lattice " + spec.lattice + ": expected square, square8 or triangular");
    }
    Drawing d = parse_drawing(drawing, "drawing", lattice);
    p.board = d.board;
    if (spec.start.empty())
      p.start = d.pegs;
    else if (auto h = d.board->find(spec.start))
      p.start = single_vacancy(*d.board, *h);
    else
      p.start = Position::parse(d.board, spec.start, "--start").pegs();
    if (spec.end.empty() || spec.end == "any") {
      p.goal.kind = Goal::Kind::Any;
    } else if (auto h = d.board->find(spec.end)) {
      p.goal.kind = Goal::Kind::Hole;
      p.goal.hole = *h;
    } else {
      throw InputError("--end " + spec.end + ": no hole of the drawing is named '" + spec.end +
                       "'");
    }
  } else {
    p = build_problem(spec);
  }
  if (!goal.empty()) {
    p.goal.kind = Goal::Kind::Position;
    p.goal.hole = -1;
    p.goal.position = Position::parse(p.board, goal, "--goal").pegs();
  }
  return p;
}

// The request's game: its problem and "moves" (chains, an array or one string separated by
// spaces) played in turn; an illegal move is named with its number.
Game request_game(const json& body) {
  Game g(request_problem(body));
  std::vector<std::string> chains;
  auto it = body.find("moves");
  if (it != body.end() && !it->is_null()) {
    if (it->is_string()) {
      std::string s = it->get<std::string>();
      std::size_t i = 0;
      while (i < s.size()) {
        std::size_t j = s.find_first_of(" ,\t\n", i);
        if (j == std::string::npos) j = s.size();
        if (j > i) chains.push_back(s.substr(i, j - i));
        i = j + 1;
      }
    } else if (it->is_array()) {
      for (const json& m : *it) {
        if (!m.is_string()) throw HttpError(400, "\"moves\" must hold strings like \"d2-d4\"");
        chains.push_back(m.get<std::string>());
      }
    } else {
      throw HttpError(400, "\"moves\" must be an array of moves or a string");
    }
  }
  for (std::size_t i = 0; i < chains.size(); ++i) {
    try {
      g.play(parse_move_chain(*g.problem().board, chains[i]));
    } catch (const InputError& e) {
      throw InputError("moves: move " + std::to_string(i + 1) + " (" + chains[i] +
                       "): " + e.what());
    }
  }
  return g;
}

// The problem of going on from the game's current position towards its goal.
Problem from_here(const Game& g) {
  Problem p = g.problem();
  p.start = g.position().pegs();
  return p;
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

struct SlotGuard {
  explicit SlotGuard(Slots& s) : slots(s) {
    if (!slots.take())
      throw HttpError(503, "the server is busy (every compute slot is taken); retry shortly");
  }
  ~SlotGuard() { slots.give(); }
  SlotGuard(const SlotGuard&) = delete;
  SlotGuard& operator=(const SlotGuard&) = delete;
  Slots& slots;
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
  SteadyClock::time_point last_poll = SteadyClock::now(), started = SteadyClock::now();
  double seconds = 0;
  std::thread thread;

  json to_json() {
    std::lock_guard lock(m);
    std::string state = "running";
    if (finished)
      state = !error.empty()                                   ? "failed"
              : control.stop_reason() == StopReason::Cancelled ? "cancelled"
                                                               : "done";
    else if (control.stop_reason() == StopReason::Cancelled)
      state = "cancelling";
    else if (control.paused())
      state = "paused";
    return {{"id", id},
            {"kind", kind},
            {"state", state},
            {"progress", progress},
            {"result", result},
            {"error", error.empty() ? json(nullptr) : json(error)},
            {"stop", std::string(stop_reason_name(control.stop_reason()))}};
  }
};

json progress_json(const ProgressReport& r) {
  return {{"done", r.done},
          {"total", r.total},
          {"fraction", r.fraction},
          {"seconds", r.seconds},
          {"eta_seconds", r.eta_seconds},
          {"phase", std::string(r.phase)},
          {"positions", r.positions},
          {"memory_bytes", r.memory_bytes},
          {"level", r.level}};
}

// A fewest-moves job's progress: progress_json's fields (no fraction: the search's size is not
// known ahead) and the bounds closing, "lower_bound" and "best_found" (-1: none yet); "shortening"
// once the passes ran out of memory and the best solution is being shortened.
json fewest_progress_json(const FewestProgress& p) {
  return {{"done", 0},
          {"total", 0},
          {"fraction", 0},
          {"seconds", p.seconds},
          {"eta_seconds", 0},
          {"phase", "fewest"},
          {"positions", p.positions},
          {"memory_bytes", 0},
          {"level", -1},
          {"lower_bound", p.lower_bound},
          {"best_found", p.best_found},
          {"shortening", p.shortening}};
}

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

// One computing request: a compute slot (503 when none is free), a control under the server's
// (stopped at shutdown), cancelled when the client goes away.
struct Call {
  Call(const httplib::Request& req, Slots& slots, const Control& server, Clients& clients)
      : slot(slots),
        control(&server),
        clients(clients),
        id(clients.add(connection_of(req), &control)) {}
  ~Call() { clients.remove(id); }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;
  SlotGuard slot;
  Control control;
  Clients& clients;
  int id;
};

class Api {
 public:
  Api(const ServeOptions& o, const Control& c)
      : opt_(o), control_(c), slots_(o.compute_slots), paths_(path_options(o)) {}

  ~Api() { stop_jobs(); }

  void routes(httplib::Server& s) {
    s.Get("/api/boards", wrap([](const httplib::Request&) { return catalogue_json(); }));
    s.Get("/api/presets", wrap([](const httplib::Request&) { return presets_json(); }));
    s.Get("/api/status", wrap([this](const httplib::Request&) {
            return json{{"compute_slots", opt_.compute_slots},
                        {"free_slots", slots_.free()},
                        {"lookup_bytes", paths_.bytes()},
                        {"cancelled_client_gone", clients_.gone()}};
          }));
    s.Get("/api/board", wrap([](const httplib::Request& req) {
            json body = json::object();
            for (const char* k : {"board", "lattice"})
              if (req.has_param(k)) body[k] = req.get_param_value(k);
            return geometry_json(*request_problem_board(body));
          }));
    s.Post("/api/board", wrap([](const httplib::Request& req) {
             return geometry_json(*request_problem_board(parse_body(req)));
           }));
    s.Post("/api/game", wrap([](const httplib::Request& req) {
             json body = parse_body(req);
             if (body.contains("text")) {
               auto it = body.find("text");
               if (!it->is_string()) throw HttpError(400, "\"text\" must be a string");
               return game_json(Game::parse(it->get<std::string>(), "game"));
             }
             return game_json(request_game(body));
           }));
    s.Post("/api/solve", wrap([this](const httplib::Request& req) { return solve_request(req); }));
    s.Post("/api/hint", wrap([this](const httplib::Request& req) { return hint_request(req); }));
    s.Post("/api/mistake",
           wrap([this](const httplib::Request& req) { return mistake_request(req); }));
    s.Post("/api/analysis",
           wrap([this](const httplib::Request& req) { return analysis_request(req); }));
    s.Post("/api/jobs", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] { send_json(res, start_job(parse_body(req)), 202); });
    });
    s.Get("/api/jobs", wrap([this](const httplib::Request&) {
            json all = json::array();
            std::lock_guard lock(jobs_m_);
            for (auto& [id, job] : jobs_) all.push_back(job->to_json());
            return json{{"jobs", all}};
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
               return json{{"id", job->id}, {"deleted", true}};
             }));
    s.Get("/", [](const httplib::Request& req, httplib::Response& res) { asset(req, res); });
    s.Get(R"(/[A-Za-z0-9_./-]*)",
          [](const httplib::Request& req, httplib::Response& res) { asset(req, res); });
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
    } catch (const HttpError& e) {
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

  static BoardPtr request_problem_board(const json& body) {
    if (body.contains("drawing")) return request_problem(body).board;
    ProblemSpec spec;
    spec.board = field(body, "board");
    spec.lattice = field(body, "lattice");
    return build_board(spec);
  }

  static void asset(const httplib::Request& req, httplib::Response& res) {
    std::size_t n = 0;
    const WebAsset* a = web_assets(n);
    std::string path = req.path == "/" ? "/index.html" : req.path;
    for (std::size_t i = 0; i < n; ++i)
      if (a[i].path == path) {
        res.set_content(std::string(a[i].data), std::string(a[i].type).c_str());
        res.set_header("Cache-Control", "no-cache");
        return;
      }
    send_error(res, 404, "no page or API endpoint at " + req.path + " (see docs/api.md)");
  }

  // A search's options under the server's caps: "time_limit" (seconds) at most
  // request_seconds, the table at most request_memory.
  SolveOptions request_options(const json& body, Control& c) const {
    double t = number(body, "time_limit", opt_.request_seconds);
    if (!(t > 0) || t > opt_.request_seconds) t = opt_.request_seconds;
    c.set_time_limit(t);
    SolveOptions o;
    o.control = &c;
    o.memory_limit = opt_.request_memory;
    o.threads = 1;
    return o;
  }

  // Without moves: what `pegsol solve --json` prints. With moves: what `pegsol solve --moves
  // ... --json` prints, the game finished keeping them (finish_json: the whole game from the
  // start, the kept jumps first, "kept_moves" of them). With "minimize": "moves", the same with
  // --minimize moves: the fewest moves from the start, or from the position the moves leave.
  json solve_request(const httplib::Request& req) {
    json body = parse_body(req);
    Game g = request_game(body);
    const std::string minimize = field(body, "minimize");
    if (!minimize.empty() && minimize != "moves")
      throw InputError("\"minimize\": expected \"moves\", got \"" + minimize + "\"");
    if (!minimize.empty() && (body.contains("algorithm") || body.contains("direction")))
      throw InputError(
          "\"minimize\": the fewest-moves search takes no \"algorithm\" or \"direction\"");
    Call call(req, slots_, control_, clients_);
    Control& c = call.control;
    SolveOptions o = request_options(body, c);
    if (!minimize.empty()) {
      c.set_memory_budget(opt_.request_memory);
      FewestOptions f;
      f.control = &c;
      f.threads = 1;
      if (g.cursor() == 0) return fewest_json(g.problem(), fewest_solve(g.problem(), f));
      return fewest_finish_json(g.problem(), fewest_finish(g.problem(), g.played(), f));
    }
    if (std::string a = field(body, "algorithm"); !a.empty()) {
      auto alg = parse_algorithm(a);
      if (!alg) throw InputError("--algorithm " + a + ": expected auto, dfs, beam or beam-report");
      o.algorithm = *alg;
    }
    if (std::string d = field(body, "direction"); !d.empty()) {
      auto dir = parse_direction(d);
      if (!dir) throw InputError("--direction " + d + ": expected forward or backward");
      o.direction = *dir;
    }
    check_solve_options(o);
    if (g.cursor() > 0) return finish_json(g.problem(), finish_game(g.problem(), g.played(), o));
    return solve_json(g.problem(), solve(g.problem(), o));
  }

  // An analyzer of the game's board and goal for one request, given back when the lease ends.
  // An analyzer answers one call at a time, so each key keeps a few (idle ones are reused: they
  // remember counts and solutions); at most analyzer_cache keys, the least recently used dropped.
  struct Lease {
    Api* api;
    std::string key;
    std::shared_ptr<Analyzer> analyzer;
    Lease(Api* a, std::string k, std::shared_ptr<Analyzer> an)
        : api(a), key(std::move(k)), analyzer(std::move(an)) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { api->give_back(key, std::move(analyzer)); }
    Analyzer* operator->() const { return analyzer.get(); }
  };

  Lease analyzer_for(const Game& g) {
    const Problem& p = g.problem();
    std::string key = p.board->name() + "|" + std::to_string(p.board->size()) + "|" +
                      std::string(lattice_name(p.board->lattice())) + "|";
    for (int h = 0; h < p.board->size(); ++h)
      key += std::to_string(p.board->coord(h).r) + "," + std::to_string(p.board->coord(h).c) + ";";
    key += "|" + std::to_string(static_cast<int>(p.goal.kind)) + ":" + std::to_string(p.goal.hole) +
           ":" + (p.goal.kind == Goal::Kind::Position ? p.goal.position.to_bits() : "");
    {
      std::lock_guard lock(analyzers_m_);
      for (auto it = analyzers_.begin(); it != analyzers_.end(); ++it)
        if (it->first == key) {
          analyzers_.splice(analyzers_.begin(), analyzers_, it);
          auto& idle = analyzers_.front().second;
          if (!idle.empty()) {
            auto a = std::move(idle.back());
            idle.pop_back();
            return Lease(this, key, std::move(a));
          }
          break;
        }
    }
    return Lease(this, key, std::make_shared<Analyzer>(p.board, p.goal));
  }

  void give_back(const std::string& key, std::shared_ptr<Analyzer> a) {
    std::lock_guard lock(analyzers_m_);
    auto it = analyzers_.begin();
    while (it != analyzers_.end() && it->first != key) ++it;
    if (it == analyzers_.end()) {
      analyzers_.emplace_front(key, std::vector<std::shared_ptr<Analyzer>>{});
      it = analyzers_.begin();
    }
    if (static_cast<int>(it->second.size()) < opt_.idle_analyzers)
      it->second.push_back(std::move(a));
    while (static_cast<int>(analyzers_.size()) > opt_.analyzer_cache) analyzers_.pop_back();
  }

  static PathIndexCache::Options path_options(const ServeOptions& s) {
    PathIndexCache::Options o;
    o.build_memory = s.lookup_memory;
    o.build_seconds = s.lookup_seconds;
    o.keep_bytes = s.lookup_keep;
    return o;
  }

  // The options of an analysis of `g`'s position from the request body: the game's moves were
  // replayed from its start, so the shared solution-path look-ups answer once built.
  AnalysisOptions analysis_options(const json& body, const Control& c, const Game& g) {
    AnalysisOptions o;
    o.control = &c;
    o.start = g.problem().start;
    o.paths = &paths_;
    double t = number(body, "time_limit", std::min(2.0, opt_.request_seconds));
    if (!(t > 0) || t > opt_.request_seconds) t = opt_.request_seconds;
    o.time_limit = t;
    auto count = body.find("count");
    if (count != body.end() && count->is_boolean()) o.count = count->get<bool>();
    return o;
  }

  // Live feedback (pegsol/analysis.hpp): solvable to one peg and to the goal (the proof when
  // not), the ways left and the holes the last peg can end on, a hint.
  json analysis_request(const httplib::Request& req) {
    json body = parse_body(req);
    Game g = request_game(body);
    Call call(req, slots_, control_, clients_);
    Control& c = call.control;
    Lease a = analyzer_for(g);
    AnalysisOptions o = analysis_options(body, c, g);
    json out = analysis_json(g.position(), a->analyze(g.position(), o));
    out["finished"] = g.finished();
    out["won"] = g.won();
    return out;
  }

  // A hint: the next move of a solution to the goal (or, when the goal is lost, to one peg).
  json hint_request(const httplib::Request& req) {
    json body = parse_body(req);
    Game g = request_game(body);
    Call call(req, slots_, control_, clients_);
    Control& c = call.control;
    AnalysisOptions o = analysis_options(body, c, g);
    o.count = false;
    Analysis a = [&] {
      Lease an = analyzer_for(g);
      return an->analyze(g.position(), o);
    }();
    Hint h;
    h.answer = a.hint_to_goal || !a.hint ? a.goal : a.one_peg;
    h.move = a.hint;
    json out = hint_json(*g.problem().board, h);
    out["to_goal"] = a.hint_to_goal;
    return out;
  }

  // "Where did I go wrong": the first played move after which the goal was lost.
  json mistake_request(const httplib::Request& req) {
    json body = parse_body(req);
    Game g = request_game(body);
    Call call(req, slots_, control_, clients_);
    Control& c = call.control;
    AnalysisOptions o = analysis_options(body, c, g);
    o.time_limit = opt_.request_seconds;
    Lease an = analyzer_for(g);
    return mistake_json(g, an->first_mistake(g, o));
  }

  std::shared_ptr<Job> find_job(const std::string& id) {
    std::lock_guard lock(jobs_m_);
    auto it = jobs_.find(id);
    if (it == jobs_.end())
      throw HttpError(404, "no job " + id + " (finished jobs are kept a while)");
    return it->second;
  }

  json start_job(const json& body) {
    const std::string kind = field(body, "kind");
    if (kind != "count" && kind != "table" && kind != "solve" && kind != "fewest")
      throw HttpError(
          400,
          "\"kind\" must be \"count\", \"table\", \"solve\" or \"fewest\", not \"" + kind + "\"");
    Problem p = from_here(request_game(body));
    if (kind != "solve" && kind != "fewest" && p.board->size() > opt_.max_census_holes)
      throw HttpError(413, "board " + p.board->name() + " has " + std::to_string(p.board->size()) +
                               " holes: a " + kind + " job takes boards of at most " +
                               std::to_string(opt_.max_census_holes) + " holes here");
    auto job = std::make_shared<Job>(&control_);
    {
      std::lock_guard lock(jobs_m_);
      int running = 0;
      for (auto& [id, j] : jobs_) running += !j->finished;
      if (running >= opt_.max_jobs)
        throw HttpError(503, "the server runs " + std::to_string(running) +
                                 " jobs, its most; retry when one ends");
      job->id = std::to_string(++next_id_);
      job->kind = kind;
      jobs_[job->id] = job;
      order_.push_back(job->id);
    }
    double t = number(body, "time_limit", opt_.job_seconds);
    if (!(t > 0) || t > opt_.job_seconds) t = opt_.job_seconds;
    job->control.set_time_limit(t);
    job->control.set_memory_budget(opt_.job_memory);
    Job* raw = job.get();
    job->control.set_progress(
        [raw](const ProgressReport& r) {
          std::lock_guard lock(raw->m);
          raw->progress = progress_json(r);
        },
        0.2);
    const std::size_t memory = opt_.job_memory;
    job->thread = std::thread([job, p, kind, memory] {
      json result;
      std::string error;
      try {
        if (kind == "count") {
          CensusOptions co;
          co.control = &job->control;
          co.threads = 1;
          co.memory_limit = memory;
          result = census_json(p, census(p, co));
        } else if (kind == "table") {
          CensusOptions co;
          co.control = &job->control;
          co.threads = 1;
          co.memory_limit = memory;
          result = table_json(*p.board, solvability_table(p.board, co), TableMethod::Auto);
        } else if (kind == "fewest") {
          FewestOptions f;
          f.control = &job->control;
          f.threads = 1;
          Job* raw = job.get();
          f.progress = [raw](const FewestProgress& r) {
            std::lock_guard lock(raw->m);
            raw->progress = fewest_progress_json(r);
          };
          result = fewest_json(p, fewest_solve(p, f));
        } else {
          SolveOptions o;
          o.control = &job->control;
          o.memory_limit = memory;
          o.threads = 1;
          result = solve_json(p, solve(p, o));
        }
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
  std::mutex analyzers_m_;
  std::list<std::pair<std::string, std::vector<std::shared_ptr<Analyzer>>>> analyzers_;
  PathIndexCache paths_;  // shared by every analyzer
  Clients clients_;
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
  s.set_error_handler([&options](const httplib::Request& req, httplib::Response& res) {
    if (res.status == 413 && res.body.empty())
      send_error(res, 413,
                 "the request body is larger than the server's " +
                     std::to_string(options.max_body) + " bytes");
    else if (res.status == 404 && res.body.empty())
      send_error(res, 404, "no page or API endpoint at " + req.path + " (see docs/api.md)");
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
  Api api(options, control);
  api.routes(s);
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
