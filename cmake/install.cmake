# SPDX-License-Identifier: MIT
# Install rules, the CMake package (pegsol::pegsol) and the pkg-config files, all under
# GNUInstallDirs' directories (a /usr prefix on Debian: the multiarch lib/<triplet>). Included
# from the top-level CMakeLists.txt when PEGSOL_INSTALL is on. The Debian packages:
# scripts/package-deb.sh.
include(CMakePackageConfigHelpers)

set(PEGSOL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pegsol)

install(TARGETS pegsol_lib
  EXPORT pegsolTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime NAMELINK_COMPONENT Development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
# pegsol::json in an export set of its own: the package looks for nlohmann-json only when a
# consumer asks for the json component.
if(TARGET pegsol_json)
  install(TARGETS pegsol_json
    EXPORT pegsolJsonTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime NAMELINK_COMPONENT Development
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
  install(EXPORT pegsolJsonTargets
    NAMESPACE pegsol::
    DESTINATION ${PEGSOL_CMAKE_DIR}
    COMPONENT Development)
  set(PEGSOL_JSON_EXCLUDE "")
else()
  set(PEGSOL_JSON_EXCLUDE PATTERN json.hpp EXCLUDE PATTERN api.hpp EXCLUDE PATTERN pegsol.h EXCLUDE)
endif()
# The public headers only: the internal ones in src/ stay out (and pegsol::json's, json.hpp,
# api.hpp and the C entry pegsol.h, without it).
install(DIRECTORY include/pegsol
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT Development
  FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" ${PEGSOL_JSON_EXCLUDE})
# The generated headers: the export macros (PEGSOL_API, PEGSOL_JSON_API) and the version's.
install(FILES ${PROJECT_BINARY_DIR}/include/pegsol/export.hpp
  ${PROJECT_BINARY_DIR}/include/pegsol/version_macros.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pegsol COMPONENT Development)
if(TARGET pegsol_json)
  install(FILES ${PROJECT_BINARY_DIR}/include/pegsol/json_export.h
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pegsol COMPONENT Development)
endif()
# A shared build installs the static archives of the same objects too (position-independent,
# the internals hidden), libpegsol.a and libpegsol_json.a: for a program or a shared object that
# links pegsol in. The CMake package names the shared libraries.
if(TARGET pegsol_static)
  install(TARGETS pegsol_static ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development)
endif()
if(TARGET pegsol_json_static)
  install(TARGETS pegsol_json_static ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    COMPONENT Development)
endif()
if(TARGET pegsol)
  install(TARGETS pegsol RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
endif()
file(GLOB PEGSOL_DOCS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES README.md ${PEGSOL_DOCS} DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT Runtime)

install(EXPORT pegsolTargets
  NAMESPACE pegsol::
  DESTINATION ${PEGSOL_CMAKE_DIR}
  COMPONENT Development)
configure_package_config_file(cmake/pegsolConfig.cmake.in
  ${PROJECT_BINARY_DIR}/pegsolConfig.cmake
  INSTALL_DESTINATION ${PEGSOL_CMAKE_DIR})
# 0.x: a minor version may break the API (0.2 does not satisfy a request for 0.1); then the major.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(PEGSOL_COMPATIBILITY SameMinorVersion)
else()
  set(PEGSOL_COMPATIBILITY SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pegsolConfigVersion.cmake
  COMPATIBILITY ${PEGSOL_COMPATIBILITY})
install(FILES
  ${PROJECT_BINARY_DIR}/pegsolConfig.cmake
  ${PROJECT_BINARY_DIR}/pegsolConfigVersion.cmake
  DESTINATION ${PEGSOL_CMAKE_DIR}
  COMPONENT Development)

# pkg-config: the prefix is found from the .pc file's own place, so the file stays right whatever
# prefix `cmake --install --prefix` or the package puts it under.
file(RELATIVE_PATH PEGSOL_PC_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" PEGSOL_PC_PREFIX "${PEGSOL_PC_PREFIX}")
configure_file(cmake/pegsol.pc.in ${PROJECT_BINARY_DIR}/pegsol.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pegsol.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
  COMPONENT Development)
# pegsol-json.pc: pegsol::json, with nlohmann-json's own pkg-config file as a requirement.
if(TARGET pegsol_json)
  configure_file(cmake/pegsol-json.pc.in ${PROJECT_BINARY_DIR}/pegsol-json.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pegsol-json.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
    COMPONENT Development)
endif()
