// SPDX-License-Identifier: MIT
// The page's files (web/), embedded at build time by cmake/embed_web.cmake.
#pragma once

#include <cstddef>
#include <string_view>

namespace pegsol::server {

struct WebAsset {
  std::string_view path;  // "/index.html", "/app.js", ...
  std::string_view type;  // the Content-Type
  std::string_view data;
};

// Every embedded file; `count` receives their number.
const WebAsset* web_assets(std::size_t& count);

}  // namespace pegsol::server
