#include "flockscope/core/grid.hpp"

#include <algorithm>
#include <cmath>

namespace flockscope {

void UniformGrid::build(const float* x, const float* y, std::size_t n, float min_cell) {
  float xmin = 0, xmax = 0, ymin = 0, ymax = 0;
  if (n > 0) {
    xmin = xmax = x[0];
    ymin = ymax = y[0];
    for (std::size_t i = 1; i < n; ++i) {
      xmin = std::min(xmin, x[i]);
      xmax = std::max(xmax, x[i]);
      ymin = std::min(ymin, y[i]);
      ymax = std::max(ymax, y[i]);
    }
  }
  const double w = double(xmax) - xmin, h = double(ymax) - ymin;
  // A little larger than asked so that float rounding in (x - x0) * inv_cell can never put
  // two points closer than min_cell more than one cell apart.
  double cell = std::max(double(min_cell) * (1.0 + 1e-5) + 1e-6, 1e-3);
  const double max_cells = 4.0 * double(n) + 64.0;
  if ((w / cell + 1) * (h / cell + 1) > max_cells) cell = std::max(cell, std::sqrt(w * h / max_cells) * 1.01);
  while ((std::floor(w / cell) + 1) * (std::floor(h / cell) + 1) > max_cells) cell *= 1.25;

  x0_ = xmin;
  y0_ = ymin;
  cell_ = float(cell);
  inv_cell_ = float(1.0 / cell);
  nx_ = int(std::floor(w / cell)) + 1;
  ny_ = int(std::floor(h / cell)) + 1;

  const std::size_t cells = std::size_t(nx_) * std::size_t(ny_);
  keys_.resize(n);
  order_.resize(n);
  start_.assign(cells + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto k = std::uint32_t(cell_y(y[i]) * nx_ + cell_x(x[i]));
    keys_[i] = k;
    ++start_[k + 1];
  }
  for (std::size_t c = 0; c < cells; ++c) start_[c + 1] += start_[c];
  // Scatter with a running cursor per cell; start_[c] is restored afterwards by shifting.
  for (std::size_t i = 0; i < n; ++i) order_[start_[keys_[i]]++] = std::uint32_t(i);
  for (std::size_t c = cells; c > 0; --c) start_[c] = start_[c - 1];
  start_[0] = 0;
}

}  // namespace flockscope
