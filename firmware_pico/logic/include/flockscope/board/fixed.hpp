// The board's fixed-point scalar: the one header that defines it and its operations.
//
//   fix    Q16.16 in an int32 (range +-32768, step 2^-16 = 1.5e-5): boid state, parameters
//          and every rule in core's rules.hpp. Products and quotients are those of 64-bit
//          arithmetic, saturated, so a wild value clips instead of wrapping into nonsense
//          (products of small factors or by a weight in [0, 1), quotients by divisors below
//          256 and square roots of small values take exact 32-bit paths: the Cortex-M0+ has
//          no 64-bit multiply or divide).
//   near9  a Q23.9 (1/512 px) offset with exact 64-bit squares: the scalar of the neighbour
//          test rules::cornell_classify in the general scan (board_update.cpp). round_q9
//          makes the scan's Q23.9 snapshot.
//
// fix satisfies what rules.hpp asks of a scalar S: + - * /, comparisons, construction from
// int (and, explicitly, from double), and ADL-found sqrt, abs_of, div_count, round_of
// (and sum_of_squares, saturated: the food test's distance).
// Additions wrap (done in uint32: no undefined behaviour); nothing here allocates, throws
// or calls the OS, so it builds for the RP2040 and the host alike (div_s32 and divmod_u32,
// the 32-bit divisions, use the RP2040's hardware divider there and C's operators here and
// on the RP2350, whose Cortex-M33 divides in one instruction and has no SIO divider).
#pragma once

#include <cstdint>
#include <type_traits>

#if PICO_RP2040
#include "hardware/divider.h"
#endif

