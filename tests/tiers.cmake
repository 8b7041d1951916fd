# The test tiers. Every test carries exactly one of these ctest labels, so that
# `ctest -L quick` is the run to make before each commit and `./test.sh` knows what to run
# where (CONTRIBUTING.md):
#   quick     unit tests and small end-to-end runs (seconds each; the whole tier in minutes)
#   slow      long soaks and throughput runs (a minute of mirroring, 30 fps at 2,000 boids)
#   emulator  the real firmware image in rp2040js (needs firmware_pico/build.sh); the Pico 2's
#             UF2s and its flock step on QEMU's Cortex-M33 (needs build.sh --pico2)
#   mpi       `mpirun -n P flockscope sweep`
# test.sh fails when a test has no label (`ctest -N -LE .` must list none).

set(FLOCKSCOPE_TEST_TIERS quick slow emulator mpi)

function(flockscope_require_tier tier where)
  if(NOT tier IN_LIST FLOCKSCOPE_TEST_TIERS)
    message(FATAL_ERROR "${where}: tier '${tier}' is not one of ${FLOCKSCOPE_TEST_TIERS}")
  endif()
endfunction()

# flockscope_gtests(TARGET PREFIX <prefix> TIER <tier> [SLOW <test> ...] [PROPERTIES <p> <v> ...])
# gtest_discover_tests for TARGET with its tests named PREFIX<Suite>.<Test>, all in TIER but
# the tests named after SLOW (their full ctest names), which go to the slow tier. The labels
# are set by a file ctest reads after the discovered tests (gtest_discover_tests can give
# only one set of properties to all of an executable's tests).
function(flockscope_gtests target)
  cmake_parse_arguments(T "" "PREFIX;TIER" "SLOW;PROPERTIES" ${ARGN})
  flockscope_require_tier("${T_TIER}" "flockscope_gtests(${target})")
  gtest_discover_tests(${target} TEST_PREFIX "${T_PREFIX}" DISCOVERY_TIMEOUT 60
                       TEST_LIST ${target}_TESTS PROPERTIES ${T_PROPERTIES})
  set(file "${CMAKE_CURRENT_BINARY_DIR}/${target}_tiers.cmake")
  set(body "foreach(t IN LISTS ${target}_TESTS)\n  set(tier ${T_TIER})\n")
  foreach(name IN LISTS T_SLOW)
    string(APPEND body "  if(t STREQUAL \"${name}\")\n    set(tier slow)\n  endif()\n")
  endforeach()
  string(APPEND body "  set_tests_properties(\${t} PROPERTIES LABELS \${tier})\nendforeach()\n")
  # A SLOW name that names no test (renamed, misspelt) fails the quick tier instead of
  # leaving a long test in it.
  foreach(name IN LISTS T_SLOW)
    # list(FIND), not if(IN_LIST): ctest reads this file without the project's policies.
    string(APPEND body "list(FIND ${target}_TESTS \"${name}\" found)\n"
                       "if(${target}_TESTS AND found EQUAL -1)\n"
                       "  add_test(\"tiers.no_such_test:${name}\" false)\n"
                       "  set_tests_properties(\"tiers.no_such_test:${name}\" PROPERTIES LABELS quick)\n"
                       "endif()\n")
  endforeach()
  file(WRITE "${file}" "${body}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${file}")
endfunction()

# flockscope_tier(<tier> <test> ...): the label of tests added with add_test.
function(flockscope_tier tier)
  flockscope_require_tier("${tier}" flockscope_tier)
  set_tests_properties(${ARGN} PROPERTIES LABELS ${tier})
endfunction()
