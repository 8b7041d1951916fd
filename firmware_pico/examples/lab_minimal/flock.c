// The lab's boids rules (seeds 001 and 004), one frame at a time, every pair of boids.
#include "flock.h"

#include <math.h>
#include <stdlib.h>

boid_t boids[MAX_BOIDS];
int32_t n_boids = 0;

fix15 turnfactor = float2fix15(0.2f);
fix15 visualRange = int2fix15(40);
fix15 protectedRange = int2fix15(8);
fix15 centeringfactor = float2fix15(0.0005f);
fix15 avoidfactor = float2fix15(0.05f);
fix15 matchingfactor = float2fix15(0.05f);
fix15 maxspeed = int2fix15(6);
fix15 minspeed = int2fix15(3);
// Distances from the screen's edges where boids start turning.
fix15 topmargin = int2fix15(100);
fix15 bottommargin = int2fix15(100);
fix15 leftmargin = int2fix15(100);
fix15 rightmargin = int2fix15(100);

static uint32_t rng_state = 1;
static uint32_t next_rand(void) {  // xorshift32: the same flock on every machine for a seed
  uint32_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return rng_state = x;
}

static void spawn(boid_t* b) {
  b->x = int2fix15(100 + (int32_t)(next_rand() % 440));
  b->y = int2fix15(100 + (int32_t)(next_rand() % 280));
  // -3 .. 3 px/frame
  b->vx = (fix15)(next_rand() % (6u << 15)) - int2fix15(3);
  b->vy = (fix15)(next_rand() % (6u << 15)) - int2fix15(3);
}

void spawn_boids(uint32_t seed, int32_t count) {
  rng_state = seed ? seed : 1;
  n_boids = 0;
  set_boid_count(count);
}

void set_boid_count(int32_t count) {
  if (count > MAX_BOIDS) count = MAX_BOIDS;
  if (count < 0) count = 0;
  for (int32_t i = n_boids; i < count; i++) spawn(&boids[i]);
  n_boids = count;
}

void step_boids(void) {
  const fix15 protected_sq = multfix15(protectedRange, protectedRange);
  const fix15 visual_sq = multfix15(visualRange, visualRange);
  for (int32_t i = 0; i < n_boids; i++) {
    boid_t* b = &boids[i];
    // Sums over the neighbours in 64 bits: a crowd of boids 40 px away overflows 32.
    int64_t xpos_avg = 0, ypos_avg = 0, xvel_avg = 0, yvel_avg = 0;
    int32_t neighboring_boids = 0;
    fix15 close_dx = 0, close_dy = 0;
    for (int32_t j = 0; j < n_boids; j++) {
      if (j == i) continue;
      const boid_t* o = &boids[j];
      const fix15 dx = b->x - o->x, dy = b->y - o->y;
      if (dx >= visualRange || dx <= -visualRange || dy >= visualRange || dy <= -visualRange) continue;
      const fix15 squared_distance = multfix15(dx, dx) + multfix15(dy, dy);
      if (squared_distance < protected_sq) {
        close_dx += dx;
        close_dy += dy;
      } else if (squared_distance < visual_sq) {
        xpos_avg += o->x;
        ypos_avg += o->y;
        xvel_avg += o->vx;
        yvel_avg += o->vy;
        neighboring_boids++;
      }
    }
    if (neighboring_boids > 0) {
      const fix15 xp = (fix15)(xpos_avg / neighboring_boids), yp = (fix15)(ypos_avg / neighboring_boids);
      const fix15 xv = (fix15)(xvel_avg / neighboring_boids), yv = (fix15)(yvel_avg / neighboring_boids);
      b->vx += multfix15(xp - b->x, centeringfactor) + multfix15(xv - b->vx, matchingfactor);
      b->vy += multfix15(yp - b->y, centeringfactor) + multfix15(yv - b->vy, matchingfactor);
    }
    b->vx += multfix15(close_dx, avoidfactor);
    b->vy += multfix15(close_dy, avoidfactor);
    // Screen margins (y down: the top margin is the small y).
    if (b->y < topmargin) b->vy += turnfactor;
    if (b->y > int2fix15(SCREEN_HEIGHT) - bottommargin) b->vy -= turnfactor;
    if (b->x < leftmargin) b->vx += turnfactor;
    if (b->x > int2fix15(SCREEN_WIDTH) - rightmargin) b->vx -= turnfactor;
    // Speed limits, both components scaled alike (the seeds' prose scales vy by the wrong
    // limit); a boid at rest is left alone rather than divided by zero.
    const float fvx = fix2float15(b->vx), fvy = fix2float15(b->vy);
    const float speed = sqrtf(fvx * fvx + fvy * fvy);
    if (speed > 0) {
      if (speed > fix2float15(maxspeed)) {
        const float k = fix2float15(maxspeed) / speed;
        b->vx = float2fix15(fvx * k), b->vy = float2fix15(fvy * k);
      } else if (speed < fix2float15(minspeed)) {
        const float k = fix2float15(minspeed) / speed;
        b->vx = float2fix15(fvx * k), b->vy = float2fix15(fvy * k);
      }
    }
    b->x += b->vx;
    b->y += b->vy;
  }
}
