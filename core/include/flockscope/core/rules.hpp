// The per-boid rule arithmetic, written once as templates over the scalar type so that the
// float engine (core/) and the RP2040's fixed-point engine (firmware_pico/) compute the same
// rules. A scalar type S needs + - * /, comparisons, construction from int/double, division
// by int, and a sqrt(S) found by argument-dependent lookup (std::sqrt for float/double).
//
// Sections: Cornell rules (seeds 000/001/004): the neighbour test | lanes | the Cornell update
//           (steering, bias, speed limit, perching, one boid) | hunting predators |
//           report rules (seed 002) | blog rules (seed 003)
//
// Fixes of the seeds' slips (see ../shared/seeds/README.md): the speed clamp scales both
// components by the same limit; a zero speed takes the direction of the previous velocity
// (or +x) instead of dividing by zero; the report's separation sums displacement vectors.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "flockscope/core/simd.hpp"

namespace flockscope::rules {

template <class S>
struct Boid {
  S x, y, vx, vy;
};

// Scalar helpers for the built-in types; a fixed-point type brings its own (found by ADL).
using std::sqrt;
inline float abs_of(float v) { return std::fabs(v); }
inline double abs_of(double v) { return std::fabs(v); }
inline float round_of(float v) { return std::round(v); }
inline double round_of(double v) { return std::round(v); }
inline float div_count(float v, int n) { return v / static_cast<float>(n); }
inline double div_count(double v, int n) { return v / static_cast<double>(n); }
// a^2 + b^2 of one boid's food test; a fixed-point type brings its own (found by ADL), which
// saturates where the sum would leave its range.
template <class S>
inline S sum_of_squares(S a, S b) {
  return a * a + b * b;
}

// ---------------------------------------------------------------- Cornell rules
// The sums over one boid's neighbours (C = int), or over each lane's (C = S: whole-number
// float counts).
template <class S, class C = int>
struct CornellSums {
  S xpos{}, ypos{}, xvel{}, yvel{}, close_dx{}, close_dy{};
  C neighbours{};
};

template <class S>
struct CornellCoeffs {
  S range;  // max(visualRange, protectedRange): the box test that keeps d^2 from overflowing
  S protected2, visual2;
  S centering, matching, avoid;
  S turn;
  S left_edge, right_edge, top_edge, bottom_edge;  // positions, not distances
  S predator_range, predator_range2, predator_turn;
  S minspeed, maxspeed;
  S maxbias, bias_increment;
  S bias_pull;  // the scouts' preferred |vx|: 1 (seed 000) or maxspeed (bias_target)
  S dt;
  bool cohesion, alignment, separation, dynamic_bias;
  S food_range{}, food_range2{}, food_factor{};
  S gravity{};  // added to vy every frame
  std::int32_t perch_frames = 0;  // 0: no perching
  S perch_y{}, perch_top{}, perch_x0{}, perch_x1{};  // perch_top = perch_y - perch_range
};

// Which sums another boid at offset (dx, dy) = self - other joins. As in the seeds'
// pseudocode: the box test first (it also keeps d^2 from overflowing a fixed-point type; a
// wrapped d^2 outside the box is never used), strict comparisons, and a boid inside the
// protected range counts only for separation. This form serves the fixed-point types (the
// board) and double; float has its own below. M is bool for a scalar S, or the mask type of
// a vector S, hence & rather than &&.
template <class S, class M>
inline void cornell_classify(S dx, S dy, const CornellCoeffs<S>& c, M& separate, M& visible) {
  const M in_box = (abs_of(dx) < c.range) & (abs_of(dy) < c.range);
  const S d2 = dx * dx + dy * dy;
  separate = in_box & (d2 < c.protected2);
  visible = in_box & !separate & (d2 < c.visual2);
}

// The float engine's form of the same test (float, and v8f for eight candidates at once;
// the fixed-point board keeps the form above): one value, t = d^2 - protected^2, evaluated
// as fma(dx, dx, fma(dy, dy, -protected^2)) with two roundings (dx * dx + dy * dy has three),
// decides both sums: separate when t < 0, visible when 0 <= t < visual^2 -
// protected^2, tested as an unsigned comparison of t's bits (visible_band_bits; a negative t
// has its sign bit set, so it never passes). The vector kernels then make the two masks with
// two compares instead of three operations after d^2, and square with two fused operations
// instead of three: about 9 % of the grid step's candidate loop (docs/performance.md). Every
// path computes t alike (fma is correctly rounded: one instruction where the CPU has FMA,
// glibc's exact fmaf elsewhere), so they agree bit for bit. For finite positions t is never
// NaN or -0.0, so the kernels may test its sign by a compare or by its bit.
inline float offset_d2(float dx, float dy, float protected2) {
  return std::fma(dx, dx, std::fma(dy, dy, -protected2));
}
inline v8f offset_d2(v8f dx, v8f dy, v8f protected2) {
  v8f t;
  for (std::uint32_t l = 0; l < kLanes; ++l) t[l] = std::fma(dx[l], dx[l], std::fma(dy[l], dy[l], -protected2[l]));
  return t;
}
// The bits of visual^2 - protected^2, or 0 (nothing visible) when visual^2 <= protected^2.
inline std::uint32_t visible_band_bits(float visual2, float protected2) {
  return visual2 > protected2 ? std::bit_cast<std::uint32_t>(visual2 - protected2) : 0u;
}
// The two tests on t (band: visible_band_bits).
inline void classify_offset(float t, std::uint32_t band, bool& separate, bool& visible) {
  separate = t < 0.0f;
  visible = std::bit_cast<std::uint32_t>(t) < band;
}
inline void cornell_classify(float dx, float dy, const CornellCoeffs<float>& c, bool& separate, bool& visible) {
  separate = visible = false;
  if (!(abs_of(dx) < c.range && abs_of(dy) < c.range)) return;  // most pairs: no fma to make
  classify_offset(offset_d2(dx, dy, c.protected2), visible_band_bits(c.visual2, c.protected2), separate, visible);
}
inline void cornell_classify(v8f dx, v8f dy, const CornellCoeffs<v8f>& c, v8i& separate, v8i& visible) {
  const v8i in_box = (abs_of(dx) < c.range) & (abs_of(dy) < c.range);
  const v8f t = offset_d2(dx, dy, c.protected2);
  const v8u band = v8u{} + visible_band_bits(c.visual2[0], c.protected2[0]);
  separate = in_box & (t < v8f{});
  visible = in_box & v8i(v8u(t) < band);
}

// One other boid seen from `self` (dx = self.x - other.x). The caller skips self.
template <class S>
inline void cornell_accumulate(CornellSums<S>& s, S dx, S dy, const Boid<S>& other, const CornellCoeffs<S>& c) {
  bool separate, visible;
  cornell_classify(dx, dy, c, separate, visible);
  if (separate) {
    s.close_dx += dx;
    s.close_dy += dy;
  } else if (visible) {
    s.xpos += other.x;
    s.ypos += other.y;
    s.xvel += other.vx;
    s.yvel += other.vy;
    ++s.neighbours;
  }
}

// ---------------------------------------------------------------- lanes
// The Cornell update below is written once for one boid and for a vector of boids. S is the
// lane type: a scalar (float, double, the board's fixed point; its masks are bool) or a
// vector of floats (v8f, v16f: one boid a lane; masks are v8i, v16i, -1 where true). The
// coefficients stay scalar (T = lane_scalar<S>): vector op scalar broadcasts.
template <class S>
struct LaneTraits {
  using Scalar = S;
  using Mask = bool;
  static constexpr bool kVector = false;
};
template <>
struct LaneTraits<v8f> {
  using Scalar = float;
  using Mask = v8i;
  static constexpr bool kVector = true;
};
template <>
struct LaneTraits<v16f> {
  using Scalar = float;
  using Mask = v16i;
  static constexpr bool kVector = true;
};
template <class S>
using lane_scalar = typename LaneTraits<S>::Scalar;
template <class S>
using lane_mask = typename LaneTraits<S>::Mask;
template <class S>
inline constexpr bool is_lanes = LaneTraits<S>::kVector;

// v += d() where m holds. One boid: a branch, so d() is not evaluated where it does not apply
// (a fixed-point mean over zero neighbours would divide by zero). Lanes: every lane computes
// d(), and a select keeps it where m holds: the same result lane for lane.
template <class S, class M, class D>
[[gnu::always_inline]] inline void add_where(const M& m, S& v, D&& d) {
  if constexpr (is_lanes<S>) {
    v = m ? v + d() : v;
  } else {
    if (m) v += d();
  }
}
template <class S, class M, class D>
[[gnu::always_inline]] inline void sub_where(const M& m, S& v, D&& d) {
  if constexpr (is_lanes<S>) {
    v = m ? v - d() : v;
  } else {
    if (m) v -= d();
  }
}

// The mean of a neighbour sum: sum / count (count: an int for one boid, a lane vector of
// whole-number floats for lanes).
template <class S, class C>
[[gnu::always_inline]] inline S mean_of(S sum, C count) {
  if constexpr (is_lanes<S>) {
    return sum / count;
  } else {
    return div_count(sum, count);
  }
}

// Lane forms of the box-then-disc tests, for S = v8f / v16f. GCC 12 types a vector
// comparison in a template by the default target's rules, where a 16-lane float compare
// yields a vector of 32-bit booleans, not an AVX-512 mask register, and compiles any &, | or
// ~ of such masks one lane at a time. So the lane forms below use each comparison only to
// select (vblendm on AVX-512, vblendv on AVX2) and fold the tests into the values compared.

// max(|dx|, |dy|) where dx^2 + dy^2 < range2, else +inf: below a range exactly where both
// |dx|, |dy| are below it and d^2 < range2 (positions are finite).
template <class S, class T>
[[gnu::always_inline]] inline S box_and_disc(S dx, S dy, T range2) {
  const S ax = abs_of(dx), ay = abs_of(dy);
  const S box = ax > ay ? ax : ay;
  const S inf = S{} + std::numeric_limits<T>::infinity();
  return dx * dx + dy * dy < range2 ? box : inf;
}

// dx^2 + dy^2 where |dx|, |dy| < range, else +inf.
template <class S, class T>
[[gnu::always_inline]] inline S box_or_inf(S dx, S dy, T range) {
  const S ax = abs_of(dx), ay = abs_of(dy);
  const S box = ax > ay ? ax : ay;
  const S inf = S{} + std::numeric_limits<T>::infinity();
  return box < range ? dx * dx + dy * dy : inf;
}

// Whether any lane of v is not +0.0 (its bits; v holds +0.0 or positive or NaN lanes).
template <class S>
[[gnu::always_inline]] inline bool any_nonzero(const S& v) {
  std::uint64_t words[sizeof(S) / 8];
  std::memcpy(words, &v, sizeof v);
  std::uint64_t any = 0;
  for (std::uint64_t w : words) any |= w;
  return any != 0;
}

// ---------------------------------------------------------------- the Cornell update
// Everything a boid does once its neighbour sums are known, written once for every engine:
// the float engine's scalar paths (all pairs, in place, the grid step's scouts and perching
// boids), its vector kernels' update (8 lanes, 16 on AVX-512), and the board's general path
// (fixed point). Order: cohesion, alignment, separation, margins, predators, food, gravity
// (cornell_steer_lanes); then the scouts' bias, the speed limit, the move; then perching.

// What a boid sees besides its neighbours: this step's predators and food sources (any
// struct with members x and y of the scalar type).
template <class P, class F = P>
struct Surroundings {
  const P* predators = nullptr;
  std::uint32_t predator_count = 0;
  const F* food = nullptr;
  std::uint32_t food_count = 0;
};

// Margins: a boid inside a margin turns by `turn` per frame. Positions are not clamped.
template <class S, class T>
[[gnu::always_inline]] inline void cornell_edges(const S& x, const S& y, S& vx, S& vy, const CornellCoeffs<T>& c) {
  add_where(y < c.top_edge, vy, [&] { return c.turn; });
  sub_where(x > c.right_edge, vx, [&] { return c.turn; });
  add_where(x < c.left_edge, vx, [&] { return c.turn; });
  sub_where(y > c.bottom_edge, vy, [&] { return c.turn; });
}

// The forces on (vx, vy) = the boids' velocities at (X, Y), from their neighbour sums and
// their surroundings: the velocity before bias and limits.
template <class S, class C, class T, class P, class F>
[[gnu::always_inline]] inline void cornell_steer_lanes(S X, S Y, S& vx, S& vy, const CornellSums<S, C>& s,
                                                        const Surroundings<P, F>& w, const CornellCoeffs<T>& c) {
  const S VX = vx, VY = vy;
  const auto seen = s.neighbours > C{};
  if (c.cohesion) {
    add_where(seen, vx, [&] { return (mean_of(s.xpos, s.neighbours) - X) * c.centering; });
    add_where(seen, vy, [&] { return (mean_of(s.ypos, s.neighbours) - Y) * c.centering; });
  }
  if (c.alignment) {
    add_where(seen, vx, [&] { return (mean_of(s.xvel, s.neighbours) - VX) * c.matching; });
    add_where(seen, vy, [&] { return (mean_of(s.yvel, s.neighbours) - VY) * c.matching; });
  }
  if (c.separation) {
    vx = vx + s.close_dx * c.avoid;
    vy = vy + s.close_dy * c.avoid;
  }
  cornell_edges(X, Y, vx, vy, c);
  // Predators: the offsets from those within predatorRange summed; the boid turns by
  // predator_turn on each axis, away from that sum (none where it is 0).
  if (w.predator_count > 0) {
    S pdx{}, pdy{};
    for (std::uint32_t q = 0; q < w.predator_count; ++q) {
      const S dx = X - w.predators[q].x, dy = Y - w.predators[q].y;
      // Within predatorRange: the box first, as the neighbour test, so that a fixed-point
      // d^2 is only formed where it cannot overflow.
      if constexpr (is_lanes<S>) {
        const S reach = box_and_disc(dx, dy, c.predator_range2);
        pdx = reach < c.predator_range ? pdx + dx : pdx;
        pdy = reach < c.predator_range ? pdy + dy : pdy;
      } else {
        if (abs_of(dx) < c.predator_range && abs_of(dy) < c.predator_range && dx * dx + dy * dy < c.predator_range2)
          pdx += dx, pdy += dy;
      }
    }
    const S zero{};
    add_where(pdy > zero, vy, [&] { return c.predator_turn; });
    sub_where(pdy < zero, vy, [&] { return c.predator_turn; });
    add_where(pdx > zero, vx, [&] { return c.predator_turn; });
    sub_where(pdx < zero, vx, [&] { return c.predator_turn; });
  }
  // Food: food_factor of the offset to the nearest source within food_range (the first of
  // equally near ones).
  if (w.food_count > 0) {
    // best_d2 starts at food_range^2 and only ever drops below it for a source in range.
    S best_dx{}, best_dy{}, best_d2{};
    best_d2 = best_d2 + c.food_range2;
    for (std::uint32_t q = 0; q < w.food_count; ++q) {
      const S dx = w.food[q].x - X, dy = w.food[q].y - Y;
      if constexpr (is_lanes<S>) {
        const S d2 = box_or_inf(dx, dy, c.food_range);
        best_dx = d2 < best_d2 ? dx : best_dx, best_dy = d2 < best_d2 ? dy : best_dy;
        best_d2 = d2 < best_d2 ? d2 : best_d2;
      } else {
        if (!(abs_of(dx) < c.food_range && abs_of(dy) < c.food_range)) continue;
        const S d2 = sum_of_squares(dx, dy);
        if (d2 < best_d2) best_d2 = d2, best_dx = dx, best_dy = dy;
      }
    }
    add_where(best_d2 < c.food_range2, vx, [&] { return best_dx * c.food_factor; });
    add_where(best_d2 < c.food_range2, vy, [&] { return best_dy * c.food_factor; });
  }
  // Gravity pulls down (+y) every frame, before the speed limit: a diving boid reaches
  // maxspeed sooner, a climbing one slows toward minspeed.
  if (c.gravity != T(0)) vy = vy + c.gravity;
}

// One boid's steering (cornell_steer_lanes on a scalar): the velocity before bias and limits.
template <class S, class P, class F>
inline Boid<S> cornell_steer(const Boid<S>& self, const CornellSums<S>& s, const Surroundings<P, F>& w,
                             const CornellCoeffs<S>& c) {
  Boid<S> b = self;
  cornell_steer_lanes(self.x, self.y, b.vx, b.vy, s, w, c);
  return b;
}

// Scout groups (seed 000): group 1 prefers vx = +bias_pull, group 2 vx = -bias_pull (seed
// 000 pulls toward +-1 px/frame). With dynamic bias the
// scout's own biasval grows while it goes its way and shrinks otherwise (seed 000's order:
// the update first, then the bias).
template <class S>
inline void cornell_bias(S& vx, S& biasval, int group, const CornellCoeffs<S>& c) {
  if (group != 1 && group != 2) return;
  const bool going_my_way = group == 1 ? vx > S(0) : vx < S(0);
  if (c.dynamic_bias) {
    if (going_my_way) {
      const S up = biasval + c.bias_increment;
      biasval = up < c.maxbias ? up : c.maxbias;
    } else {
      const S down = biasval - c.bias_increment;
      biasval = down > c.bias_increment ? down : c.bias_increment;
    }
  }
  const S preferred = group == 1 ? c.bias_pull : S(0) - c.bias_pull;
  vx = (S(1) - biasval) * vx + biasval * preferred;
}

// ---------------------------------------------------------------- speed limit
// Clamps the speed into [minspeed, maxspeed] (maxspeed wins when they cross). A zero speed
// has no direction: it takes the direction of (fallback_vx, fallback_vy), else +x.
// speed2 is vx * vx + vy * vy (limit_speed_sq: for a caller that has it already).
template <class S>
inline void limit_speed_sq(S& vx, S& vy, S speed2, S minspeed, S maxspeed, S fallback_vx, S fallback_vy) {
  const S speed = sqrt(speed2);
  S target = speed;
  if (speed < minspeed) target = minspeed;
  if (target > maxspeed) target = maxspeed;
  if (!(target != speed)) return;
  if (speed > S(0)) {
    vx = vx / speed * target;
    vy = vy / speed * target;
    return;
  }
  const S fallback = sqrt(fallback_vx * fallback_vx + fallback_vy * fallback_vy);
  if (fallback > S(0)) {
    vx = fallback_vx / fallback * target;
    vy = fallback_vy / fallback * target;
  } else {
    vx = target;
    vy = S(0);
  }
}

template <class S>
inline void limit_speed(S& vx, S& vy, S minspeed, S maxspeed, S fallback_vx, S fallback_vy) {
  limit_speed_sq(vx, vy, vx * vx + vy * vy, minspeed, maxspeed, fallback_vx, fallback_vy);
}

// limit_speed on every lane: the same operations lane for lane; a lane whose speed is 0 and
// must change (rare) takes limit_speed's fallback direction, one lane at a time.
template <class S, class T>
[[gnu::always_inline]] inline void limit_speed_lanes(S& vx, S& vy, T minspeed, T maxspeed, S fallback_vx,
                                                     S fallback_vy) {
  const S sq = vx * vx + vy * vy;
  S speed;
  for (std::uint32_t l = 0; l < sizeof(S) / sizeof(T); ++l) speed[l] = std::sqrt(sq[l]);
  const S zero{};
  S target = speed < minspeed ? zero + minspeed : speed;
  target = target > maxspeed ? zero + maxspeed : target;
  // Where the speed must change and is above 0, v / speed * target; where it must change
  // from 0 (or a NaN), the one-boid rule below.
  const S moving_target = speed > zero ? target : speed;
  vx = moving_target != speed ? vx / speed * target : vx;
  vy = moving_target != speed ? vy / speed * target : vy;
  const S stopped = speed > zero ? zero : target;  // the target of a lane that must change from 0
  if (!any_nonzero(stopped)) return;
#pragma GCC unroll 1
  for (std::uint32_t l = 0; l < sizeof(S) / sizeof(T); ++l)
    if (stopped[l] != T(0) || stopped[l] != stopped[l]) {
      T lx = vx[l], ly = vy[l];
      limit_speed(lx, ly, minspeed, maxspeed, T(fallback_vx[l]), T(fallback_vy[l]));
      vx[l] = lx, vy[l] = ly;
    }
}

// ---------------------------------------------------------------- the Cornell update's lanes
// The update of the boids in lanes (X, Y, VX, VY) with neighbour sums `s`, none of them a
// scout or perching (those take cornell_update, one boid at a time): steering, the speed
// limit, the move. The new state goes to (x, y, vx, vy).
template <class S, class P, class F>
[[gnu::always_inline]] inline void cornell_update_lanes(S X, S Y, S VX, S VY, const CornellSums<S, S>& s,
                                                        const Surroundings<P, F>& w,
                                                        const CornellCoeffs<lane_scalar<S>>& c, S& x, S& y, S& vx,
                                                        S& vy) {
  vx = VX, vy = VY;
  cornell_steer_lanes(X, Y, vx, vy, s, w, c);
  limit_speed_lanes(vx, vy, c.minspeed, c.maxspeed, VX, VY);
  x = X + vx * c.dt;
  y = Y + vy * c.dt;
}

// ---------------------------------------------------------------- perching
// A boid flying down onto the ledge (perch_y, from perch_x0 to perch_x1: within perch_range
// above it, or crossing it) lands there at rest and rests perch_frames frames in all, seen by
// its neighbours; then it takes off straight up at minspeed and may not land again for
// perch_frames frames. `timer` is its state: > 0 frames of rest left, < 0 frames before it
// may land, 0 free. (The landing frame is the first frame of rest.)

// Before the rules: a resting boid stays or takes off. True when that is its whole update.
template <class S>
inline bool perch_rest(const Boid<S>& self, Boid<S>& b, std::int32_t& timer, const CornellCoeffs<S>& c) {
  if (timer <= 0) return false;
  b = self;
  b.vx = S(0), b.vy = S(0);
  if (--timer > 0) return true;
  b.vy = S(0) - c.minspeed;  // takes off
  b.y = self.y + b.vy * c.dt;
  timer = -c.perch_frames;
  return true;
}

// After the move: a boid free to land that comes down onto the ledge lands.
template <class S>
inline void perch_land(const Boid<S>& self, Boid<S>& b, std::int32_t& timer, const CornellCoeffs<S>& c) {
  if (timer < 0) {
    ++timer;
    return;
  }
  if (!(b.vy > S(0) && b.x >= c.perch_x0 && b.x <= c.perch_x1)) return;
  const bool near = b.y >= c.perch_top && b.y <= c.perch_y;
  const bool crossed = self.y <= c.perch_y && b.y > c.perch_y;
  if (!(near || crossed)) return;
  b.y = c.perch_y;
  b.vx = S(0), b.vy = S(0);
  timer = c.perch_frames;
}

// ---------------------------------------------------------------- the Cornell update of one boid
// What one boid carries besides its position and velocity: its scout group (1 or 2, see
// cornell_bias; 0: not a scout) with its stored biasval (read with dynamic bias, always
// written back; unused when group is 0) and the parameter's, and its perching timer (null:
// no perching).
template <class S>
struct BoidExtras {
  int group = 0;
  S* stored_bias = nullptr;
  S static_bias{};
  std::int32_t* perch = nullptr;
};

// The whole update of one boid. `limit(vx, vy)` clamps the speed: rules::limit_speed (the
// overload without it), or an engine's cheaper form with the same results (the board skips
// the square root of a speed already inside the bounds). A dt of 1 (the Cornell rules')
// moves without a multiply: v * 1 is exact in both scalar types, so the sum is the same, and
// the board saves a product.
template <class S, class P, class F, class Limit>
[[gnu::always_inline]] inline Boid<S> cornell_update(const Boid<S>& self, const CornellSums<S>& s,
                                                     const Surroundings<P, F>& w, const BoidExtras<S>& e,
                                                     const CornellCoeffs<S>& c, Limit&& limit) {
  Boid<S> b = self;
  if (e.perch != nullptr && perch_rest(self, b, *e.perch, c)) return b;
  cornell_steer_lanes(self.x, self.y, b.vx, b.vy, s, w, c);
  if (e.group != 0) {
    S bias = c.dynamic_bias ? *e.stored_bias : e.static_bias;
    cornell_bias(b.vx, bias, e.group, c);
    *e.stored_bias = bias;
  }
  limit(b.vx, b.vy);
  if (c.dt == S(1)) {
    b.x = self.x + b.vx;
    b.y = self.y + b.vy;
  } else {
    b.x = self.x + b.vx * c.dt;
    b.y = self.y + b.vy * c.dt;
  }
  if (e.perch != nullptr) perch_land(self, b, *e.perch, c);
  return b;
}

template <class S, class P, class F>
inline Boid<S> cornell_update(const Boid<S>& self, const CornellSums<S>& s, const Surroundings<P, F>& w,
                              const BoidExtras<S>& e, const CornellCoeffs<S>& c) {
  return cornell_update(self, s, w, e, c,
                        [&](S& vx, S& vy) { limit_speed(vx, vy, c.minspeed, c.maxspeed, self.vx, self.vy); });
}

// ---------------------------------------------------------------- hunting predators
// A predator in centroid or chase mode adds predator_steer of the offset to its aim (the
// centre of the boids it sees, or the boid it chases) to its velocity, before the margins
// and the speed limit it shares with random predators.
template <class S>
inline void predator_hunt(S x, S y, S& vx, S& vy, S aim_x, S aim_y, S steer) {
  vx += (aim_x - x) * steer;
  vy += (aim_y - y) * steer;
}

// ---------------------------------------------------------------- report rules (seed 002)
// v_sep sums displacement vectors from boids closer than D_sep; alignment and cohesion steer
// along the unit vector toward the mean velocity / position of the boids seen (all others
// when D_vis is infinite); boundPosition is an if/else-if wall correction; V_max limits speed.
template <class S>
inline void unit_or_zero(S& x, S& y) {
  const S n = sqrt(x * x + y * y);
  if (n > S(0)) {
    x = x / n;
    y = y / n;
  } else {
    x = S(0);
    y = S(0);
  }
}

// After the rule's own factors, the walls, time step and switches under CornellCoeffs' names,
// so that one fill_common (core/src/flock.cpp) fills all three coefficient structs.
template <class S>
struct ReportCoeffs {
  S s_sep, s_align, s_coh;
  S turn;
  S left_edge, right_edge, top_edge, bottom_edge;
  S v_max, dt;
  bool cohesion, alignment, separation;
  S gravity{};  // added to vy every frame, before the speed limit
};

// mean_* are the neighbour sums (over the boids seen, excluding self) divided by the divisor:
// the boids seen (report_divisor seen) or N - 1 (all, the report's pseudocode); `seen` is
// that divisor, and alignment and cohesion act only when it is above 0.
template <class S>
inline Boid<S> report_update(const Boid<S>& self, S sep_x, S sep_y, S mean_x, S mean_y, S mean_vx, S mean_vy,
                             int seen, const ReportCoeffs<S>& c) {
  Boid<S> b = self;
  if (c.separation) {
    b.vx += c.s_sep * sep_x;
    b.vy += c.s_sep * sep_y;
  }
  if (seen > 0) {
    if (c.alignment) {
      S ax = mean_vx - self.vx, ay = mean_vy - self.vy;
      unit_or_zero(ax, ay);
      b.vx += c.s_align * ax;
      b.vy += c.s_align * ay;
    }
    if (c.cohesion) {
      S cx = mean_x - self.x, cy = mean_y - self.y;
      unit_or_zero(cx, cy);
      b.vx += c.s_coh * cx;
      b.vy += c.s_coh * cy;
    }
  }
  if (self.x < c.left_edge) b.vx += c.turn;
  else if (self.x > c.right_edge) b.vx -= c.turn;
  if (self.y < c.top_edge) b.vy += c.turn;
  else if (self.y > c.bottom_edge) b.vy -= c.turn;
  if (c.gravity != S(0)) b.vy += c.gravity;
  limit_speed(b.vx, b.vy, S(0), c.v_max, self.vx, self.vy);
  b.x = self.x + c.dt * b.vx;
  b.y = self.y + c.dt * b.vy;
  return b;
}

// ---------------------------------------------------------------- blog rules (seed 003)
// The numpy variant: neighbours within visualRange *inclusive*, the boid itself included in
// its neighbours' means (as the blog's code does); separation from boids closer than
// protectedRange at nonzero distance, summed (the blog's fancy-index assignment kept only one
// neighbour, a numpy slip); alignment adds matchingfactor times the neighbours' mean velocity;
// the speed is then set to maxspeed, walls push back, and positions are rounded to whole px
// with the velocity taken as the rounded displacement.
template <class S>
struct BlogCoeffs {
  S centering, avoid, matching;
  S turn;
  S left_edge, right_edge, top_edge, bottom_edge;
  S maxspeed, dt;
  bool cohesion, alignment, separation;
  S gravity{};  // added to vy every frame, after the walls (the speed is not set back)
};

// mean_* over the neighbours including self (count >= 1).
template <class S>
inline Boid<S> blog_update(const Boid<S>& self, S sep_x, S sep_y, S mean_x, S mean_y, S mean_vx, S mean_vy,
                           const BlogCoeffs<S>& c) {
  S vx = self.vx, vy = self.vy;
  if (c.cohesion) {
    vx += (mean_x - self.x) * c.centering;
    vy += (mean_y - self.y) * c.centering;
  }
  if (c.separation) {
    vx += sep_x * c.avoid;
    vy += sep_y * c.avoid;
  }
  if (c.alignment) {
    vx += mean_vx * c.matching;
    vy += mean_vy * c.matching;
  }
  const S n = sqrt(vx * vx + vy * vy);
  if (n > S(0)) {
    vx = vx / n * c.maxspeed;
    vy = vy / n * c.maxspeed;
  }
  if (self.x > c.right_edge) vx -= c.turn;
  if (self.x < c.left_edge) vx += c.turn;
  if (self.y > c.bottom_edge) vy -= c.turn;
  if (self.y < c.top_edge) vy += c.turn;
  if (c.gravity != S(0)) vy += c.gravity;
  Boid<S> b;
  b.x = round_of(self.x + vx * c.dt);
  b.y = round_of(self.y + vy * c.dt);
  b.vx = b.x - self.x;
  b.vy = b.y - self.y;
  return b;
}

}  // namespace flockscope::rules
