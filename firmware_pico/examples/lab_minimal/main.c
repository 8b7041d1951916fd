// lab_minimal: the boids lab's flock (flock.c: fix15, all pairs, one core, no VGA) mirrored
// and steered by flockscope through flockscope_link.h. Everything flockscope needs is in
// this file: the link's start, the parameters it may change (with a check), the commands it
// may give, and two calls in the frame loop.
//
// Build switches: LAB_BOIDS  boids at start (default 200; the app's boid count changes it)
//                 LAB_MEASURE  the boid count of the link-cost measurement: the flock stands
//                              still (no step) so that the frame is the link's work alone
//                 LAB_STEP_US  a step at least this long (a busy wait after the update), as
//                              a student's heavier step would take: longer than the frame
#include <stdio.h>
#include <string.h>

#include "flock.h"
#include "flockscope_link.h"
#include "pico/stdlib.h"

#ifndef LAB_BOIDS
#define LAB_BOIDS 200
#endif
#define FRAME_PERIOD_US 33333  // 30 frames per second

// ---- what the app may do
static void reset_flock(uint32_t seed) { spawn_boids(seed, n_boids); }
static uint32_t change_boid_count(uint32_t count) {
  set_boid_count((int32_t)count);
  return (uint32_t)n_boids;
}
// The squared distances are fix15 (at most 65535 px^2): the visual range stays below 181 px.
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

// "frame F boids N step_us S link_us L": once a second on the app's log.
static void log_costs(uint32_t frames, uint64_t step_us, uint64_t link_us) {
  char line[96];
  snprintf(line, sizeof line, "frames %lu boids %ld step_us %lu link_us %lu", (unsigned long)frames, (long)n_boids,
           (unsigned long)(step_us / frames), (unsigned long)(link_us / frames));
  fsl_log(line);
}

int main(void) {
  spawn_boids(1, LAB_BOIDS);
#ifdef LAB_MEASURE
  set_boid_count(LAB_MEASURE);
#endif
  const fsl_config link = {.name = "lab-minimal", .capacity = MAX_BOIDS, .on_reset = reset_flock,
                           .on_boid_count = change_boid_count};
  fsl_init(&link);
  fsl_param("visualRange", &visualRange, FSL_FIX15, check_range);
  fsl_param("protectedRange", &protectedRange, FSL_FIX15, check_range);
  fsl_param("centeringfactor", &centeringfactor, FSL_FIX15, NULL);
  fsl_param("avoidfactor", &avoidfactor, FSL_FIX15, NULL);
  fsl_param("matchingfactor", &matchingfactor, FSL_FIX15, NULL);
  fsl_param("turnfactor", &turnfactor, FSL_FIX15, NULL);
  fsl_param("maxspeed", &maxspeed, FSL_FIX15, NULL);
  fsl_param("minspeed", &minspeed, FSL_FIX15, NULL);
  fsl_param("topmargin", &topmargin, FSL_FIX15, NULL);
  fsl_param("bottommargin", &bottommargin, FSL_FIX15, NULL);
  fsl_param("leftmargin", &leftmargin, FSL_FIX15, NULL);
  fsl_param("rightmargin", &rightmargin, FSL_FIX15, NULL);

  uint64_t step_sum = 0, link_sum = 0, last_log = time_us_64();
  uint32_t frames = 0;
  for (;;) {
    const uint64_t begin = time_us_64();
#ifndef LAB_MEASURE
    if (!fsl_paused()) step_boids();
#endif
#ifdef LAB_STEP_US
    busy_wait_until(from_us_since_boot(begin + LAB_STEP_US));
#endif
    const uint64_t stepped = time_us_64();
    fsl_send_state(&(fsl_state){&boids[0].x, &boids[0].y, &boids[0].vx, &boids[0].vy, sizeof boids[0], FSL_FIX15,
                                (uint32_t)n_boids},
                   (uint32_t)(stepped - begin), FRAME_PERIOD_US);
    // The library's own work this frame (encoding, framing, handling requests), not the
    // time it spends waiting for the next frame.
    const fsl_counters c = fsl_get_counters();
    step_sum += stepped - begin;
    link_sum += c.busy_us;
    if (++frames == 30 || stepped - last_log >= 1000000) {
      log_costs(frames, step_sum, link_sum);
      frames = 0, step_sum = link_sum = 0, last_log = stepped;
    }
    fsl_wait_until(begin + FRAME_PERIOD_US);
  }
}
