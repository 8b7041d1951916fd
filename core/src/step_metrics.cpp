// The metrics a window needs every step, fast enough to take every step of a million-boid
// flock: fixed blocks of boids summed on the engine's threads, each block's loop free of
// branches and of hypot() so that it vectorises. The blocks are fixed (not per thread) and
// combined in order, so the result does not depend on the thread count.
#include <algorithm>
#include <cmath>
#include <vector>

#include "flockscope/core/metrics.hpp"

namespace flockscope {

namespace {
constexpr std::size_t kBlock = 16384;

struct Sums {
  double sx = 0, sy = 0, speed = 0, hx = 0, hy = 0, moving = 0, right = 0, left = 0, dist = 0;
};
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
    double sx = 0, sy = 0, speed = 0, hx = 0, hy = 0, moving = 0, right = 0, left = 0;
    const std::size_t lo = std::size_t(b) * kBlock, hi = std::min(n, lo + kBlock);
    // SIMD lanes keep their own partial sums (a fixed order for a given build).
#pragma omp simd reduction(+ : sx, sy, speed, hx, hy, moving, right, left)
    for (std::size_t i = lo; i < hi; ++i) {
      const double vx = pts.vx[i], vy = pts.vy[i];
      const double sp = std::sqrt(vx * vx + vy * vy);
      const double inv = sp > 0 ? 1.0 / sp : 0.0;  // a boid at rest has no heading
      sx += pts.x[i];
      sy += pts.y[i];
      speed += sp;
      hx += vx * inv;
      hy += vy * inv;
      moving += sp > 0 ? 1.0 : 0.0;
      right += vx > 0 ? 1.0 : 0.0;
      left += vx < 0 ? 1.0 : 0.0;
    }
    const Sums s{sx, sy, speed, hx, hy, moving, right, left, 0};
    part[std::size_t(b)] = s;
  }
  Sums t;
  for (const Sums& s : part) {
    t.sx += s.sx, t.sy += s.sy, t.speed += s.speed, t.hx += s.hx, t.hy += s.hy;
    t.moving += s.moving, t.right += s.right, t.left += s.left;
  }
  const double inv = 1.0 / double(n);
  m.centroid_x = t.sx * inv;
  m.centroid_y = t.sy * inv;
  const double cx = m.centroid_x, cy = m.centroid_y;
#pragma omp parallel for schedule(static) num_threads(threads < 1 ? 1 : threads)
  for (long long b = 0; b < nb; ++b) {
    double d = 0;
    const std::size_t lo = std::size_t(b) * kBlock, hi = std::min(n, lo + kBlock);
#pragma omp simd reduction(+ : d)
    for (std::size_t i = lo; i < hi; ++i) {
      const double dx = pts.x[i] - cx, dy = pts.y[i] - cy;
      d += std::sqrt(dx * dx + dy * dy);
    }
    part[std::size_t(b)].dist = d;
  }
  double d = 0;
  for (const Sums& s : part) d += s.dist;
  m.diameter = d * inv;
  m.mean_speed = t.speed * inv;
  m.polarisation = t.moving > 0 ? std::sqrt(t.hx * t.hx + t.hy * t.hy) / t.moving : 0.0;
  m.share_right = t.right * inv;
  m.share_left = t.left * inv;
  return m;
}

}  // namespace flockscope
