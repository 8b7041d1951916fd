// The grid step's AVX2 + FMA kernel (chosen at run time on CPUs with both but without AVX-512):
// one boid a lane of 8, the same bits as the portable kernel. Internal to flockscope::core.
#pragma once

#include "cornell_pass.hpp"

#ifdef FLOCKSCOPE_HAVE_X86_KERNELS
namespace flockscope::grid_step {

// cornell_group with the masked sums as fused multiply-adds: the compare masks become 1.0 or
// 0.0 (one and each), and each sum is fma(mask, value, sum). Where the mask is 1.0 that rounds
// value + sum once, exactly as the portable kernel's add; where it is 0.0 it adds +-0.0 to a
// sum that is never -0.0: no change. So the same bits as the portable kernel (for finite
// positions and velocities, which the engine keeps) in 16 vector operations a candidate
// instead of 20 (and + add for each of seven sums). The count is summed as a float: exact.
// For the boids in slots [b, e), e - b <= 8.
template <bool BoxTest, bool MaskSelf>
__attribute__((target("avx2,fma"), noinline))
void cornell_group_avx2(const CornellPass& k, std::uint32_t b, std::uint32_t e, const BlockRuns& block,
                        LaneBox& box) {
  const auto& c = *k.c;
  const __m256 range = _mm256_set1_ps(c.range), minus_protected2 = _mm256_set1_ps(-c.protected2);
  const __m256i band = _mm256_set1_epi32(std::int32_t(k.visible_band));
  const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256i slot = _mm256_add_epi32(_mm256_set1_epi32(std::int32_t(b)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  const __m256 X = _mm256_loadu_ps(k.sx + b), Y = _mm256_loadu_ps(k.sy + b);
  __m256 cdx = _mm256_setzero_ps(), cdy = cdx, xp = cdx, yp = cdx, xv = cdx, yv = cdx, count = cdx;
  for (BlockSlots slots(block); slots.left() > 0; slots.advance()) {
    const std::uint32_t j = slots.slot();
    const __m256 ox = _mm256_broadcast_ss(k.sx + j), oy = _mm256_broadcast_ss(k.sy + j);
    const __m256 dx = _mm256_sub_ps(X, ox), dy = _mm256_sub_ps(Y, oy);
    // rules::cornell_classify's t; its bits compared signed (AVX2 has no unsigned compare),
    // which for t >= 0 is the unsigned comparison, and a negative t is separate, not visible.
    const __m256 t = _mm256_fmadd_ps(dx, dx, _mm256_fmadd_ps(dy, dy, minus_protected2));
    __m256 separate = _mm256_cmp_ps(t, _mm256_setzero_ps(), _CMP_LT_OQ);
    __m256 visible = _mm256_andnot_ps(separate, _mm256_castsi256_ps(_mm256_cmpgt_epi32(band, _mm256_castps_si256(t))));
    if constexpr (BoxTest) {
      const __m256 in_box = _mm256_and_ps(_mm256_cmp_ps(_mm256_and_ps(dx, abs_mask), range, _CMP_LT_OQ),
                                          _mm256_cmp_ps(_mm256_and_ps(dy, abs_mask), range, _CMP_LT_OQ));
      separate = _mm256_and_ps(separate, in_box), visible = _mm256_and_ps(visible, in_box);
    }
    if constexpr (MaskSelf) {  // a boid is not its own neighbour (all-pairs skips j == i)
      const __m256 self = _mm256_castsi256_ps(_mm256_cmpeq_epi32(slot, _mm256_set1_epi32(std::int32_t(j))));
      separate = _mm256_andnot_ps(self, separate), visible = _mm256_andnot_ps(self, visible);
    }
    const __m256 s1 = _mm256_and_ps(separate, one), v1 = _mm256_and_ps(visible, one);
    cdx = _mm256_fmadd_ps(s1, dx, cdx);
    cdy = _mm256_fmadd_ps(s1, dy, cdy);
    xp = _mm256_fmadd_ps(v1, ox, xp);
    yp = _mm256_fmadd_ps(v1, oy, yp);
    xv = _mm256_fmadd_ps(v1, _mm256_broadcast_ss(k.svx + j), xv);
    yv = _mm256_fmadd_ps(v1, _mm256_broadcast_ss(k.svy + j), yv);
    count = _mm256_add_ps(count, v1);
  }
  const std::uint32_t m = e - b;
  box.add(cornell_update_8(k, b, m, {v8f(cdx), v8f(cdy), v8f(xp), v8f(yp), v8f(xv), v8f(yv), v8f(count)}), m);
}

}  // namespace flockscope::grid_step
#endif