namespace flockscope::board {

// 32-bit divisions as C's / and % give them (quotient truncated toward zero; b != 0). On
// the RP2040 inline through the core's SIO hardware divider: the SDK's __aeabi_idiv and
// __aeabi_uidivmod reach the same divider through a call and a check of its state, about
// 25 cycles against 14. Interrupt-safe as the SDK's own inline divisions are: a handler's
// division goes through those wrappers, which save and restore a divider in use.
constexpr std::int32_t div_s32(std::int32_t a, std::int32_t b) {
#if PICO_RP2040
  if (!std::is_constant_evaluated()) return hw_divider_s32_quotient_inlined(a, b);
#endif
  return a / b;
}
struct DivModU32 {
  std::uint32_t q, r;
};
constexpr DivModU32 divmod_u32(std::uint32_t a, std::uint32_t b) {
#if PICO_RP2040
  if (!std::is_constant_evaluated()) {
    hw_divider_divmod_u32_start(a, b);
    hw_divider_pause();
    const std::uint32_t r = sio_hw->div_remainder;
    return {sio_hw->div_quotient, r};  // the quotient read last: it marks the divider free
  }
#endif
  return {a / b, a % b};
}

// floor(sqrt(v)) digit by digit (`bit`: a power of 4 at least as large as v's top bit
// pair); v is left holding the remainder v - root^2. In 32 bits on the board's fast path,
// in 64 bits for the general one.
template <class U>
constexpr U digit_sqrt(U& v, U bit) {
  U root = 0;
  while (bit > v) bit >>= 2;
  while (bit != 0) {
    if (v >= root + bit) {
      v -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  return root;
}

// floor(sqrt(y * 2^8)) for y in [64, 256) (values 128..255): the seeds of isqrt_newton.
struct SqrtSeeds {
  std::uint8_t v[192];
};
constexpr SqrtSeeds make_sqrt_seeds() {
  SqrtSeeds s{};
  for (std::uint32_t y = 64; y < 256; ++y) {
    std::uint32_t r = 0;
    while ((r + 1) * (r + 1) <= (y << 8)) ++r;
    s.v[y - 64] = std::uint8_t(r);
  }
  return s;
}
inline constexpr SqrtSeeds kSqrtSeeds = make_sqrt_seeds();

// floor(sqrt(x)) for x in [2^14, 2^30), x left holding x - root^2 as digit_sqrt leaves it,
// in one hardware division instead of digit_sqrt's 12 to 15 steps: with s even and x >> s
// in [64, 256), the seed g = floor(sqrt((x >> s) 2^8)) 2^(s/2 - 4) is at most sqrt(x) and
// within 1.6 % of it; one integer Newton step floor((g + floor(x / g)) / 2) is never below
// floor(sqrt(x)) (the mean of g and x / g is at least sqrt(x)) and overshoots by at most
// 1.3e-4 sqrt(x) < 5 (mostly 0), so stepping down while r^2 > x ends at floor(sqrt(x)).
// r stays below 2^16, so r^2 fits 32 bits.
constexpr std::uint32_t isqrt_newton(std::uint32_t& x) {
  std::uint32_t s = 8;
  while ((x >> s) >= 256) s += 2;
  const std::uint32_t g = std::uint32_t(kSqrtSeeds.v[(x >> s) - 64]) << (s / 2 - 4);
  std::uint32_t r = (g + divmod_u32(x, g).q) >> 1;
  while (r * r > x) --r;
  x -= r * r;
  return r;
}

template <int Frac>
struct basic_fixed {
  static constexpr int kFrac = Frac;
  static constexpr std::int32_t kOne = std::int32_t(1) << Frac;
  std::int32_t raw = 0;

  constexpr basic_fixed() = default;
  constexpr basic_fixed(int v) : raw(std::int32_t(std::uint32_t(v) << Frac)) {}  // NOLINT: rules.hpp writes S(0), S(1)
  // Rounds to nearest, saturates; NaN -> 0. Used when parameters are converted (rare).
  constexpr explicit basic_fixed(double v) : raw(from_double(v)) {}
  static constexpr basic_fixed from_raw(std::int32_t r) {
    basic_fixed f;
    f.raw = r;
    return f;
  }
  constexpr double to_double() const { return double(raw) / double(kOne); }
  constexpr float to_float() const { return float(raw) / float(kOne); }

  static constexpr std::int32_t saturate(std::int64_t v) {
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : std::int32_t(v);
  }
  static constexpr std::int32_t from_double(double v) {
    if (!(v == v)) return 0;
    const double s = v * double(kOne);
    if (s >= 2147483647.0) return INT32_MAX;
    if (s <= -2147483648.0) return INT32_MIN;
    return std::int32_t(s < 0 ? s - 0.5 : s + 0.5);
  }

  friend constexpr basic_fixed operator+(basic_fixed a, basic_fixed b) {
    return from_raw(std::int32_t(std::uint32_t(a.raw) + std::uint32_t(b.raw)));
  }
  friend constexpr basic_fixed operator-(basic_fixed a, basic_fixed b) {
    return from_raw(std::int32_t(std::uint32_t(a.raw) - std::uint32_t(b.raw)));
  }
  friend constexpr basic_fixed operator-(basic_fixed a) { return from_raw(std::int32_t(0u - std::uint32_t(a.raw))); }
  friend constexpr basic_fixed operator*(basic_fixed a, basic_fixed b) {
    if constexpr (Frac == 16) {
      // Exact 32-bit paths for the products the rules take (the Cortex-M0+ has no 64-bit
      // multiply: __aeabi_lmul plus a 64-bit saturation costs several times more), each
      // bit for bit floor(a * b / 2^16) as the 64-bit product gives it:
      const std::uint32_t al = std::uint32_t(a.raw) & 0xFFFFu;
      const std::int32_t ah = a.raw >> 16;
      if ((std::uint32_t(b.raw) >> 16) == 0) {
        // b in [0, 1) (every weight of the rules: centering, matching, avoid, a bias, a dt
        // below 1), any a: a * b = ah b 2^16 + al b with al b < 2^32, so the floor is
        // ah b + (al b >> 16); |ah b| <= 32768 * 65535 and the result lies between 0 and
        // a: no overflow, nothing to saturate. Two multiplies, no range test on a.
        const auto bl = std::uint32_t(b.raw);
        return from_raw(ah * std::int32_t(bl) + std::int32_t((al * bl) >> 16));
      }
      // Both below 128 in magnitude (offsets, velocities, speeds): with b = bh 2^16 + bl,
      // a * b = (a bh + ah bl) 2^16 + al bl, so the floor is a bh + ah bl + (al bl >> 16),
      // three 32-bit products (|a bh| < 2^30). The tests in a form whose value ranges the
      // compiler tracks (it drops them after the update's velocity clamps).
      if (std::uint32_t(a.raw) + (1u << 23) < (1u << 24) && std::uint32_t(b.raw) + (1u << 23) < (1u << 24)) {
        const std::int32_t bh = b.raw >> 16;
        const std::uint32_t bl = std::uint32_t(b.raw) & 0xFFFFu;
        return from_raw(a.raw * bh + ah * std::int32_t(bl) + std::int32_t((al * bl) >> 16));
      }
      return from_raw(saturate((std::int64_t(a.raw) * b.raw) >> Frac));
    } else {
      return from_raw(saturate((std::int64_t(a.raw) * b.raw) >> Frac));
    }
  }
  // a * a, bit for bit (the squared speed of the board's speed-limit test): below 128 in
  // magnitude the three-product formula of operator* with b = a, without its tests on b.
  friend constexpr basic_fixed square(basic_fixed a) {
    if constexpr (Frac == 16) {
      if (std::uint32_t(a.raw) + (1u << 23) < (1u << 24)) {  // a value range the compiler can track
        const std::int32_t ah = a.raw >> 16;
        const std::uint32_t al = std::uint32_t(a.raw) & 0xFFFFu;
        return from_raw(a.raw * ah + ah * std::int32_t(al) + std::int32_t((al * al) >> 16));
      }
    }
    return a * a;
  }
  friend constexpr basic_fixed operator/(basic_fixed a, basic_fixed b) {
    if (b.raw == 0) return from_raw(a.raw > 0 ? INT32_MAX : a.raw < 0 ? INT32_MIN : 0);
    if constexpr (Frac == 16) {
      if (b.raw > 0 && b.raw < (1 << 24)) {
        // A divisor below 256 (the speed limit divides by speeds, at most 100 * sqrt(2)):
        // Q = floor(|a| 2^16 / b) by long division in three 32-bit unsigned divisions
        // (the RP2040's hardware divider; the 64-bit division is a long software routine
        // on the M0+): |a| = q1 b + r1, then 2^8 r1 and 2^8 r2 stay below 2^32 as r < b <
        // 2^24, and Q = q1 2^16 + q2 2^8 + q3 exactly. The 64-bit quotient truncates toward
        // zero: -Q for a negative a; |Q| >= 2^31 (q1 >= 2^15) saturates.
        const std::uint32_t m = a.raw < 0 ? 0u - std::uint32_t(a.raw) : std::uint32_t(a.raw);
        const auto d = std::uint32_t(b.raw);
        std::uint32_t q1 = 0, r1 = m;
        if (m >= d) {  // mostly |a| < b: the speed limit divides a component by the speed
          const DivModU32 s1 = divmod_u32(m, d);
          q1 = s1.q, r1 = s1.r;
          if (q1 >= (1u << 15)) return from_raw(a.raw < 0 ? INT32_MIN : INT32_MAX);
        }
        const DivModU32 s2 = divmod_u32(r1 << 8, d);
        const std::uint32_t q = (q1 << 16) + (s2.q << 8) + divmod_u32(s2.r << 8, d).q;
        return from_raw(a.raw < 0 ? std::int32_t(0u - q) : std::int32_t(q));
      }
    }
    return from_raw(saturate((std::int64_t(a.raw) * kOne) / b.raw));
  }
  basic_fixed& operator+=(basic_fixed b) { return *this = *this + b; }
  basic_fixed& operator-=(basic_fixed b) { return *this = *this - b; }
  basic_fixed& operator*=(basic_fixed b) { return *this = *this * b; }
  basic_fixed& operator/=(basic_fixed b) { return *this = *this / b; }

  friend constexpr bool operator<(basic_fixed a, basic_fixed b) { return a.raw < b.raw; }
  friend constexpr bool operator>(basic_fixed a, basic_fixed b) { return a.raw > b.raw; }
  friend constexpr bool operator<=(basic_fixed a, basic_fixed b) { return a.raw <= b.raw; }
  friend constexpr bool operator>=(basic_fixed a, basic_fixed b) { return a.raw >= b.raw; }
  friend constexpr bool operator==(basic_fixed a, basic_fixed b) { return a.raw == b.raw; }
  friend constexpr bool operator!=(basic_fixed a, basic_fixed b) { return a.raw != b.raw; }

  // ---- the scalar helpers rules.hpp finds by argument-dependent lookup
  friend constexpr basic_fixed abs_of(basic_fixed a) { return a.raw < 0 ? -a : a; }
  // a^2 + b^2 saturated (the food test's distance: a source up to 181 px away on each axis).
  friend constexpr basic_fixed sum_of_squares(basic_fixed a, basic_fixed b) {
    return from_raw(saturate(std::int64_t((a * a).raw) + std::int64_t((b * b).raw)));
  }
  friend constexpr basic_fixed div_count(basic_fixed a, int n) { return n == 0 ? a : from_raw(a.raw / n); }
  friend constexpr basic_fixed round_of(basic_fixed a) {
    const std::int32_t half = kOne / 2;
    const std::int32_t r = a.raw >= 0 ? (a.raw + half) & ~(kOne - 1) : -((-a.raw + half) & ~(kOne - 1));
    return from_raw(r);
  }
  // Square root to the nearest step below (negative -> 0): digit-by-digit on raw * 2^Frac,
  // no division, no float (the emulator build has no fast float).
  friend constexpr basic_fixed sqrt(basic_fixed a) {
    if (a.raw <= 0) return basic_fixed{};
    if constexpr (Frac == 16) {
      if (a.raw < (1 << 30)) {
        // The same result in 32-bit steps (no 64-bit arithmetic on the M0+): r0 =
        // floor(sqrt(raw)) (from raw = 2^14 on by a Newton step, isqrt_newton, below digit
        // by digit), then the 8 low bits of floor(sqrt(raw * 2^16)),
        // which lies in [256 r0, 256 r0 + 255]: the largest t with
        // (256 r0 + t)^2 <= raw * 2^16, i.e. 512 r0 t + t^2 <= 2^16 (raw - r0^2). Below
        // raw = 2^30 every term fits 32 bits (r0 < 2^15, raw - r0^2 <= 2 r0 < 2^16).
        std::uint32_t x = std::uint32_t(a.raw);
        const bool large = a.raw >= (1 << 14);  // r0 >= 128
        const std::uint32_t r0 = large ? isqrt_newton(x) : digit_sqrt(x, std::uint32_t(1) << 12);
        const std::uint32_t rem = x << 16;  // x = raw - r0^2 now
        std::uint32_t t = 0;
        if (large) {
          // From r0 >= 128 on (speeds from 0.5 px): every such t has 512 r0 t <= rem, so
          // t <= rem / (512 r0) (one hardware division), and as the answer t' has
          // 512 r0 (t' + 1) + (t' + 1)^2 > rem with (t' + 1)^2 <= 512 r0, that bound is at
          // most t' + 1: step down while it overshoots (the largest t, as the bit-by-bit
          // search below finds it).
          t = divmod_u32(rem, 512u * r0).q;
          if (t > 255) t = 255;
          while (512u * r0 * t + t * t > rem) --t;
        } else {
          for (std::uint32_t b = 128; b != 0; b >>= 1) {
            const std::uint32_t u = t | b;
            if (512u * r0 * u + u * u <= rem) t = u;
          }
        }
        return from_raw(std::int32_t((r0 << 8) + t));
      }
    }
    std::uint64_t v = std::uint64_t(std::uint32_t(a.raw)) << Frac;
    return from_raw(std::int32_t(digit_sqrt(v, std::uint64_t(1) << 46)));
  }
};

using fix = basic_fixed<16>;

// The neighbour test's scalar: a Q23.9 offset (1/512 px; the neighbour snapshot's unit,
// see round_q9) whose products are kept whole in 64 bits, so that dx * dx + dy * dy is the
// exact squared distance in units of 2^-18 px^2 (no rounding at the range boundary).
// rules::cornell_classify runs on it with `range` in Q23.9 and `protected2`, `visual2` in
// 2^-18 px^2. Only what that template uses is defined.
struct near9 {
  std::int64_t raw = 0;
  static constexpr near9 from_raw(std::int64_t r) {
    near9 v;
    v.raw = r;
    return v;
  }
  friend constexpr near9 operator*(near9 a, near9 b) { return from_raw(a.raw * b.raw); }
  friend constexpr near9 operator+(near9 a, near9 b) { return from_raw(a.raw + b.raw); }
  friend constexpr bool operator<(near9 a, near9 b) { return a.raw < b.raw; }
  friend constexpr near9 abs_of(near9 a) { return from_raw(a.raw < 0 ? -a.raw : a.raw); }
};

// Q16.16 -> Q23.9 (the neighbour snapshot: 1/512 px, so that the offset of two rounded
// positions is within 1/512 px of the exact one), rounded to nearest.
constexpr std::int32_t round_q9(std::int32_t raw16) { return std::int32_t(std::uint32_t(raw16) + 64u) >> 7; }

// Wire quantisation (PROTOCOL.md section 10) straight from Q16.16: value * 2^shift rounded
// half away from zero, saturated to int16. Exact, and equal to protocol::quantise() of the
// same value as a float.
constexpr std::int16_t quantise_fix(fix a, int shift) {
  const int drop = 16 - shift;  // shift <= 15, so drop >= 1
  // In 32 bits: the magnitude is at most 2^31 and the rounding half at most 2^14.
  const std::uint32_t mag = a.raw < 0 ? 0u - std::uint32_t(a.raw) : std::uint32_t(a.raw);
  const std::uint32_t q = (mag + (1u << (drop - 1))) >> drop;
  if (a.raw < 0) return q >= 32768u ? std::int16_t(-32768) : std::int16_t(-std::int32_t(q));
  return q > 32767u ? std::int16_t(32767) : std::int16_t(q);
}

}  // namespace flockscope::board
