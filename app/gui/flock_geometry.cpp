#include "flock_geometry.hpp"

#include <bit>
#include <cmath>

#include "flockscope/core/simd.hpp"  // FLOCKSCOPE_CLONES

namespace flockscope::gui {

namespace {
// 1/sqrt(x) to 0.2 %: the bit-pattern estimate and one Newton step. Plenty for a triangle a
// few pixels long, and unlike sqrt and a division it costs a few cheap vector instructions.
inline float approx_rsqrt(float x) {
  const float y = std::bit_cast<float>(0x5f375a86u - (std::bit_cast<std::uint32_t>(x) >> 1));
  return y * (1.5f - 0.5f * x * y * y);
}

// Boids [i0, i1). Branch-free so GCC vectorises it (AVX2 picked at run time where the CPU
// has it).
FLOCKSCOPE_CLONES("avx2", "default") void triangles_range(const PointsView& b, const ViewTransform& t,
                                                                      float size_px, float* __restrict out,
                                                                      std::size_t i0, std::size_t i1) {
  const float* __restrict px = b.x;
  const float* __restrict py = b.y;
  const float* __restrict pvx = b.vx;
  const float* __restrict pvy = b.vy;
  const float s = t.scale, ox = t.ox, oy = t.oy;
  const float len = size_px, back = 0.45f * size_px, half = 0.38f * size_px;
  for (std::size_t i = i0; i < i1; ++i) {
    const float vx = pvx[i], vy = pvy[i];
    const float l2 = vx * vx + vy * vy;
    const bool moving = l2 > 1e-20f;
    const float inv = approx_rsqrt(moving ? l2 : 1.0f);
    const float hx = moving ? vx * inv : 1.0f, hy = moving ? vy * inv : 0.0f;
    const float cx = ox + px[i] * s, cy = oy + py[i] * s;
    float* o = out + 6 * i;
    o[0] = cx + hx * len * 0.55f;  // tip
    o[1] = cy + hy * len * 0.55f;
    o[2] = cx - hx * back - hy * half;  // left of the tail
    o[3] = cy - hy * back + hx * half;
    o[4] = cx - hx * back + hy * half;  // right of the tail
    o[5] = cy - hy * back - hx * half;
  }
}
}  // namespace

// The budget is 5 ns a boid including the memory traffic (40 bytes a boid). One thread: on
// two shared cores, splitting it over OpenMP threads is slower (the simulation's threads and
// other programs hold the cores).
void build_boid_triangles(const PointsView& b, const ViewTransform& t, float size_px, std::vector<float>& xy) {
  xy.resize(6 * b.n);
  triangles_range(b, t, size_px, xy.data(), 0, b.n);
}

void build_boid_colours(const std::uint32_t* ids, std::size_t n, std::int64_t scouts1, std::int64_t scouts2,
                        const BoidPalette& pal, std::vector<Rgba>& colours) {
  if (scouts1 <= 0 && scouts2 <= 0) {
    if (colours.size() != 3 * n || (n > 0 && (colours[0].r != pal.plain.r || colours[0].g != pal.plain.g))) colours.assign(3 * n, pal.plain);
    return;
  }
  colours.resize(3 * n);
  const auto s1 = std::uint64_t(scouts1), s2 = s1 + std::uint64_t(scouts2);
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint64_t id = ids ? ids[k] : k;
    const Rgba c = id < s1 ? pal.scout_right : id < s2 ? pal.scout_left : pal.plain;
    colours[3 * k] = colours[3 * k + 1] = colours[3 * k + 2] = c;
  }
}

void build_group_colours(const std::uint8_t* groups, std::size_t n, const BoidPalette& pal, std::vector<Rgba>& colours) {
  colours.resize(3 * n);
  for (std::size_t k = 0; k < n; ++k) {
    const Rgba c = groups[k] == 1 ? pal.scout_right : groups[k] == 2 ? pal.scout_left : pal.plain;
    colours[3 * k] = colours[3 * k + 1] = colours[3 * k + 2] = c;
  }
}

}  // namespace flockscope::gui
