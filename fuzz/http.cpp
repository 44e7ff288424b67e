// SPDX-License-Identifier: MIT
// Fuzzes the server's request handling with raw HTTP bytes (server/server.hpp RawServer): every
// request gets an answer that is a 4xx or a correct one, never a crash or a 500.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_util.hpp"
#include "server.hpp"

namespace {

// A server whose every computation is short: the fuzzer's inputs run in milliseconds.
pegsol::server::ServeOptions small() {
  pegsol::server::ServeOptions o;
  o.request_seconds = 0.05;
  o.job_seconds = 0.05;
  o.request_memory = 16u << 20;
  o.job_memory = 16u << 20;
  o.lookup_memory = 16u << 20;
  o.lookup_seconds = 0.05;
  o.lookup_keep = 16u << 20;
  o.max_census_holes = 15;
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const pegsol::Control control;
  static pegsol::server::RawServer server(small(), control);
  const std::vector<std::string> answers = server.answer(pegsol::fuzz::text(data, size));
  // A line sent gets an answer, if only a 400 (bytes with no line end are no request yet).
  if (pegsol::fuzz::text(data, size).find('\n') != std::string_view::npos && answers.empty())
    pegsol::fuzz::broken();
  for (const std::string& answer : answers) {
    // Each answer: a status line, then a status the server means (no 5xx but 503 for memory).
    if (answer.rfind("HTTP/1.1 ", 0) != 0 || answer.size() < 12) pegsol::fuzz::broken();
    const std::string_view status(answer.data() + 9, 3);
    if (status[0] == '5' && status != "503") pegsol::fuzz::broken();
  }
  return 0;
}
