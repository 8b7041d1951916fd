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

// The update of the boids in slots [i, i + m), m <= 16: rules::cornell_update_lanes on 16
// lanes (its vector operations compiled for AVX-512 here, where it is inlined), the same
// bits as the eight-lane update in half the instructions. Groups that need the one-boid
// update (a scout, perching) take the eight-lane path, which gives it to them.
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline))
inline void cornell_update_16(const CornellPass& k, std::uint32_t i, std::uint32_t m, __m512 close_dx, __m512 close_dy,
                              __m512 xpos, __m512 ypos, __m512 xvel, __m512 yvel, __m512 count, LaneBox& box) {
  if (needs_one_by_one(k, i, m)) {
    for (std::uint32_t h = 0; h < 2 && kLanes * h < m; ++h) {
      const std::uint32_t first = i + kLanes * h, n = std::min(kLanes, m - kLanes * h);
      box.add(cornell_update_8(k, first, n,
                               {half_of(close_dx, h), half_of(close_dy, h), half_of(xpos, h), half_of(ypos, h),
                                half_of(xvel, h), half_of(yvel, h), half_of(count, h)}),
              n);
    }
    return;
  }
  rules::CornellSums<v16f, v16f> sums;
  sums.close_dx = v16f(close_dx), sums.close_dy = v16f(close_dy), sums.xpos = v16f(xpos), sums.ypos = v16f(ypos);
  sums.xvel = v16f(xvel), sums.yvel = v16f(yvel), sums.neighbours = v16f(count);
  v16f nx, ny, vx, vy;
  rules::cornell_update_lanes(v16f(_mm512_loadu_ps(k.sx + i)), v16f(_mm512_loadu_ps(k.sy + i)),
                              v16f(_mm512_loadu_ps(k.svx + i)), v16f(_mm512_loadu_ps(k.svy + i)), sums,
                              surroundings(k), *k.c, nx, ny, vx, vy);
  const __mmask16 valid = __mmask16((1u << m) - 1u);
  _mm512_mask_storeu_ps(k.x + i, valid, __m512(nx));
  _mm512_mask_storeu_ps(k.y + i, valid, __m512(ny));
  _mm512_mask_storeu_ps(k.vx + i, valid, __m512(vx));
  _mm512_mask_storeu_ps(k.vy + i, valid, __m512(vy));
  _mm512_mask_storeu_epi32(k.id + i, valid, _mm512_maskz_loadu_epi32(valid, k.sid + i));
  box.add({half_of(__m512(nx), 0), half_of(__m512(ny), 0)}, std::min(kLanes, m));
  if (m > kLanes) box.add({half_of(__m512(nx), 1), half_of(__m512(ny), 1)}, m - kLanes);
}

// The two stages of the software-pipelined loop (Avx512Sums::add_pipelined). They are inline
// asm because GCC 12, given them as intrinsics, moves the tests back after the sums and copies
// the sums from register to register between candidates (which makes the pass slower than
// the plain loop). The instructions are rules::offset_d2's and Avx512Sums::add's, with the
// candidate's values read by the instructions themselves ({1to16} broadcasts).
struct Avx512Tested {  // one candidate (slot j) against the sixteen lanes
  __m512 dx, dy, t;  // t = rules::offset_d2
  std::uint32_t j;
};
// dx = X - sx[j], dy = Y - sy[j], t = fma(dx, dx, fma(dy, dy, -protected2)).
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline))
inline Avx512Tested avx512_test(std::uint32_t j, const float* sx, const float* sy, __m512 X, __m512 Y,
                                __m512 minus_protected2) {
  Avx512Tested c;
  c.j = j;
  asm volatile(
      "vsubps (%[sx],%q[j],4)%{1to16%}, %[X], %[dx]\n\t"
      "vsubps (%[sy],%q[j],4)%{1to16%}, %[Y], %[dy]\n\t"
      "vmovaps %[mp2], %[t]\n\t"
      "vfmadd231ps %[dy], %[dy], %[t]\n\t"
      "vfmadd231ps %[dx], %[dx], %[t]"
      : [dx] "=&v"(c.dx), [dy] "=&v"(c.dy), [t] "=&v"(c.t)
      : [sx] "r"(sx), [sy] "r"(sy), [j] "r"(std::uint64_t(j)), [X] "v"(X), [Y] "v"(Y), [mp2] "v"(minus_protected2)
      : "memory");
  return c;
}

