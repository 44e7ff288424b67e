/* SPDX-License-Identifier: MIT */
/* The C entry of pegsol/pegsol.h used from C: the header compiles as C, and a request answers. */
#include <stddef.h>
#include <string.h>

#include "pegsol/pegsol.h"

/* 1 when a dispatcher made from C answers GET /api/boards with status 200 and a NULL request with
 * 400; 0 otherwise. */
int pegsol_test_from_c(void) {
  pegsol_dispatcher* d = pegsol_new(NULL);
  char* ok;
  char* bad;
  int good;
  if (!d) return 0;
  ok = pegsol_request(d, "{\"method\": \"GET\", \"path\": \"/api/boards\"}");
  bad = pegsol_request(d, NULL);
  good = ok && bad && strstr(ok, "\"status\":200") != NULL && strstr(bad, "\"status\":400") != NULL;
  pegsol_free(ok);
  pegsol_free(bad);
  pegsol_delete(d);
  return good;
}
