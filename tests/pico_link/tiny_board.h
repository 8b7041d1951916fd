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
// Runs the header's loop (step, fsl_send_state, fsl_wait_until) with a step of at least
// step_us until *stop is set: the update, then the rest of the step in 1 ms slices, each
// running fsl_background_service as the RP2040 build's timer interrupt does.
void tiny_board_run_slow(volatile int* stop, uint32_t step_us);
// The link takes at most bytes_per_s (0: as fast as the pseudo-terminal), with a burst of
// 4 KiB, as a USB CDC FIFO does: a frame's state then outlasts fsl_send_state.
void tiny_board_limit_link(uint32_t bytes_per_s);

#ifdef __cplusplus
}
#endif
