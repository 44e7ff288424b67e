# SPDX-License-Identifier: MIT
# The API reference (docs/reference.md): Doxygen (Debian's doxygen) over the `///` comments of the
# public headers, include/pegsol and the generated ones. `cmake --build BUILD --target doc` writes
# BUILD/doc/html/index.html; the `doc` test (tests/doc/doc_test.sh, label doc) runs Doxygen over the
# same INPUT, every public header, and fails on an undocumented public declaration. Included from
# the top-level CMakeLists.txt when PEGSOL_DOC is on.

# The public headers: the installed list (tests/install/consumer_test.sh checks it).
file(GLOB PEGSOL_DOC_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/pegsol/*.hpp
  ${PROJECT_SOURCE_DIR}/include/pegsol/*.h)
list(APPEND PEGSOL_DOC_HEADERS ${PROJECT_BINARY_DIR}/include/pegsol/export.hpp
  ${PROJECT_BINARY_DIR}/include/pegsol/version_macros.hpp)
if(TARGET pegsol_json)
  list(APPEND PEGSOL_DOC_HEADERS ${PROJECT_BINARY_DIR}/include/pegsol/json_export.h)
endif()

# Doxyfile's INPUT: the headers and the main page, one quoted path a line.
set(input ${PEGSOL_DOC_HEADERS} ${PROJECT_SOURCE_DIR}/docs/reference.md)
list(TRANSFORM input PREPEND "\"" OUTPUT_VARIABLE quoted)
list(TRANSFORM quoted APPEND "\"")
string(JOIN " \\\n    " PEGSOL_DOC_INPUT ${quoted})
set(PEGSOL_DOC_OUTPUT ${PROJECT_BINARY_DIR}/doc)
configure_file(${PROJECT_SOURCE_DIR}/cmake/Doxyfile.in ${PROJECT_BINARY_DIR}/Doxyfile @ONLY)

# -DPEGSOL_INSTALL_DOC=ON: the reference is built with the rest and installed under
# DOCDIR/html (needs doxygen).
option(PEGSOL_INSTALL_DOC "Build the API reference by default and install it (needs doxygen)" OFF)
find_program(PEGSOL_DOXYGEN doxygen)
if(PEGSOL_DOXYGEN)
  if(PEGSOL_INSTALL_DOC)
    set(all ALL)
  else()
    set(all)
  endif()
  add_custom_target(doc ${all}
    COMMAND ${PEGSOL_DOXYGEN} ${PROJECT_BINARY_DIR}/Doxyfile
    COMMAND ${CMAKE_COMMAND} -E echo "API reference: ${PEGSOL_DOC_OUTPUT}/html/index.html"
    WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
    COMMENT "Doxygen: the API reference"
    VERBATIM)
  if(PEGSOL_INSTALL_DOC AND PEGSOL_INSTALL)
    install(DIRECTORY ${PEGSOL_DOC_OUTPUT}/html DESTINATION ${CMAKE_INSTALL_DOCDIR}
      COMPONENT Documentation)
  endif()
else()
  if(PEGSOL_INSTALL_DOC)
    message(FATAL_ERROR "PEGSOL_INSTALL_DOC needs doxygen (scripts/install-deps.sh installs it)")
  endif()
  add_custom_target(doc
    COMMAND ${CMAKE_COMMAND} -E echo "doxygen not found (scripts/install-deps.sh installs it)"
    COMMAND ${CMAKE_COMMAND} -E false
    VERBATIM)
endif()
