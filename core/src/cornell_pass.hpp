// The grid step of the Cornell rules (Flock::step_boids, grid path): what its kernels
// (cornell_kernel_portable.hpp, _avx2.hpp, _avx512.hpp) and its row pass (cornell_rows.cpp)
// share: the pass's inputs, the lane sums, the update of one and of eight boids from their
// neighbour sums, and the groups of boids the kernels take. Internal to flockscope::core.
// Sections: lane sums | the pass | the update of one boid, of eight | the groups | the row pass
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12 warns "'__Y' (may be) used uninitialized" inside its own AVX-512 headers (their
// _mm512_undefined_* idiom) wherever our kernels inline them; the warning is about the header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define FLOCKSCOPE_HAVE_X86_KERNELS 1
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

// The sorted previous-frame arrays are padded by this many floats, so a vector load of a
// group's lanes (8, or 16 on AVX-512) from any slot stays inside.
constexpr std::uint32_t kSlotPadding = 16;

// Seven neighbour sums, lane by lane, for the 8-lane loops (cornell_sum_range, the portable
// grid kernel): a pair adds to the separation sums or the visible ones by mask. A dead lane
// adds +0.0, which changes no sum (they start at +0.0 and so are never -0.0).
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
// The kernels (cornell_kernel_*.hpp), in the order of preference where the CPU has them. All
// give the same bits.
enum class GridKernel { Portable, Avx2, Avx512 };

// The grid step of the Cornell rules, one group of boids at a time, one boid a vector lane.
// A group is up to 16 boids (8 on CPUs without AVX-512) of one grid row in consecutive slots
// (RowGroups): it may span cells or end inside one. Its block, every cell next to one of its
// cells, is three contiguous slot runs of the previous frame (one per row of cells); the
// kernel goes over them one candidate at a time, broadcasts the candidate to every lane, and
// each lane adds it to its own sums if it is within range. So each boid adds its neighbours
// one by one in slot order: the same additions in the same order whatever the vector width
// (AVX-512, AVX2, SSE), the grouping or the thread count, hence the same bits (no FMA
// contraction: the core builds with -ffp-contract=off). The rules' update (steer, bias, speed
// limit, move) then runs on the lanes straight from the registers: no lane reduction, no
// transposes, no staging.
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
  std::uint32_t visible_band;  // rules::visible_band_bits of the coefficients
  bool box_test;  // false when the fused test alone decides exactly (see step_boids)
  bool mask_self;  // false when the boid itself may stay in its lanes (see step_boids)
  GridKernel kernel;  // the instruction set of the neighbour loop (chosen for the CPU, see step_boids)
};

// ---------------------------------------------------------------- the update of one boid, of eight
// The update of one boid from its neighbour sums (lanes: close_dx, close_dy, xpos, ypos, xvel,
// yvel, neighbours): the straightforward scalar form, for the eights that hold a scout.
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
// The AVX-512 kernel's cornell_update_16 makes these operations on 16 lanes with intrinsics:
// a change here belongs there too (the kernels-agree tests compare them bit for bit). (Not
// this function as a template on 16 lanes: GCC 12 lowers a template's 64-byte vector
// operations for the baseline target before inlining it into the AVX-512 kernel, and some
// compares come out one scalar lane at a time, which makes the boids pass 1.4x slower.)
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

// ---------------------------------------------------------------- the groups
// The three slot runs of a group's block: [run[0], run[1]), [run[2], run[3]), [run[4], run[5])
// (at the grid's edge rows the third stays empty).
struct BlockRuns {
  std::uint32_t run[6];
};

// The slots of a group's block in slot order: run 0, then run 1, then run 2, for one loop in
// the kernels: `for (BlockSlots slots(block); slots.left() > 0; slots.advance())`. It counts
// the block's candidates 0, 1, 2, ... and finds each one's slot by adding its run's offset,
// picked by two compares on that count (conditional moves), so a group pays one
// hard-to-predict loop exit instead of one a run, and the only chain from one candidate to
// the next is the count's increment (a slot that jumps at run ends would be a chain of five
// instructions, long enough to bound the AVX-512 loop). The
// candidates and their order are the same. (An iterator, like RowGroups, so the loop body
// stays in the kernel's own target.)
class BlockSlots {
 public:
  [[gnu::always_inline]] explicit BlockSlots(const BlockRuns& block)
      : end0_(block.run[1] - block.run[0]),
        end1_(end0_ + (block.run[3] - block.run[2])),
        total_(end1_ + (block.run[5] - block.run[4])),
        offset0_(block.run[0]),
        offset1_(block.run[2] - end0_),  // unsigned wrap-around: exact either way
        offset2_(block.run[4] - end1_) {}
  std::uint32_t left() const { return total_ - count_; }  // the slots still to visit, this one included
  [[gnu::always_inline]] std::uint32_t slot() const { return slot_at(count_); }
  // The slot of candidate `count` (0 is the block's first). Past the block's end (count >=
  // left() at the start) it goes on counting from the last run's end: slots the padding of
  // the sorted arrays covers for up to kSlotPadding candidates past the end, so a loop may
  // read ahead there without a test.
  [[gnu::always_inline]] std::uint32_t slot_at(std::uint32_t count) const {
    std::uint32_t offset = count >= end0_ ? offset1_ : offset0_;
    offset = count >= end1_ ? offset2_ : offset;
    return count + offset;
  }
  [[gnu::always_inline]] void advance() { ++count_; }

