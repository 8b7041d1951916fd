// The tests' tiny board in C: the example's flock, flockscope_link over a file descriptor.
#define _DEFAULT_SOURCE  // clock_gettime, usleep under -std=c11
#include "tiny_board.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "flock.h"

static int board_fd = -1;
static uint32_t link_rate = 0;  // bytes a second; 0: unlimited
static double link_tokens = 0;
static uint64_t link_last_us = 0;

static uint64_t fd_now_us(void* ctx);

static size_t fd_read(void* ctx, uint8_t* buf, size_t cap) {
  (void)ctx;
  const ssize_t n = read(board_fd, buf, cap);
  return n > 0 ? (size_t)n : 0;
}
static size_t fd_write(void* ctx, const uint8_t* buf, size_t n) {
  if (link_rate) {
    const uint64_t now = fd_now_us(ctx);
    link_tokens += (double)(now - link_last_us) * link_rate / 1e6;
    if (link_tokens > 4096) link_tokens = 4096;
    link_last_us = now;
    if (n > (size_t)link_tokens) n = (size_t)link_tokens;
    if (n == 0) return 0;
  }
  const ssize_t w = write(board_fd, buf, n);
  if (w <= 0) return 0;
  if (link_rate) link_tokens -= (double)w;
  return (size_t)w;
}

void tiny_board_limit_link(uint32_t bytes_per_s) {
  link_rate = bytes_per_s;
  link_tokens = 0;
  link_last_us = fd_now_us(NULL);
}
static bool fd_connected(void* ctx) {
  (void)ctx;
  return true;  // a pseudo-terminal has no DTR: the host's hello starts the session
}
static uint64_t fd_now_us(void* ctx) {
  (void)ctx;
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}
static const fsl_transport fd_transport = {fd_read, fd_write, fd_connected, fd_now_us, NULL, NULL};

// The example's callbacks (firmware_pico/examples/lab_minimal/main.c), written again here:
// the example keeps everything flockscope needs in its one main.c, for a lab to read and
// copy whole, and its main() is the board's (pico-sdk), which this host build cannot link.
static void reset_flock(uint32_t seed) { spawn_boids(seed, n_boids); }
static uint32_t change_boid_count(uint32_t count) {
  set_boid_count((int32_t)count);
  return (uint32_t)n_boids;
}
// A refusal says why (fsl_reason): the app shows it with the refusal.
static fsl_status check_range(const char* name, double value) {
  if (value > 180) {
    fsl_reason("at most 180 px on this board (its squared distances are fix15)");
    return FSL_OUT_OF_RANGE;
  }
  if (strcmp(name, "protectedRange") == 0 && value > fix2float15(visualRange)) {
    char why[64];
    snprintf(why, sizeof why, "at most visualRange (%.1f px)", (double)fix2float15(visualRange));
    fsl_reason(why);
    return FSL_INVALID;
  }
  return FSL_OK;
}

bool tiny_board_init(int fd, int32_t boids_at_start) {
  board_fd = fd;
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  spawn_boids(1, boids_at_start);
  const fsl_config cfg = {.name = "tiny-c-board", .capacity = MAX_BOIDS, .transport = &fd_transport,
                          .on_reset = reset_flock, .on_boid_count = change_boid_count};
  if (!fsl_init(&cfg)) return false;
  return fsl_param("visualRange", &visualRange, FSL_FIX15, check_range) &&
         fsl_param("protectedRange", &protectedRange, FSL_FIX15, check_range) &&
         fsl_param("maxspeed", &maxspeed, FSL_FIX15, NULL) && fsl_param("minspeed", &minspeed, FSL_FIX15, NULL) &&
         fsl_param("turnfactor", &turnfactor, FSL_FIX15, NULL) &&
         !fsl_param("visualRange", &visualRange, FSL_FIX15, NULL) &&  // twice: refused
         !fsl_param("noSuchParameter", &visualRange, FSL_FIX15, NULL);
}

void tiny_board_frame(void) {
  const uint64_t t0 = fd_now_us(NULL);
  if (!fsl_paused()) step_boids();
  const fsl_state s = {&boids[0].x, &boids[0].y, &boids[0].vx, &boids[0].vy, sizeof boids[0], FSL_FIX15,
                       (uint32_t)n_boids};
  fsl_send_state(&s, (uint32_t)(fd_now_us(NULL) - t0), 33333);
  fsl_poll();
}

void tiny_board_run(volatile int* stop) {
  while (!*stop) {
    const uint64_t begin = fd_now_us(NULL);
    tiny_board_frame();
    // The frame's spare time: fsl_wait_until without its busy loop (a shared test machine).
    while (fd_now_us(NULL) < begin + 33333) {
      fsl_poll();
      usleep(300);
    }
  }
}

void tiny_board_run_slow(volatile int* stop, uint32_t step_us) {
  while (!*stop) {
    const uint64_t begin = fd_now_us(NULL);
    if (!fsl_paused()) step_boids();
    while (fd_now_us(NULL) < begin + step_us) {
      fsl_background_service();
      usleep(1000);
    }
    const fsl_state s = {&boids[0].x, &boids[0].y, &boids[0].vx, &boids[0].vy, sizeof boids[0], FSL_FIX15,
                         (uint32_t)n_boids};
    fsl_send_state(&s, (uint32_t)(fd_now_us(NULL) - begin), 33333);
    fsl_wait_until(begin + 33333);  // long past: one poll
  }
}
