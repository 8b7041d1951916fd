# The board logic's sources, one list for both builds of it: logic/CMakeLists.txt (the
# host's flockscope_board: the virtual board, the tests) and firmware_pico/CMakeLists.txt
# (the RP2040 images, which also assemble the Thumb-1 routines in place of their C++
# versions: FLOCKSCOPE_BOARD_ASM_SOURCES).
set(FLOCKSCOPE_BOARD_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/src/asm_offsets.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/board.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/board_extensions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/board_flock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/board_metrics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/board_params.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/board_rules_fast.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/board_sort.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/board_update.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/draw.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/pacing.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/rules_cases.cpp
  CACHE INTERNAL "")
set(FLOCKSCOPE_BOARD_ASM_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/src/scan_m0.S
  ${CMAKE_CURRENT_LIST_DIR}/src/rules_m0.S
  ${CMAKE_CURRENT_LIST_DIR}/src/sort_m0.S
  ${CMAKE_CURRENT_LIST_DIR}/src/draw_m0.S
  CACHE INTERNAL "")
