// The lab's flock (ECE 4760/5730 boids labs): fix15 arithmetic, all pairs, one core. Plain C
// with no pico-sdk header, so the same file runs on the RP2040 and in the host tests.
#ifndef LAB_FLOCK_H
#define LAB_FLOCK_H

#include <stdint.h>

// Q16.15 fixed point, as in the labs.
typedef int32_t fix15;
#define multfix15(a, b) ((fix15)((((int64_t)(a)) * ((int64_t)(b))) >> 15))
#define float2fix15(a) ((fix15)((a) * 32768.0f))
#define fix2float15(a) ((float)(a) / 32768.0f)
#define int2fix15(a) ((fix15)((a) << 15))
#define fix2int15(a) ((int)((a) >> 15))

#define MAX_BOIDS 1000
#define SCREEN_WIDTH 640  // the lab's VGA screen
#define SCREEN_HEIGHT 480

typedef struct {
  fix15 x, y, vx, vy;
} boid_t;

// The flock and the lab's parameters (seed 004's values), by the names of the lab's slider
// script and of flockscope's parameter table.
extern boid_t boids[MAX_BOIDS];
extern int32_t n_boids;
extern fix15 turnfactor, visualRange, protectedRange, centeringfactor, avoidfactor, matchingfactor;
extern fix15 maxspeed, minspeed, topmargin, bottommargin, leftmargin, rightmargin;

void spawn_boids(uint32_t seed, int32_t count);  // count boids at random places and speeds
void set_boid_count(int32_t count);             // new boids spawn, extra ones go
void step_boids(void);                          // one frame of the lab's rules, every boid

#endif
