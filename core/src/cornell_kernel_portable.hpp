// The grid step's portable kernel: one boid an 8-lane vector lane, built into every
// target_clones variant of cornell_rows. Internal to flockscope::core.
#pragma once

#include "cornell_pass.hpp"

namespace flockscope::grid_step {

// The boids in slots [b, e), e - b <= 8, one a lane: their sums over the runs of `block`, one
// candidate at a time in slot order, then their update (cornell_update_8) and the box.
// Lanes e - b .. 7 compute from whatever their slots hold (the arrays are padded) and are
// neither stored nor boxed. (8-lane vectors: GCC lowers 64-byte vector types piecewise in a
// target_clones function on AVX2 and below.)
template <bool BoxTest, bool MaskSelf>
[[gnu::always_inline]] inline void cornell_group(const CornellPass& k, std::uint32_t b, std::uint32_t e,
                                                 const BlockRuns& block, LaneBox& box) {
  const auto& c = *k.c;
  // (Broadcasts written out: the rules:: helpers get lowered for the default target first.)
  const v8f range = v8f{} + c.range, protected2 = v8f{} + c.protected2;
  const rules::v8u band = rules::v8u{} + k.visible_band;
  const v8i slot = std::int32_t(b) + v8i{0, 1, 2, 3, 4, 5, 6, 7};
  const v8f X = rules::load8(k.sx + b), Y = rules::load8(k.sy + b);
  LaneSums s;
  for (BlockSlots slots(block); slots.left() > 0; slots.advance()) {
    const std::uint32_t j = slots.slot();
    const v8f ox = v8f{} + k.sx[j], oy = v8f{} + k.sy[j];
    const v8f dx = X - ox, dy = Y - oy;
    const v8f t = rules::offset_d2(dx, dy, protected2);  // as rules::cornell_classify
    v8i separate = t < v8f{};
    v8i visible = v8i(rules::v8u(t) < band);
    if constexpr (BoxTest) {
      const v8i in_box = (v8f(v8i(dx) & 0x7fffffff) < range) & (v8f(v8i(dy) & 0x7fffffff) < range);
      separate &= in_box, visible &= in_box;
    }
    if constexpr (MaskSelf) {  // a boid is not its own neighbour (all-pairs skips j == i)
      const v8i other = slot != std::int32_t(j);
      separate &= other, visible &= other;
    }
    s.add(dx, dy, ox, oy, v8f{} + k.svx[j], v8f{} + k.svy[j], separate, visible);
  }
  const std::uint32_t m = e - b;
  box.add(cornell_update_8(k, b, m,
                               {s.cdx, s.cdy, s.xp, s.yp, s.xv, s.yv, __builtin_convertvector(s.count, v8f)}),
          m);
}

}  // namespace flockscope::grid_step
