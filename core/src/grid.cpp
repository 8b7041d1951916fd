#include "flockscope/core/grid.hpp"

#include <algorithm>
#include <cmath>

#include "flockscope/core/simd.hpp"

namespace flockscope {

void UniformGrid::set_geometry(float xmin, float xmax, float ymin, float ymax, std::size_t n, float min_cell,
                               double max_cells_per_point, int columns) {
  const double w = double(xmax) - xmin, h = double(ymax) - ymin;
  // A little larger than asked so that float rounding in (x - x0) * inv_cell can never put
  // two points closer than min_cell more than one cell apart (or, in x, more than `columns`
  // columns: the columns are cell / columns wide, so the same margin holds).
  double cell = std::max(double(min_cell) * (1.0 + 1e-5) + 1e-6, 1e-3);
  const double max_cells = max_cells_per_point * double(n) + 64.0;
  auto count = [&](double across, double c) { return (std::floor(across * w / c) + 1) * (std::floor(h / c) + 1); };
  // Narrow columns only where they fit the budget at the asked size; a sparse flock's
  // grown cells are square (at a budget-bound size, narrow columns would make cells larger).
  if (columns < 1 || count(columns, cell) > max_cells) columns = 1;
  if ((w / cell + 1) * (h / cell + 1) > max_cells) cell = std::max(cell, std::sqrt(w * h / max_cells) * 1.01);
  while (count(columns, cell) > max_cells) cell *= 1.25;

  x0_ = xmin;
  y0_ = ymin;
  cell_ = float(cell);
  inv_cell_ = float(1.0 / cell);
  inv_width_ = float(columns / cell);
  columns_ = columns;
  nx_ = int(std::floor(columns * w / cell)) + 1;
  ny_ = int(std::floor(h / cell)) + 1;
}

void UniformGrid::bounding_box(const float* x, const float* y, std::size_t n, int nt, float& xmin, float& xmax,
                               float& ymin, float& ymax) {
  auto range = [n, nt](int t) {
    return std::pair<std::size_t, std::size_t>(n * std::size_t(t) / std::size_t(nt), n * std::size_t(t + 1) / std::size_t(nt));
  };
  std::vector<float> box(4 * std::size_t(nt));
#pragma omp parallel for num_threads(nt) schedule(static, 1) if (nt > 1)
  for (int t = 0; t < nt; ++t) {
    const auto [b, e] = range(t);
    float x_lo = b < e ? x[b] : 0, x_hi = x_lo, y_lo = b < e ? y[b] : 0, y_hi = y_lo;
    for (std::size_t i = b; i < e; ++i) {
      x_lo = std::min(x_lo, x[i]), x_hi = std::max(x_hi, x[i]);
      y_lo = std::min(y_lo, y[i]), y_hi = std::max(y_hi, y[i]);
    }
    box[4 * std::size_t(t)] = x_lo, box[4 * std::size_t(t) + 1] = x_hi;
    box[4 * std::size_t(t) + 2] = y_lo, box[4 * std::size_t(t) + 3] = y_hi;
  }
  xmin = box[0], xmax = box[1], ymin = box[2], ymax = box[3];
  for (int t = 1; t < nt; ++t) {
    const auto [b, e] = range(t);
    if (b == e) continue;
    xmin = std::min(xmin, box[4 * std::size_t(t)]), xmax = std::max(xmax, box[4 * std::size_t(t) + 1]);
    ymin = std::min(ymin, box[4 * std::size_t(t) + 2]), ymax = std::max(ymax, box[4 * std::size_t(t) + 3]);
  }
}

FLOCKSCOPE_CLONES("arch=x86-64-v4", "avx2", "default")
void UniformGrid::cells_of_block(const float* x, const float* y, std::size_t m, std::uint32_t* out) const {
  cells_of(x, y, m, out);
}

void UniformGrid::build(const float* x, const float* y, std::size_t n, float min_cell, int columns) {
  float xmin, xmax, ymin, ymax;
  bounding_box(x, y, n, 1, xmin, xmax, ymin, ymax);
  set_geometry(xmin, xmax, ymin, ymax, n, min_cell, 4.0, columns);

  const std::size_t cells = std::size_t(nx_) * std::size_t(ny_);
  keys_.resize(n);
  order_.resize(n);
  std::vector<std::uint32_t>& start = counts_;
  start.assign(cells + 1, 0);
  starts_ = 0;
  cells_of(x, y, n, keys_.data());
  for (std::size_t i = 0; i < n; ++i) ++start[keys_[i] + 1];
  for (std::size_t c = 0; c < cells; ++c) start[c + 1] += start[c];
  // Scatter with a running cursor per cell; start[c] is restored afterwards by shifting.
  for (std::size_t i = 0; i < n; ++i) order_[start[keys_[i]]++] = std::uint32_t(i);
  for (std::size_t c = cells; c > 0; --c) start[c] = start[c - 1];
  start[0] = 0;
}

}  // namespace flockscope
