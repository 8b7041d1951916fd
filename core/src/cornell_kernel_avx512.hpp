// The grid step's AVX-512 neighbour kernel (chosen at run time on CPUs with AVX-512 F/VL/BW/DQ),
// the same bits as the portable kernel. Internal to flockscope::core.
#pragma once

#include "cornell_pass.hpp"

#ifdef FLOCKSCOPE_HAVE_AVX512_KERNEL
namespace flockscope::grid_step {

using v16f = float __attribute__((vector_size(64)));

// Lanes 0-7: a's lane l + lane l + 8; lanes 8-15: the same of b (the kernels' first fold).
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline))
inline v16f fold_pair(__m512 a, __m512 b) {
  return v16f(_mm512_add_ps(_mm512_shuffle_f32x4(a, b, 0x44), _mm512_shuffle_f32x4(a, b, 0xee)));
}

// transpose_sum on each 8-lane half: lane k of a half is the sum of that half of input k,
// by the same tree.
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline))
inline v16f transpose_sum_pair(v16f a, v16f b, v16f c, v16f d, v16f e, v16f f, v16f g, v16f h) {
#define FLOCKSCOPE_LO(x, y) __builtin_shufflevector(x, y, 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30)
#define FLOCKSCOPE_HI(x, y) __builtin_shufflevector(x, y, 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31)
  const v16f ab = FLOCKSCOPE_LO(a, b) + FLOCKSCOPE_HI(a, b), cd = FLOCKSCOPE_LO(c, d) + FLOCKSCOPE_HI(c, d);
  const v16f ef = FLOCKSCOPE_LO(e, f) + FLOCKSCOPE_HI(e, f), gh = FLOCKSCOPE_LO(g, h) + FLOCKSCOPE_HI(g, h);
#undef FLOCKSCOPE_LO
#undef FLOCKSCOPE_HI
  const v16f abcd = __builtin_shufflevector(ab, cd, 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29) +
                    __builtin_shufflevector(ab, cd, 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31);
  const v16f efgh = __builtin_shufflevector(ef, gh, 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29) +
                    __builtin_shufflevector(ef, gh, 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31);
  return __builtin_shufflevector(abcd, efgh, 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27) +
         __builtin_shufflevector(abcd, efgh, 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
}

// cornell_cell_sums with AVX-512: 16-lane registers and mask registers (a masked add instead
// of and + add), two boids a pass over the runs (each chunk loaded once for both, two
// independent chains of additions). Lane for lane the same additions in the same order as
// the portable kernel (a masked-out lane keeps its value where the portable one adds +0.0,
// which never differs: a sum that starts at +0.0 cannot become -0.0), so both give the same
// bits. The count is a popcount of the visible mask, exact in any order.
// Three of the visible sums are masked fused multiply-adds by 1.0 (x * 1 is exact, so
// fma(x, 1, s) rounds x + s once, exactly as the add does): they run on the multiply pipes,
// which the squares leave half idle, instead of queueing behind the subtractions, the d^2 add
// and the other sums on the add pipes (Zen 4, measured 1.12-1.2x on the whole step; moving
// the separation sums too, 0.95x). MaskSelf false (protected2 > 0, see step_boids): the boid's
// own lane stays live and adds +0.0 to its separation sums, which changes no bit, so the
// loop skips the per-chunk arithmetic that finds and clears that lane (1.04-1.08x at 1M
// boids on 2 threads, noisy).
template <int N, bool BoxTest, bool MaskSelf>
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline))
inline void cornell_boids_avx512(const CornellPass& k, std::uint32_t i, const BlockRuns& block,
                                 float* __restrict sums) {
  const auto& c = *k.c;
  const __m512 range = _mm512_set1_ps(c.range), protected2 = _mm512_set1_ps(c.protected2),
               visual2 = _mm512_set1_ps(c.visual2);
  const __m512 abs_mask = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fffffff));
  const __m512 ones = _mm512_set1_ps(1.0f);
  __m512 X[N], Y[N], cdx[N], cdy[N], xp[N], yp[N], xv[N], yv[N];
  std::uint32_t count[N];
  for (int q = 0; q < N; ++q) {
    X[q] = _mm512_set1_ps(k.sx[i + q]), Y[q] = _mm512_set1_ps(k.sy[i + q]);
    cdx[q] = cdy[q] = xp[q] = yp[q] = xv[q] = yv[q] = _mm512_setzero_ps();
    count[q] = 0;
  }
  for (std::uint32_t r = 0; r < 3; ++r) {
    const std::uint32_t rb = block.run[2 * r], re = block.run[2 * r + 1];
    for (std::uint32_t j = rb; j < re; j += kRunLanes) {
      const std::uint32_t left = re - j;
      const __mmask16 in_run = left >= kRunLanes ? __mmask16(0xffff) : __mmask16((1u << left) - 1);
      const __m512 ox = _mm512_loadu_ps(k.sx + j), oy = _mm512_loadu_ps(k.sy + j);
      const __m512 ovx = _mm512_loadu_ps(k.svx + j), ovy = _mm512_loadu_ps(k.svy + j);
      for (int q = 0; q < N; ++q) {
        __mmask16 live = in_run;
        if constexpr (MaskSelf) {
          const std::uint32_t me = i + std::uint32_t(q) - j;  // wraps when i + q < j: no lane is the boid
          if (me < kRunLanes) live = __mmask16(in_run & ~(1u << me));
        }
        const __m512 dx = _mm512_sub_ps(X[q], ox), dy = _mm512_sub_ps(Y[q], oy);
        const __m512 d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
        if constexpr (BoxTest) {
          live = _mm512_mask_cmp_ps_mask(live, _mm512_and_ps(dx, abs_mask), range, _CMP_LT_OQ);
          live = _mm512_mask_cmp_ps_mask(live, _mm512_and_ps(dy, abs_mask), range, _CMP_LT_OQ);
        }
        const __mmask16 separate = _mm512_mask_cmp_ps_mask(live, d2, protected2, _CMP_LT_OQ);
        const __mmask16 visible = _kandn_mask16(separate, _mm512_mask_cmp_ps_mask(live, d2, visual2, _CMP_LT_OQ));
        cdx[q] = _mm512_mask_add_ps(cdx[q], separate, cdx[q], dx);
        cdy[q] = _mm512_mask_add_ps(cdy[q], separate, cdy[q], dy);
        xp[q] = _mm512_mask3_fmadd_ps(ox, ones, xp[q], visible);
        yp[q] = _mm512_mask3_fmadd_ps(oy, ones, yp[q], visible);
        xv[q] = _mm512_mask3_fmadd_ps(ovx, ones, xv[q], visible);
        yv[q] = _mm512_mask_add_ps(yv[q], visible, yv[q], ovy);
        count[q] += std::uint32_t(__builtin_popcount(visible));
      }
    }
  }
  if constexpr (N == 2) {
    // Both boids' reductions at once, boid 0 in lanes 0-7 and boid 1 in lanes 8-15 of each
    // register: the same additions as below in half the instructions. The counts go in
    // afterwards (a tree over one count and seven zeros is the count): the tree's last two
    // inputs are zeros, which the compiler folds.
    v16f total = transpose_sum_pair(fold_pair(cdx[0], cdx[1]), fold_pair(cdy[0], cdy[1]), fold_pair(xp[0], xp[1]),
                                    fold_pair(yp[0], yp[1]), fold_pair(xv[0], xv[1]), fold_pair(yv[0], yv[1]), v16f{},
                                    v16f{});
    total[6] = float(count[0]);
    total[14] = float(count[1]);
    std::memcpy(sums, &total, sizeof total);
    return;
  }
  for (int q = 0; q < N; ++q) {
    // Lane l + lane l + 8, then the portable kernel's 8-lane tree.
#define FLOCKSCOPE_FOLD16(v) v8f(_mm256_add_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1)))
    v8f total = transpose_sum(FLOCKSCOPE_FOLD16(cdx[q]), FLOCKSCOPE_FOLD16(cdy[q]), FLOCKSCOPE_FOLD16(xp[q]),
                              FLOCKSCOPE_FOLD16(yp[q]), FLOCKSCOPE_FOLD16(xv[q]), FLOCKSCOPE_FOLD16(yv[q]), v8f{}, v8f{});
    total[6] = float(count[q]);
#undef FLOCKSCOPE_FOLD16
    std::memcpy(sums + 8 * std::size_t(q), &total, sizeof total);
  }
}

template <bool BoxTest, bool MaskSelf>
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), noinline))
void cornell_cell_sums_avx512(const CornellPass& k, std::uint32_t b, std::uint32_t e, const BlockRuns& block,
                              float* __restrict sums) {
  std::uint32_t i = b;
  for (; i + 2 <= e; i += 2) cornell_boids_avx512<2, BoxTest, MaskSelf>(k, i, block, sums + 8 * std::size_t(i - b));
  if (i < e) cornell_boids_avx512<1, BoxTest, MaskSelf>(k, i, block, sums + 8 * std::size_t(i - b));
}

}  // namespace flockscope::grid_step
#endif
