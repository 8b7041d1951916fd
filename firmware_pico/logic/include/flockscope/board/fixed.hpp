// The board's fixed-point scalar: the one header that defines it and its operations.
//
//   fix   Q16.16 in an int32 (range +-32768, step 2^-16 = 1.5e-5): boid state, parameters
//         and every rule in core's rules.hpp. Products and quotients go through 64 bits
//         and saturate, so a wild value clips instead of wrapping into nonsense.
//   fix8  Q24.8 in an int32, multiplied in 32 bits (one MULS on the Cortex-M0+): only for
//         the neighbour test, rules::cornell_classify, on offsets below 128 px. There the
//         box test runs first and a product of two such offsets stays below 2^31 (127.99 px
//         -> raw 32767; 2 * 32767^2 < 2^31); a product that wraps outside the box is never
//         used (rules.hpp says so). The board therefore limits the interaction ranges to
//         127 px (board_params.cpp).
//
// Both satisfy what rules.hpp asks of a scalar S: + - * /, comparisons, construction from
// int (and, explicitly, from double), and ADL-found sqrt, abs_of, div_count, round_of.
// Additions wrap (done in uint32: no undefined behaviour); nothing here allocates, throws
// or calls the OS, so it builds for the RP2040 and the host alike.
#pragma once

#include <cstdint>

namespace flockscope::board {

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
    if constexpr (Frac <= 8) {
      // 32-bit product (see the header comment for when it is exact).
      return from_raw(std::int32_t(std::uint32_t(a.raw) * std::uint32_t(b.raw)) >> Frac);
    } else {
      return from_raw(saturate((std::int64_t(a.raw) * b.raw) >> Frac));
    }
  }
  friend constexpr basic_fixed operator/(basic_fixed a, basic_fixed b) {
    if (b.raw == 0) return from_raw(a.raw > 0 ? INT32_MAX : a.raw < 0 ? INT32_MIN : 0);
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
    std::uint64_t v = std::uint64_t(std::uint32_t(a.raw)) << Frac;
    std::uint64_t res = 0;
    std::uint64_t bit = std::uint64_t(1) << 46;
    while (bit > v) bit >>= 2;
    while (bit != 0) {
      if (v >= res + bit) {
        v -= res + bit;
        res = (res >> 1) + bit;
      } else {
        res >>= 1;
      }
      bit >>= 2;
    }
    return from_raw(std::int32_t(res));
  }
};

using fix = basic_fixed<16>;
using fix8 = basic_fixed<8>;

// Q16.16 -> Q24.8, rounded to nearest (a truncating shift would bias every sum by half a
// step, which the alignment and separation sums then multiply by the neighbour count).
constexpr std::int32_t round_q8(std::int32_t raw16) { return std::int32_t(std::uint32_t(raw16) + 128u) >> 8; }
constexpr fix8 to_fix8(fix a) { return fix8::from_raw(round_q8(a.raw)); }
constexpr fix from_fix8(fix8 a) { return fix::from_raw(fix::saturate(std::int64_t(a.raw) * 256)); }

// Wire quantisation (PROTOCOL.md section 10) straight from Q16.16: value * 2^shift rounded
// half away from zero, saturated to int16. Exact, and equal to protocol::quantise() of the
// same value as a float.
constexpr std::int16_t quantise_fix(fix a, int shift) {
  const int drop = 16 - shift;  // shift <= 15, so drop >= 1
  const std::int64_t mag = a.raw < 0 ? -std::int64_t(a.raw) : std::int64_t(a.raw);
  std::int64_t q = (mag + (std::int64_t(1) << (drop - 1))) >> drop;
  if (a.raw < 0) q = -q;
  return std::int16_t(q > 32767 ? 32767 : q < -32768 ? -32768 : q);
}

}  // namespace flockscope::board
