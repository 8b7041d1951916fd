// The grid step's row pass: for each cell of the given rows, the neighbour sums by the
// kernel chosen for the CPU, then the update of its boids.
#include <algorithm>

#include "cornell_kernel_avx512.hpp"
#include "cornell_kernel_portable.hpp"
#include "cornell_pass.hpp"

namespace flockscope::grid_step {

// Grid rows [row_begin, row_end). `sums` is this thread's staging of neighbour sums (grown
// as needed). The sums of a row's boids are staged in slot order and the update runs eight
// boids at a time as soon as eight are ready (the last few of a row one at a time), so
// staging never holds more than a cell plus 8 boids.
FLOCKSCOPE_CLONES("arch=x86-64-v4", "avx2", "default")
void cornell_rows(const CornellPass& k, int row_begin, int row_end, std::vector<float>& sums, float* box) {
  // The bounding box of the new positions, for the next step's grid (min/max: exact).
  v8f min_x = v8f{} + box[0], max_x = v8f{} + box[1], min_y = v8f{} + box[2], max_y = v8f{} + box[3];
  const UniformGrid& g = *k.grid;
  const int nx = g.nx();
  for (int cy = row_begin; cy < row_end; ++cy) {
    std::uint32_t pending = g.cell_start(std::size_t(cy) * std::size_t(nx));  // first slot not updated yet
    for (int cx = 0; cx < nx; ++cx) {
      const std::size_t cell = std::size_t(cy) * std::size_t(nx) + std::size_t(cx);
      const std::uint32_t b = g.cell_start(cell), e = g.cell_start(cell + 1);
      if (b == e) continue;
      // At the grid's edge rows the block has two runs: the third stays empty.
      BlockRuns block{};
      int r = 0;
      g.for_each_neighbour_range(cx, cy, [&](std::uint32_t rb, std::uint32_t re) {
        block.run[2 * r] = rb, block.run[2 * r + 1] = re;
        ++r;
      });
      if (sums.size() < 8 * std::size_t(e - pending)) sums.resize(8 * std::size_t(e - pending) + 8 * 64);
      float* staged = sums.data() + 8 * std::size_t(b - pending);
#ifdef FLOCKSCOPE_HAVE_AVX512_KERNEL
      if (k.avx512) {
        if (k.box_test)
          cornell_cell_sums_avx512<true, true>(k, b, e, block, staged);
        else if (k.mask_self)
          cornell_cell_sums_avx512<false, true>(k, b, e, block, staged);
        else
          cornell_cell_sums_avx512<false, false>(k, b, e, block, staged);
      } else
#endif
      if (k.box_test)
        cornell_cell_sums<true>(k, b, e, block, staged);
      else
        cornell_cell_sums<false>(k, b, e, block, staged);
      // Update the ready groups of eight and move the rest to the front of the staging.
      std::uint32_t done = 0;
      for (; pending + done + kLanes <= e; done += kLanes) {
        cornell_update_8(k, pending + done, sums.data() + 8 * done);
        const v8f new_x = rules::load8(k.x + pending + done), new_y = rules::load8(k.y + pending + done);
        min_x = select(new_x < min_x, new_x, min_x), max_x = select(new_x > max_x, new_x, max_x);
        min_y = select(new_y < min_y, new_y, min_y), max_y = select(new_y > max_y, new_y, max_y);
      }
      if (done > 0) {
        std::memmove(sums.data(), sums.data() + 8 * done, 8 * sizeof(float) * std::size_t(e - pending - done));
        pending += done;
      }
    }
    const std::uint32_t row_end_slot = g.cell_start(std::size_t(cy + 1) * std::size_t(nx));
    for (std::uint32_t i = pending; i < row_end_slot; ++i) {
      cornell_update_one(k, i, sums.data() + 8 * (i - pending));
      box[0] = std::min(box[0], k.x[i]), box[1] = std::max(box[1], k.x[i]);
      box[2] = std::min(box[2], k.y[i]), box[3] = std::max(box[3], k.y[i]);
    }
  }
  for (std::uint32_t l = 0; l < kLanes; ++l) {
    box[0] = std::min(box[0], min_x[l]), box[1] = std::max(box[1], max_x[l]);
    box[2] = std::min(box[2], min_y[l]), box[3] = std::max(box[3], max_y[l]);
  }
}

}  // namespace flockscope::grid_step
