// SPDX-License-Identifier: MIT
// The server's request policy (policy.hpp).
#include "policy.hpp"

#include <algorithm>
#include <cctype>

namespace pegsol::server::detail {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A Host header's name: without its port, an IPv6 address in brackets.
std::string name_of(const std::string& host) {
  if (!host.empty() && host[0] == '[') return host.substr(0, host.find(']') + 1);
  return host.substr(0, host.find(':'));
}

bool allowed(const std::vector<std::string>& set, const std::string& s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

std::string list(const std::vector<std::string>& set) {
  std::string out;
  for (const std::string& s : set) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// At most 200 bytes of a header, for a message.
std::string printable(const std::string& s) {
  return s.size() > 200 ? s.substr(0, 200) + "..." : s;
}

}  // namespace

Policy::Policy(const ServeOptions& o, int port) {
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

std::pair<int, std::string> Policy::check(const httplib::Request& req) const {
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

}  // namespace pegsol::server::detail