// The seven neighbour sums of sixteen lanes: LaneSums on AVX-512 mask registers, a pair added
// to the separation sums or the visible ones by mask (a masked-out lane keeps its sum where
// the portable one adds +0.0: no difference, see LaneSums). Three of the visible sums are
// masked fused multiply-adds by 1.0 (x * 1 is exact, so fma(x, 1, s) rounds x + s once,
// exactly as the add does): they run on the multiply pipes beside the two fused squares
// instead of queueing behind the subtractions, the compares and the other sums on the add
// pipes. (In three parts so that bench/candidate_loop can time each.)
struct Avx512Sums {
  __m512 cdx, cdy, xp, yp, xv, yv;
  __m512i count;
  __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) static Avx512Sums zero() {
    const __m512 z = _mm512_setzero_ps();
    return {z, z, z, z, z, z, _mm512_setzero_si512()};
  }
  __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) void add(
      __m512 dx, __m512 dy, __m512 ox, __m512 oy, __m512 ovx, __m512 ovy, __mmask16 separate, __mmask16 visible) {
    add_separation(dx, dy, separate);
    add_visible(ox, oy, ovx, ovy, visible);
    add_count(visible);
  }
  __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) void add_separation(
      __m512 dx, __m512 dy, __mmask16 separate) {
    cdx = _mm512_mask_add_ps(cdx, separate, cdx, dx);
    cdy = _mm512_mask_add_ps(cdy, separate, cdy, dy);
  }
  __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) void add_visible(
      __m512 ox, __m512 oy, __m512 ovx, __m512 ovy, __mmask16 visible) {
    const __m512 ones = _mm512_set1_ps(1.0f);
    xp = _mm512_mask3_fmadd_ps(ox, ones, xp, visible);
    yp = _mm512_mask3_fmadd_ps(oy, ones, yp, visible);
    xv = _mm512_mask3_fmadd_ps(ovx, ones, xv, visible);
    yv = _mm512_mask_add_ps(yv, visible, yv, ovy);
  }
  // The count by hand: GCC 12 gives the masked integer subtraction a second register and
  // copies the count there and back every candidate (two more instructions a candidate,
  // 2-3 % of the boids pass).
  __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) void add_count(__mmask16 visible) {
    asm("vpsubd %[minus_one], %[count], %[count]%{%[visible]%}"
        : [count] "+v"(count)
        : [minus_one] "v"(_mm512_set1_epi32(-1)), [visible] "Yk"(visible));
  }
  // add() of a candidate tested ahead (avx512_test; the software-pipelined loop): the two
  // compares of rules::cornell_classify, then the same seven sums in the same order. The
  // constants are zero, 1.0, rules::visible_band_bits and -1 in every lane (arguments, not a
  // struct, so that they stay in registers across the asm's "memory" clobber).
  __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) void add_tested(
      const Avx512Tested& c, const float* sx, const float* sy, const float* svx, const float* svy, __m512 zero,
      __m512 ones, __m512i band, __m512i minus_one);
  // The software-pipelined loop over candidates 0 .. total - 1 (candidate `count` at slot
  // slot_of(count)) against the lanes (X, Y): each candidate tested (avx512_test) kAhead
  // candidates before its compares and sums (add_tested), so by the time the sums are issued
  // their inputs are ready and the out-of-order window is not filled with instructions
  // waiting on the load -> subtract -> two FMAs chain of the next few candidates. Unrolled by
  // kAhead, one set of registers a candidate in flight (no copies between them); the
  // candidates are still summed one by one in order, so the same bits as add(). The tests run
  // up to kAhead candidates past the end (slot_of must give slots inside the arrays' padding
  // there: BlockSlots::slot_at does) and are not summed. Four ahead: 26 of the 32 vector
  // registers (three a candidate in flight); five or six are no faster and spill the scalar
  // slots to the stack. The loop runs 9 % faster than one candidate at a time, the boids pass
  // 3-7 % (bench/results/engine-journal.md, "The candidate loop software-pipelined").
  template <class SlotOf>
  __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) void add_pipelined(
      std::uint32_t total, SlotOf slot_of, const float* sx, const float* sy, const float* svx, const float* svy,
      __m512 X, __m512 Y, __m512 minus_protected2, __m512i band);
};

