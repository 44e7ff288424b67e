// SPDX-License-Identifier: MIT
// The C entry point of include/pegsol/pegsol.h over pegsol::api::Dispatcher.
#include "pegsol/pegsol.h"

#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <string>

#include <nlohmann/json.hpp>

#include "pegsol/api.hpp"
#include "pegsol/error.hpp"
#include "pegsol/json.hpp"

struct pegsol_dispatcher {
  explicit pegsol_dispatcher(const pegsol::api::Limits& l) : dispatcher(l) {}
  pegsol::api::Dispatcher dispatcher;
};

namespace {

using nlohmann::json;
using pegsol::api::ApiError;
using pegsol::api::Reply;

// A copy of `s` the caller frees with pegsol_free (std::free); null when memory ran out.
char* copy_text(const std::string& s) noexcept {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (out) std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

// {"status", "body"} as text; null when no memory was left for it.
char* reply_text(const Reply& r) noexcept {
  try {
    return copy_text(pegsol::dump_json(json{{"status", r.status}, {"body", r.body}}));
  } catch (...) {
    // The text of the reply itself could not be built: a last, fixed answer.
    static const char kOut[] =
        R"({"body":{"error":"out of memory for this request","status":503},"status":503})";
    return copy_text(kOut);
  }
}

// The reply of what `f` threw: ApiError's status, InputError 400, memory 503, anything else 500.
template <class F>
char* answer(F&& f) noexcept {
  try {
    try {
      return reply_text(f());
    } catch (const ApiError& e) {
      return reply_text(pegsol::api::error_reply(e.status, e.what()));
    } catch (const pegsol::InputError& e) {
      return reply_text(pegsol::api::error_reply(400, e.what()));
    } catch (const std::bad_alloc&) {
      return reply_text(pegsol::api::error_reply(503, "out of memory for this request"));
    } catch (const std::exception& e) {
      return reply_text(pegsol::api::error_reply(500, std::string("internal error: ") + e.what()));
    } catch (...) {
      return reply_text(pegsol::api::error_reply(500, "internal error"));
    }
  } catch (...) {
    return nullptr;
  }
}

// The request's text parsed, its errors named as the request's (not a body's).
json parse_request(const char* text) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw ApiError(
        400, "malformed JSON in the request at byte " + std::to_string(e.byte) + ": " + e.what());
  } catch (const json::exception& e) {
    throw ApiError(400, std::string("malformed JSON in the request: ") + e.what());
  }
}

}  // namespace

extern "C" {

pegsol_dispatcher* pegsol_new(const char* limits_json) {
  try {
    pegsol::api::Limits limits;
    if (limits_json && *limits_json)
      limits = pegsol::api::limits_from_json(json::parse(limits_json));
    return new pegsol_dispatcher(limits);
  } catch (...) {
    return nullptr;
  }
}

void pegsol_delete(pegsol_dispatcher* d) {
  delete d;
}

char* pegsol_request(pegsol_dispatcher* d, const char* request_json) {
  return answer([&]() -> Reply {
    if (!d) throw ApiError(400, "pegsol_request: the dispatcher is NULL");
    if (!request_json) throw ApiError(400, "pegsol_request: the request is NULL");
    const json r = parse_request(request_json);
    if (!r.is_object())
      throw ApiError(400, std::string("the request must be a JSON object {\"method\", \"path\", "
                                      "\"body\"}, not ") +
                              r.type_name());
    for (const auto& [key, value] : r.items())
      if (key != "method" && key != "path" && key != "body")
        throw ApiError(400, "the request has an unknown key " + pegsol::dump_json(key) +
                                "; the keys are method, path and body");
    for (const char* key : {"method", "path"}) {
      auto it = r.find(key);
      if (it == r.end() || !it->is_string())
        throw ApiError(400, std::string("the request's \"") + key + "\" must be a string");
    }
    auto body = r.find("body");
    return d->dispatcher.handle(r["method"].get<std::string>(), r["path"].get<std::string>(),
                                body == r.end() ? json(nullptr) : *body);
  });
}

char* pegsol_check_job(pegsol_dispatcher* d, const char* body_json) {
  return answer([&]() -> Reply {
    if (!d) throw ApiError(400, "pegsol_check_job: the dispatcher is NULL");
    if (!body_json) throw ApiError(400, "pegsol_check_job: the job's body is NULL");
    const pegsol::api::JobSpec job = d->dispatcher.job(pegsol::api::parse_body(body_json));
    return {200, json{{"kind", job.kind}}};
  });
}

char* pegsol_prepare(pegsol_dispatcher* d, const char* body_json,
                     int (*progress)(const char* status_json, void* user), void* user) {
  return answer([&]() -> Reply {
    if (!d) throw ApiError(400, "pegsol_prepare: the dispatcher is NULL");
    if (!body_json) throw ApiError(400, "pegsol_prepare: the problem's body is NULL");
    const json body = pegsol::api::parse_body(body_json);
    pegsol::Control control;
    std::function<void(const json&)> report;
    if (progress)
      report = [&](const json& s) {
        if (progress(pegsol::dump_json(s).c_str(), user) != 0)
          control.cancel(pegsol::StopReason::Cancelled);
      };
    return {200, d->dispatcher.prepare(body, control, report)};
  });
}

char* pegsol_run_job(pegsol_dispatcher* d, const char* body_json,
                     int (*progress)(const char* progress_json, void* user), void* user) {
  return answer([&]() -> Reply {
    if (!d) throw ApiError(400, "pegsol_run_job: the dispatcher is NULL");
    if (!body_json) throw ApiError(400, "pegsol_run_job: the job's body is NULL");
    const pegsol::api::JobSpec job = d->dispatcher.job(pegsol::api::parse_body(body_json));
    pegsol::Control control;
    std::function<void(const json&)> report;
    if (progress)
      report = [&](const json& p) {
        if (progress(pegsol::dump_json(p).c_str(), user) != 0)
          control.cancel(pegsol::StopReason::Cancelled);
      };
    return {200, d->dispatcher.run(job, control, report)};
  });
}

void pegsol_free(char* text) {
  std::free(text);
}

}  // extern "C"
