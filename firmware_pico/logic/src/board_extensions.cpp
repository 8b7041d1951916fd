// BoardFlock's share of the lab's extensions (seed 001) outside the boids' rules: the aims
// of centroid and chase predators, the food sources' spawn and wander, the perch count. The
// boids' side of food and perching is core's rule source (rules::cornell_update), run by
// update_boid<true> (board_update.cpp). Each follows core's Flock (core/src/flock.cpp:
// find_aim, step_food, spawn_food) in fixed point: the same draws, tests and tie-breaks.
//
// Sections: hunting predators | food | perching
#include "flockscope/board/board_flock.hpp"

namespace flockscope::board {

// ---------------------------------------------------------------- hunting predators
// One pass over the boids on the screen per predator, whose result does not depend on the
// slots' order: the centroid sums positions as integers in 1/256 px, and the nearest boid
// is the one with the lowest id among equally near ones. Squared distances are exact 64-bit
// squares of the Q16.16 offsets (predator_vision may reach far beyond Q16.16's squares).
void BoardFlock::find_aims() {
  if (hunt_ == 0) {
    for (std::uint32_t i = 0; i < n_pred_; ++i) aim_[i] = BoardAim{};
    return;
  }
  const bool chase = hunt_ == 2;
  const std::int32_t w = fix(width_).raw, h = fix(height_).raw;
  const std::int64_t reach = vision_raw_;
  for (std::uint32_t i = 0; i < n_pred_; ++i) {
    const BoardPredator& pr = pred_[i];
    const BoardAim last = aim_[i];
    std::int64_t sx = 0, sy = 0;
    std::uint32_t seen = 0;
    std::uint64_t nearest_d2 = vision2_;
    std::int32_t nearest = -1;
    fix nearest_x{}, nearest_y{}, target_x{}, target_y{};
    bool target_seen = false;
    for (std::uint32_t k = 0; k < n_; ++k) {
      // Only boids on the screen (core's find_aim: a boid that flees past the edge is lost
      // to sight).
      const std::int32_t x = buf_.x[k].raw, y = buf_.y[k].raw;
      if (!(x >= 0 && x <= w && y >= 0 && y <= h)) continue;
      const std::int64_t dx = std::int64_t(x) - pr.x.raw, dy = std::int64_t(y) - pr.y.raw;
      // The box first (d2 < vision^2 needs |dx|, |dy| < vision): most boids skip the squares.
      if (dx >= reach || dx <= -reach || dy >= reach || dy <= -reach) continue;
      const std::uint64_t d2 = std::uint64_t(dx * dx) + std::uint64_t(dy * dy);
      if (!(d2 < vision2_)) continue;
      if (!chase) {
        sx += (x + 128) >> 8, sy += (y + 128) >> 8, ++seen;
        continue;
      }
      const std::int32_t id = buf_.id[k];
      if (id == last.target) target_seen = true, target_x = buf_.x[k], target_y = buf_.y[k];
      if (d2 < nearest_d2 || (d2 == nearest_d2 && nearest >= 0 && id < nearest))
        nearest_d2 = d2, nearest = id, nearest_x = buf_.x[k], nearest_y = buf_.y[k];
    }
    BoardAim aim;
    if (!chase) {
      if (seen > 0) {  // the mean in Q16.16, rounded (the sums are non-negative)
        aim.active = true;
        aim.x = fix::from_raw(std::int32_t((sx * 512 + seen) / (2 * std::int64_t(seen))));
        aim.y = fix::from_raw(std::int32_t((sy * 512 + seen) / (2 * std::int64_t(seen))));
      }
    } else if (target_seen) {  // keeps its boid while it is in sight
      aim = {true, target_x, target_y, last.target};
    } else if (nearest >= 0) {
      aim = {true, nearest_x, nearest_y, nearest};
    }
    aim_[i] = aim;
  }
}

void BoardFlock::hunt(std::uint32_t i) {
  BoardPredator& p = pred_[i];
  if (aim_[i].active) rules::predator_hunt(p.x, p.y, p.vx, p.vy, aim_[i].x, aim_[i].y, steer_);
}

// ---------------------------------------------------------------- food
// Their own stream (seed, 3), as core: adding food moves neither boids nor predators. Each
// starts inside the margins heading a random way; the draws go through float as core
// stores them.
void BoardFlock::spawn_food(std::uint64_t seed) {
  Pcg32 rng(seed, 3);
  for (std::uint32_t q = 0; q < n_food_; ++q) {
    BoardFood& f = food_[q];
    const double x = rng.uniform(spawn_x0_, spawn_x1_);
    const double y = rng.uniform(spawn_y0_, spawn_y1_);
    f.x = fix(double(float(x)));
    f.y = fix(double(float(y)));
    f.vx = fix(double(float(rng.uniform(-1, 1))));
    f.vy = fix(double(float(rng.uniform(-1, 1))));
  }
}

// Each step a small random turn drawn from (seed, step, source), the speed set back to
// food_speed, and a bounce off each wall.
void BoardFlock::step_food() {
  const fix w = fix(width_), h = fix(height_), speed = food_speed_;
  for (std::uint32_t q = 0; q < n_food_; ++q) {
    BoardFood& f = food_[q];
    Pcg32 rng(seed_ * 0x9E3779B97F4A7C15ull + frame_, 3 + q);
    f.vx += fix(double(float(rng.uniform(-0.3, 0.3))));
    f.vy += fix(double(float(rng.uniform(-0.3, 0.3))));
    const fix norm = sqrt(f.vx * f.vx + f.vy * f.vy);
    if (norm > fix(0)) {
      f.vx = f.vx / norm * speed, f.vy = f.vy / norm * speed;
    } else {
      f.vx = speed, f.vy = fix(0);
    }
    f.x += f.vx, f.y += f.vy;
    if (f.x < fix(0)) f.x = -f.x, f.vx = abs_of(f.vx);
    if (f.x > w) f.x = w + w - f.x, f.vx = -abs_of(f.vx);
    if (f.y < fix(0)) f.y = -f.y, f.vy = abs_of(f.vy);
    if (f.y > h) f.y = h + h - f.y, f.vy = -abs_of(f.vy);
    // A speed above the world's size.
    f.x = f.x < fix(0) ? fix(0) : f.x > w ? w : f.x;
    f.y = f.y < fix(0) ? fix(0) : f.y > h ? h : f.y;
  }
}

// ---------------------------------------------------------------- perching
std::uint32_t BoardFlock::perched() const {
  if (!perch_on_) return 0;
  std::uint32_t n = 0;
  for (std::uint32_t id = 0; id < n_; ++id) n += buf_.perch[id] > 0;
  return n;
}

}  // namespace flockscope::board
