// The grid step's row pass: the groups of each row through the kernel chosen for the CPU.
#include "cornell_kernel_avx2.hpp"
#include "cornell_kernel_avx512.hpp"
#include "cornell_kernel_portable.hpp"
#include "cornell_pass.hpp"

#include <type_traits>

namespace flockscope::grid_step {

namespace {

// The rows [row_begin, row_end) in groups of `Lanes` consecutive boids (RowGroups), each
// through `group` (a kernel's group function: sums, update, box), and `box` widened to their
// new positions. The AVX2 and AVX-512 kernels' group functions are compiled for their
// instruction sets and called (a call per group of 8 or 16 boids costs nothing measurable);
// the portable one is inlined into each target_clones variant.
template <std::uint32_t Lanes, class Group>
[[gnu::always_inline]] inline void rows(const CornellPass& k, int row_begin, int row_end, float* box, Group group) {
  LaneBox lanes(box);
  for (int cy = row_begin; cy < row_end; ++cy) {
    RowGroups groups(*k.grid, cy, Lanes);
    std::uint32_t b, e;
    BlockRuns block;
    while (groups.next(b, e, block)) {
      // The sorted ids are read by nothing but the update at the group's end (the scout
      // test, the id copied), so without a prefetch their line is a miss to memory there
      // (5 % of the AVX-512 kernel's time after 2,000 warm-up steps): fetch it a few groups
      // ahead.
      __builtin_prefetch(k.sid + b + 64);  // 256 bytes on: four 16-boid groups (eight of 8) ahead
      group(k, b, e, block, lanes);
    }
  }
  lanes.into(box);
}

// Calls rows(box_test, mask_self) (std::bool_constant each) for the pass's variant.
template <class Rows>
[[gnu::always_inline]] inline void with_variant(const CornellPass& k, Rows&& rows) {
  if (k.box_test)
    rows(std::true_type{}, std::true_type{});
  else if (k.mask_self)
    rows(std::false_type{}, std::true_type{});
  else
    rows(std::false_type{}, std::false_type{});
}

}  // namespace

// x86-64-v3 (AVX2 with FMA) rather than AVX2 alone: the portable kernel's fma is one
// instruction there (rules::offset_d2), a call to the library's fmaf without FMA.
FLOCKSCOPE_CLONES("arch=x86-64-v4", "arch=x86-64-v3", "default")
void cornell_rows(const CornellPass& k, int row_begin, int row_end, float* box) {
  // (The lambda and the portable group function are inlined, so the portable kernel is compiled for each clone's target.)
  with_variant(k, [&](auto box_test, auto mask_self) __attribute__((always_inline)) {
#ifdef FLOCKSCOPE_HAVE_X86_KERNELS
    if (k.kernel == GridKernel::Avx512)
      return rows<kAvx512Lanes>(k, row_begin, row_end, box, cornell_group_avx512<box_test(), mask_self()>);
    if (k.kernel == GridKernel::Avx2)
      return rows<kLanes>(k, row_begin, row_end, box, cornell_group_avx2<box_test(), mask_self()>);
#endif
    rows<kLanes>(k, row_begin, row_end, box, cornell_group<box_test(), mask_self()>);
  });
}

}  // namespace flockscope::grid_step
