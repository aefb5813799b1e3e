# The installed package, end to end (ctest `install`, label install): `cmake --install`
# into a fresh prefix, which is then moved elsewhere (nothing may depend on where it was
# installed); docs/examples/embed built against it with find_package(kata) and run to the
# end of a game; and the installed `kata check` on rule files outside the source tree,
# one of which imports a file that only the installed stdlib holds, so it passes only if
# kata finds the stdlib beside itself (../share/kata/stdlib) rather than the source's.
#
#   cmake -DBUILD=<kata's build dir> -DSOURCE=<kata's source dir> -DWORK=<scratch dir>
#         -DCXX=<compiler> [-DCXX_FLAGS=...] [-DGENERATOR=...] -P install.cmake

# Runs a command; stops the test with its output if it fails (or its output does not
# match EXPECT). Its output is in ${OUT}.
function(run)
  cmake_parse_arguments(PARSE_ARGV 0 R "" "EXPECT" "COMMAND")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=KATA_STDLIB ${R_COMMAND}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REPLACE ";" " " shown "${R_COMMAND}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${shown}\n${out}")
  endif()
  if(DEFINED R_EXPECT AND NOT out MATCHES "${R_EXPECT}")
    message(FATAL_ERROR "expected '${R_EXPECT}' from: ${shown}\n${out}")
  endif()
  message(STATUS "ok: ${shown}")
  set(OUT "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/game)
# Stripped: the libraries and kata with debugging information are a quarter of a gigabyte.
run(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/installed --strip)
file(RENAME ${WORK}/installed ${WORK}/moved)
set(prefix ${WORK}/moved)
foreach(f bin/kata share/kata/stdlib/betting.yaml share/kata/rules/kobayakawa.yaml
          share/kata/rules/tests/kobayakawa include/kata/runtime/engine.hpp)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

# A program embedding kata, from its documented example.
if(GENERATOR)
  set(generator -G ${GENERATOR})
endif()
run(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/docs/examples/embed -B ${WORK}/embed ${generator}
            -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
            -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_CXX_FLAGS=${CXX_FLAGS})
file(STRINGS ${WORK}/embed/CMakeCache.txt kata_dir REGEX "^kata_DIR:")
if(NOT kata_dir MATCHES "=${prefix}/")
  message(FATAL_ERROR "the example found another kata: ${kata_dir}")
endif()
run(COMMAND ${CMAKE_COMMAND} --build ${WORK}/embed)
file(COPY ${SOURCE}/rules/kobayakawa.yaml DESTINATION ${WORK}/game)
run(COMMAND ${WORK}/embed/embed ${WORK}/game/kobayakawa.yaml 4 7
    EXPECT "Kobayakawa, 4 players, seed 7: over after [0-9]+ decisions\nP1: score [^\n]*\nP2: [^\n]*\nP3: [^\n]*\nP4: [^\n]*\n")
if(NOT OUT MATCHES "wins")
  message(FATAL_ERROR "nobody won:\n${OUT}")
endif()

# The installed kata finds the installed stdlib, beside itself.
run(COMMAND ${prefix}/bin/kata check ${WORK}/game/kobayakawa.yaml EXPECT ": ok \\(Kobayakawa")
file(READ ${WORK}/game/kobayakawa.yaml text)
string(REPLACE "stdlib/betting.yaml" "stdlib/installed_only.yaml" text "${text}")
if(NOT text MATCHES "installed_only")
  message(FATAL_ERROR "rules/kobayakawa.yaml no longer imports stdlib/betting.yaml: change this test")
endif()
file(WRITE ${WORK}/game/probe.yaml "${text}")
file(COPY_FILE ${prefix}/share/kata/stdlib/betting.yaml ${prefix}/share/kata/stdlib/installed_only.yaml)
run(COMMAND ${prefix}/bin/kata check ${WORK}/game/probe.yaml EXPECT ": ok \\(Kobayakawa")

# What a failure leaves is kept for a look; a success leaves nothing.
file(REMOVE_RECURSE ${WORK})
