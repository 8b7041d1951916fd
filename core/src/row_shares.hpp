// The row scheduler of the grid step's parallel pass. Internal to flockscope::core.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "flockscope/core/grid.hpp"

namespace flockscope::grid_step {

// The rows of the grid step's boids pass, shared out for cache affinity with load balance.
// Thread t first takes, front to back, the rows whose boids are about slots [t n / T,
// (t + 1) n / T): the state it writes there is what the grid build's range t reads at the
// next step, so on most of the step each core touches lines its own cache holds (handing
// rows out in dynamic order instead makes both passes slower on this 2-core VM: 40 against
// 49.6 steps/s at 1M boids, the sort 6.8 against 3.5 ns a boid). A thread whose
// share is done takes rows from the back of another share, so a dense cluster in one
// share still spreads over all threads. Each share is a (front, back) pair in one atomic
// word. Which thread runs a row never changes a result: each boid depends only on the
// previous frame.
class RowShares {
 public:
  RowShares(const UniformGrid& grid, std::size_t n, int threads) : shares_(std::size_t(threads)) {
    const int rows = grid.ny();
    const std::size_t nx = std::size_t(grid.nx());
    int begin = 0;
    for (int t = 0; t < threads; ++t) {
      const std::size_t next_slot = n * std::size_t(t + 1) / std::size_t(threads);
      // The share ends at the first row starting at or after the next share's first slot.
      const int end = t + 1 == threads ? rows : first_row_from(grid, nx, begin, rows, next_slot);
      shares_[std::size_t(t)].range.store(pack(std::uint32_t(begin), std::uint32_t(end)), std::memory_order_relaxed);
      begin = end;
    }
  }
  // Runs f(row) for rows of the caller's own share, then for rows left in the others'.
  template <class F>
  void run(int thread, F&& f) {
    const std::size_t count = shares_.size();
    const std::size_t own = std::size_t(thread) % count;
    for (int row; (row = take(shares_[own], true)) >= 0;) f(row);
    for (std::size_t k = 1; k < count; ++k)
      for (int row; (row = take(shares_[(own + k) % count], false)) >= 0;) f(row);
  }

 private:
  // The first row in [begin, rows) whose cells start at or after slot, by bisection (rows
  // start at non-decreasing slots).
  static int first_row_from(const UniformGrid& grid, std::size_t nx, int begin, int rows, std::size_t slot) {
    while (begin < rows) {
      const int mid = begin + (rows - begin) / 2;
      if (grid.cell_start(std::size_t(mid) * nx) < slot) begin = mid + 1;
      else rows = mid;
    }
    return begin;
  }
  struct alignas(64) Share {
    std::atomic<std::uint64_t> range{0};
  };
  static std::uint64_t pack(std::uint32_t front, std::uint32_t back) { return std::uint64_t(back) << 32 | front; }
  // The share's first row (front) or last row (!front), taken out of it; -1 when it is empty.
  static int take(Share& s, bool front) {
    std::uint64_t r = s.range.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint32_t first = std::uint32_t(r), end = std::uint32_t(r >> 32);
      if (first >= end) return -1;
      const std::uint64_t rest = front ? pack(first + 1, end) : pack(first, end - 1);
      if (s.range.compare_exchange_weak(r, rest, std::memory_order_relaxed)) return int(front ? first : end - 1);
    }
  }
  std::vector<Share> shares_;
};

}  // namespace flockscope::grid_step
