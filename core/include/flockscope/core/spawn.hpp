// How a flock is spawned, shared by the float engine (core/src/flock.cpp) and the board
// (firmware_pico/logic), so that a seed spawns the same flock on both.
#pragma once

#include <cmath>

#include "flockscope/core/rng.hpp"

namespace flockscope {

// The span where boids are spawned along one side: inside the margins when they leave room
// (seed 001: "randomized initial position (within margins)"), else the whole side.
inline void spawn_span(double side, double lo_margin, double hi_margin, double& lo, double& hi) {
  lo = lo_margin;
  hi = side - hi_margin;
  if (!(hi > lo)) {
    lo = 0;
    hi = side;
  }
}

// A velocity with a uniform direction and a speed uniform in [lo, hi] (lo lowered to hi when
// they cross). The direction comes by rejection from the unit disc: only IEEE-exact
// operations and a correctly rounded sqrt, no libm trigonometry, so a seed spawns the same
// flock on every machine, and the float engine and the board draw the same numbers.
inline void random_velocity(Pcg32& rng, double lo, double hi, double& vx, double& vy) {
  if (hi < lo) lo = hi;
  double u, v, r2;
  do {
    u = rng.uniform(-1, 1);
    v = rng.uniform(-1, 1);
    r2 = u * u + v * v;
  } while (r2 > 1 || r2 < 1e-6);
  const double speed = rng.uniform(lo, hi) / std::sqrt(r2);
  vx = u * speed;
  vy = v * speed;
}

}  // namespace flockscope
