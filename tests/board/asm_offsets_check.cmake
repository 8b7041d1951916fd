# The contract between the board's C++ structs and its Thumb-1 routines (asm_offsets.h),
# checked for the Cortex-M0+ without the firmware build:
#
#   MODE=check        compiles firmware_pico/logic/src/asm_offsets.cpp with arm-none-eabi-g++
#                     for the Cortex-M0+ (32-bit pointers: every static_assert applies)
#   MODE=compile_fail the same compile passes; then, for every struct asm_offsets.h names
#                     ("/* Name: flockscope/board/header.hpp"), a copy of its header with a
#                     field added at the front must fail it, on a static assertion
#   MODE=assemble     assembles every .S of firmware_pico/logic/src and the emulator's boot
#                     ROM as the firmware build does, with the Pico SDK's register headers
#                     (the SDK at PICO_SDK_PATH or where firmware_pico/fetch_sdk.sh caches
#                     it); prints "SKIPPED:" without it
#
#   cmake -DMODE=... -DCXX=arm-none-eabi-g++ -DCC=arm-none-eabi-gcc -DROOT=<flockscope>
#         -DOUT_DIR=<dir> -P asm_offsets_check.cmake
cmake_minimum_required(VERSION 3.20)

set(logic ${ROOT}/firmware_pico/logic)
set(includes -I${logic}/include -I${ROOT}/params/include -I${ROOT}/core/include -I${ROOT}/protocol/include)
set(flags -std=c++20 -mcpu=cortex-m0plus -mthumb -fno-exceptions -fno-rtti -Wall -Wextra -Werror -fsyntax-only)
set(check_source ${logic}/src/asm_offsets.cpp)

file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})

# Compiles asm_offsets.cpp with `extra` include directories first; rc and output back.
function(compile_check extra rc_var out_var)
  execute_process(COMMAND ${CXX} ${flags} ${extra} ${includes} ${check_source}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${rc_var} ${rc} PARENT_SCOPE)
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "check" OR MODE STREQUAL "compile_fail")
  compile_check("" rc out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the Cortex-M0+ layout check failed (asm_offsets.h against the structs):\n${out}")
  endif()
  message(STATUS "asm_offsets.cpp compiles for the Cortex-M0+: every asm_offsets.h number matches")
endif()

if(MODE STREQUAL "compile_fail")
  file(READ ${logic}/include/flockscope/board/asm_offsets.h offsets)
  string(REGEX MATCHALL "/\\* [A-Za-z0-9_]+: flockscope/board/[a-z0-9_]+\\.hpp" blocks "${offsets}")
  list(LENGTH blocks count)
  if(count LESS 10)
    message(FATAL_ERROR "asm_offsets.h names ${count} structs (\"/* Name: flockscope/board/header.hpp\"): expected them all")
  endif()
  foreach(block IN LISTS blocks)
    string(REGEX REPLACE "^/\\* ([A-Za-z0-9_]+): (.*)$" "\\1" name "${block}")
    string(REGEX REPLACE "^/\\* ([A-Za-z0-9_]+): (.*)$" "\\2" header "${block}")
    file(READ ${logic}/include/${header} text)
    string(FIND "${text}" "struct ${name} {" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${header} has no \"struct ${name} {\" (asm_offsets.h names it there)")
    endif()
    string(REPLACE "struct ${name} {" "struct ${name} {\n  std::uint32_t field_added_at_the_front;" injected "${text}")
    set(dir ${OUT_DIR}/${name})
    file(WRITE ${dir}/${header} "${injected}")
    compile_check("-I${dir}" rc out)
    if(rc EQUAL 0)
      message(FATAL_ERROR "a field added at the front of ${name} (${header}) still compiles: "
                          "asm_offsets.cpp does not check its layout")
    endif()
    if(NOT out MATCHES "static assertion failed[^\n]*asm_offsets\\.h")
      message(FATAL_ERROR "a field added at the front of ${name} fails to compile, but not on "
                          "asm_offsets.cpp's checks:\n${out}")
    endif()
    string(REGEX MATCH "asm_offsets\\.h: [A-Z0-9_]+ is not [^\"\n]*" first "${out}")
    message(STATUS "${name} with a field at the front fails: ${first}")
  endforeach()
  message(STATUS "each of the ${count} structs the assembly reads fails the build when a field is added at its front")
endif()

if(MODE STREQUAL "assemble")
  # fetch_sdk.sh's cache: ${FLOCKSCOPE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/flockscope}/pico-sdk-2.1.1
  set(cache "$ENV{FLOCKSCOPE_CACHE}")
  if(NOT cache)
    set(cache "$ENV{XDG_CACHE_HOME}")
    if(NOT cache)
      set(cache "$ENV{HOME}/.cache")
    endif()
    set(cache "${cache}/flockscope")
  endif()
  set(sdk "")
  foreach(candidate "$ENV{PICO_SDK_PATH}" "${cache}/pico-sdk-2.1.1")
    if(candidate AND EXISTS "${candidate}/src/rp2040/hardware_regs/include/hardware/regs/sio.h")
      set(sdk "${candidate}")
      break()
    endif()
  endforeach()
  if(NOT sdk)
    message("SKIPPED: no Pico SDK (PICO_SDK_PATH, or firmware_pico/fetch_sdk.sh's cache ${cache}): "
            "the .S files need its hardware/regs headers")
    return()
  endif()
  file(GLOB sources ${logic}/src/*.S)
  if(NOT sources)
    message(FATAL_ERROR "no .S files in ${logic}/src")
  endif()
  list(APPEND sources ${ROOT}/firmware_pico/emulator/bootrom.S)
  foreach(src IN LISTS sources)
    get_filename_component(name ${src} NAME_WE)
    execute_process(COMMAND ${CC} -mcpu=cortex-m0plus -mthumb -c -I${logic}/include
                            -isystem ${sdk}/src/rp2040/hardware_regs/include ${src} -o ${OUT_DIR}/${name}.o
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "assembling ${src} failed:\n${out}${err}")
    endif()
    message(STATUS "assembled ${name}.S")
  endforeach()
endif()
