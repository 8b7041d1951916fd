#include "flockscope/core/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <numeric>

#include "flockscope/core/grid.hpp"


namespace flockscope {

PointsView view_of(const Flock& f) {
  return {f.x().data(), f.y().data(), f.vx().data(), f.vy().data(), f.size(), f.food(), f.predators()};
}

double cluster_radius(const Params& p) {
  switch (p.rule_set()) {
    case RuleSet::Report: return p.vision_infinite() ? INFINITY : p.D_vis;
    case RuleSet::Cornell:
    case RuleSet::Blog: break;
  }
  return p.visualRange;
}

namespace {

// Nearest neighbours through a k-d tree (median splits, small leaves): each query is
// O(log n) whatever the points' spread, and coincident points end their query at distance 0
// in their own leaf, where a uniform grid goes quadratic when many boids share a cell
// (100,000 boids on one spot: 22 s). Either way the minimum over the other points is exact
// (distances in double from the float coordinates, as all-pairs) and the sum runs over the
// boids in input order, so the mean is the all-pairs mean bit for bit.
class KdTree {
 public:
  KdTree(const float* x, const float* y, std::size_t n) : n_(n), x_(n), y_(n), idx_(n) {
    for (std::size_t i = 0; i < n_; ++i) idx_[i] = std::uint32_t(i);
    std::size_t nodes = 1;
    while (nodes * kLeaf < n_) nodes *= 2;
    axis_.resize(2 * nodes), split_.resize(2 * nodes);
    build(x, y, 1, 0, n_);
    for (std::size_t k = 0; k < n_; ++k) x_[k] = x[idx_[k]], y_[k] = y[idx_[k]];
  }

  // Squared distance from the point in slot `self` to its nearest other point.
  double nearest2(std::size_t self) const {
    double best2 = std::numeric_limits<double>::infinity();
    search(1, 0, n_, x_[self], y_[self], self, best2);
    return best2;
  }
  // Squared distance from (qx, qy) to the nearest point, searched only while it is above
  // `stop2` (the answer is then some distance below stop2, not necessarily the nearest).
  double nearest2(float qx, float qy, double stop2) const {
    double best2 = std::numeric_limits<double>::infinity();
    search(1, 0, n_, qx, qy, n_, best2, stop2);
    return best2;
  }
  std::size_t size() const { return n_; }
  std::uint32_t original(std::size_t slot) const { return idx_[slot]; }

 private:
  static constexpr std::size_t kLeaf = 8;

