// The grid step's row pass: the groups of each row through the kernel chosen for the CPU.
#include "cornell_kernel_avx2.hpp"
#include "cornell_kernel_avx512.hpp"
#include "cornell_kernel_portable.hpp"
#include "cornell_pass.hpp"

namespace flockscope::grid_step {

namespace {

// Groups of up to 8 boids (cells merged, fuller cells in pieces of 8).
template <bool BoxTest, bool MaskSelf>
[[gnu::always_inline]] inline void portable_rows(const CornellPass& k, int row_begin, int row_end, float* box) {
  LaneBox lanes(box);
  for (int cy = row_begin; cy < row_end; ++cy) {
    RowGroups groups(*k.grid, cy, kLanes);
    std::uint32_t b, e;
    BlockRuns block;
    while (groups.next(b, e, block)) cornell_group<BoxTest, MaskSelf>(k, b, e, block, lanes);
  }
  lanes.into(box);
}

}  // namespace

FLOCKSCOPE_CLONES("arch=x86-64-v4", "avx2", "default")
void cornell_rows(const CornellPass& k, int row_begin, int row_end, float* box) {
#ifdef FLOCKSCOPE_HAVE_X86_KERNELS
  if (k.kernel == GridKernel::Avx512) {
    if (k.box_test)
      cornell_rows_avx512<true, true>(k, row_begin, row_end, box);
    else if (k.mask_self)
      cornell_rows_avx512<false, true>(k, row_begin, row_end, box);
    else
      cornell_rows_avx512<false, false>(k, row_begin, row_end, box);
    return;
  }
  if (k.kernel == GridKernel::Avx2) {
    if (k.box_test)
      cornell_rows_avx2<true, true>(k, row_begin, row_end, box);
    else if (k.mask_self)
      cornell_rows_avx2<false, true>(k, row_begin, row_end, box);
    else
      cornell_rows_avx2<false, false>(k, row_begin, row_end, box);
    return;
  }
#endif
  if (k.box_test)
    portable_rows<true, true>(k, row_begin, row_end, box);
  else if (k.mask_self)
    portable_rows<false, true>(k, row_begin, row_end, box);
  else
    portable_rows<false, false>(k, row_begin, row_end, box);
}

}  // namespace flockscope::grid_step
