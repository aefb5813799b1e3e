# cmake --install: the `kata` command, the stdlib and the rule files of rules/ (with their
# scenarios) under share/kata/, and the interpreter as a library for other programs: its
# static libraries, its headers under include/kata/ (the folder structure kept, so they are
# included as in the source tree: "runtime/engine.hpp"), and a CMake package, so that
#   find_package(kata REQUIRED)
#   target_link_libraries(app PRIVATE kata::core)
# works from the installed prefix (docs/embedding.md). Every path in the package is
# relative to where it is installed, so the prefix may be moved.
include(CMakePackageConfigHelpers)

set(KATA_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kata)
set(KATA_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/kata)
# Where stdlib_dir() looks from the program's directory (KATA_STDLIB_FROM_BINDIR).
set(KATA_INSTALL_STDLIBDIR ${CMAKE_INSTALL_DATADIR}/kata/stdlib)

install(TARGETS kata RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/stdlib/ DESTINATION ${KATA_INSTALL_STDLIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/rules/ DESTINATION ${CMAKE_INSTALL_DATADIR}/kata/rules)

# The library: every layer (kata::syntax, kata::runtime, ...: they link each other, so all
# are installed) and kata::core, the one target a program links, which brings them all.
get_property(kata_layers GLOBAL PROPERTY KATA_LAYER_TARGETS)
foreach(layer IN LISTS kata_layers)
  string(REGEX REPLACE "^kata_" "" name ${layer})
  set_target_properties(${layer} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(${layer} INTERFACE $<INSTALL_INTERFACE:${KATA_INSTALL_INCLUDEDIR}>)
endforeach()
set_target_properties(kata_core PROPERTIES EXPORT_NAME core)
target_include_directories(kata_core INTERFACE $<INSTALL_INTERFACE:${KATA_INSTALL_INCLUDEDIR}>)
# A sanitizer build's libraries call the sanitizers' run-time libraries: a program linking
# them needs the same flags at its link (and the same compiler).
if(KATA_SANITIZE)
  target_link_options(kata_core INTERFACE -fsanitize=address,undefined)
endif()
install(TARGETS kata_core ${kata_layers} EXPORT kataTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/interpreter/ DESTINATION ${KATA_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(EXPORT kataTargets NAMESPACE kata:: DESTINATION ${KATA_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kataConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/kataConfig.cmake
                              INSTALL_DESTINATION ${KATA_INSTALL_CMAKEDIR}
                              PATH_VARS KATA_INSTALL_STDLIBDIR)
# Before 1.0, a minor version may change the interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kataConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kataConfig.cmake ${PROJECT_BINARY_DIR}/kataConfigVersion.cmake
        DESTINATION ${KATA_INSTALL_CMAKEDIR})