  void build(const float* px, const float* py, std::size_t node, std::size_t b, std::size_t e) {
    if (e - b <= kLeaf) return;
    float x0 = px[idx_[b]], x1 = x0, y0 = py[idx_[b]], y1 = y0;
    for (std::size_t k = b + 1; k < e; ++k) {
      const float x = px[idx_[k]], y = py[idx_[k]];
      x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
    const bool by_y = double(y1) - y0 > double(x1) - x0;
    const float* c = by_y ? py : px;
    const std::size_t mid = b + (e - b) / 2;
    std::nth_element(idx_.begin() + std::ptrdiff_t(b), idx_.begin() + std::ptrdiff_t(mid),
                     idx_.begin() + std::ptrdiff_t(e), [c](std::uint32_t i, std::uint32_t j) { return c[i] < c[j]; });
    axis_[node] = by_y, split_[node] = c[idx_[mid]];
    build(px, py, 2 * node, b, mid);
    build(px, py, 2 * node + 1, mid, e);
  }

  // Slots [b, mid) hold coordinates <= split on the node's axis, [mid, e) >= split, so a
  // side whose plane is at least sqrt(best2) away cannot hold a nearer point.
  void search(std::size_t node, std::size_t b, std::size_t e, float qx, float qy, std::size_t self, double& best2,
              double stop2 = -1) const {
    if (e - b <= kLeaf) {
      for (std::size_t k = b; k < e; ++k) {
        if (k == self) continue;
        const double dx = double(qx) - x_[k], dy = double(qy) - y_[k];
        best2 = std::min(best2, dx * dx + dy * dy);
      }
      return;
    }
    const std::size_t mid = b + (e - b) / 2;
    const double diff = double(axis_[node] ? qy : qx) - split_[node];
    const std::size_t near = diff < 0 ? 2 * node : 2 * node + 1;
    if (diff < 0) search(near, b, mid, qx, qy, self, best2, stop2);
    else search(near, mid, e, qx, qy, self, best2, stop2);
    if (diff * diff < best2 && best2 >= stop2) {
      if (diff < 0) search(near + 1, mid, e, qx, qy, self, best2, stop2);
      else search(near - 1, b, mid, qx, qy, self, best2, stop2);
    }
  }

  std::size_t n_;
  std::vector<float> x_, y_;          // coordinates in tree order
  std::vector<std::uint32_t> idx_;    // input index of each tree slot
  std::vector<std::uint8_t> axis_;    // per node (heap numbering from 1): 0 splits x, 1 splits y
  std::vector<float> split_;
};

double mean_nearest_neighbour(const PointsView& pts) {
  const std::size_t n = pts.n;
  if (n < 2) return 0;
  std::vector<double> best(n);
  float xmin = pts.x[0], xmax = pts.x[0], ymin = pts.y[0], ymax = pts.y[0];
  for (std::size_t i = 1; i < n; ++i) {
    xmin = std::min(xmin, pts.x[i]), xmax = std::max(xmax, pts.x[i]);
    ymin = std::min(ymin, pts.y[i]), ymax = std::max(ymax, pts.y[i]);
  }
  // About two points per cell; then search rings of cells outward until the ring is farther
  // than the best distance found. Fastest on a flock spread over its box (1.6x the k-d tree
  // at 100k boids), but a crowded cell costs a test per pair of its points: when the cells'
  // squared counts say so, the k-d tree answers instead.
  const double area = std::max(1e-6, (double(xmax) - xmin) * (double(ymax) - ymin));
  UniformGrid grid;
  grid.build(pts.x, pts.y, n, float(std::sqrt(2.0 * area / double(n))));
  const std::size_t cells = std::size_t(grid.nx()) * std::size_t(grid.ny());
  double crowding = 0;
  for (std::size_t c = 0; c < cells; ++c) {
    const double k = double(grid.cell_start(c + 1) - grid.cell_start(c));
    crowding += k * k;
  }
  if (crowding > 16.0 * double(n)) {
    const KdTree tree(pts.x, pts.y, n);
    for (std::size_t k = 0; k < n; ++k) best[tree.original(k)] = std::sqrt(tree.nearest2(k));
  } else {
    const auto& order = grid.order();
    const double cell = grid.cell();
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
      best[i] = std::sqrt(best2);
    }
  }
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) total += best[i];
  return total / double(n);
}

std::uint32_t find_root(std::vector<std::uint32_t>& parent, std::uint32_t a) {
  while (parent[a] != a) {
    parent[a] = parent[parent[a]];
    a = parent[a];
  }
  return a;
}

// Clusters over cells of side radius / 2: any two points of one cell are closer than
// 0.71 radius, so a cell joins one cluster whole, at once. Two cells up to two apart join
// through the first pair of their points closer than the radius, and are not looked at again
// once they are in one cluster. So coincident or crowded boids cost a sort and a k-d tree
// query per boid and neighbouring cell, not a test per pair of boids (testing every boid in
// its 3x3 cells takes minutes for 1,000,000 boids in a 640x480 world). Cells are found by sorting their keys, so a sparse flock over a
// huge box costs no empty cells.
int count_clusters(const PointsView& pts, double radius) {
  const std::size_t n = pts.n;
  if (n == 0) return 0;
  if (std::isinf(radius)) return 1;
  if (!(radius > 0)) return int(n);
  float xmin = pts.x[0], xmax = xmin, ymin = pts.y[0], ymax = ymin;
  for (std::size_t i = 1; i < n; ++i) {
    xmin = std::min(xmin, pts.x[i]), xmax = std::max(xmax, pts.x[i]);
    ymin = std::min(ymin, pts.y[i]), ymax = std::max(ymax, pts.y[i]);
  }
  // Cell coordinates stay below 2^31. A box more than 10^9 radii wide (a boid placed far out)
  // gets wider cells, whose points are no longer all within the radius: there every pair in
  // reach is tested, as in a plain grid.
  const double span = std::max(double(xmax) - xmin, double(ymax) - ymin);
  const double side = std::max(radius / 2, span / 2147483648.0 * 1.0001);
  const bool whole_cells = side == radius / 2;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto cx = std::uint64_t((double(pts.x[i]) - xmin) / side), cy = std::uint64_t((double(pts.y[i]) - ymin) / side);
    keyed[i] = {(cy << 32) | cx, std::uint32_t(i)};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::uint64_t> cell_key;
  std::vector<std::uint32_t> cell_begin;
  for (std::size_t k = 0; k < n; ++k)
    if (k == 0 || keyed[k].first != keyed[k - 1].first) cell_key.push_back(keyed[k].first), cell_begin.push_back(std::uint32_t(k));
  const std::size_t cells = cell_key.size();
  cell_begin.push_back(std::uint32_t(n));
  std::vector<std::uint32_t> parent(n);  // over sorted slots
  std::iota(parent.begin(), parent.end(), 0u);
  auto join = [&](std::uint32_t p, std::uint32_t q) {
    const std::uint32_t a = find_root(parent, p), b = find_root(parent, q);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  };
  const double r2 = radius * radius;
  auto close = [&](std::uint32_t p, std::uint32_t q) {
    const std::uint32_t i = keyed[p].second, j = keyed[q].second;
    const double dx = double(pts.x[i]) - pts.x[j], dy = double(pts.y[i]) - pts.y[j];
    return dx * dx + dy * dy < r2;
  };
  // Whether two whole cells hold a pair closer than the radius: the smaller cell's points
  // against the larger's k-d tree (built once a cell is that large), so two crowded cells
  // that stay apart cost |A| log |B|, not |A| |B|.
  std::vector<float> sx(n), sy(n);
  for (std::size_t k = 0; k < n; ++k) sx[k] = pts.x[keyed[k].second], sy[k] = pts.y[keyed[k].second];
  std::vector<std::unique_ptr<KdTree>> trees(cells);
  auto linked = [&](std::size_t a, std::size_t b) {
    std::uint32_t ab = cell_begin[a], ae = cell_begin[a + 1], bb = cell_begin[b], be = cell_begin[b + 1];
    if (ae - ab > be - bb) std::swap(a, b), std::swap(ab, bb), std::swap(ae, be);
    if (std::uint64_t(ae - ab) * (be - bb) <= 256) {
      for (std::uint32_t p = ab; p < ae; ++p)
        for (std::uint32_t q = bb; q < be; ++q)
          if (close(p, q)) return true;
      return false;
    }
    if (!trees[b]) trees[b] = std::make_unique<KdTree>(sx.data() + bb, sy.data() + bb, be - bb);
    for (std::uint32_t p = ab; p < ae; ++p)
      if (trees[b]->nearest2(sx[p], sy[p], r2) < r2) return true;
    return false;
  };
  for (std::size_t a = 0; a < cells; ++a) {
    const std::uint32_t ab = cell_begin[a], ae = cell_begin[a + 1];
    for (std::uint32_t p = ab + 1; p < ae; ++p)
      if (whole_cells) parent[p] = ab;
      else
        for (std::uint32_t q = ab; q < p; ++q)
          if (close(p, q)) join(p, q);
    // The later cells within two: the rest of this row, then the next two rows.
    const auto ax = std::int64_t(cell_key[a] & 0xffffffffu), ay = std::int64_t(cell_key[a] >> 32);
    for (std::int64_t dy = 0; dy <= 2; ++dy) {
      const std::int64_t lo = dy == 0 ? ax + 1 : std::max<std::int64_t>(0, ax - 2);
      const std::uint64_t first = (std::uint64_t(ay + dy) << 32) | std::uint64_t(lo);
      const std::uint64_t last = (std::uint64_t(ay + dy) << 32) | std::uint64_t(ax + 2);
      for (auto it = std::lower_bound(cell_key.begin() + std::ptrdiff_t(a), cell_key.end(), first);
           it != cell_key.end() && *it <= last; ++it) {
        const std::size_t b = std::size_t(it - cell_key.begin());
        const std::uint32_t bb = cell_begin[b], be = cell_begin[b + 1];
        if (whole_cells) {
          if (find_root(parent, ab) == find_root(parent, bb)) continue;
          if (linked(a, b)) join(ab, bb);
        } else {
          for (std::uint32_t p = ab; p < ae; ++p)
            for (std::uint32_t q = bb; q < be; ++q)
              if (close(p, q)) join(p, q);
        }
      }
    }
  }
  int roots = 0;
  for (std::uint32_t p = 0; p < n; ++p) roots += parent[p] == p;
  return roots;
}

// Mean over the boids (in input order) of the distance to the nearest food source.
double mean_food_distance(const PointsView& pts) {
  if (pts.food.empty() || pts.n == 0) return std::numeric_limits<double>::quiet_NaN();
  double total = 0;
  for (std::size_t i = 0; i < pts.n; ++i) {
    double best2 = std::numeric_limits<double>::infinity();
    for (const FoodSource& f : pts.food) {
      const double dx = double(pts.x[i]) - f.x, dy = double(pts.y[i]) - f.y;
      best2 = std::min(best2, dx * dx + dy * dy);
    }
    total += std::sqrt(best2);
  }
  return total / double(pts.n);
}

// Mean over the predators (in order) of the distance to the nearest boid.
double mean_predator_distance(const PointsView& pts) {
  if (pts.predators.empty() || pts.n == 0) return std::numeric_limits<double>::quiet_NaN();
  double total = 0;
  for (const Predator& pr : pts.predators) {
    double best2 = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < pts.n; ++i) {
      const double dx = double(pts.x[i]) - pr.x, dy = double(pts.y[i]) - pr.y;
      best2 = std::min(best2, dx * dx + dy * dy);
    }
    total += std::sqrt(best2);
  }
  return total / double(pts.predators.size());
}

}  // namespace

