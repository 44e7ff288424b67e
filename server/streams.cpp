// SPDX-License-Identifier: MIT
// The server's bounded request streams (streams.hpp).
#include "streams.hpp"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace pegsol::server::detail {

using SteadyClock = std::chrono::steady_clock;

void BoundedStream::start_request(std::size_t bytes, double seconds) {
  budget_ = bytes;
  deadline_ = SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                       std::chrono::duration<double>(seconds));
  over_ = expired_ = false;
}

ssize_t BoundedStream::read(char* ptr, size_t size) {
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

int BoundedStream::left_ms() const {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - SteadyClock::now());
  return left.count() > 0 ? static_cast<int>(std::min<long long>(left.count(), 1 << 30)) : 0;
}

namespace {

// The numeric address and port of `fd`'s end that `get` names (getpeername or getsockname).
void address(socket_t fd, int (*get)(int, sockaddr*, socklen_t*), std::string& ip, int& port) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  char host[NI_MAXHOST], serv[NI_MAXSERV];
  if (get(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0 &&
      getnameinfo(reinterpret_cast<sockaddr*>(&a), len, host, sizeof host, serv, sizeof serv,
                  NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
    ip = host;
    port = std::atoi(serv);
  }
}

}  // namespace

ssize_t SocketStream::write(const char* ptr, size_t size) {
  if (!is_writable()) return -1;
  return ::send(fd_, ptr, size, MSG_NOSIGNAL);
}

void SocketStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  address(fd_, &getpeername, ip, port);
}

void SocketStream::get_local_ip_and_port(std::string& ip, int& port) const {
  address(fd_, &getsockname, ip, port);
}

ssize_t SocketStream::fill(char* to, std::size_t size) {
  if (!poll_for(POLLIN, left_ms())) {
    expired_ = true;
    return -1;
  }
  ssize_t n;
  do n = ::recv(fd_, to, size, 0);
  while (n < 0 && errno == EINTR);
  return n;
}

bool SocketStream::poll_for(short events, int ms) const {
  pollfd p{fd_, events, 0};
  int n;
  do n = ::poll(&p, 1, ms);
  while (n < 0 && errno == EINTR);
  return n > 0 && (p.revents & (events | POLLHUP | POLLERR));
}

ssize_t MemoryStream::fill(char* to, std::size_t size) {
  const std::size_t n = std::min(size, in_.size() - at_);
  std::memcpy(to, in_.data() + at_, n);
  at_ += n;
  return static_cast<ssize_t>(n);
}

}  // namespace pegsol::server::detail
