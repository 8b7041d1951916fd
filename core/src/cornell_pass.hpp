// The grid step of the Cornell rules (Flock::step_boids, grid path): what its kernels
// (cornell_kernel_portable.hpp, cornell_kernel_avx512.hpp) and its row pass (cornell_rows.cpp)
// share: the pass's inputs, the lane sums, and the update of one and of eight boids from their
// neighbour sums. Internal to flockscope::core.
// Sections: lane sums | the pass | the update of one boid, of eight | the row pass
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12 warns "'__Y' may be used uninitialized" inside its own AVX-512 headers (their
// _mm512_undefined_* idiom) wherever our kernels inline them; the warning is about the header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define FLOCKSCOPE_HAVE_AVX512_KERNEL 1
#endif

#include "flockscope/core/flock.hpp"
#include "flockscope/core/grid.hpp"
#include "flockscope/core/rules.hpp"
#include "flockscope/core/simd.hpp"

namespace flockscope::grid_step {

using rules::Boid;
using rules::kLanes;
using rules::v8f;
using rules::v8i;

// The Cornell rules' coefficients in the float engine's form (flock.cpp).
rules::CornellCoeffs<float> cornell_coeffs(const Params& p);

// Lanes of a chunk of the grid step's candidate loop (cornell_cell_sums); the sorted
// previous-frame arrays are padded by as many floats so a chunk's last load stays inside.
constexpr std::uint32_t kRunLanes = 16;

// Seven neighbour sums, lane by lane, for the 8-lane loops (cornell_sum_range, and each half
// of the portable grid kernel): a pair adds to the separation sums or the visible ones by
// mask. A dead lane adds +0.0 (its loads may be another cell's boids or the padding).
struct LaneSums {
  v8f cdx{}, cdy{}, xp{}, yp{}, xv{}, yv{};
  v8i count{};
  [[gnu::always_inline]] void add(v8f dx, v8f dy, v8f ox, v8f oy, v8f ovx, v8f ovy, v8i separate, v8i visible) {
    cdx += rules::masked(dx, separate);
    cdy += rules::masked(dy, separate);
    xp += rules::masked(ox, visible);
    yp += rules::masked(oy, visible);
    xv += rules::masked(ovx, visible);
    yv += rules::masked(ovy, visible);
    count -= visible;  // masks are -1 where true
  }
};

// ---------------------------------------------------------------- the pass
// The grid step of the Cornell rules, one cell at a time.
// For each non-empty cell, the 3x3 block around it is three contiguous slot runs of the
// previous frame (one per row of cells). Every boid of the cell reads them in place, 16
// candidates a chunk: lane l of a chunk is slot j + l, and a lane is live when its slot is
// inside the run and is not the boid itself (excluded by slot, exactly as all-pairs skips
// j == i). Reading in place (no copy of the block into a padded buffer, no NaN marker for
// the boid itself) saves the copy and a store-to-load stall per boid; with the sorted arrays
// padded by 16, a chunk's last load stays inside. Sums stay per lane and are added by a fixed
// tree once per boid (lanes l and l + 8, then an 8-lane shuffle tree), so results are the
// same on every run, thread count and instruction set (no FMA contraction: the core builds
// with -ffp-contract=off). The rules' update (steer, bias, speed limit, move) follows in the
// same pass.
struct CornellPass {
  const UniformGrid* grid;
  const float* sx;
  const float* sy;
  const float* svx;
  const float* svy;
  const std::uint32_t* sid;
  float* x;
  float* y;
  float* vx;
  float* vy;
  std::uint32_t* id;
  float* bias;
  std::size_t bias_size;
  const Params* p;
  const rules::CornellCoeffs<float>* c;
  float biasval;
  const Predator* predators;
  std::size_t predator_count;
  bool box_test;  // false when d^2 alone decides exactly (see step_boids)
  bool mask_self;  // false when the boid itself may stay in its lanes (see step_boids)
  bool avx512;    // the CPU has AVX-512 F/VL/BW/DQ: the neighbour loop uses mask registers
};

[[gnu::always_inline]] inline v8f shuffle_lo(v8f a, v8f b) { return __builtin_shufflevector(a, b, 0, 8, 2, 10, 4, 12, 6, 14); }
[[gnu::always_inline]] inline v8f shuffle_hi(v8f a, v8f b) { return __builtin_shufflevector(a, b, 1, 9, 3, 11, 5, 13, 7, 15); }
// Lane k of the result is the sum of the lanes of v[k], by a fixed tree.
[[gnu::always_inline]] inline v8f transpose_sum(v8f a, v8f b, v8f c, v8f d, v8f e, v8f f, v8f g, v8f h) {
  const v8f ab = shuffle_lo(a, b) + shuffle_hi(a, b), cd = shuffle_lo(c, d) + shuffle_hi(c, d);
  const v8f ef = shuffle_lo(e, f) + shuffle_hi(e, f), gh = shuffle_lo(g, h) + shuffle_hi(g, h);
  const v8f abcd = __builtin_shufflevector(ab, cd, 0, 1, 8, 9, 4, 5, 12, 13) +
                   __builtin_shufflevector(ab, cd, 2, 3, 10, 11, 6, 7, 14, 15);
  const v8f efgh = __builtin_shufflevector(ef, gh, 0, 1, 8, 9, 4, 5, 12, 13) +
                   __builtin_shufflevector(ef, gh, 2, 3, 10, 11, 6, 7, 14, 15);
  return __builtin_shufflevector(abcd, efgh, 0, 1, 2, 3, 8, 9, 10, 11) +
         __builtin_shufflevector(abcd, efgh, 4, 5, 6, 7, 12, 13, 14, 15);
}

// ---------------------------------------------------------------- the update of one boid, of eight
// The update of one boid from its neighbour sums (lanes: close_dx, close_dy, xpos, ypos, xvel,
// yvel, neighbours): the straightforward scalar form, for row tails and scout groups.
[[gnu::always_inline]] inline void cornell_update_one(const CornellPass& k, std::uint32_t i, const float* sums) {
  const auto& c = *k.c;
  const Boid<float> self{k.sx[i], k.sy[i], k.svx[i], k.svy[i]};
  rules::CornellSums<float> s;
  s.close_dx = sums[0], s.close_dy = sums[1], s.xpos = sums[2], s.ypos = sums[3];
  s.xvel = sums[4], s.yvel = sums[5], s.neighbours = int(sums[6]);
  rules::PredatorSums<float> ps;
  for (std::size_t q = 0; q < k.predator_count; ++q)
    rules::predator_accumulate(ps, self.x - k.predators[q].x, self.y - k.predators[q].y, c);
  Boid<float> nb = rules::cornell_steer(self, s, ps, c);
  const std::uint32_t id = k.sid[i];
  const int group = id < k.bias_size ? scout_group(*k.p, id) : 0;
  rules::cornell_finish(self, nb, group, group != 0 ? k.bias + id : nullptr, k.biasval, c);
  k.x[i] = nb.x, k.y[i] = nb.y, k.vx[i] = nb.vx, k.vy[i] = nb.vy, k.id[i] = id;
}

[[gnu::always_inline]] inline v8f select(v8i m, v8f a, v8f b) { return v8f((v8i(a) & m) | (v8i(b) & ~m)); }

// One vector of each neighbour sum, lane l for the boid in slot i + l.
struct SumVectors {
  v8f close_dx, close_dy, xpos, ypos, xvel, yvel, count;
};

// The update of the m <= 8 boids in slots [i, i + m) from their sums, lane for lane the same
// operations as cornell_update_one, so the same results. Lanes m..7 are computed from
// whatever their slots hold (the arrays are padded) and not stored. Returns the new
// positions (lanes below m; the scout path leaves them in memory only and returns the stored ones).
struct NewPositions {
  v8f x, y;
};
[[gnu::always_inline]] inline NewPositions cornell_update_lanes(const CornellPass& k, std::uint32_t i, std::uint32_t m,
                                                        const SumVectors& s) {
  const auto& c = *k.c;
  for (std::uint32_t l = 0; l < m; ++l)
    if (k.sid[i + l] < k.bias_size) {  // scouts (rare): the scalar form applies their bias
      for (std::uint32_t q = 0; q < m; ++q) {
        const float sums[8] = {s.close_dx[q], s.close_dy[q], s.xpos[q], s.ypos[q], s.xvel[q], s.yvel[q], s.count[q], 0};
        cornell_update_one(k, i + q, sums);
      }
      NewPositions out{};
      for (std::uint32_t q = 0; q < m; ++q) out.x[q] = k.x[i + q], out.y[q] = k.y[i + q];
      for (std::uint32_t q = m; q < kLanes; ++q) out.x[q] = out.x[0], out.y[q] = out.y[0];
      return out;
    }
  const v8f close_dx = s.close_dx, close_dy = s.close_dy, xpos = s.xpos, ypos = s.ypos, xvel = s.xvel,
            yvel = s.yvel, count = s.count;
    const v8f X = rules::load8(k.sx + i), Y = rules::load8(k.sy + i);
  const v8f VX = rules::load8(k.svx + i), VY = rules::load8(k.svy + i);
  const v8f zero{};
  v8f vx = VX, vy = VY;
  // cornell_steer
  const v8i seen = count > zero;
  if (c.cohesion) {
    vx = select(seen, vx + (xpos / count - X) * c.centering, vx);
    vy = select(seen, vy + (ypos / count - Y) * c.centering, vy);
  }
  if (c.alignment) {
    vx = select(seen, vx + (xvel / count - VX) * c.matching, vx);
    vy = select(seen, vy + (yvel / count - VY) * c.matching, vy);
  }
  if (c.separation) {
    vx = vx + close_dx * c.avoid;
    vy = vy + close_dy * c.avoid;
  }
  const v8f turn = v8f{} + c.turn;
  vy = select(Y < c.top_edge, vy + turn, vy);
  vx = select(X > c.right_edge, vx - turn, vx);
  vx = select(X < c.left_edge, vx + turn, vx);
  vy = select(Y > c.bottom_edge, vy - turn, vy);
  if (k.predator_count > 0) {
    v8f pdx{}, pdy{};
    v8i pcount{};
    const v8f pr = v8f{} + c.predator_range, pr2 = v8f{} + c.predator_range2;
    for (std::size_t q = 0; q < k.predator_count; ++q) {
      const v8f dx = X - k.predators[q].x, dy = Y - k.predators[q].y;
      const v8i in = (v8f(v8i(dx) & 0x7fffffff) < pr) & (v8f(v8i(dy) & 0x7fffffff) < pr) & (dx * dx + dy * dy < pr2);
      pdx = select(in, pdx + dx, pdx);
      pdy = select(in, pdy + dy, pdy);
      pcount -= in;
    }
    const v8i fled = pcount > 0;
    const v8f pt = v8f{} + c.predator_turn;
    vy = select(fled & (pdy > zero), vy + pt, vy);
    vy = select(fled & (pdy < zero), vy - pt, vy);
    vx = select(fled & (pdx > zero), vx + pt, vx);
    vx = select(fled & (pdx < zero), vx - pt, vx);
  }
  // limit_speed
  const v8f sq = vx * vx + vy * vy;
  v8f speed{};
  for (std::uint32_t l = 0; l < kLanes; ++l) speed[l] = std::sqrt(sq[l]);
  v8f target = select(speed < c.minspeed, v8f{} + c.minspeed, speed);
  target = select(target > c.maxspeed, v8f{} + c.maxspeed, target);
  const v8i change = target != speed;
  const v8i moving = speed > zero;
  vx = select(change & moving, vx / speed * target, vx);
  vy = select(change & moving, vy / speed * target, vy);
  const v8i stopped = change & ~moving;
  for (std::uint32_t l = 0; l < kLanes; ++l)
    if (stopped[l]) {  // a zero speed takes the previous direction (rare): the scalar rule
      float svx = vx[l], svy = vy[l];
      rules::limit_speed(svx, svy, c.minspeed, c.maxspeed, VX[l], VY[l]);
      vx[l] = svx, vy[l] = svy;
    }
  const v8f nx = X + vx * c.dt, ny = Y + vy * c.dt;
  if (m == kLanes) {
    std::memcpy(k.x + i, &nx, sizeof nx);
    std::memcpy(k.y + i, &ny, sizeof ny);
    std::memcpy(k.vx + i, &vx, sizeof vx);
    std::memcpy(k.vy + i, &vy, sizeof vy);
    std::memcpy(k.id + i, k.sid + i, 8 * sizeof(std::uint32_t));
    return {nx, ny};
  }
  for (std::uint32_t l = 0; l < m; ++l)
    k.x[i + l] = nx[l], k.y[i + l] = ny[l], k.vx[i + l] = vx[l], k.vy[i + l] = vy[l], k.id[i + l] = k.sid[i + l];
  return {nx, ny};
}

// The update of the eight boids in slots [i, i + 8) from their sums (8 floats each, as in
// cornell_update_one).
[[gnu::always_inline]] inline void cornell_update_8(const CornellPass& k, std::uint32_t i, const float* sums) {
  // Transpose the eight boids' sum vectors into one vector per quantity.
  v8f r[8];
  for (std::uint32_t l = 0; l < kLanes; ++l) r[l] = rules::load8(sums + 8 * l);
  const v8f t0 = __builtin_shufflevector(r[0], r[1], 0, 8, 1, 9, 4, 12, 5, 13);
  const v8f t1 = __builtin_shufflevector(r[0], r[1], 2, 10, 3, 11, 6, 14, 7, 15);
  const v8f t2 = __builtin_shufflevector(r[2], r[3], 0, 8, 1, 9, 4, 12, 5, 13);
  const v8f t3 = __builtin_shufflevector(r[2], r[3], 2, 10, 3, 11, 6, 14, 7, 15);
  const v8f t4 = __builtin_shufflevector(r[4], r[5], 0, 8, 1, 9, 4, 12, 5, 13);
  const v8f t5 = __builtin_shufflevector(r[4], r[5], 2, 10, 3, 11, 6, 14, 7, 15);
  const v8f t6 = __builtin_shufflevector(r[6], r[7], 0, 8, 1, 9, 4, 12, 5, 13);
  const v8f t7 = __builtin_shufflevector(r[6], r[7], 2, 10, 3, 11, 6, 14, 7, 15);
  const v8f u0 = __builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
  const v8f u1 = __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
  const v8f u2 = __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
  const v8f u3 = __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
  const v8f u4 = __builtin_shufflevector(t4, t6, 0, 1, 8, 9, 4, 5, 12, 13);
  const v8f u5 = __builtin_shufflevector(t4, t6, 2, 3, 10, 11, 6, 7, 14, 15);
  const v8f u6 = __builtin_shufflevector(t5, t7, 0, 1, 8, 9, 4, 5, 12, 13);
  const v8f u7 = __builtin_shufflevector(t5, t7, 2, 3, 10, 11, 6, 7, 14, 15);
  const v8f close_dx = __builtin_shufflevector(u0, u4, 0, 1, 2, 3, 8, 9, 10, 11);
  const v8f close_dy = __builtin_shufflevector(u1, u5, 0, 1, 2, 3, 8, 9, 10, 11);
  const v8f xpos = __builtin_shufflevector(u2, u6, 0, 1, 2, 3, 8, 9, 10, 11);
  const v8f ypos = __builtin_shufflevector(u3, u7, 0, 1, 2, 3, 8, 9, 10, 11);
  const v8f xvel = __builtin_shufflevector(u0, u4, 4, 5, 6, 7, 12, 13, 14, 15);
  const v8f yvel = __builtin_shufflevector(u1, u5, 4, 5, 6, 7, 12, 13, 14, 15);
  const v8f count = __builtin_shufflevector(u2, u6, 4, 5, 6, 7, 12, 13, 14, 15);

  cornell_update_lanes(k, i, kLanes, {close_dx, close_dy, xpos, ypos, xvel, yvel, count});
}

// The three slot runs of a cell's 3x3 block: [run[0], run[1]), [run[2], run[3]), [run[4], run[5]).
struct BlockRuns {
  std::uint32_t run[6];
};

// ---------------------------------------------------------------- the row pass
// Runs the pass over grid rows [row_begin, row_end) (cornell_rows.cpp).
void cornell_rows(const CornellPass& k, int row_begin, int row_end, std::vector<float>& sums, float* box);

}  // namespace flockscope::grid_step