// The whole-flock sums in boid order, with hypot(): metrics.csv's bits. The same quantities
// are summed twice more on purpose, each in its own order: compute_step_metrics (the window's
// every-step metrics, in fixed lanes on threads: equal to rounding, step_metrics.cpp) and a
// sweep run's per-step sample (experiments/src/run_summary.cpp, in one pass with the consensus
// study's naive boids). One shared loop would change the bits of metrics.csv or runs.csv.
Metrics compute_metrics(const PointsView& pts, double radius, const MetricsOptions& opt) {
  Metrics m;
  const std::size_t n = pts.n;
  if (n == 0) return m;
  double sx = 0, sy = 0, speed = 0, hx = 0, hy = 0, down_speed = 0, up_speed = 0;
  std::size_t moving = 0, right = 0, left = 0, down = 0, up = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sx += pts.x[i];
    sy += pts.y[i];
    const double vx = pts.vx[i], vy = pts.vy[i];
    const double s = std::sqrt(vx * vx + vy * vy);
    speed += s;
    if (s > 0) hx += vx / s, hy += vy / s, ++moving;
    right += vx > 0;
    left += vx < 0;
    if (vy > 0) down_speed += s, ++down;
    if (vy < 0) up_speed += s, ++up;
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
  m.perched = n - moving;  // speed 0: velocity exactly (0, 0) (float squares do not underflow in double)
  m.speed_down = down ? down_speed / double(down) : 0.0;
  m.speed_up = up ? up_speed / double(up) : 0.0;
  m.food_distance = mean_food_distance(pts);
  m.predator_distance = mean_predator_distance(pts);
  add_neighbour_metrics(m, pts, radius, opt);
  return m;
}

