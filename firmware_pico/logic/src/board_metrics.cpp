// BoardFlock::metrics: core's flock metrics in integer arithmetic (the Cortex-M0+ has no
// FPU): integer vector lengths from a table and one Newton step on the hardware divider.
#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/fixed.hpp"

#include <array>
#include <cmath>

namespace flockscope::board {

namespace {
// Integer vector lengths for the metrics (the Cortex-M0+ has no FPU: in soft float the two
// square roots and divisions of a boid cost ~4,500 cycles; these ~360, firmware_pico/README.md).

// floor(log2(v)) of a byte (the M0+ has no CLZ instruction either).
constexpr std::array<std::uint8_t, 256> make_log2_byte() {
  std::array<std::uint8_t, 256> t{};
  for (std::uint32_t v = 2; v < 256; ++v) t[v] = std::uint8_t(t[v / 2] + 1);
  return t;
}
constexpr std::array<std::uint8_t, 256> kLog2Byte = make_log2_byte();
inline std::uint32_t top_bit(std::uint32_t v) {  // v > 0
  std::uint32_t n = 0;
  if (v >> 16) v >>= 16, n = 16;
  if (v >> 8) v >>= 8, n += 8;
  return n + kLog2Byte[v];
}

// Square roots of x in [2^30, 2^32): the root of the middle of x's top-byte interval
// (within 0.4 %), then one Newton step r = (r0 + x / r0) / 2 on the hardware divider:
// within 1.5 units of sqrt(x) (sqrt(x) is in [2^15, 2^16): relative 5e-5).
constexpr std::array<std::uint16_t, 192> make_root_table() {
  std::array<std::uint16_t, 192> t{};
  for (std::uint64_t i = 64; i < 256; ++i) {
    std::uint64_t v = (2 * i + 1) << 23;  // (i + 0.5) * 2^24
    t[i - 64] = std::uint16_t(digit_sqrt<std::uint64_t>(v, std::uint64_t(1) << 62));
  }
  return t;
}
constexpr std::array<std::uint16_t, 192> kRoot0 = make_root_table();
inline std::uint32_t sqrt_top(std::uint32_t x) {
  const std::uint32_t r0 = kRoot0[(x >> 24) - 64];
  return (r0 + divmod_u32(x, r0).q + 1) >> 1;
}

// The length of (a, b), magnitudes below 2^32: the pair is scaled by 2^-s so that the
// larger one has its top bit at 14 (a, b below 2^15 + 1, rounded: the squares add up within
// 32 bits), the sum of squares x by 4 more when below 2^30; then len = sqrt_top(x) *
// 2^(s - e) (e = 1 if x was scaled). The scaled pair and its root, for the unit vector.
struct Length {
  std::uint32_t a, b;  // the scaled components
  std::uint32_t root;  // sqrt_top of their squared length (times 2 if e = 1)
  std::int32_t shift;  // length = root * 2^shift
  std::uint32_t e;
};
inline Length length_of(std::uint32_t a, std::uint32_t b) {
  const std::int32_t s = std::int32_t(top_bit(a | b)) - 14;
  if (s > 0) {
    a = ((a >> (s - 1)) + 1) >> 1;  // rounded (without the overflow of a + half)
    b = ((b >> (s - 1)) + 1) >> 1;
  } else {
    a <<= -s, b <<= -s;
  }
  std::uint32_t x = a * a + b * b;  // [2^28, 2^31]
  std::uint32_t e = 0;
  if (x < (1u << 30)) x <<= 2, e = 1;
  const std::uint32_t r = sqrt_top(x);
  return {a, b, r, s - std::int32_t(e), e};
}
// root * 2^shift in units of 2^-14 (lengths from Q16.16 inputs; below 2^31): exact for
// lengths from 1 px up (shift >= 2); shorter ones rounded.
inline std::uint32_t q14(const Length& l) {
  const std::int32_t sh = l.shift - 2;
  return sh >= 0 ? l.root << sh : (l.root + (1u << (-sh - 1))) >> -sh;
}
inline std::uint32_t magnitude(std::int32_t v) { return v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v); }
}  // namespace

FlockMetrics BoardFlock::metrics(std::uint32_t sample) const {
  FlockMetrics m{};
  if (n_ == 0) {
    const float nan = std::nanf("");
    return {nan, nan, nan, nan, nan, 0};
  }
  const std::int32_t *xs = &buf_.x[0].raw, *ys = &buf_.y[0].raw;
  const std::int32_t *vxs = &buf_.vx[0].raw, *vys = &buf_.vy[0].raw;
  std::int64_t sx = 0, sy = 0;
  for (std::uint32_t k = 0; k < n_; ++k) sx += xs[k], sy += ys[k];
  m.centroid_x = float(double(sx) / n_ / 65536.0);
  m.centroid_y = float(double(sy) / n_ / 65536.0);
  // The centroid to the nearest 2^-16 px, for the distances.
  auto mean_raw = [n = std::int64_t(n_)](std::int64_t s) {
    return std::int32_t(s >= 0 ? (s + n / 2) / n : -((-s + n / 2) / n));
  };
  const std::int32_t cx = mean_raw(sx), cy = mean_raw(sy);
  const std::uint32_t stride = sample == 0 || n_ <= sample ? 1 : (n_ + sample - 1) / sample;
  std::uint64_t dsum = 0, ssum = 0;  // units of 2^-14 px, px/frame
  std::int64_t hx = 0, hy = 0;       // unit headings, units of 2^-16
  std::uint32_t count = 0, moving = 0;
  for (std::uint32_t k = 0; k < n_; k += stride, ++count) {
    const std::int32_t x = xs[k], y = ys[k];
    const std::uint32_t dx = x >= cx ? std::uint32_t(x) - std::uint32_t(cx) : std::uint32_t(cx) - std::uint32_t(x);
    const std::uint32_t dy = y >= cy ? std::uint32_t(y) - std::uint32_t(cy) : std::uint32_t(cy) - std::uint32_t(y);
    if ((dx | dy) != 0) dsum += q14(length_of(dx, dy));
    const std::int32_t vx = vxs[k], vy = vys[k];
    const std::uint32_t ax = magnitude(vx), ay = magnitude(vy);
    if ((ax | ay) == 0) continue;
    const Length l = length_of(ax, ay);
    ssum += q14(l);
    ++moving;
    // The unit heading in units of 2^-16: (a, b) * 2^e / root, through one reciprocal
    // (2^31 - 1) / root (root in [2^15, 2^16]; (a << e) < 2^16 unless a = 2^15 and e = 0).
    const std::uint32_t inv = divmod_u32(0x7FFFFFFFu, l.root).q;
    const std::uint32_t ux = ((l.a << l.e) * inv) >> 15, uy = ((l.b << l.e) * inv) >> 15;
    hx += vx < 0 ? -std::int32_t(ux) : std::int32_t(ux);
    hy += vy < 0 ? -std::int32_t(uy) : std::int32_t(uy);
  }
  m.diameter = float(double(dsum) / 16384.0 / count);
  m.mean_speed = float(double(ssum) / 16384.0 / count);
  m.polarisation = moving ? float(std::sqrt(double(hx) * double(hx) + double(hy) * double(hy)) / 65536.0 / moving) : 0.0f;
  m.boids = count;
  return m;
}

}  // namespace flockscope::board
