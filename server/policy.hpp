// SPDX-License-Identifier: MIT
// Who may use `pegsol serve`: the Host names it answers to, the page origins it serves, and the
// bodies it reads (docs/api.md, the security model).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <httplib.h>

#include "server.hpp"

namespace pegsol::server::detail {

// The names a Host header may give (loopback, the bound address, the hosts of the allowed
// origins) and the origins of pages that may call the server (its own page under those names,
// and --allow-origin).
class Policy {
 public:
  Policy(const ServeOptions& o, int port);

  // Why `req` is refused (the status and message), or status 0 when it may be served.
  std::pair<int, std::string> check(const httplib::Request& req) const;

 private:
  std::vector<std::string> hosts_, origins_;
};

}  // namespace pegsol::server::detail
