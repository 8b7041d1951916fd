// The grid step's AVX-512 kernel (chosen at run time on CPUs with AVX-512 F/VL/BW/DQ): one boid
// a lane of 16, the same bits as the portable kernel. Internal to flockscope::core.
#pragma once

#include "cornell_pass.hpp"

#ifdef FLOCKSCOPE_HAVE_X86_KERNELS
namespace flockscope::grid_step {

constexpr std::uint32_t kAvx512Lanes = 16;

// Lanes 0-7 (h = 0) or 8-15 (h = 1) of v.
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline))
inline v8f half_of(__m512 v, std::uint32_t h) {
  return v8f(h == 0 ? _mm512_castps512_ps256(v) : _mm512_extractf32x8_ps(v, 1));
}

// cornell_group with 16-lane registers and mask registers, for the boids in slots [b, e),
// e - b <= 16. Lane for lane the same additions in the same order as the portable kernel (a
// masked-out lane keeps its sum where the portable one adds +0.0: no difference, see
// LaneSums).
// Three of the visible sums are masked fused multiply-adds by 1.0 (x * 1 is exact, so
// fma(x, 1, s) rounds x + s once, exactly as the add does): they run on the multiply pipes,
// which the squares leave half idle, instead of queueing behind the subtractions, the d^2 add,
// the compares and the other sums on the add pipes.
// MaskSelf false (protected2 > 0, see step_boids): the boid's own lane stays live and adds
// +0.0 to its separation sums, which changes no bit, so the loop skips finding that lane.
template <bool BoxTest, bool MaskSelf>
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), noinline))
void cornell_group_avx512(const CornellPass& k, std::uint32_t b, std::uint32_t e, const BlockRuns& block,
                          LaneBox& box) {
  const auto& c = *k.c;
  const __m512 range = _mm512_set1_ps(c.range), protected2 = _mm512_set1_ps(c.protected2),
               visual2 = _mm512_set1_ps(c.visual2);
  const __m512 abs_mask = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fffffff));
  const __m512 ones = _mm512_set1_ps(1.0f);
  const __m512i one = _mm512_set1_epi32(1);
  const __m512 X = _mm512_loadu_ps(k.sx + b), Y = _mm512_loadu_ps(k.sy + b);
  __m512 cdx = _mm512_setzero_ps(), cdy = cdx, xp = cdx, yp = cdx, xv = cdx, yv = cdx;
  __m512i count = _mm512_setzero_si512();
  for (std::uint32_t r = 0; r < 3; ++r)
    for (std::uint32_t j = block.run[2 * r], re = block.run[2 * r + 1]; j < re; ++j) {
      const __m512 ox = _mm512_set1_ps(k.sx[j]), oy = _mm512_set1_ps(k.sy[j]);
      const __m512 ovx = _mm512_set1_ps(k.svx[j]), ovy = _mm512_set1_ps(k.svy[j]);
      __mmask16 live = 0xffff;
      if constexpr (MaskSelf) {
        const std::uint32_t me = j - b;  // wraps below b: no lane is j
        if (me < kAvx512Lanes) live = __mmask16(~(1u << me));
      }
      const __m512 dx = _mm512_sub_ps(X, ox), dy = _mm512_sub_ps(Y, oy);
      const __m512 d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
      if constexpr (BoxTest) {
        live = _mm512_mask_cmp_ps_mask(live, _mm512_and_ps(dx, abs_mask), range, _CMP_LT_OQ);
        live = _mm512_mask_cmp_ps_mask(live, _mm512_and_ps(dy, abs_mask), range, _CMP_LT_OQ);
      }
      const __mmask16 separate = _mm512_mask_cmp_ps_mask(live, d2, protected2, _CMP_LT_OQ);
      const __mmask16 visible = _kandn_mask16(separate, _mm512_mask_cmp_ps_mask(live, d2, visual2, _CMP_LT_OQ));
      cdx = _mm512_mask_add_ps(cdx, separate, cdx, dx);
      cdy = _mm512_mask_add_ps(cdy, separate, cdy, dy);
      xp = _mm512_mask3_fmadd_ps(ox, ones, xp, visible);
      yp = _mm512_mask3_fmadd_ps(oy, ones, yp, visible);
      xv = _mm512_mask3_fmadd_ps(ovx, ones, xv, visible);
      yv = _mm512_mask_add_ps(yv, visible, yv, ovy);
      count = _mm512_mask_add_epi32(count, visible, count, one);
    }
  // The update, eight lanes at a time, straight from the registers.
  const __m512 cnt = _mm512_cvtepi32_ps(count);
  for (std::uint32_t h = 0; h < 2 && b + kLanes * h < e; ++h) {
    const std::uint32_t first = b + kLanes * h, m = std::min(kLanes, e - first);
    box.add(cornell_update_lanes(k, first, m,
                                 {half_of(cdx, h), half_of(cdy, h), half_of(xp, h), half_of(yp, h), half_of(xv, h),
                                  half_of(yv, h), half_of(cnt, h)}),
            m);
  }
}

}  // namespace flockscope::grid_step
#endif
