// SPDX-License-Identifier: MIT
// Admission of the server's computing requests: a bounded number of compute slots, and each
// request's connection watched so that its computation stops when the client goes away.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

#include <httplib.h>

#include "pegsol/control.hpp"

namespace pegsol::server::detail {

// A bounded number of concurrent computations; a request that finds none free gets a 503.
class Slots {
 public:
  explicit Slots(int n) : free_(n) {}
  bool take();
  void give();
  int free() const;

 private:
  mutable std::mutex m_;
  int free_;
};

// The socket of the connection a request came on (its local port, remote address and port), or
// INVALID_SOCKET: httplib gives a handler no handle to it, so the process's descriptors are
// searched. The socket stays open while the handler runs (httplib closes it after the response).
socket_t connection_of(const httplib::Request& req);

// The connections of the requests computing now: check() cancels the computation of each whose
// client has closed its connection (end of stream or a reset; bytes waiting, a pipelined next
// request, mean the client is still there).
class Clients {
 public:
  int add(socket_t s, const Control* c);
  void remove(int id);
  void check();
  std::uint64_t gone() const;  // computations cancelled because their client went away

 private:
  mutable std::mutex m_;
  std::map<int, std::pair<socket_t, const Control*>> calls_;
  int next_ = 0;
  std::uint64_t gone_ = 0;
};

// One computing request: a control under the server's (stopped at shutdown) and, once admitted,
// a compute slot (503 when none is free) and its connection watched (cancelled when the client
// goes away).
class Call {
 public:
  Call(const httplib::Request& req, Slots& slots, const Control& server, Clients& clients)
      : control(&server), req_(req), slots_(slots), clients_(clients) {}
  ~Call();
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  // Takes a compute slot (api::ApiError 503 when none is free, and busy() says so) and watches
  // the client's connection.
  void admit();
  bool busy() const { return busy_; }

  Control control;

 private:
  const httplib::Request& req_;
  Slots& slots_;
  Clients& clients_;
  bool admitted_ = false, busy_ = false;
  int id_ = 0;
};

}  // namespace pegsol::server::detail
