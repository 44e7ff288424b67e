# SPDX-License-Identifier: MIT
# pegsol_export_header(TARGET BASE_NAME MACRO FILE PROLOG_VAR [generate_export_header options]):
# CMake's GenerateExportHeader for TARGET (export macro MACRO, the others named from BASE_NAME),
# written to BUILD/include/pegsol/FILE behind the text of PROLOG_VAR: the licence line and the
# header's `///` reference (its macros documented by @def, as the `doc` test requires of every
# public header). Rewritten only when its text changes, so a configure does not rebuild the
# library.
include(GenerateExportHeader)

function(pegsol_export_header target base macro file prolog_var)
  set(raw ${PROJECT_BINARY_DIR}/export_header/${file})
  generate_export_header(${target}
    BASE_NAME ${base}
    EXPORT_MACRO_NAME ${macro}
    EXPORT_FILE_NAME ${raw}
    ${ARGN})
  file(READ ${raw} body)
  file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/include/pegsol/${file}
    CONTENT "${${prolog_var}}${body}" @ONLY)
endfunction()