__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) inline void Avx512Sums::add_tested(
    const Avx512Tested& c, const float* sx, const float* sy, const float* svx, const float* svy, __m512 zero,
    __m512 ones, __m512i band, __m512i minus_one) {
  __mmask16 separate, visible;
  asm volatile(
      "vcmpltps %[zero], %[t], %[sep]\n\t"
      "vpcmpltud %[band], %[t], %[vis]\n\t"
      "vaddps %[dx], %[cdx], %[cdx]%{%[sep]%}\n\t"
      "vaddps %[dy], %[cdy], %[cdy]%{%[sep]%}\n\t"
      "vfmadd231ps (%[sx],%q[j],4)%{1to16%}, %[ones], %[xp]%{%[vis]%}\n\t"
      "vfmadd231ps (%[sy],%q[j],4)%{1to16%}, %[ones], %[yp]%{%[vis]%}\n\t"
      "vfmadd231ps (%[svx],%q[j],4)%{1to16%}, %[ones], %[xv]%{%[vis]%}\n\t"
      "vaddps (%[svy],%q[j],4)%{1to16%}, %[yv], %[yv]%{%[vis]%}\n\t"
      "vpsubd %[m1], %[count], %[count]%{%[vis]%}"
      : [cdx] "+v"(cdx), [cdy] "+v"(cdy), [xp] "+v"(xp), [yp] "+v"(yp), [xv] "+v"(xv), [yv] "+v"(yv),
        [count] "+v"(count), [sep] "=&Yk"(separate), [vis] "=&Yk"(visible)
      : [t] "v"(c.t), [dx] "v"(c.dx), [dy] "v"(c.dy), [zero] "v"(zero), [band] "v"(band), [ones] "v"(ones),
        [m1] "v"(minus_one), [sx] "r"(sx), [sy] "r"(sy), [svx] "r"(svx), [svy] "r"(svy),
        [j] "r"(std::uint64_t(c.j))
      : "memory");
}

template <class SlotOf>
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) inline void Avx512Sums::add_pipelined(
    std::uint32_t total, SlotOf slot_of, const float* sx, const float* sy, const float* svx, const float* svy,
    __m512 X, __m512 Y, __m512 minus_protected2, __m512i band) {
  constexpr std::uint32_t kAhead = 4;
  static_assert(kAhead <= kSlotPadding);
  // Arguments, not members of a struct: the stages' "memory" clobber would reload those.
  const __m512 zero = _mm512_setzero_ps(), ones = _mm512_set1_ps(1.0f);
  const __m512i minus_one = _mm512_set1_epi32(-1);
  Avx512Tested ahead[kAhead];
#pragma GCC unroll 16
  for (std::uint32_t u = 0; u < kAhead; ++u) ahead[u] = avx512_test(slot_of(u), sx, sy, X, Y, minus_protected2);
  std::uint32_t summed = 0;
  for (; summed + kAhead <= total; summed += kAhead) {
#pragma GCC unroll 16
    for (std::uint32_t u = 0; u < kAhead; ++u) {
      add_tested(ahead[u], sx, sy, svx, svy, zero, ones, band, minus_one);
      ahead[u] = avx512_test(slot_of(summed + kAhead + u), sx, sy, X, Y, minus_protected2);
    }
  }
#pragma GCC unroll 16
  for (std::uint32_t u = 0; u + 1 < kAhead; ++u)
    if (summed + u < total) add_tested(ahead[u], sx, sy, svx, svy, zero, ones, band, minus_one);
}

