// UniformGrid: points sorted into square cells by a counting sort, rebuilt from scratch each
// time. A radius query of r <= cell() only has to look at the 3x3 cells around a point, and
// the cells of one grid row are contiguous in order(), so a query is three index ranges.
// The grid spans the points' bounding box (positions are never clamped, so boids outside
// the world still land in a cell), and its cell grows beyond the requested size when the
// box would otherwise need more than about 4 cells per point: still exact, just more candidates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace flockscope {

class UniformGrid {
 public:
  // Exact for radius queries up to `min_cell` (inclusive comparisons too).
  void build(const float* x, const float* y, std::size_t n, float min_cell);

  // Point indices sorted by cell (stable: equal cells keep input order).
  const std::vector<std::uint32_t>& order() const { return order_; }
  // order()[cell_start(c) .. cell_start(c+1)) are the points of cell c = cy * nx() + cx.
  std::uint32_t cell_start(std::size_t c) const { return start_[c]; }
  int nx() const { return nx_; }
  int ny() const { return ny_; }
  float cell() const { return cell_; }

  int cell_x(float x) const { return clamp_cell(int((x - x0_) * inv_cell_), nx_); }
  int cell_y(float y) const { return clamp_cell(int((y - y0_) * inv_cell_), ny_); }

  // Calls f(begin, end) for the (up to) three sorted-index ranges covering the 3x3 cells
  // around cell (cx, cy).
  template <class F>
  void for_each_neighbour_range(int cx, int cy, F&& f) const {
    const int x_lo = cx > 0 ? cx - 1 : 0;
    const int x_hi = cx + 1 < nx_ ? cx + 1 : nx_ - 1;
    for (int row = cy > 0 ? cy - 1 : 0; row <= cy + 1 && row < ny_; ++row) {
      const std::size_t base = std::size_t(row) * std::size_t(nx_);
      f(start_[base + std::size_t(x_lo)], start_[base + std::size_t(x_hi) + 1]);
    }
  }

  std::size_t memory_bytes() const {
    return order_.capacity() * 4 + keys_.capacity() * 4 + start_.capacity() * 4;
  }

 private:
  static int clamp_cell(int c, int n) { return c < 0 ? 0 : (c >= n ? n - 1 : c); }

  float x0_ = 0, y0_ = 0, cell_ = 1, inv_cell_ = 1;
  int nx_ = 1, ny_ = 1;
  std::vector<std::uint32_t> keys_;   // cell of each input point
  std::vector<std::uint32_t> start_;  // nx*ny + 1 prefix sums
  std::vector<std::uint32_t> order_;
};

}  // namespace flockscope
