// Small flocks placed by hand, with every rule but the one under test switched off.
#pragma once

#include "flockscope/core/flock.hpp"

namespace flockscope::test {

// A big world without margins or speed limits, no predators, every rule off.
inline Params quiet_params() {
  Params p;
  p.width = p.height = 10000;
  p.leftmargin = p.rightmargin = p.topmargin = p.bottommargin = 0;
  p.minspeed = 0;
  p.maxspeed = 1000;
  p.predators = 0;
  p.cohesion = p.alignment = p.separation = false;
  return p;
}

struct B {
  float x, y, vx, vy;
};

inline FlockSnapshot snapshot_of(std::initializer_list<B> boids) {
  FlockSnapshot s;
  for (const auto& b : boids) s.x.push_back(b.x), s.y.push_back(b.y), s.vx.push_back(b.vx), s.vy.push_back(b.vy);
  return s;
}

// One step from the given boids; returns them in id order.
inline FlockSnapshot step_once(const Params& p, std::initializer_list<B> boids, std::vector<Predator> predators = {}) {
  Flock f(p, snapshot_of(boids));
  f.set_predators(std::move(predators));
  f.step();
  return f.snapshot();
}

}  // namespace flockscope::test
