// The rules' fast path in C++ (flockscope_rules, RulesJob: board_flock.hpp): the host's,
// in the steps of the RP2040's Thumb-1 version (rules_m0.S), which the RP2040 assembles
// instead of this file's function.
#include "flockscope/board/board_config.hpp"
#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/fixed.hpp"

#if !FLOCKSCOPE_RULES_ASM
namespace flockscope::board {

namespace {
// v in [-2^23, 2^23): a Q23.9 sum whose mean update_boid takes as div_s32(v * 128, n).
inline bool small9(std::int32_t v) { return std::uint32_t((v >> 23) + 1) <= 1u; }

// The fast path in C++: the host's flockscope_rules, in the steps of rules_m0.S. Its
// products by a weight in [0, 1) and its squares below 128 px are fix's own operators (the
// assembly's MUL_WEIGHT and SQUARE are their 32-bit paths); the speed limit's quotient is
// the assembly's two divisions, which the host tests thus check against fix's operator/.
// fix's additions wrap, so the order of the velocity's terms changes no bit.
std::uint32_t rules_fast_cpp(const ScanJob* job, RulesJob* r, std::uint32_t k) {
  const NeighbourSums& s = job->s;
  const fix x = r->xs[k], y = r->ys[k], vx = r->vxs[k], vy = r->vys[k];
  const fix w_centering = fix::from_raw(r->centering), w_matching = fix::from_raw(r->matching);
  fix dvx{}, dvy{};
  if (s.seen > 0) {  // cohesion and alignment: the neighbours' means (update_boid's `mean`)
    const auto n = std::uint32_t(s.seen);
    const auto rel_x = std::int32_t(s.sum_x - n * std::uint32_t(job->x));
    const auto rel_y = std::int32_t(s.sum_y - n * std::uint32_t(job->y));
    if (!small9(rel_x) || !small9(rel_y) || !small9(s.sum_vx) || !small9(s.sum_vy)) return kRulesOff;
    auto mean = [n = s.seen](std::int32_t sum9) { return fix::from_raw(div_s32(sum9 * 128, n)); };
    dvx = mean(rel_x) * w_centering + (mean(s.sum_vx) - vx) * w_matching;
    dvy = mean(rel_y) * w_centering + (mean(s.sum_vy) - vy) * w_matching;
  }
  if (!small9(s.sep_x) || !small9(s.sep_y)) return kRulesOff;
  const fix avoid = fix::from_raw(r->avoid), turn = fix::from_raw(r->turn);
  dvx = dvx + fix::from_raw(s.sep_x * 128) * avoid;
  dvy = dvy + fix::from_raw(s.sep_y * 128) * avoid;
  if (y.raw < r->top) dvy = dvy + turn;
  if (x.raw > r->right) dvx = dvx - turn;
  if (x.raw < r->left) dvx = dvx + turn;
  if (y.raw > r->bottom) dvy = dvy - turn;
  fix psx{}, psy{};
  bool chased = false;
  const fix range = fix::from_raw(r->predator_range), range2 = fix::from_raw(r->predator_range2);
  const auto* pred = static_cast<const BoardPredator*>(r->predators);
  for (std::uint32_t q = 0; q < r->npred; ++q) {
    const fix dx = x - pred[q].x, dy = y - pred[q].y;
    if (dx.raw == INT32_MIN || dy.raw == INT32_MIN) return kRulesOff;  // (abs_of keeps it negative)
    if (abs_of(dx) < range && abs_of(dy) < range && square(dx) + square(dy) < range2) {
      psx = psx + dx, psy = psy + dy;
      chased = true;
    }
  }
  if (chased) {
    const fix pt = fix::from_raw(r->predator_turn);
    if (psy > fix(0)) dvy = dvy + pt;
    if (psy < fix(0)) dvy = dvy - pt;
    if (psx > fix(0)) dvx = dvx + pt;
    if (psx < fix(0)) dvx = dvx - pt;
  }
  constexpr std::int32_t kGuard = 100 << 16;  // update_boid's vmax_guard
  auto nvx = (vx + dvx).raw, nvy = (vy + dvy).raw;
  nvx = nvx > kGuard ? kGuard : nvx < -kGuard ? -kGuard : nvx;
  nvy = nvy > kGuard ? kGuard : nvy < -kGuard ? -kGuard : nvy;
  const std::int32_t v2 = (square(fix::from_raw(nvx)) + square(fix::from_raw(nvy))).raw;
  if (!(v2 >= r->min2 && v2 <= r->max2)) {
    // The speed limit (rules::limit_speed_sq) for speeds from 0.5 to 128 px/frame (v2 in
    // [2^14, 2^30)): fix's square root, then each component / speed * target as fix's
    // operators give it: floor(|v| 2^16 / speed) in two 32-bit divisions (|v| 2^8 < 2^32
    // and the first remainder 2^8 < 2^31), negated for a negative v, times the target by the
    // three products (both below 128 px).
    if (v2 < (1 << 14) || v2 >= (1 << 30)) {
      r->out_vx = nvx, r->out_vy = nvy, r->out_v2 = v2;
      return kRulesLimit;
    }
    const std::int32_t speed = sqrt(fix::from_raw(v2)).raw;
    std::int32_t target = speed < r->minspeed ? r->minspeed : speed;
    target = target > r->maxspeed ? r->maxspeed : target;
    if (target != speed) {
      const auto d = std::uint32_t(speed);
      auto scale = [d, target](std::int32_t v) {
        const std::uint32_t m = (v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v)) << 8;
        const std::uint32_t q = ((m / d) << 8) + (((m % d) << 8) / d);
        return (fix::from_raw(std::int32_t(v < 0 ? 0u - q : q)) * fix::from_raw(target)).raw;
      };
      nvx = scale(nvx);
      nvy = scale(nvy);
    }
  }
  r->xs[k] = x + fix::from_raw(nvx);
  r->ys[k] = y + fix::from_raw(nvy);
  r->vxs[k].raw = nvx;
  r->vys[k].raw = nvy;
  return kRulesDone;
}
}  // namespace

extern "C" std::uint32_t flockscope_rules(const ScanJob* job, RulesJob* rules, std::uint32_t k) {
  return rules_fast_cpp(job, rules, k);
}

}  // namespace flockscope::board
#endif
