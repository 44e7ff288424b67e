# SPDX-License-Identifier: MIT
# The static edition (docs/static.md): the library compiled to WebAssembly as a module exporting
# the C entry point (pegsol/pegsol.h), and build/wasm/site, the page with that module in a Web
# Worker, a service worker and a manifest: a folder any static file server serves.
add_executable(pegsol_wasm wasm/module.cpp)
target_link_libraries(pegsol_wasm PRIVATE pegsol_json)
set_target_properties(pegsol_wasm PROPERTIES OUTPUT_NAME pegsol SUFFIX .js
  RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/module)
set(PEGSOL_WASM_EXPORTS
  _pegsol_new _pegsol_delete _pegsol_request _pegsol_check_job _pegsol_prepare _pegsol_run_job
  _pegsol_free
  _malloc _free)
string(REPLACE ";" "," PEGSOL_WASM_EXPORTS "${PEGSOL_WASM_EXPORTS}")
# MAXIMUM_MEMORY: what a 32-bit module can address; the dispatcher's caps keep jobs well inside.
target_link_options(pegsol_wasm PRIVATE
  -sMODULARIZE=1 -sEXPORT_NAME=createPegsol -sENVIRONMENT=worker,node
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432 -sMAXIMUM_MEMORY=4294967296
  -sALLOW_TABLE_GROWTH=1
  "-sEXPORTED_FUNCTIONS=${PEGSOL_WASM_EXPORTS}"
  "-sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8,addFunction,removeFunction")

# The site: web/'s files, the module, and the service worker's list of them (cmake/wasm_site.cmake).
file(GLOB PEGSOL_SITE_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/web/*)
set(PEGSOL_SITE ${PROJECT_BINARY_DIR}/site)
add_custom_command(OUTPUT ${PEGSOL_SITE}/index.html ${PEGSOL_SITE}/sw.js
  COMMAND ${CMAKE_COMMAND} -DWEB_DIR=${PROJECT_SOURCE_DIR}/web
    -DMODULE_DIR=${PROJECT_BINARY_DIR}/module -DSITE=${PEGSOL_SITE}
    -DVERSION=${PROJECT_VERSION} -P ${PROJECT_SOURCE_DIR}/cmake/wasm_site.cmake
  DEPENDS pegsol_wasm ${PEGSOL_SITE_SOURCES} ${PROJECT_SOURCE_DIR}/cmake/wasm_site.cmake
  COMMENT "Assembling the static edition in ${PEGSOL_SITE}" VERBATIM)
add_custom_target(pegsol_site ALL DEPENDS ${PEGSOL_SITE}/index.html ${PEGSOL_SITE}/sw.js)
