#include "flock_density.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>

namespace flockscope::gui {

namespace {

std::uint32_t argb(Rgba c) { return 0xff000000u | std::uint32_t(c.r) << 16 | std::uint32_t(c.g) << 8 | c.b; }

// Piecewise-linear colour ramp through `stops` (positions ascending from 0 to 1).
struct Stop {
  float at;
  Rgba c;
};
template <std::size_t N>
Rgba ramp(const std::array<Stop, N>& stops, float f) {
  f = std::clamp(f, 0.0f, 1.0f);
  std::size_t k = 1;
  while (k + 1 < N && stops[k].at < f) ++k;
  const Stop& a = stops[k - 1];
  const Stop& b = stops[k];
  const float u = b.at > a.at ? (f - a.at) / (b.at - a.at) : 1.0f;
  auto mix = [u](std::uint8_t x, std::uint8_t y) { return std::uint8_t(std::lround(float(x) + (float(y) - float(x)) * u)); };
  return {mix(a.c.r, b.c.r), mix(a.c.g, b.c.g), mix(a.c.b, b.c.b), 255};
}

// Brightness of a coloured pixel by its count: a lone boid stays visible, the densest pixel
// is at full strength.
float value_of(float shade) { return 0.3f + 0.7f * std::clamp(shade, 0.0f, 1.0f); }

Rgba scaled(Rgba c, float v) {
  return {std::uint8_t(float(c.r) * v + 0.5f), std::uint8_t(float(c.g) * v + 0.5f), std::uint8_t(float(c.b) * v + 0.5f), 255};
}

// The mean heading's colour, by its x and y in [-1, 1] quantised to kHeadingCells cells: a
// table look-up where atan2 a pixel would cost more than the counting.
constexpr int kHeadingCells = 64;
// Counts whose shade is looked up rather than computed (log a pixel would cost more than the
// counting); the few pixels above it take the logarithm.
constexpr std::uint32_t kShadeTable = 4096;

}  // namespace

double DensitySwitch::weight(double crowding) const {
  if (crowding >= full_at) return 1;
  if (crowding <= fade_from) return 0;
  return (crowding - fade_from) / (full_at - fade_from);
}

Rgba count_colour(float shade) {
  static constexpr std::array<Stop, 5> kStops{{{0.0f, {25, 40, 90, 255}},
                                               {0.35f, {50, 100, 190, 255}},
                                               {0.7f, {150, 195, 245, 255}},
                                               {0.85f, {200, 225, 255, 255}},  // the boids' own light blue
                                               {1.0f, {255, 255, 255, 255}}}};
  return ramp(kStops, shade);
}

Rgba heading_colour(float angle, float polarisation, float shade) {
  // HSV with the hue the direction of travel, the saturation how much the headings agree.
  float h = angle / (2 * std::numbers::pi_v<float>);
  h = (h - std::floor(h)) * 6;
  const float s = std::clamp(polarisation, 0.0f, 1.0f), v = value_of(shade) * 255;
  const int sector = std::min(5, int(h));
  const float f = h - float(sector);
  const float p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  float r = v, g = t, b = p;
  switch (sector) {
    case 0: r = v, g = t, b = p; break;
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = t; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = t, g = p, b = v; break;
    default: r = v, g = p, b = q; break;
  }
  return {std::uint8_t(r + 0.5f), std::uint8_t(g + 0.5f), std::uint8_t(b + 0.5f), 255};
}

Rgba speed_colour(float fraction, float shade) {
  static constexpr std::array<Stop, 5> kStops{{{0.0f, {68, 1, 84, 255}},
                                               {0.25f, {59, 82, 139, 255}},
                                               {0.5f, {33, 145, 140, 255}},
                                               {0.75f, {94, 201, 98, 255}},
                                               {1.0f, {253, 231, 37, 255}}}};
  return scaled(ramp(kStops, fraction), value_of(shade));
}

float DensityImage::shade(std::uint32_t count) const {
  return count == 0 ? 0.0f : std::log1p(float(count)) / log_max_;
}

void DensityImage::accumulate(const PointsView& b, const ViewTransform& t, const PixelRect& r, DensityColour colour,
                              int threads, bool fit_to_boids) {
  rect_ = {r.x0, r.y0, std::max(0, r.w), std::max(0, r.h)};
  colour_ = colour;
  threads_ = std::max(1, threads);
  const bool sums = colour != DensityColour::Count;
  // A boid's pixel is that of its screen position, ox + x * scale as the triangles place it,
  // less the rectangle's corner: an exact subtraction for any point on the rectangle.
  const float s = t.scale, ox = t.ox, oy = t.oy;
  int w = 0, h = 0;
  std::size_t P = 0;
  float x0 = 0, y0 = 0, fw = 0, fh = 0;
  // The rectangle's size and what it needs (set again once fitted to the boids).
  auto size_for = [&] {
    w = rect_.w, h = rect_.h, P = std::size_t(w) * std::size_t(h);
    x0 = float(rect_.x0), y0 = float(rect_.y0), fw = float(w), fh = float(h);
    if (counts_.size() < P * std::size_t(threads_)) counts_.resize(P * std::size_t(threads_));
    if (sums && sums_.size() < 2 * P * std::size_t(threads_)) sums_.resize(2 * P * std::size_t(threads_));
  };
  if (!fit_to_boids) size_for();
  float bx0 = std::numeric_limits<float>::infinity(), by0 = bx0, bx1 = -bx0, by1 = -bx0;
  std::uint32_t mx = 0;
  std::size_t total = 0, lit = 0;
  // Chunks of boids handed out as threads come free, so a thread that the machine's other
  // work holds back costs a chunk, not half the pass. A thread clears its array when it
  // takes its first chunk; only arrays so used are summed.
  constexpr std::size_t kChunk = 16384;
  const std::size_t chunks = (b.n + kChunk - 1) / kChunk;
  touched_.assign(std::size_t(threads_), 0);
#pragma omp parallel num_threads(threads_)
  {
    if (fit_to_boids) {
      // The boids' bounding box on screen (not finite positions drop out of the compares).
#pragma omp for schedule(static) reduction(min : bx0, by0) reduction(max : bx1, by1)
      for (std::size_t i = 0; i < b.n; ++i) {
        const float fx = ox + b.x[i] * s, fy = oy + b.y[i] * s;
        bx0 = fx < bx0 ? fx : bx0, bx1 = fx > bx1 ? fx : bx1;
        by0 = fy < by0 ? fy : by0, by1 = fy > by1 ? fy : by1;
      }
#pragma omp single
      {
        auto within = [](float v, int lo, int hi) { return int(std::clamp(v, float(lo), float(hi))); };
        if (bx0 <= bx1 && by0 <= by1) {
          const int px0 = within(std::floor(bx0), rect_.x0, rect_.x0 + rect_.w);
          const int px1 = within(std::floor(bx1) + 1, rect_.x0, rect_.x0 + rect_.w);
          const int py0 = within(std::floor(by0), rect_.y0, rect_.y0 + rect_.h);
          const int py1 = within(std::floor(by1) + 1, rect_.y0, rect_.y0 + rect_.h);
          rect_ = {px0, py0, px1 - px0, py1 - py0};
        } else {
          rect_.w = rect_.h = 0;  // no boid with a finite position
        }
        size_for();
      }
    }
    const int th = omp_get_thread_num();
    std::uint32_t* c = nullptr;
    float* sm = nullptr;
#pragma omp for schedule(dynamic, 1)
    for (std::size_t k = 0; k < chunks; ++k) {
      if (!c) {
        c = counts_.data() + std::size_t(th) * P;
        std::fill_n(c, P, 0u);
        if (sums) sm = sums_.data() + 2 * std::size_t(th) * P, std::fill_n(sm, 2 * P, 0.0f);
        touched_[std::size_t(th)] = 1;
      }
      for (std::size_t i = k * kChunk; i < std::min(b.n, (k + 1) * kChunk); ++i) {
        const float fx = (ox + b.x[i] * s) - x0, fy = (oy + b.y[i] * s) - y0;
        if (!(fx >= 0 && fx < fw && fy >= 0 && fy < fh)) continue;  // NaN fails too
        const std::size_t p = std::size_t(int(fy)) * std::size_t(w) + std::size_t(int(fx));
        ++c[p];
        if (!sm) continue;
        const float vx = b.vx[i], vy = b.vy[i], l = std::sqrt(vx * vx + vy * vy);
        if (colour == DensityColour::Speed)
          sm[2 * p] += l;
        else if (l > 0)
          sm[2 * p] += vx / l, sm[2 * p + 1] += vy / l;
      }
    }
    // Then the arrays are summed into the first, a band of four rows at a time (the lit 4x4
    // blocks are counted on the way).
    std::vector<unsigned char> lit_row(std::size_t(w + 3) / 4);
#pragma omp for schedule(dynamic, 4) reduction(max : mx) reduction(+ : total, lit)
    for (int band = 0; band < (h + 3) / 4; ++band) {
      std::fill(lit_row.begin(), lit_row.end(), 0);
      for (int y = 4 * band; y < std::min(h, 4 * band + 4); ++y) {
        std::uint32_t* dst = counts_.data() + std::size_t(y) * std::size_t(w);
        float* sd = sums ? sums_.data() + 2 * std::size_t(y) * std::size_t(w) : nullptr;
        if (!touched_[0]) {
          std::fill_n(dst, w, 0u);
          if (sd) std::fill_n(sd, 2 * w, 0.0f);
        }
        for (int k = 1; k < threads_; ++k) {
          if (!touched_[std::size_t(k)]) continue;
          const std::uint32_t* src = dst + std::size_t(k) * P;
          for (int x = 0; x < w; ++x) dst[x] += src[x];
          if (!sd) continue;
          const float* ss = sd + 2 * std::size_t(k) * P;
          for (int x = 0; x < 2 * w; ++x) sd[x] += ss[x];
        }
        for (int x = 0; x < w; ++x) {
          mx = std::max(mx, dst[x]);
          total += dst[x];
          lit_row[std::size_t(x) / 4] |= dst[x] != 0;
        }
      }
      for (unsigned char f : lit_row) lit += f;
    }
  }
  max_ = mx, on_screen_ = total, lit_blocks_ = lit;
  log_max_ = max_ > 0 ? std::log1p(float(max_)) : 1.0f;
}

void DensityImage::tone_map(void* pixels, int pitch, const DensityStyle& style, const PixelRect* frame) const {
  const PixelRect F = frame ? *frame : rect_;
  if (F.w <= 0 || F.h <= 0) return;
  const int w = rect_.w;
  // Tables: the count colour (or the shade) of each count up to kShadeTable, and the heading
  // or speed colours at full brightness.
  const std::uint32_t top = std::min(max_, kShadeTable - 1);
  std::vector<std::uint32_t> count_lut;
  std::vector<float> shade_lut(top + 1);
  for (std::uint32_t c = 0; c <= top; ++c) shade_lut[c] = shade(c);
  if (colour_ == DensityColour::Count) {
    count_lut.resize(top + 1);
    for (std::uint32_t c = 1; c <= top; ++c) count_lut[c] = argb(count_colour(shade_lut[c]));
  }
  std::vector<Rgba> hue_lut;
  if (colour_ == DensityColour::Heading) {
    hue_lut.resize(kHeadingCells * kHeadingCells);
    for (int j = 0; j < kHeadingCells; ++j)
      for (int i = 0; i < kHeadingCells; ++i) {
        const float hx = (float(i) + 0.5f) / kHeadingCells * 2 - 1, hy = (float(j) + 0.5f) / kHeadingCells * 2 - 1;
        hue_lut[std::size_t(j * kHeadingCells + i)] = heading_colour(std::atan2(hy, hx), std::hypot(hx, hy), 1.0f);
      }
  }
  std::array<Rgba, 256> speed_lut{};
  if (colour_ == DensityColour::Speed)
    for (int k = 0; k < 256; ++k) speed_lut[std::size_t(k)] = speed_colour(float(k) / 255, 1.0f);
  const float speed_span = style.speed_hi > style.speed_lo ? style.speed_hi - style.speed_lo : 1.0f;

  const std::uint32_t world = argb(style.world), canvas = argb(style.canvas);
  // The world's pixels: those whose centres lie inside it, as the view fills it.
  const int wx0 = std::clamp(int(std::ceil(style.world_x0 - float(F.x0) - 0.5f)), 0, F.w);
  const int wx1 = std::clamp(int(std::ceil(style.world_x1 - float(F.x0) - 0.5f)), wx0, F.w);
  const float wy0 = style.world_y0 - float(F.y0) - 0.5f, wy1 = style.world_y1 - float(F.y0) - 0.5f;
  const int cx0 = rect_.x0 - F.x0;  // the counted rectangle's first column in the frame
  for (int y = 0; y < F.h; ++y) {
    auto* row = reinterpret_cast<std::uint32_t*>(static_cast<unsigned char*>(pixels) + std::size_t(y) * std::size_t(pitch));
    // Empty pixels first (the whole row), then the counted ones over them.
    const bool row_in_world = float(y) >= wy0 && float(y) < wy1;
    std::fill(row, row + F.w, canvas);
    if (row_in_world) std::fill(row + wx0, row + wx1, world);
    const int cy = F.y0 + y - rect_.y0;
    if (cy < 0 || cy >= rect_.h || w <= 0) continue;
    std::uint32_t* out = row + cx0;
    const std::uint32_t* c = counts_.data() + std::size_t(cy) * std::size_t(w);
    const float* sm = colour_ == DensityColour::Count ? nullptr : sums_.data() + 2 * std::size_t(cy) * std::size_t(w);
    for (int x = 0; x < w; ++x) {
      const std::uint32_t n = c[x];
      if (n == 0) continue;
      if (colour_ == DensityColour::Count) {
        out[x] = n <= top ? count_lut[n] : argb(count_colour(shade(n)));
        continue;
      }
      const float v = value_of(n <= top ? shade_lut[n] : shade(n)), inv = 1.0f / float(n);
      Rgba col;
      if (colour_ == DensityColour::Heading) {
        const int i = std::clamp(int((sm[2 * x] * inv + 1) * 0.5f * kHeadingCells), 0, kHeadingCells - 1);
        const int j = std::clamp(int((sm[2 * x + 1] * inv + 1) * 0.5f * kHeadingCells), 0, kHeadingCells - 1);
        col = hue_lut[std::size_t(j * kHeadingCells + i)];
      } else {
        const float f = (sm[2 * x] * inv - style.speed_lo) / speed_span;
        col = speed_lut[std::size_t(std::clamp(int(f * 255 + 0.5f), 0, 255))];
      }
      out[x] = argb(scaled(col, v));
    }
  }
}

}  // namespace flockscope::gui
