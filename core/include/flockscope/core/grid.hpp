// UniformGrid: points sorted into cells by a counting sort, rebuilt from scratch each time.
// Cells are `cell()` tall and `cell() / columns()` wide: a radius query of r <= cell() only
// has to look at the cells up to one row and `columns()` columns away, and the cells of one
// grid row are contiguous in the sorted order, so a query is three index ranges. Narrower
// columns (two a cell, as the engine sorts) make those ranges shorter: the block around a
// point is 5 half-columns wide, 2.5 cells, instead of 3 cells.
// The grid spans the points' bounding box (positions are never clamped, so boids outside
// the world still land in a cell), and its cell grows beyond the requested size when the
// box would otherwise need more than the cell budget allows: still exact, just more candidates.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace flockscope {

class UniformGrid {
 public:
  // Exact for radius queries up to `min_cell` (inclusive comparisons too). `columns` cells
  // across a cell's height where the budget allows it, else square cells.
  void build(const float* x, const float* y, std::size_t n, float min_cell, int columns = 1);

  // The engine's build: the same cells and the same stable order as build() (given the same
  // max_cells_per_point), but without order(): each point is handed straight to its sorted
  // slot, scatter(i, slot), so the caller reorders its own arrays in the same pass. Runs on
  // `threads` threads: the bounding box is a min/max reduction, each thread counts its own
  // contiguous range of the input into its own histogram, the per-cell prefix sums give each
  // (cell, range) pair its first slot, and each thread scatters its range in input order. So
  // the slots are those of a serial stable counting sort whatever the thread count.
  // scatter must be safe to call concurrently for different i. `box` (x min, x max, y min,
  // y max of the points, if the caller already has it) saves the bounding-box pass.
  // The cell starts are the last range's cursors once it has scattered (no array of their own).
  template <class Scatter>
  void build_scatter(const float* x, const float* y, std::size_t n, float min_cell, int threads, Scatter&& scatter,
                     double max_cells_per_point = 1.0, const float* box = nullptr, int columns = 1);

  // Point indices sorted by cell (stable: equal cells keep input order).
  const std::vector<std::uint32_t>& order() const { return order_; }
  // order()[cell_start(c) .. cell_start(c+1)) are the points of cell c = cy * nx() + cx.
  std::uint32_t cell_start(std::size_t c) const { return counts_[starts_ + c]; }
  int nx() const { return nx_; }
  int ny() const { return ny_; }
  float cell() const { return cell_; }  // a cell's height; its width is cell() / columns()
  int columns() const { return columns_; }

  int cell_x(float x) const { return clamp_cell(int((x - x0_) * inv_width_), nx_); }
  int cell_y(float y) const { return clamp_cell(int((y - y0_) * inv_cell_), ny_); }

  // Calls f(begin, end) for the (up to) three sorted-index ranges covering the cells within
  // one row and columns() columns of cell (cx, cy): 3x3 cells when they are square.
  template <class F>
  void for_each_neighbour_range(int cx, int cy, F&& f) const {
    for_each_block_range(cx, cx + 1, cy, f);
  }
  // The same for the cells [c0, c1) of row cy together: the ranges of rows cy - 1 .. cy + 1
  // from column c0 - columns() to column c1 - 1 + columns() (clipped to the grid). Always
  // inlined: the grid step's row pass calls it once a group of boids, and as a call (which
  // GCC makes of it once the pass has grown) it costs 4 % of that pass's instructions.
  template <class F>
  [[gnu::always_inline]] void for_each_block_range(int c0, int c1, int cy, F&& f) const {
    const int x_lo = c0 > columns_ ? c0 - columns_ : 0;
    const int x_hi = c1 - 1 + columns_ < nx_ ? c1 - 1 + columns_ : nx_ - 1;
    for (int row = cy > 0 ? cy - 1 : 0; row <= cy + 1 && row < ny_; ++row) {
      const std::size_t base = std::size_t(row) * std::size_t(nx_);
      f(cell_start(base + std::size_t(x_lo)), cell_start(base + std::size_t(x_hi) + 1));
    }
  }

