// SPDX-License-Identifier: MIT
// The byte streams the server reads requests from: each request bounded in bytes and, on a
// socket, in time (a connection's socket, or bytes in memory for RawServer).
#pragma once

#include <poll.h>
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include <httplib.h>

namespace pegsol::server::detail {

// A stream of one connection's bytes that bounds each request: at most `budget` bytes read for
// it (line, headers and body) and, on a socket, all of them before its deadline.
class BoundedStream : public httplib::Stream {
 public:
  // A new request begins: `bytes` of budget, `seconds` to read it all.
  void start_request(std::size_t bytes, double seconds);
  bool over() const { return over_; }        // the request needed more than its budget
  bool expired() const { return expired_; }  // a read waited past the request's deadline
  bool buffered() const { return pos_ < len_; }

  ssize_t read(char* ptr, size_t size) override;

 protected:
  // Up to `size` new bytes into `to`: their number, or 0 or less at the end, an error or the
  // request's deadline.
  virtual ssize_t fill(char* to, std::size_t size) = 0;
  // Milliseconds left before the request's deadline (0 when past).
  int left_ms() const;

 private:
  char buf_[4096];
  std::size_t pos_ = 0, len_ = 0, budget_ = 0;
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::now();
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
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return fd_; }

 private:
  ssize_t fill(char* to, std::size_t size) override;
  bool poll_for(short events, int ms) const;
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
  ssize_t fill(char* to, std::size_t size) override;
  std::string_view in_;
  std::size_t at_ = 0;
};

}  // namespace pegsol::server::detail
