// The lab's flock (firmware_pico/examples/lab_minimal/flock.c) behind flockscope_link's host
// build, on a file descriptor: the tests' tiny board. Written in C (tiny_board.c), so the
// library's header is compiled as C.
#pragma once

#include <stdint.h>

#include "flockscope_link.h"

#ifdef __cplusplus
extern "C" {
#endif

// Starts the link on fd (the board's end of a pseudo-terminal) with `boids` boids and the
// lab's parameters exposed (visualRange and protectedRange with the example's check).
bool tiny_board_init(int fd, int32_t boids);
// One frame: step, send state, poll (no waiting: the caller paces).
void tiny_board_frame(void);
// Runs frames at 30 fps until *stop is set.
void tiny_board_run(volatile int* stop);

#ifdef __cplusplus
}
#endif