 private:
  // Candidates [0, end0) are run 0's, [end0, end1) run 1's, [end1, total) run 2's.
  std::uint32_t count_ = 0, end0_, end1_, total_, offset0_, offset1_, offset2_;
};

// The groups of grid row cy: its boids in slot order, `lanes` at a time (the last group of
// the row may hold fewer). next() gives a group's slots [b, e) and the runs of its block
// (the cells within one row and the grid's columns() columns of a cell it spans), until it
// returns false. A group spanning several cells sees more candidates than each of its boids'
// own block, but the extra ones are farther than the range in x, so they add nothing: the
// neighbours each lane adds, and their order, are those of its own block.
// (An iterator, not a function taking a callback: the kernels' callbacks would need their
// instruction set's target attribute, which a generic caller cannot inline.)
class RowGroups {
 public:
  RowGroups(const UniformGrid& g, int cy, std::uint32_t lanes)
      : g_(g), cy_(cy), row_(std::size_t(cy) * std::size_t(g.nx())), lanes_(lanes), p_(start(0)), end_(start(g.nx())) {}

  [[gnu::always_inline]] bool next(std::uint32_t& b, std::uint32_t& e, BlockRuns& block) {
    if (p_ >= end_) return false;
    b = p_, e = end_ - p_ < lanes_ ? end_ : p_ + lanes_;
    while (start(first_ + 1) <= b) ++first_;  // the cell of slot b
    int last = first_;
    while (start(last + 1) < e) ++last;  // the cell of slot e - 1
    block = BlockRuns{};
    int r = 0;
    g_.for_each_block_range(first_, last + 1, cy_, [&](std::uint32_t rb, std::uint32_t re) {
      block.run[2 * r] = rb, block.run[2 * r + 1] = re;
      ++r;
    });
    p_ = e;
    return true;
  }

 private:
  std::uint32_t start(int cx) const { return g_.cell_start(row_ + std::size_t(cx)); }
  const UniformGrid& g_;
  int cy_;
  std::size_t row_;
  std::uint32_t lanes_;
  std::uint32_t p_, end_;  // the next group's first slot, the row's end
  int first_ = 0;  // the cell of p_ (or one before it)
};

// The bounding box of the new positions, per lane (min/max: exact in any order).
struct LaneBox {
  v8f min_x, max_x, min_y, max_y;
  explicit LaneBox(const float* box)
      : min_x(v8f{} + box[0]), max_x(v8f{} + box[1]), min_y(v8f{} + box[2]), max_y(v8f{} + box[3]) {}
  // Lanes [0, m) of p.
  [[gnu::always_inline]] void add(const NewPositions& p, std::uint32_t m) {
    const v8i lane = {0, 1, 2, 3, 4, 5, 6, 7};
    const v8i in = lane < std::int32_t(m);
    min_x = select(in & (p.x < min_x), p.x, min_x), max_x = select(in & (p.x > max_x), p.x, max_x);
    min_y = select(in & (p.y < min_y), p.y, min_y), max_y = select(in & (p.y > max_y), p.y, max_y);
  }
  void into(float* box) const {
    for (std::uint32_t l = 0; l < kLanes; ++l) {
      box[0] = std::min(box[0], min_x[l]), box[1] = std::max(box[1], max_x[l]);
      box[2] = std::min(box[2], min_y[l]), box[3] = std::max(box[3], max_y[l]);
    }
  }
};

// ---------------------------------------------------------------- the row pass
// Runs the pass over grid rows [row_begin, row_end) and widens `box` (x min, x max, y min,
// y max) to the new positions (cornell_rows.cpp).
void cornell_rows(const CornellPass& k, int row_begin, int row_end, float* box);

}  // namespace flockscope::grid_step
