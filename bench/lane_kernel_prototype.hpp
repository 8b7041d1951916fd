// A prototype of the grid step with one boid per vector lane (AVX-512 only), timed against the
// engine's kernel by bench_lane_kernel.cpp. Up to 16 boids of a grid row (a cell, or
// neighbouring cells of the row merged while they hold 16 boids or fewer) sit in the lanes of
// one register, up to 32 (one cell of 17-32 boids, in pieces of 32 above that) in two; the
// loop goes over the slot runs of the group's block (rows cy - 1 .. cy + 1, columns from one
// left of the group to one right of it) and broadcasts one candidate at a time, so each lane
// adds its neighbours in slot order: a sequential sum whose bits do not depend on the vector
// width. No horizontal reduction, no transposes, no staging of sums between the kernel and
// the update. A merged group's lanes see more candidates than their own 3x3 blocks, but the
// extra ones are farther than the radius (every boid within it is in the 3x3 block), so the
// neighbour sets are those of all-pairs.
// Only the case of the presets is written: protectedRange > 0 (the boid itself, in its own
// candidates, adds +0.0 to its separation sums: no bit changes, see the engine's kernel) and
// range^2 reaching both squared radii (no box test).
#pragma once

#include "cornell_kernel_avx512.hpp"

#ifdef FLOCKSCOPE_HAVE_AVX512_KERNEL
namespace flockscope::grid_step::lanes {

constexpr std::uint32_t kGroupLanes = 16;

// The bounding box of the new positions, per lane.
struct LaneBox {
  __m256 min_x, max_x, min_y, max_y;
};

// The boids in slots [b, e), e - b <= 16 * R: their sums over the runs of `block`, then their
// update (cornell_update_lanes, eight lanes at a time).
template <int R>
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline))
inline void group_pass_avx512(const CornellPass& k, std::uint32_t b, std::uint32_t e, const BlockRuns& block,
                              LaneBox& box) {
  const auto& c = *k.c;
  const __m512 protected2 = _mm512_set1_ps(c.protected2), visual2 = _mm512_set1_ps(c.visual2);
  const __m512 ones = _mm512_set1_ps(1.0f);
  const __m512i one = _mm512_set1_epi32(1);
  __m512 X[R], Y[R], cdx[R], cdy[R], xp[R], yp[R], xv[R], yv[R];
  __m512i count[R];
  for (int q = 0; q < R; ++q) {
    const std::uint32_t first = b + kGroupLanes * std::uint32_t(q);
    const std::uint32_t left = e > first ? e - first : 0;
    const __mmask16 in_group = left >= kGroupLanes ? __mmask16(0xffff) : __mmask16((1u << left) - 1);
    X[q] = _mm512_maskz_loadu_ps(in_group, k.sx + first), Y[q] = _mm512_maskz_loadu_ps(in_group, k.sy + first);
    cdx[q] = cdy[q] = xp[q] = yp[q] = xv[q] = yv[q] = _mm512_setzero_ps();
    count[q] = _mm512_setzero_si512();
  }
  for (std::uint32_t r = 0; r < 3; ++r) {
    const std::uint32_t rb = block.run[2 * r], re = block.run[2 * r + 1];
    for (std::uint32_t j = rb; j < re; ++j) {
      const __m512 ox = _mm512_set1_ps(k.sx[j]), oy = _mm512_set1_ps(k.sy[j]);
      const __m512 ovx = _mm512_set1_ps(k.svx[j]), ovy = _mm512_set1_ps(k.svy[j]);
      for (int q = 0; q < R; ++q) {
        const __m512 dx = _mm512_sub_ps(X[q], ox), dy = _mm512_sub_ps(Y[q], oy);
        const __m512 d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
        const __mmask16 separate = _mm512_cmp_ps_mask(d2, protected2, _CMP_LT_OQ);
        const __mmask16 visible = _kandn_mask16(separate, _mm512_cmp_ps_mask(d2, visual2, _CMP_LT_OQ));
        // As in the engine's kernel: three visible sums as masked FMAs by 1.0 (the add's bits,
        // on the multiply pipes).
        cdx[q] = _mm512_mask_add_ps(cdx[q], separate, cdx[q], dx);
        cdy[q] = _mm512_mask_add_ps(cdy[q], separate, cdy[q], dy);
        xp[q] = _mm512_mask3_fmadd_ps(ox, ones, xp[q], visible);
        yp[q] = _mm512_mask3_fmadd_ps(oy, ones, yp[q], visible);
        xv[q] = _mm512_mask3_fmadd_ps(ovx, ones, xv[q], visible);
        yv[q] = _mm512_mask_add_ps(yv[q], visible, yv[q], ovy);
        count[q] = _mm512_mask_add_epi32(count[q], visible, count[q], one);
      }
    }
  }
  // The update, eight lanes at a time, straight from the registers, and the bounding box.
  for (int q = 0; q < R; ++q) {
    const __m512 cnt = _mm512_cvtepi32_ps(count[q]);
    for (std::uint32_t h = 0; h < 2; ++h) {
      const std::uint32_t first = b + kGroupLanes * std::uint32_t(q) + kLanes * h;
      if (first >= e) break;
      const std::uint32_t m = std::min(kLanes, e - first);
#define FLOCKSCOPE_HALF(v) v8f(h == 0 ? _mm512_castps512_ps256(v) : _mm512_extractf32x8_ps(v, 1))
      const NewPositions np = cornell_update_lanes(
          k, first, m,
          {FLOCKSCOPE_HALF(cdx[q]), FLOCKSCOPE_HALF(cdy[q]), FLOCKSCOPE_HALF(xp[q]), FLOCKSCOPE_HALF(yp[q]),
           FLOCKSCOPE_HALF(xv[q]), FLOCKSCOPE_HALF(yv[q]), FLOCKSCOPE_HALF(cnt)});
#undef FLOCKSCOPE_HALF
      const __mmask8 in = __mmask8((1u << m) - 1);
      box.min_x = _mm256_mask_min_ps(box.min_x, in, box.min_x, __m256(np.x));
      box.max_x = _mm256_mask_max_ps(box.max_x, in, box.max_x, __m256(np.x));
      box.min_y = _mm256_mask_min_ps(box.min_y, in, box.min_y, __m256(np.y));
      box.max_y = _mm256_mask_max_ps(box.max_y, in, box.max_y, __m256(np.y));
    }
  }
}

