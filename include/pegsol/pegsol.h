/* SPDX-License-Identifier: MIT */
/** @file
 * The JSON API of docs/api.md behind a plain C entry point (pegsol/api.hpp's Dispatcher): JSON
 * text in, JSON text out, for callers that speak C (a WebAssembly module, other languages).
 * Compiles as C and C++; in the pegsol::json library. No exception crosses it. One dispatcher
 * may serve several threads at once, as pegsol::api::Dispatcher does. */
#ifndef PEGSOL_PEGSOL_H
#define PEGSOL_PEGSOL_H

#include "pegsol/json_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An opaque dispatcher (a pegsol::api::Dispatcher): made by pegsol_new, freed by pegsol_delete. */
typedef struct pegsol_dispatcher pegsol_dispatcher;

/** A dispatcher with the caps of `limits_json` (the Limits fields by name, e.g.
 * {"request_seconds": 2, "background_lookups": false}; NULL or "" for the defaults). NULL when
 * limits_json is bad (malformed, an unknown key, a wrong type) or memory ran out. */
PEGSOL_JSON_API pegsol_dispatcher* pegsol_new(const char* limits_json);

/** Frees a dispatcher (NULL: nothing); no call on it may be running. */
PEGSOL_JSON_API void pegsol_delete(pegsol_dispatcher* d);

/** One request, JSON text in and out: {"method": "POST", "path": "/api/solve", "body": {...}} ->
 * {"status": 200, "body": {...}}. "path" may carry a query ("/api/board?board=english"); "body"
 * may be left out. Malformed request text, or a NULL argument, gives status 400 (never a crash).
 * The caller frees the text with pegsol_free; NULL only when no memory was left for it. */
PEGSOL_JSON_API char* pegsol_request(pegsol_dispatcher* d, const char* request_json);

/** Checks the job of POST /api/jobs's body without running it (a front that keeps its own job
 * table answers a bad job at once): -> {"status": 200, "body": {"kind"}} or the error reply
 * pegsol_run_job would give. The caller frees the text with pegsol_free. */
PEGSOL_JSON_API char* pegsol_check_job(pegsol_dispatcher* d, const char* body_json);

/** Runs the job of POST /api/jobs's body to its end in this thread: -> {"status": 200, "body":
 * result} or an error reply ({"status": 400|413, "body": {"error", "status"}}; 503 when memory ran
 * out, 500 for an internal error). `progress` (may be NULL) gets each report as JSON text and
 * returns 0 to go on, 1 to cancel (the job then ends with stop "cancelled"); `user` is passed
 * back. The caller frees the text with pegsol_free. */
PEGSOL_JSON_API char* pegsol_run_job(pegsol_dispatcher* d, const char* body_json,
                                     int (*progress)(const char* progress_json, void* user),
                                     void* user);

/** Builds the census look-ups a game of the body's problem needs (POST /api/lookups's body) now,
 * in this thread: for fronts without threads (WebAssembly), whose POST /api/lookups only reports.
 * -> {"status": 200, "body": the look-ups' status (docs/api.md)} or an error reply. `progress` (may
 * be NULL) gets the status as the build advances and returns 0 to go on, 1 to stop (the build is
 * forgotten, to be started again). The caller frees the text with pegsol_free. */
PEGSOL_JSON_API char* pegsol_prepare(pegsol_dispatcher* d, const char* body_json,
                                     int (*progress)(const char* status_json, void* user),
                                     void* user);

/** Frees a text pegsol_request, pegsol_check_job, pegsol_prepare or pegsol_run_job returned (NULL:
 * nothing). */
PEGSOL_JSON_API void pegsol_free(char* text);

#ifdef __cplusplus
}
#endif

#endif /* PEGSOL_PEGSOL_H */
