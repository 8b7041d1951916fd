// The metrics a window needs every step, fast enough to take every step of a million-boid
// flock: fixed blocks of boids summed on the engine's threads, each block's loop free of
// branches and of hypot() so that it vectorises. The blocks are fixed (not per thread) and
// combined in order, so the result does not depend on the thread count.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "flockscope/core/metrics.hpp"
#include "flockscope/core/simd.hpp"

namespace flockscope {

namespace {
constexpr std::size_t kBlock = 16384;
constexpr int kLanes = 8;
constexpr double kTiny = 1e-300;  // partial sums per quantity: a fixed order whatever the vector width

struct Sums {
  double sx = 0, sy = 0, speed = 0, hx = 0, hy = 0, moving = 0, right = 0, left = 0, dist = 0;
  double down = 0, up = 0, down_speed = 0, up_speed = 0, food = 0;
};

// Boid i adds to lane i % 8 (counted from the block's start) and the lanes are added in lane
// order, so every instruction set (chosen at run time) gives the same bits; the AVX-512 and
// AVX2 clones take the double sqrt and division four or eight boids at a time, the baseline
// clone two.
FLOCKSCOPE_CLONES("arch=x86-64-v4", "avx2", "default")
void block_sums(const PointsView& pts, std::size_t lo, std::size_t hi, Sums& out) {
  double sx[kLanes] = {}, sy[kLanes] = {}, speed[kLanes] = {}, hx[kLanes] = {}, hy[kLanes] = {};
  double moving[kLanes] = {}, right[kLanes] = {}, left[kLanes] = {};
  double down[kLanes] = {}, up[kLanes] = {}, down_speed[kLanes] = {}, up_speed[kLanes] = {};
  // Eight boids from x, y, vx, vy (one per lane). The last, partial group of a block comes
  // padded with boids at 0 and at rest, which add exactly zero to every sum.
  auto add8 = [&](const float* x, const float* y, const float* vxs, const float* vys) {
#pragma omp simd
    for (int l = 0; l < kLanes; ++l) {
      const double vx = vxs[l], vy = vys[l];
      const double sp = std::sqrt(vx * vx + vy * vy);
      // A boid at rest (vx = vy = 0) adds no heading whatever it is divided by. A moving one
      // has a speed of at least 1e-45 (float components), whose half ulp is far above kTiny,
      // so sp + kTiny == sp exactly. No select, no branch: every clone vectorises this.
      const double inv = 1.0 / (sp + kTiny);
      sx[l] += x[l];
      sy[l] += y[l];
      speed[l] += sp;
      hx[l] += vx * inv;
      hy[l] += vy * inv;
      moving[l] += double(sp > 0);
      right[l] += double(vx > 0);
      left[l] += double(vx < 0);
      // Down and up as products, not selects, which would stop the vectorising.
      const double is_down = double(vy > 0), is_up = double(vy < 0);
      down[l] += is_down;
      up[l] += is_up;
      down_speed[l] += sp * is_down;
      up_speed[l] += sp * is_up;
    }
  };
  std::size_t i = lo;
  for (; i + kLanes <= hi; i += kLanes) add8(pts.x + i, pts.y + i, pts.vx + i, pts.vy + i);
  if (i < hi) {
    float x[kLanes] = {}, y[kLanes] = {}, vx[kLanes] = {}, vy[kLanes] = {};
    std::copy(pts.x + i, pts.x + hi, x), std::copy(pts.y + i, pts.y + hi, y);
    std::copy(pts.vx + i, pts.vx + hi, vx), std::copy(pts.vy + i, pts.vy + hi, vy);
    add8(x, y, vx, vy);
  }
  for (int l = 0; l < kLanes; ++l) {
    out.sx += sx[l], out.sy += sy[l], out.speed += speed[l], out.hx += hx[l], out.hy += hy[l];
    out.moving += moving[l], out.right += right[l], out.left += left[l];
    out.down += down[l], out.up += up[l];
    out.down_speed += down_speed[l], out.up_speed += up_speed[l];
  }
}

FLOCKSCOPE_CLONES("arch=x86-64-v4", "avx2", "default")
double block_distances(const PointsView& pts, std::size_t lo, std::size_t hi, double cx, double cy) {
  double d[kLanes] = {};
  const float *x = pts.x, *y = pts.y;
  std::size_t i = lo;
  for (; i + kLanes <= hi; i += kLanes) {
#pragma omp simd
    for (int l = 0; l < kLanes; ++l) {
      const double dx = x[i + std::size_t(l)] - cx, dy = y[i + std::size_t(l)] - cy;
      d[l] += std::sqrt(dx * dx + dy * dy);
    }
  }
  for (int l = 0; i < hi; ++i, ++l) {
    const double dx = x[i] - cx, dy = y[i] - cy;
    d[l] += std::sqrt(dx * dx + dy * dy);
  }
  double total = 0;
  for (int l = 0; l < kLanes; ++l) total += d[l];
  return total;
}

// The sum over the block's boids of the distance to the nearest food source, in lanes as
// above: sources outside, boids inside, so the inner loop vectorises.
FLOCKSCOPE_CLONES("arch=x86-64-v4", "avx2", "default")
double block_food(const PointsView& pts, std::size_t lo, std::size_t hi) {
  double d[kLanes] = {};
  for (std::size_t i = lo; i < hi; i += kLanes) {
    const std::size_t lanes = std::min<std::size_t>(kLanes, hi - i);
    const float *x = pts.x + i, *y = pts.y + i;
    float px[kLanes] = {}, py[kLanes] = {};  // the last, partial group, padded
    if (lanes < kLanes) std::copy(x, x + lanes, px), std::copy(y, y + lanes, py), x = px, y = py;
    double best[kLanes];
    std::fill(best, best + kLanes, std::numeric_limits<double>::infinity());
    for (const FoodSource& f : pts.food) {
      const double fx = f.x, fy = f.y;
#pragma omp simd
      for (int l = 0; l < kLanes; ++l) {
        const double dx = x[l] - fx, dy = y[l] - fy;
        const double d2 = dx * dx + dy * dy;
        best[l] = d2 < best[l] ? d2 : best[l];
      }
    }
    for (std::size_t l = 0; l < lanes; ++l) d[l] += std::sqrt(best[l]);
  }
  double total = 0;
  for (int l = 0; l < kLanes; ++l) total += d[l];
  return total;
}

// Each predator's squared distance to the nearest boid of the block, into best2 (one a
// predator). A minimum is exact in any order.
FLOCKSCOPE_CLONES("arch=x86-64-v4", "avx2", "default")
void block_predators(const PointsView& pts, std::size_t lo, std::size_t hi, double* best2) {
  const float *x = pts.x, *y = pts.y;
  for (std::size_t q = 0; q < pts.predators.size(); ++q) {
    const double px = pts.predators[q].x, py = pts.predators[q].y;
    double best = std::numeric_limits<double>::infinity();
#pragma omp simd reduction(min : best)
    for (std::size_t i = lo; i < hi; ++i) {
      const double dx = x[i] - px, dy = y[i] - py;
      const double d2 = dx * dx + dy * dy;
      best = d2 < best ? d2 : best;
    }
    best2[q] = best;
  }
}
}  // namespace

Metrics compute_step_metrics(const PointsView& pts, int threads) {
  Metrics m;
  const std::size_t n = pts.n;
  if (n == 0) return m;
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<Sums> part(blocks);
  const long long nb = static_cast<long long>(blocks);
#pragma omp parallel for schedule(static) num_threads(threads < 1 ? 1 : threads)
  for (long long b = 0; b < nb; ++b) {
    const std::size_t lo = std::size_t(b) * kBlock, hi = std::min(n, lo + kBlock);
    block_sums(pts, lo, hi, part[std::size_t(b)]);
  }
  Sums t;
  for (const Sums& s : part) {
    t.sx += s.sx, t.sy += s.sy, t.speed += s.speed, t.hx += s.hx, t.hy += s.hy;
    t.moving += s.moving, t.right += s.right, t.left += s.left;
    t.down += s.down, t.up += s.up, t.down_speed += s.down_speed, t.up_speed += s.up_speed;
  }
  const double inv = 1.0 / double(n);
  m.centroid_x = t.sx * inv;
  m.centroid_y = t.sy * inv;
  const double cx = m.centroid_x, cy = m.centroid_y;
  const std::size_t np = pts.predators.size();
  std::vector<double> nearest(np * blocks);  // per block, each predator's nearest squared distance
#pragma omp parallel for schedule(static) num_threads(threads < 1 ? 1 : threads)
  for (long long b = 0; b < nb; ++b) {
    const std::size_t lo = std::size_t(b) * kBlock, hi = std::min(n, lo + kBlock);
    Sums& s = part[std::size_t(b)];
    s.dist = block_distances(pts, lo, hi, cx, cy);
    if (!pts.food.empty()) s.food = block_food(pts, lo, hi);
    if (np > 0) block_predators(pts, lo, hi, nearest.data() + std::size_t(b) * np);
  }
  double d = 0, food = 0;
  for (const Sums& s : part) d += s.dist, food += s.food;
  m.diameter = d * inv;
  m.mean_speed = t.speed * inv;
  m.polarisation = t.moving > 0 ? std::sqrt(t.hx * t.hx + t.hy * t.hy) / t.moving : 0.0;
  m.share_right = t.right * inv;
  m.share_left = t.left * inv;
  m.perched = n - std::size_t(t.moving);  // at rest: speed 0 (see block_sums)
  m.speed_down = t.down > 0 ? t.down_speed / t.down : 0.0;
  m.speed_up = t.up > 0 ? t.up_speed / t.up : 0.0;
  if (!pts.food.empty()) m.food_distance = food * inv;
  if (np > 0) {
    double total = 0;
    for (std::size_t q = 0; q < np; ++q) {
      double best = std::numeric_limits<double>::infinity();
      for (std::size_t b = 0; b < blocks; ++b) best = std::min(best, nearest[b * np + q]);
      total += std::sqrt(best);
    }
    m.predator_distance = total / double(np);
  }
  return m;
}

}  // namespace flockscope
