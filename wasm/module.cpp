// SPDX-License-Identifier: MIT
// The static edition's WebAssembly module: the library's C entry point (pegsol/pegsol.h) and
// nothing else; web/worker.js loads it in a Web Worker (docs/static.md).
#include "pegsol/pegsol.h"
