// The per-boid rule arithmetic, written once as templates over the scalar type so that the
// float engine (core/) and the RP2040's fixed-point engine (firmware_pico/) compute the same
// rules. A scalar type S needs + - * /, comparisons, construction from int/double, division
// by int, and a sqrt(S) found by argument-dependent lookup (std::sqrt for float/double).
//
// Sections: Cornell rules (seeds 000/001/004) | speed limit | report rules (seed 002) |
//           blog rules (seed 003)
//
// Fixes of the seeds' slips (see ../shared/seeds/README.md): the speed clamp scales both
// components by the same limit; a zero speed takes the direction of the previous velocity
// (or +x) instead of dividing by zero; the report's separation sums displacement vectors.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

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

// ---------------------------------------------------------------- Cornell rules
template <class S>
struct CornellSums {
  S xpos{0}, ypos{0}, xvel{0}, yvel{0}, close_dx{0}, close_dy{0};
  int neighbours = 0;
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

template <class S>
struct PredatorSums {
  S dx{0}, dy{0};
  int count = 0;
};

template <class S>
inline void predator_accumulate(PredatorSums<S>& s, S dx, S dy, const CornellCoeffs<S>& c) {
  if (!(abs_of(dx) < c.predator_range && abs_of(dy) < c.predator_range)) return;
  if (dx * dx + dy * dy < c.predator_range2) {
    s.dx += dx;
    s.dy += dy;
    ++s.count;
  }
}

// Margins: a boid inside a margin turns by `turn` per frame. Positions are not clamped.
template <class S>
inline void cornell_edges(const S& x, const S& y, S& vx, S& vy, const CornellCoeffs<S>& c) {
  if (y < c.top_edge) vy += c.turn;
  if (x > c.right_edge) vx -= c.turn;
  if (x < c.left_edge) vx += c.turn;
  if (y > c.bottom_edge) vy -= c.turn;
}

// Cohesion + alignment, separation, edges, predators: the velocity before bias and limits.
template <class S>
inline Boid<S> cornell_steer(const Boid<S>& self, const CornellSums<S>& s, const PredatorSums<S>& p,
                             const CornellCoeffs<S>& c) {
  Boid<S> b = self;
  if (s.neighbours > 0) {
    if (c.cohesion) {
      b.vx += (div_count(s.xpos, s.neighbours) - self.x) * c.centering;
      b.vy += (div_count(s.ypos, s.neighbours) - self.y) * c.centering;
    }
    if (c.alignment) {
      b.vx += (div_count(s.xvel, s.neighbours) - self.vx) * c.matching;
      b.vy += (div_count(s.yvel, s.neighbours) - self.vy) * c.matching;
    }
  }
  if (c.separation) {
    b.vx += s.close_dx * c.avoid;
    b.vy += s.close_dy * c.avoid;
  }
  cornell_edges(self.x, self.y, b.vx, b.vy, c);
  if (p.count > 0) {
    if (p.dy > S(0)) b.vy += c.predator_turn;
    if (p.dy < S(0)) b.vy -= c.predator_turn;
    if (p.dx > S(0)) b.vx += c.predator_turn;
    if (p.dx < S(0)) b.vx -= c.predator_turn;
  }
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

// ---------------------------------------------------------------- the Cornell update's tail
// What follows cornell_steer for every boid, in every engine (the float engine's kernels and
// the board's fixed point): a scout's bias (group 1 or 2, see cornell_bias; 0: not a scout),
// the speed limit, the move by dt. `stored_bias` is the scout's own biasval (read with dynamic
// bias, always written back; unused when group is 0), `static_bias` the parameter's.
// `limit(b.vx, b.vy)` clamps the speed: rules::limit_speed (the overload without it), or an
// engine's cheaper form with the same results (the board skips the square root of a speed
// already inside the bounds). A dt of 1 (the Cornell rules') moves without a multiply:
// v * 1 is exact in both scalar types, so the sum is the same, and the board saves a product.
template <class S, class Limit>
inline void cornell_finish(const Boid<S>& self, Boid<S>& b, int group, S* stored_bias, S static_bias,
                           const CornellCoeffs<S>& c, Limit&& limit) {
  if (group != 0) {
    S bias = c.dynamic_bias ? *stored_bias : static_bias;
    cornell_bias(b.vx, bias, group, c);
    *stored_bias = bias;
  }
  limit(b.vx, b.vy);
  if (c.dt == S(1)) {
    b.x = self.x + b.vx;
    b.y = self.y + b.vy;
  } else {
    b.x = self.x + b.vx * c.dt;
    b.y = self.y + b.vy * c.dt;
  }
}

template <class S>
inline void cornell_finish(const Boid<S>& self, Boid<S>& b, int group, S* stored_bias, S static_bias,
                           const CornellCoeffs<S>& c) {
  cornell_finish(self, b, group, stored_bias, static_bias, c,
                 [&](S& vx, S& vy) { limit_speed(vx, vy, c.minspeed, c.maxspeed, self.vx, self.vy); });
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
  Boid<S> b;
  b.x = round_of(self.x + vx * c.dt);
  b.y = round_of(self.y + vy * c.dt);
  b.vx = b.x - self.x;
  b.vy = b.y - self.y;
  return b;
}

}  // namespace flockscope::rules