  // The cells (cy * nx() + cx) of m points.
  void cells_of(const float* __restrict x, const float* __restrict y, std::size_t m,
                std::uint32_t* __restrict out) const {
    const float x0 = x0_, y0 = y0_, inv_w = inv_width_, inv_h = inv_cell_;
    const int nx = nx_, ny = ny_;
    for (std::size_t j = 0; j < m; ++j) {
      int cx = int((x[j] - x0) * inv_w), cy = int((y[j] - y0) * inv_h);
      cx = cx < 0 ? 0 : cx, cx = cx > nx - 1 ? nx - 1 : cx;
      cy = cy < 0 ? 0 : cy, cy = cy > ny - 1 ? ny - 1 : cy;
      out[j] = std::uint32_t(cy * nx + cx);
    }
  }

  // cells_of for the engine's sort, compiled for AVX-512, AVX2 and the baseline (chosen at run
  // time): the same cells, 2-4 times faster than the baseline's 4-lane loop.
  void cells_of_block(const float* x, const float* y, std::size_t m, std::uint32_t* out) const;

  std::size_t memory_bytes() const {
    return order_.capacity() * 4 + keys_.capacity() * 4 + counts_.capacity() * 4;
  }

 private:
  static int clamp_cell(int c, int n) { return c < 0 ? 0 : (c >= n ? n - 1 : c); }
  // Min/max over the points on nt threads (exact, so the same for any nt; 0 when n == 0).
  static void bounding_box(const float* x, const float* y, std::size_t n, int nt, float& xmin, float& xmax,
                           float& ymin, float& ymax);
  // Cell size and counts from the bounding box (see the header comment on growing cells).
  void set_geometry(float xmin, float xmax, float ymin, float ymax, std::size_t n, float min_cell,
                    double max_cells_per_point, int columns);
  // v.resize(size), with an eighth to spare when it grows: the bounding box, and so the
  // number of cells, changes a little every step, and doubling would hold twice the memory.
  static void resize_with_room(std::vector<std::uint32_t>& v, std::size_t size) {
    if (size > v.capacity()) v.reserve(size + size / 8);
    v.resize(size);
  }

  float x0_ = 0, y0_ = 0, cell_ = 1, inv_cell_ = 1, inv_width_ = 1;
  int nx_ = 1, ny_ = 1, columns_ = 1;
  std::vector<std::uint32_t> keys_;  // build: cell of each input point
  std::vector<std::uint32_t> order_;
  // build: the nx*ny + 1 cell starts. build_scatter: per input range, a zero, then a
  // histogram, then cursors (cell c's counter at index 1 + c); the last range's cursors end
  // as the cell starts (cell c + 1's at 1 + c).
  std::vector<std::uint32_t> counts_;
  std::size_t starts_ = 0;  // where in counts_ the cell starts begin
};

