#include "flockscope/core/metrics.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include "flockscope/core/grid.hpp"

namespace flockscope {

PointsView view_of(const Flock& f) { return {f.x().data(), f.y().data(), f.vx().data(), f.vy().data(), f.size()}; }

double cluster_radius(const Params& p) {
  if (p.rule_set() == RuleSet::Report) return p.vision_infinite() ? INFINITY : p.D_vis;
  return p.visualRange;
}

namespace {

double mean_nearest_neighbour(const PointsView& pts) {
  const std::size_t n = pts.n;
  if (n < 2) return 0;
  float xmin = pts.x[0], xmax = pts.x[0], ymin = pts.y[0], ymax = pts.y[0];
  for (std::size_t i = 1; i < n; ++i) {
    xmin = std::min(xmin, pts.x[i]), xmax = std::max(xmax, pts.x[i]);
    ymin = std::min(ymin, pts.y[i]), ymax = std::max(ymax, pts.y[i]);
  }
  // About two points per cell; then search rings of cells outward until the ring is farther
  // than the best distance found.
  const double area = std::max(1e-6, (double(xmax) - xmin) * (double(ymax) - ymin));
  UniformGrid grid;
  grid.build(pts.x, pts.y, n, float(std::sqrt(2.0 * area / double(n))));
  const auto& order = grid.order();
  const double cell = grid.cell();
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int cx = grid.cell_x(pts.x[i]), cy = grid.cell_y(pts.y[i]);
    double best2 = std::numeric_limits<double>::infinity();
    for (int ring = 0;; ++ring) {
      for (int gy = cy - ring; gy <= cy + ring; ++gy) {
        if (gy < 0 || gy >= grid.ny()) continue;
        const bool edge_row = gy == cy - ring || gy == cy + ring;
        for (int gx = cx - ring; gx <= cx + ring; gx += (edge_row ? 1 : 2 * ring)) {
          if (gx >= 0 && gx < grid.nx()) {
            const std::size_t c = std::size_t(gy) * std::size_t(grid.nx()) + std::size_t(gx);
            for (std::uint32_t k = grid.cell_start(c); k < grid.cell_start(c + 1); ++k) {
              const std::uint32_t j = order[k];
              if (j == i) continue;
              const double dx = double(pts.x[i]) - pts.x[j], dy = double(pts.y[i]) - pts.y[j];
              best2 = std::min(best2, dx * dx + dy * dy);
            }
          }
          if (ring == 0) break;
        }
      }
      // Every point not yet seen is at least ring * cell away.
      const double reach = double(ring) * cell;
      if (best2 <= reach * reach) break;
      if (ring > grid.nx() + grid.ny()) break;
    }
    total += std::sqrt(best2);
  }
  return total / double(n);
}

std::uint32_t find_root(std::vector<std::uint32_t>& parent, std::uint32_t a) {
  while (parent[a] != a) {
    parent[a] = parent[parent[a]];
    a = parent[a];
  }
  return a;
}

int count_clusters(const PointsView& pts, double radius) {
  const std::size_t n = pts.n;
  if (n == 0) return 0;
  if (std::isinf(radius)) return 1;
  if (!(radius > 0)) return int(n);
  UniformGrid grid;
  grid.build(pts.x, pts.y, n, float(radius));
  const auto& order = grid.order();
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  const double r2 = radius * radius;
  for (std::size_t i = 0; i < n; ++i) {
    grid.for_each_neighbour_range(grid.cell_x(pts.x[i]), grid.cell_y(pts.y[i]), [&](std::uint32_t b, std::uint32_t e) {
      for (std::uint32_t k = b; k < e; ++k) {
        const std::uint32_t j = order[k];
        if (j <= i) continue;
        const double dx = double(pts.x[i]) - pts.x[j], dy = double(pts.y[i]) - pts.y[j];
        if (dx * dx + dy * dy < r2) {
          const std::uint32_t a = find_root(parent, std::uint32_t(i)), c = find_root(parent, j);
          if (a != c) parent[std::max(a, c)] = std::min(a, c);
        }
      }
    });
  }
  int roots = 0;
  for (std::size_t i = 0; i < n; ++i) roots += parent[i] == i;
  return roots;
}

}  // namespace

Metrics compute_metrics(const PointsView& pts, double radius, const MetricsOptions& opt) {
  Metrics m;
  const std::size_t n = pts.n;
  if (n == 0) return m;
  double sx = 0, sy = 0, speed = 0, hx = 0, hy = 0;
  std::size_t moving = 0, right = 0, left = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sx += pts.x[i];
    sy += pts.y[i];
    const double vx = pts.vx[i], vy = pts.vy[i];
    const double s = std::sqrt(vx * vx + vy * vy);
    speed += s;
    if (s > 0) hx += vx / s, hy += vy / s, ++moving;
    right += vx > 0;
    left += vx < 0;
  }
  const double inv = 1.0 / double(n);
  m.centroid_x = sx * inv;
  m.centroid_y = sy * inv;
  double d = 0;
  for (std::size_t i = 0; i < n; ++i) d += std::hypot(pts.x[i] - m.centroid_x, pts.y[i] - m.centroid_y);
  m.diameter = d * inv;
  m.mean_speed = speed * inv;
  m.polarisation = moving ? std::hypot(hx, hy) / double(moving) : 0.0;
  m.share_right = double(right) * inv;
  m.share_left = double(left) * inv;
  if (opt.nearest_neighbour) m.mean_nn_distance = mean_nearest_neighbour(pts);
  if (opt.clusters) m.clusters = count_clusters(pts, radius);
  return m;
}

Metrics compute_metrics(const Flock& f, const MetricsOptions& opt) {
  return compute_metrics(view_of(f), cluster_radius(f.params()), opt);
}

const std::vector<std::string>& metrics_columns() {
  static const std::vector<std::string> cols = {"step", "time", "diameter", "centroid_x", "centroid_y",
                                                "polarisation", "mean_speed", "mean_nn_distance", "clusters",
                                                "share_right", "share_left"};
  return cols;
}

std::string metrics_row(std::uint64_t step, double time, const Metrics& m) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%llu,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%.9g,%.9g",
                static_cast<unsigned long long>(step), time, m.diameter, m.centroid_x, m.centroid_y, m.polarisation,
                m.mean_speed, m.mean_nn_distance, m.clusters, m.share_right, m.share_left);
  return buf;
}

}  // namespace flockscope
