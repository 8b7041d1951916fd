// The grid step's portable neighbour kernel: 16 candidates a chunk as two 8-lane halves,
// built into every target_clones variant of cornell_rows. Internal to flockscope::core.
#pragma once

#include "cornell_pass.hpp"

namespace flockscope::grid_step {

// One half (8 lanes) of a 16-lane chunk: the classification and the masked sums.
template <bool BoxTest>
struct HalfSums : LaneSums {
  [[gnu::always_inline]] void add(const CornellPass& k, std::uint32_t j, v8i live, v8f X, v8f Y, v8f range,
                                  v8f protected2, v8f visual2) {
    const v8f ox = rules::load8(k.sx + j), oy = rules::load8(k.sy + j);
    const v8f dx = X - ox, dy = Y - oy;
    const v8f d2 = dx * dx + dy * dy;
    v8i separate = (d2 < protected2) & live;
    v8i visible = (d2 < visual2) & live & ~separate;
    if constexpr (BoxTest) {
      const v8i in_box = (v8f(v8i(dx) & 0x7fffffff) < range) & (v8f(v8i(dy) & 0x7fffffff) < range);
      separate &= in_box;
      visible &= in_box;
    }
    LaneSums::add(dx, dy, ox, oy, rules::load8(k.svx + j), rules::load8(k.svy + j), separate, visible);
  }
};

// The neighbour sums of the boids in slots [b, e) (one cell) over its block's runs, each
// written as 8 floats (close_dx, close_dy, xpos, ypos, xvel, yvel, neighbours, 0) to
// sums + 8 * (i - b). The portable kernel (every target_clones variant): a 16-lane chunk is
// two 8-lane halves (lanes 0-7 and 8-15), and the reduction starts with lane l + lane l + 8.
// (Written with 8-lane vectors because GCC lowers 64-byte vector types piecewise in a
// target_clones function on AVX2 and below.)
template <bool BoxTest>
[[gnu::always_inline]] inline void cornell_cell_sums(const CornellPass& k, std::uint32_t b, std::uint32_t e,
                                                     const BlockRuns& block, float* __restrict sums) {
  const auto& c = *k.c;
  // (Broadcasts written out: the rules:: helpers get lowered for the default target first.)
  const v8f range = v8f{} + c.range, protected2 = v8f{} + c.protected2, visual2 = v8f{} + c.visual2;
  const v8i lane = {0, 1, 2, 3, 4, 5, 6, 7};
  for (std::uint32_t i = b; i < e; ++i) {
    const v8f X = v8f{} + k.sx[i], Y = v8f{} + k.sy[i];
    // Lanes 0-7 of every chunk first, then lanes 8-15: each lane's additions keep their
    // order, and one half's seven sums fit the registers of AVX2 and SSE (both halves at
    // once spill).
    HalfSums<BoxTest> lo, hi;
    for (std::uint32_t r = 0; r < 3; ++r) {
      const std::uint32_t rb = block.run[2 * r], re = block.run[2 * r + 1];
      for (std::uint32_t j = rb; j < re; j += kRunLanes) {
        const v8i slot = std::int32_t(j) + lane;
        lo.add(k, j, (slot < std::int32_t(re)) & (slot != std::int32_t(i)), X, Y, range, protected2, visual2);
      }
    }
    for (std::uint32_t r = 0; r < 3; ++r) {
      const std::uint32_t rb = block.run[2 * r], re = block.run[2 * r + 1];
      // Only chunks with live lanes in their upper half: a dead half would add +0.0 to
      // every lane, no change.
      for (std::uint32_t j = rb; j + 8 < re; j += kRunLanes) {
        const v8i slot = std::int32_t(j + 8) + lane;
        hi.add(k, j + 8, (slot < std::int32_t(re)) & (slot != std::int32_t(i)), X, Y, range, protected2, visual2);
      }
    }
    const v8f total = transpose_sum(lo.cdx + hi.cdx, lo.cdy + hi.cdy, lo.xp + hi.xp, lo.yp + hi.yp, lo.xv + hi.xv,
                                    lo.yv + hi.yv, __builtin_convertvector(lo.count + hi.count, v8f), v8f{});
    std::memcpy(sums + 8 * std::size_t(i - b), &total, sizeof total);
  }
}

}  // namespace flockscope::grid_step