template <class Scatter>
void UniformGrid::build_scatter(const float* x, const float* y, std::size_t n, float min_cell, int threads,
                                Scatter&& scatter, double max_cells_per_point, const float* box, int columns) {
  // Below this a parallel region costs more than it saves (sweeps run small flocks by the
  // thousand). The engine's boids pass goes parallel from 4,096 too: a serial sort above that
  // would read the half of the state that the other core just wrote, line by line from its
  // cache (10k boids on 2 threads: the sort 8.1 ns a boid serial, 3.4 ns parallel).
  constexpr std::size_t kParallelMin = 4096;
  const int nt = threads > 1 && n >= kParallelMin ? threads : 1;
  auto range = [n, nt](int t, std::size_t total) {
    return std::pair<std::size_t, std::size_t>(total * std::size_t(t) / std::size_t(nt),
                                               total * std::size_t(t + 1) / std::size_t(nt));
  };
  float xmin, xmax, ymin, ymax;
  if (box != nullptr) {
    xmin = box[0], xmax = box[1], ymin = box[2], ymax = box[3];
  } else {
    bounding_box(x, y, n, nt, xmin, xmax, ymin, ymax);
  }
  set_geometry(xmin, xmax, ymin, ymax, n, min_cell, max_cells_per_point, columns);
  const std::size_t cells = std::size_t(nx_) * std::size_t(ny_);
  const std::size_t stride = cells + 1;  // a range's counters: a zero, then one per cell
  resize_with_room(counts_, stride * std::size_t(nt));
  auto histogram = [&](int u) { return counts_.data() + stride * std::size_t(u) + 1; };
  starts_ = stride * std::size_t(nt - 1);  // the last range's: cell 0's start, then its cursors
  counts_[starts_] = 0;
  // The cells each thread zeroes and sums (for every range's histogram), from the cell of its
  // own input range's first point. The input is usually the previous step's sorted state, so a
  // range's points mostly fall in these cells: each thread then zeroes, counts, sums and turns
  // into cursors counters in its own cache, instead of reading half of them from the other
  // core's (with the cells split evenly, the prefix sums take longer on two threads than on
  // one).
  // Any split gives the same result.
  std::vector<std::size_t> cell_split(std::size_t(nt) + 1, cells);
  cell_split[0] = 0;
  for (int t = 1; t < nt; ++t) {
    const std::size_t b = range(t, n).first;
    std::uint32_t key = std::uint32_t(cells);
    if (b < n) cells_of(x + b, y + b, 1, &key);
    cell_split[std::size_t(t)] = std::max(cell_split[std::size_t(t) - 1], std::size_t(key));
  }
  auto counters = [&](int u, int t) {  // range u's counters of thread t's cells
    std::uint32_t* h = histogram(u);
    return std::pair<std::uint32_t*, std::uint32_t*>(h + cell_split[std::size_t(t)], h + cell_split[std::size_t(t) + 1]);
  };
  std::vector<std::uint64_t> block_sum(std::size_t(nt) + 1, 0);
  // The nt ranges are work items handed out by `omp for` (not thread ids), so the result is
  // right even if the runtime gives the region fewer threads than asked.
  constexpr std::size_t kBlock = 256;
#pragma omp parallel num_threads(nt) if (nt > 1)
  {
    std::uint32_t keys[kBlock];
#pragma omp for schedule(static, 1)
    for (int t = 0; t < nt; ++t)
      for (int u = 0; u < nt; ++u) {
        const auto [cb, ce] = counters(u, t);
        std::fill(cb, ce, 0u);
      }
#pragma omp for schedule(static, 1)
    for (int t = 0; t < nt; ++t) {
      std::uint32_t* mine = histogram(t);
      const auto [b, e] = range(t, n);
      // Cells in blocks (a loop the compiler vectorises), then the scalar histogram.
      for (std::size_t i = b; i < e; i += kBlock) {
        const std::size_t m = std::min(kBlock, e - i);
        cells_of_block(x + i, y + i, m, keys);
        for (std::size_t j = 0; j < m; ++j) ++mine[keys[j]];
      }
    }
    // Each thread's cells: their total, then (after all totals) the running prefix.
#pragma omp for schedule(static, 1)
    for (int t = 0; t < nt; ++t) {
      std::uint64_t sum = 0;
      for (int u = 0; u < nt; ++u) {
        const auto [cb, ce] = counters(u, t);
        for (const std::uint32_t* c = cb; c < ce; ++c) sum += *c;
      }
      block_sum[std::size_t(t) + 1] = sum;
    }
#pragma omp for schedule(static, 1)
    for (int t = 0; t < nt; ++t) {
      std::uint64_t base = 0;
      for (int u = 0; u <= t; ++u) base += block_sum[std::size_t(u)];
      for (std::size_t c = cell_split[std::size_t(t)]; c < cell_split[std::size_t(t) + 1]; ++c) {
        for (int u = 0; u < nt; ++u) {  // counts become each range's first slot in the cell
          std::uint32_t& k = histogram(u)[c];
          const std::uint32_t count = k;
          k = std::uint32_t(base);
          base += count;
        }
      }
    }
#pragma omp for schedule(static, 1)
    for (int t = 0; t < nt; ++t) {
      std::uint32_t* mine = histogram(t);
      const auto [b, e] = range(t, n);
      for (std::size_t i = b; i < e; i += kBlock) {
        const std::size_t m = std::min(kBlock, e - i);
        cells_of_block(x + i, y + i, m, keys);
        for (std::size_t j = 0; j < m; ++j) scatter(i + j, mine[keys[j]]++);
      }
    }
  }
  // Each range's cursor of cell c now stands where the next range's began, the last range's
  // where cell c + 1 begins: with the zero before them, the cell starts (at starts_).
}

}  // namespace flockscope
