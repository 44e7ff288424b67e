// SPDX-License-Identifier: MIT
// The server's compute slots and connection watch (admission.hpp).
#include "admission.hpp"

#include <dirent.h>
#include <netdb.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdlib>
#include <string>

#include "pegsol/api.hpp"

namespace pegsol::server::detail {

bool Slots::take() {
  std::lock_guard lock(m_);
  if (free_ == 0) return false;
  --free_;
  return true;
}

void Slots::give() {
  std::lock_guard lock(m_);
  ++free_;
}

int Slots::free() const {
  std::lock_guard lock(m_);
  return free_;
}

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

int Clients::add(socket_t s, const Control* c) {
  std::lock_guard lock(m_);
  calls_[++next_] = {s, c};
  return next_;
}

void Clients::remove(int id) {
  std::lock_guard lock(m_);
  calls_.erase(id);
}

void Clients::check() {
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

std::uint64_t Clients::gone() const {
  std::lock_guard lock(m_);
  return gone_;
}

Call::~Call() {
  if (!admitted_) return;
  clients_.remove(id_);
  slots_.give();
}

void Call::admit() {
  if (!slots_.take()) {
    busy_ = true;
    throw api::ApiError(503, "the server is busy (every compute slot is taken); retry shortly");
  }
  admitted_ = true;
  id_ = clients_.add(connection_of(req_), &control);
}

}  // namespace pegsol::server::detail