// cornell_group with 16-lane registers and mask registers, for the boids in slots [b, e),
// e - b <= 16. Lane for lane the same additions in the same order as the portable kernel
// (Avx512Sums).
// MaskSelf false (protected2 > 0, see step_boids): the boid's own lane stays live and adds
// +0.0 to its separation sums, which changes no bit, so the loop skips finding that lane.
template <bool BoxTest, bool MaskSelf>
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), noinline))
void cornell_group_avx512(const CornellPass& k, std::uint32_t b, std::uint32_t e, const BlockRuns& block,
                          LaneBox& box) {
  const auto& c = *k.c;
  const __m512 range = _mm512_set1_ps(c.range), minus_protected2 = _mm512_set1_ps(-c.protected2);
  const __m512i band = _mm512_set1_epi32(std::int32_t(k.visible_band));
  const __m512 abs_mask = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fffffff));
  const __m512 X = _mm512_loadu_ps(k.sx + b), Y = _mm512_loadu_ps(k.sy + b);
  Avx512Sums s = Avx512Sums::zero();
  auto add_candidate = [&](std::uint32_t j)
                           __attribute__((always_inline, target("avx512f,avx512vl,avx512bw,avx512dq"))) {
    const __m512 ox = _mm512_set1_ps(k.sx[j]), oy = _mm512_set1_ps(k.sy[j]);
    const __m512 ovx = _mm512_set1_ps(k.svx[j]), ovy = _mm512_set1_ps(k.svy[j]);
    __mmask16 live = 0xffff;
    if constexpr (MaskSelf) {
      const std::uint32_t me = j - b;  // wraps below b: no lane is j
      if (me < kAvx512Lanes) live = __mmask16(~(1u << me));
    }
    const __m512 dx = _mm512_sub_ps(X, ox), dy = _mm512_sub_ps(Y, oy);
    const __m512 t = _mm512_fmadd_ps(dx, dx, _mm512_fmadd_ps(dy, dy, minus_protected2));  // rules::offset_d2
    if constexpr (BoxTest) {
      live = _mm512_mask_cmp_ps_mask(live, _mm512_and_ps(dx, abs_mask), range, _CMP_LT_OQ);
      live = _mm512_mask_cmp_ps_mask(live, _mm512_and_ps(dy, abs_mask), range, _CMP_LT_OQ);
    }
    // rules::cornell_classify's two tests, one compare each: no mask operation between them.
    const __mmask16 separate = _mm512_mask_cmp_ps_mask(live, t, _mm512_setzero_ps(), _CMP_LT_OQ);
    const __mmask16 visible = _mm512_mask_cmplt_epu32_mask(live, _mm512_castps_si512(t), band);
    s.add(dx, dy, ox, oy, ovx, ovy, separate, visible);
  };
  BlockSlots slots(block);
  if constexpr (!BoxTest && !MaskSelf) {
    // The common case: Avx512Sums::add_pipelined over the block's slots.
    s.add_pipelined(
        slots.left(),
        [&slots](std::uint32_t count) __attribute__((always_inline)) { return slots.slot_at(count); }, k.sx, k.sy,
        k.svx, k.svy, X, Y, minus_protected2, band);
  } else {
    // Two candidates an iteration, in slot order, then the odd one: the loop's count, compare
    // and branch shared by two.
    for (; slots.left() >= 2; slots.advance()) {
      add_candidate(slots.slot());
      slots.advance();
      add_candidate(slots.slot());
    }
    if (slots.left() > 0) add_candidate(slots.slot());
  }
  // The update, sixteen lanes at a time, straight from the registers.
  cornell_update_16(k, b, e - b, s.cdx, s.cdy, s.xp, s.yp, s.xv, s.yv, _mm512_cvtepi32_ps(s.count), box);
}

}  // namespace flockscope::grid_step
#endif