// The pass over grid rows [row_begin, row_end) with one boid per lane, the update in the same
// group (eight lanes at a time, cornell_update_lanes), the bounding box of the new positions.
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), noinline))
inline void lane_rows_avx512(const CornellPass& k, int row_begin, int row_end, float* box) {
  const UniformGrid& g = *k.grid;
  const int nx = g.nx(), ny = g.ny();
  LaneBox lane_box{_mm256_set1_ps(box[0]), _mm256_set1_ps(box[1]), _mm256_set1_ps(box[2]), _mm256_set1_ps(box[3])};
  for (int cy = row_begin; cy < row_end; ++cy) {
    const std::size_t row = std::size_t(cy) * std::size_t(nx);
    for (int c0 = 0; c0 < nx;) {
      const std::uint32_t b = g.cell_start(row + std::size_t(c0));
      int c1 = c0 + 1;  // the group: cells [c0, c1) of the row
      while (c1 < nx && g.cell_start(row + std::size_t(c1) + 1) - b <= kGroupLanes) ++c1;
      const std::uint32_t e = g.cell_start(row + std::size_t(c1));
      const int x_lo = c0 > 0 ? c0 - 1 : 0, x_hi = c1 < nx ? c1 : nx - 1;
      c0 = c1;
      if (b == e) continue;
      BlockRuns block{};
      int r = 0;
      for (int y = cy > 0 ? cy - 1 : 0; y <= (cy + 1 < ny ? cy + 1 : ny - 1); ++y, ++r) {
        const std::size_t base = std::size_t(y) * std::size_t(nx);
        block.run[2 * r] = g.cell_start(base + std::size_t(x_lo));
        block.run[2 * r + 1] = g.cell_start(base + std::size_t(x_hi) + 1);
      }
      for (std::uint32_t p = b; p < e; p += 2 * kGroupLanes) {
        const std::uint32_t pe = std::min(e, p + 2 * kGroupLanes);
        if (pe - p <= kGroupLanes)
          group_pass_avx512<1>(k, p, pe, block, lane_box);
        else
          group_pass_avx512<2>(k, p, pe, block, lane_box);
      }
    }
  }
  for (std::uint32_t l = 0; l < kLanes; ++l) {
    box[0] = std::min(box[0], lane_box.min_x[l]), box[1] = std::max(box[1], lane_box.max_x[l]);
    box[2] = std::min(box[2], lane_box.min_y[l]), box[3] = std::max(box[3], lane_box.max_y[l]);
  }
}

}  // namespace flockscope::grid_step::lanes
#endif