void add_neighbour_metrics(Metrics& m, const PointsView& pts, double radius, const MetricsOptions& opt) {
  if (pts.n == 0) return;
  if (opt.nearest_neighbour) m.mean_nn_distance = mean_nearest_neighbour(pts);
  if (opt.clusters) m.clusters = count_clusters(pts, radius);
}

Metrics compute_metrics(const Flock& f, const MetricsOptions& opt) {
  return compute_metrics(view_of(f), cluster_radius(f.params()), opt);
}

std::span<const MetricsColumn> metrics_table() {
  using M = const Metrics&;
  static constexpr MetricsColumn table[] = {
      {"step", true, [](std::uint64_t s, double, M) { return double(s); }},
      {"time", false, [](std::uint64_t, double t, M) { return t; }},
      {"diameter", false, [](std::uint64_t, double, M m) { return m.diameter; }},
      {"centroid_x", false, [](std::uint64_t, double, M m) { return m.centroid_x; }},
      {"centroid_y", false, [](std::uint64_t, double, M m) { return m.centroid_y; }},
      {"polarisation", false, [](std::uint64_t, double, M m) { return m.polarisation; }},
      {"mean_speed", false, [](std::uint64_t, double, M m) { return m.mean_speed; }},
      {"mean_nn_distance", false, [](std::uint64_t, double, M m) { return m.mean_nn_distance; }},
      {"clusters", true, [](std::uint64_t, double, M m) { return double(m.clusters); }},
      {"share_right", false, [](std::uint64_t, double, M m) { return m.share_right; }},
      {"share_left", false, [](std::uint64_t, double, M m) { return m.share_left; }},
      {"perched", true, [](std::uint64_t, double, M m) { return double(m.perched); }},
      {"speed_down", false, [](std::uint64_t, double, M m) { return m.speed_down; }},
      {"speed_up", false, [](std::uint64_t, double, M m) { return m.speed_up; }},
      {"food_distance", false, [](std::uint64_t, double, M m) { return m.food_distance; }, true},
      {"predator_distance", false, [](std::uint64_t, double, M m) { return m.predator_distance; }, true},
  };
  return table;
}

const std::vector<std::string>& metrics_columns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c;
    for (const auto& col : metrics_table()) c.emplace_back(col.name);
    return c;
  }();
  return cols;
}

std::string metrics_row(std::uint64_t step, double time, const Metrics& m) {
  std::string row;
  char buf[64];
  const auto table = metrics_table();
  for (std::size_t i = 0; i < table.size(); ++i) {
    const MetricsColumn& col = table[i];
    if (i > 0) row += ',';
    const double v = col.value(step, time, m);
    // Nothing to measure (no food, no predator): an empty cell, never "nan".
    if (col.nan_is_empty && std::isnan(v)) continue;
    // Whole-number columns exactly (a double holds every count and step below 2^53).
    std::snprintf(buf, sizeof buf, col.whole ? "%.0f" : "%.9g", v);
    row += buf;
  }
  return row;
}

}  // namespace flockscope
