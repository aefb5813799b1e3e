# kata_layer(NAME [DEPS layer...]): the static library kata_NAME of the folder NAME/ (its
# .cpp files), linked PRIVATE to the layers named, which must be declared already.
#
# Its sources and headers may include headers of NAME/ and of the layers named, and no
# other of the interpreter's folders: kata_check_layer_includes() reads every
# `#include "folder/...` and fails on the first that breaks the rule. It runs as a build
# step before the layer compiles (again whenever one of its files changes), as this file
# in script mode (cmake -DKATA_LAYER_ROOT=... -DKATA_LAYER=... -DKATA_LAYER_DEPS=... -P);
# tests/CMakeLists.txt runs it so on a tree made to break it.

# Fails (FATAL_ERROR) if a file under ROOT/NAME includes a header of a folder of ROOT that
# is neither NAME nor in ALLOWED.
function(kata_check_layer_includes ROOT NAME ALLOWED)
  file(GLOB folders LIST_DIRECTORIES true RELATIVE ${ROOT} ${ROOT}/*)
  file(GLOB_RECURSE files ${ROOT}/${NAME}/*.cpp ${ROOT}/${NAME}/*.hpp)
  list(SORT files)
  foreach(f IN LISTS files)
    file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"/]+/")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"/]+)/.*" "\\1" used "${line}")
      if(used STREQUAL NAME OR NOT IS_DIRECTORY ${ROOT}/${used})
        continue()
      endif()
      list(FIND ALLOWED ${used} at)
      if(at EQUAL -1)
        # As the compiler writes an error (NOTICE is printed as it is, not wrapped).
        message(NOTICE "${f}: error: the layer '${NAME}' includes a header of '${used}', "
                       "which it does not depend on: ${line}\n"
                       "note: name it in kata_layer(${NAME} DEPS ...) if ${NAME} may use ${used}, "
                       "or move the code to the layer it belongs to")
        message(FATAL_ERROR "the layering of interpreter/ is broken (cmake/KataLayers.cmake)")
      endif()
    endforeach()
  endforeach()
endfunction()

function(kata_layer NAME)
  cmake_parse_arguments(PARSE_ARGV 1 L "" "" "DEPS")
  foreach(dep IN LISTS L_DEPS)
    if(NOT TARGET kata_${dep})
      message(FATAL_ERROR "kata_layer(${NAME}): '${dep}' is not a layer declared before it "
                          "(layers are declared in the order they depend on each other)")
    endif()
  endforeach()
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${NAME}/*.cpp)
  file(GLOB headers CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${NAME}/*.hpp)
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/layer_${NAME}.checked)
  string(REPLACE ";" "," deps "${L_DEPS}")
  add_custom_command(OUTPUT ${stamp}
                     COMMAND ${CMAKE_COMMAND} -DKATA_LAYER_ROOT=${CMAKE_CURRENT_SOURCE_DIR} -DKATA_LAYER=${NAME}
                             -DKATA_LAYER_DEPS=${deps} -P ${KATA_LAYERS_SCRIPT}
                     COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
                     DEPENDS ${sources} ${headers} ${KATA_LAYERS_SCRIPT}
                     COMMENT "Checking the includes of the layer ${NAME}" VERBATIM)
  add_custom_target(kata_${NAME}_layering DEPENDS ${stamp})
  add_library(kata_${NAME} STATIC ${sources})
  add_dependencies(kata_${NAME} kata_${NAME}_layering)
  set_property(GLOBAL APPEND PROPERTY KATA_LAYER_TARGETS kata_${NAME})
  target_include_directories(kata_${NAME} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}>)
  target_compile_definitions(kata_${NAME} PRIVATE KATA_VERSION="${PROJECT_VERSION}")
  foreach(dep IN LISTS L_DEPS)
    target_link_libraries(kata_${NAME} PRIVATE kata_${dep})
  endforeach()
endfunction()

set(KATA_LAYERS_SCRIPT ${CMAKE_CURRENT_LIST_FILE})
if(CMAKE_SCRIPT_MODE_FILE AND DEFINED KATA_LAYER)
  string(REPLACE "," ";" deps "${KATA_LAYER_DEPS}")
  kata_check_layer_includes(${KATA_LAYER_ROOT} ${KATA_LAYER} "${deps}")
endif()
