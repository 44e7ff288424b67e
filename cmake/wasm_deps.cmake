# SPDX-License-Identifier: MIT
# nlohmann-json for the WebAssembly build: the host's package points at /usr/include, whose C
# headers must not mix with emscripten's, so its one header folder is copied beside the build.
find_path(PEGSOL_HOST_NLOHMANN nlohmann/json.hpp PATHS /usr/include /usr/local/include
  NO_CMAKE_FIND_ROOT_PATH NO_DEFAULT_PATH)
if(NOT PEGSOL_HOST_NLOHMANN)
  message(FATAL_ERROR "the wasm build needs nlohmann-json's headers (nlohmann-json3-dev)")
endif()
file(COPY ${PEGSOL_HOST_NLOHMANN}/nlohmann DESTINATION ${PROJECT_BINARY_DIR}/third_party)
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${PROJECT_BINARY_DIR}/third_party)
set(nlohmann_json_FOUND TRUE)
# WebAssembly's own exception handling: the engines unwind by exceptions (Stopped, InputError).
add_compile_options(-fwasm-exceptions)
add_link_options(-fwasm-exceptions)
# WebAssembly SIMD (current browsers all run it; docs/static.md): the census's kernels have a
# path for it (src/census/kernels_grid.hpp, compact_tables.hpp).
add_compile_options(-msimd128)
