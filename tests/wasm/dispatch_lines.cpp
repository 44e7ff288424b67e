// SPDX-License-Identifier: MIT
// The library's C entry point (pegsol/pegsol.h) on the command line, one request a line: for the
// tests that compare the WebAssembly module's answers with the native ones. A line
// {"method", "path", "body"} goes to pegsol_request; {"job": body} to pegsol_run_job. Each answer
// is printed on a line of its own; {"prepare": body} builds a game's look-ups (pegsol_prepare).
#include <iostream>
#include <string>

#include "pegsol/pegsol.h"

int main(int argc, char** argv) {
  pegsol_dispatcher* d = pegsol_new(argc > 1 ? argv[1] : nullptr);
  if (!d) {
    std::cerr << "dispatch_lines: bad limits " << (argc > 1 ? argv[1] : "") << "\n";
    return 2;
  }
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    char* out = nullptr;
    // {"job": BODY} and {"prepare": BODY}: the body is the text between the first colon and the
    // last brace.
    if (line.rfind("{\"job\":", 0) == 0) {
      const std::string body = line.substr(7, line.size() - 8);
      out = pegsol_run_job(d, body.c_str(), nullptr, nullptr);
    } else if (line.rfind("{\"prepare\":", 0) == 0) {
      const std::string body = line.substr(11, line.size() - 12);
      out = pegsol_prepare(d, body.c_str(), nullptr, nullptr);
    } else {
      out = pegsol_request(d, line.c_str());
    }
    std::cout << (out ? out : "null") << std::endl;
    pegsol_free(out);
  }
  pegsol_delete(d);
  return 0;
}
