# Cross-compiles the protocol library for the RP2040's Cortex-M0+ exactly as the
# firmware will (arm-none-eabi-g++ -mcpu=cortex-m0plus -mthumb -fno-exceptions
# -fno-rtti), warnings as errors, then checks the objects' undefined symbols: only
# the freestanding string functions and the compiler's own ARM EABI helpers may be
# referenced, so a heap allocation (operator new, malloc), an exception, RTTI, a
# thread-safe static or any OS/libc call (printf, time, ...) fails the test.
# Finally links a small program using the headers against newlib's nosys stubs.
#
#   cmake -DCXX=arm-none-eabi-g++ -DNM=arm-none-eabi-nm -DPROTO_DIR=<protocol/>
#         -DSMOKE=<m0plus_smoke.cpp> -DOUT_DIR=<dir> -P m0plus_check.cmake
cmake_minimum_required(VERSION 3.20)

set(flags -std=c++20 -mcpu=cortex-m0plus -mthumb -fno-exceptions -fno-rtti -Os
          -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Werror
          -I${PROTO_DIR}/include)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
file(GLOB sources ${PROTO_DIR}/src/*.cpp)
if(NOT sources)
  message(FATAL_ERROR "no sources in ${PROTO_DIR}/src")
endif()

set(objects)
foreach(src IN LISTS sources)
  get_filename_component(name ${src} NAME_WE)
  set(obj ${OUT_DIR}/${name}.o)
  execute_process(COMMAND ${CXX} ${flags} -c ${src} -o ${obj}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "Cortex-M0+ compile of ${src} failed:\n${out}${err}")
  endif()
  list(APPEND objects ${obj})
endforeach()

execute_process(COMMAND ${NM} -u ${objects} OUTPUT_VARIABLE undefined RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed")
endif()
string(REGEX MATCHALL "U [^\n]+" refs "${undefined}")
set(bad)
foreach(ref IN LISTS refs)
  string(SUBSTRING "${ref}" 2 -1 sym)
  if(sym MATCHES "^(memcpy|memmove|memset|memchr|memcmp|__aeabi_[a-z0-9_]+|__gnu_thumb1_case_[a-z]+)$")
    continue()
  endif()
  if(sym MATCHES "^_ZN10flockscope8protocol")  # our own, defined in another object
    continue()
  endif()
  list(APPEND bad ${sym})
endforeach()
if(bad)
  list(REMOVE_DUPLICATES bad)
  message(FATAL_ERROR "the protocol objects reference symbols outside the freestanding allowlist "
                      "(heap, exceptions, RTTI, libc/OS?):\n  ${bad}")
endif()

execute_process(COMMAND ${CXX} ${flags} -c ${SMOKE} -o ${OUT_DIR}/smoke.o
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "Cortex-M0+ compile of ${SMOKE} failed:\n${out}${err}")
endif()
execute_process(COMMAND ${CXX} -mcpu=cortex-m0plus -mthumb -specs=nano.specs -specs=nosys.specs
                        ${OUT_DIR}/smoke.o ${objects} -o ${OUT_DIR}/smoke.elf
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "Cortex-M0+ link of the smoke program failed:\n${out}${err}")
endif()
message(STATUS "protocol builds for the Cortex-M0+; objects reference only: memcpy/memmove/memset/memchr/memcmp and ARM EABI helpers")
