// The grid step of the Cornell rules (Flock::step_boids, grid path): what its kernels
// (cornell_kernel_portable.hpp, _avx2.hpp, _avx512.hpp) and its row pass (cornell_rows.cpp)
// share: the pass's inputs, the lane sums, the update of one and of eight boids from their
// neighbour sums, and the groups of boids the kernels take. Internal to flockscope::core.
// Sections: lane sums | the pass | the update of one boid, of eight | the groups | the row pass
// (The rules themselves, steering to the move, are core's rules.hpp: rules::cornell_update and
// rules::cornell_update_lanes.)
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

// The x86 kernels are GCC's: they pass vectors wider than the caller's target to inlined
// templates, which GCC accepts and clang rejects, so a clang build (the fuzzers') runs the
// portable kernel.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
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
using rules::v16f;

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
  const FoodSource* food;
  std::size_t food_count;
  std::int32_t* perch;  // perching timers by id (Flock::perch_timers), or null: no perching
  std::uint32_t visible_band;  // rules::visible_band_bits of the coefficients
  bool box_test;  // false when the fused test alone decides exactly (see step_boids)
  bool mask_self;  // false when the boid itself may stay in its lanes (see step_boids)
  GridKernel kernel;  // the instruction set of the neighbour loop (chosen for the CPU, see step_boids)
};

// ---------------------------------------------------------------- the update of one boid, of eight
// What the rules see besides the neighbours: the predators and food sources.
[[gnu::always_inline]] inline rules::Surroundings<Predator, FoodSource> surroundings(const CornellPass& k) {
  return {k.predators, std::uint32_t(k.predator_count), k.food, std::uint32_t(k.food_count)};
}

// The update of one boid from its neighbour sums (lanes: close_dx, close_dy, xpos, ypos, xvel,
// yvel, neighbours): rules::cornell_update, for the groups that hold a scout or perch.
[[gnu::always_inline]] inline void cornell_update_one(const CornellPass& k, std::uint32_t i, const float* sums) {
  const auto& c = *k.c;
  const Boid<float> self{k.sx[i], k.sy[i], k.svx[i], k.svy[i]};
  rules::CornellSums<float> s;
  s.close_dx = sums[0], s.close_dy = sums[1], s.xpos = sums[2], s.ypos = sums[3];
  s.xvel = sums[4], s.yvel = sums[5], s.neighbours = int(sums[6]);
  const std::uint32_t id = k.sid[i];
  rules::BoidExtras<float> extras;
  extras.group = id < k.bias_size ? scout_group(*k.p, id) : 0;
  extras.stored_bias = extras.group != 0 ? k.bias + id : nullptr;
  extras.static_bias = k.biasval;
  extras.perch = k.perch != nullptr ? k.perch + id : nullptr;
  const Boid<float> nb = rules::cornell_update(self, s, surroundings(k), extras, c);
  k.x[i] = nb.x, k.y[i] = nb.y, k.vx[i] = nb.vx, k.vy[i] = nb.vy, k.id[i] = id;
}

// Whether the boids in slots [i, i + m) need the one-boid update: a scout among them, or
// perching on.
[[gnu::always_inline]] inline bool needs_one_by_one(const CornellPass& k, std::uint32_t i, std::uint32_t m) {
  if (k.perch != nullptr) return true;
  if (k.bias_size == 0) return false;  // no scouts (the common case: no loop)
  for (std::uint32_t l = 0; l < m; ++l)
    if (k.sid[i + l] < k.bias_size) return true;
  return false;
}

// One vector of each neighbour sum, lane l for the boid in slot i + l.
struct SumVectors {
  v8f close_dx, close_dy, xpos, ypos, xvel, yvel, count;
};

// The new positions of a group's lanes (lanes below m are the group's boids).
struct NewPositions {
  v8f x, y;
};

// The update of the m <= 8 boids in slots [i, i + m) from their sums: rules::cornell_update_lanes
// on eight lanes, or cornell_update_one for each where needs_one_by_one. Lanes m..7 are
// computed from whatever their slots hold (the arrays are padded) and not stored.
[[gnu::always_inline]] inline NewPositions cornell_update_8(const CornellPass& k, std::uint32_t i, std::uint32_t m,
                                                    const SumVectors& s) {
  if (needs_one_by_one(k, i, m)) {
    for (std::uint32_t q = 0; q < m; ++q) {
      const float sums[8] = {s.close_dx[q], s.close_dy[q], s.xpos[q], s.ypos[q], s.xvel[q], s.yvel[q], s.count[q], 0};
      cornell_update_one(k, i + q, sums);
    }
    NewPositions out{};
    for (std::uint32_t q = 0; q < m; ++q) out.x[q] = k.x[i + q], out.y[q] = k.y[i + q];
    for (std::uint32_t q = m; q < kLanes; ++q) out.x[q] = out.x[0], out.y[q] = out.y[0];
    return out;
  }
  rules::CornellSums<v8f, v8f> sums;
  sums.close_dx = s.close_dx, sums.close_dy = s.close_dy, sums.xpos = s.xpos, sums.ypos = s.ypos;
  sums.xvel = s.xvel, sums.yvel = s.yvel, sums.neighbours = s.count;
  v8f nx, ny, vx, vy;
  rules::cornell_update_lanes(rules::load8(k.sx + i), rules::load8(k.sy + i), rules::load8(k.svx + i),
                              rules::load8(k.svy + i), sums, surroundings(k), *k.c, nx, ny, vx, vy);
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

[[gnu::always_inline]] inline v8f select(v8i m, v8f a, v8f b) { return v8f((v8i(a) & m) | (v8i(b) & ~m)); }

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
