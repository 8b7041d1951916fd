// The flock view's density image: counts per pixel against a direct count (boids placed on
// known pixels), on any number of threads; the tone map; the switch between triangles and
// density; and a gathered million-boid flock drawn headless, whose picture must show where
// its boids are.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "flock_density.hpp"
#include "flockscope/core/rng.hpp"
#include "gui_app.hpp"
#include "mouse_events.hpp"
#include "screen_pixels.hpp"

namespace fs = std::filesystem;
using namespace flockscope;
using namespace flockscope::gui;

namespace {

using Pixel = std::pair<int, int>;

// Boids as arrays, and the pixel each was put on.
struct Boids {
  std::vector<float> x, y, vx, vy;
  PointsView view() const { return {x.data(), y.data(), vx.data(), vy.data(), x.size()}; }
  void add(float wx, float wy, float hx, float hy) { x.push_back(wx), y.push_back(wy), vx.push_back(hx), vy.push_back(hy); }
};

// The world point that `t` puts at the centre of screen pixel (sx, sy).
std::pair<float, float> world_of(const ViewTransform& t, int sx, int sy) {
  return {(float(sx) + 0.5f - t.ox) / t.scale, (float(sy) + 0.5f - t.oy) / t.scale};
}

int luma(const std::uint8_t* px) { return (299 * px[0] + 587 * px[1] + 114 * px[2]) / 1000; }

// Each pixel's boids counted one by one from the state, as the view's transform places them.
std::map<Pixel, std::uint32_t> direct_count(const PointsView& b, const ViewTransform& t, const PixelRect& r) {
  std::map<Pixel, std::uint32_t> n;
  for (std::size_t i = 0; i < b.n; ++i) {
    const double sx = std::floor(double(t.ox + b.x[i] * t.scale)) - r.x0, sy = std::floor(double(t.oy + b.y[i] * t.scale)) - r.y0;
    if (sx >= 0 && sx < r.w && sy >= 0 && sy < r.h) ++n[{int(sx), int(sy)}];
  }
  return n;
}

}  // namespace

TEST(Density, CountsEqualADirectCountOfBoidsOnKnownPixels) {
  const ViewTransform t{2.5f, 13.25f, -7.0f};
  const PixelRect r{10, 20, 64, 48};
  // Known pixels (of the rectangle) and how many boids each gets; corners and edges included.
  const std::map<Pixel, std::uint32_t> want{{{0, 0}, 2}, {{63, 0}, 1}, {{0, 47}, 3}, {{63, 47}, 1}, {{3, 4}, 5},
                                            {{4, 4}, 1}, {{31, 17}, 40}, {{32, 17}, 7}, {{31, 18}, 2}, {{50, 9}, 1}};
  Boids b;
  std::uint32_t total = 0;
  for (const auto& [px, n] : want) {
    for (std::uint32_t k = 0; k < n; ++k) {
      // Anywhere inside the pixel, not only its centre.
      const auto [wx, wy] = world_of(t, r.x0 + px.first, r.y0 + px.second);
      b.add(wx + (float(k % 3) - 1) * 0.15f, wy + (float(k % 5) - 2) * 0.08f, 1.0f + float(k), -0.5f);
    }
    total += n;
  }
  // Off the rectangle (each side, just outside) and not finite: never counted.
  for (const Pixel& off : {Pixel{-1, 5}, Pixel{64, 5}, Pixel{5, -1}, Pixel{5, 48}, Pixel{-300, -300}}) {
    const auto [wx, wy] = world_of(t, r.x0 + off.first, r.y0 + off.second);
    b.add(wx, wy, 1, 0);
  }
  b.add(std::numeric_limits<float>::quiet_NaN(), 3, 1, 0);
  b.add(std::numeric_limits<float>::infinity(), 3, 1, 0);

  for (const DensityColour colour : {DensityColour::Count, DensityColour::Heading, DensityColour::Speed})
    for (int threads : {1, 2, 3}) {
      DensityImage img;
      img.accumulate(b.view(), t, r, colour, threads);
      for (int y = 0; y < r.h; ++y)
        for (int x = 0; x < r.w; ++x) {
          const auto it = want.find({x, y});
          ASSERT_EQ(img.count(x, y), it == want.end() ? 0u : it->second) << "pixel " << x << "," << y << " on " << threads << " threads";
        }
      EXPECT_EQ(img.on_screen(), total);
      EXPECT_EQ(img.max_count(), 40u);
      // Crowding: boids over the pixels of the lit 4x4 blocks.
      std::set<Pixel> blocks;
      for (const auto& [px, n] : want) blocks.insert({px.first / 4, px.second / 4});
      EXPECT_DOUBLE_EQ(img.crowding(), double(total) / (16.0 * double(blocks.size())));
    }
  // The same from the state's own arithmetic (the view's transform applied boid by boid).
  DensityImage img;
  img.accumulate(b.view(), t, r, DensityColour::Count, 2);
  for (const auto& [px, n] : direct_count(b.view(), t, r)) EXPECT_EQ(img.count(px.first, px.second), n);
  // Fitted to the boids: the rectangle shrinks to the pixels they span (here all of it, as
  // boids lie on its corners), and without the corner boids to the box of the others.
  img.accumulate(b.view(), t, r, DensityColour::Count, 2, true);
  EXPECT_EQ(img.rect().x0, r.x0);
  EXPECT_EQ(img.rect().w, r.w);
  EXPECT_EQ(img.on_screen(), total);
  Boids inner;
  for (const auto& [px, n] : want)
    if (px.first > 0 && px.first < 63 && px.second > 0 && px.second < 47) {
      const auto [wx, wy] = world_of(t, r.x0 + px.first, r.y0 + px.second);
      for (std::uint32_t k = 0; k < n; ++k) inner.add(wx, wy, 1, 0);
    }
  img.accumulate(inner.view(), t, r, DensityColour::Count, 2, true);
  EXPECT_EQ(img.rect().x0, r.x0 + 3);  // pixels (3, 4) to (50, 18)
  EXPECT_EQ(img.rect().y0, r.y0 + 4);
  EXPECT_EQ(img.rect().w, 48);
  EXPECT_EQ(img.rect().h, 15);
  EXPECT_EQ(img.count(0, 0), 5u);
  EXPECT_EQ(img.count(31 - 3, 17 - 4), 40u);
  img.accumulate(Boids{}.view(), t, r, DensityColour::Count, 2, true);
  EXPECT_EQ(img.rect().w * img.rect().h, 0);
  EXPECT_EQ(img.on_screen(), 0u);
}

TEST(Density, ToneMapBrightensWithTheCountAndPaintsEmptyPixelsAsTheView) {
  const ViewTransform t{1, 0, 0};
  const PixelRect r{0, 0, 40, 10};
  Boids b;
  // Pixel (x, 5) for x = 1..30 holds x * x boids, heading right at speed 2 (x <= 15) or
  // heading down at speed 6.
  for (int x = 1; x <= 30; ++x)
    for (int k = 0; k < x * x; ++k) b.add(float(x) + 0.5f, 5.5f, x <= 15 ? 2.0f : 0.0f, x <= 15 ? 0.0f : 6.0f);
  DensityStyle style;
  style.world_x0 = 0, style.world_y0 = 0, style.world_x1 = 35, style.world_y1 = 10;
  style.speed_lo = 2, style.speed_hi = 6;
  std::vector<std::uint32_t> px(40 * 10);
  auto rgb = [&](int x, int y) {
    const std::uint32_t v = px[std::size_t(y * 40 + x)];
    return std::array<std::uint8_t, 3>{std::uint8_t(v >> 16), std::uint8_t(v >> 8), std::uint8_t(v)};
  };
  auto lum = [&](int x, int y) { const auto c = rgb(x, y); return luma(c.data()); };
  DensityImage img;
  img.accumulate(b.view(), t, r, DensityColour::Count, 2);
  img.tone_map(px.data(), 40 * 4, style);
  for (int x = 2; x <= 30; ++x) EXPECT_GE(lum(x, 5), lum(x - 1, 5)) << x;
  EXPECT_GT(lum(30, 5), lum(1, 5) + 150);
  EXPECT_GT(lum(1, 5), luma(std::array<std::uint8_t, 3>{20, 23, 31}.data()) + 10);  // a lone boid shows
  EXPECT_EQ(rgb(5, 2), (std::array<std::uint8_t, 3>{20, 23, 31}));   // empty, in the world
  EXPECT_EQ(rgb(38, 2), (std::array<std::uint8_t, 3>{12, 13, 17}));  // empty, outside it
  for (std::uint32_t v : px) EXPECT_EQ(v >> 24, 0xffu);
  // Heading: boids going right and boids going down get different hues; speed: the slow
  // ones and the fast ones different colours.
  img.accumulate(b.view(), t, r, DensityColour::Heading, 2);
  img.tone_map(px.data(), 40 * 4, style);
  const auto right = rgb(15, 5), down = rgb(16, 5);
  EXPECT_GT(std::abs(int(right[0]) - int(down[0])) + std::abs(int(right[2]) - int(down[2])), 100);
  img.accumulate(b.view(), t, r, DensityColour::Speed, 2);
  img.tone_map(px.data(), 40 * 4, style);
  const auto slow = rgb(15, 5), fast = rgb(16, 5);
  EXPECT_GT(int(fast[1]) - int(slow[1]), 60);  // the speed scale ends yellow, starts purple
}

TEST(Density, SwitchFadesBetweenItsThresholds) {
  const DensitySwitch s;
  EXPECT_EQ(s.weight(0), 0);
  EXPECT_EQ(s.weight(s.fade_from), 0);
  EXPECT_NEAR(s.weight((s.fade_from + s.full_at) / 2), 0.5, 1e-12);
  EXPECT_EQ(s.weight(s.full_at), 1);
  EXPECT_EQ(s.weight(50), 1);
}

TEST(GuiDensity, TwoThousandBoidsStayTriangles) {
  GuiApp app(headless());
  app.frame();
  app.frame();
  EXPECT_GE(app.source().boids().n, 100u);
  EXPECT_FALSE(app.view_density_counted());
  EXPECT_EQ(app.density_weight(), 0);
}

// Boids placed on known pixels of the view: the window's own counts equal them, and the
// picture is brighter where more boids are.
TEST(GuiDensity, TheWindowCountsBoidsOnKnownPixels) {
  const fs::path dir = test_dir();
  Params p;
  p.width = 2000, p.height = 1500, p.predators = 0;
  GuiApp app(headless());
  FlockSnapshot first;
  for (int i = 0; i < 30000; ++i) first.x.push_back(1000), first.y.push_back(750), first.vx.push_back(1), first.vy.push_back(0);
  app.set_source(std::make_unique<LocalSource>(p, first));
  app.frame();
  app.frame();
  const ViewTransform t = app.view_transform();
  const auto v = app.view_rect();
  // 60 pixels in a band across the world, pixel k holding 20 * (k + 1) boids.
  std::map<Pixel, std::uint32_t> want;
  FlockSnapshot s;
  const int y = int(v.cy()) + 20, x_first = int(t.ox) + 40;
  for (int k = 0; k < 60; ++k) {
    const int x = x_first + 5 * k;
    want[{x, y}] = std::uint32_t(20 * (k + 1));
    const auto [wx, wy] = world_of(t, x, y);
    for (int j = 0; j < 20 * (k + 1); ++j) s.x.push_back(wx), s.y.push_back(wy), s.vx.push_back(1), s.vy.push_back(0);
  }
  app.set_source(std::make_unique<LocalSource>(p, s));
  app.frame();
  const Image img = screenshot(app, dir / "shot.png");
  const ViewTransform t2 = app.view_transform();
  ASSERT_EQ(t2.scale, t.scale);
  ASSERT_EQ(t2.ox, t.ox);
  ASSERT_TRUE(app.view_density_counted());
  EXPECT_EQ(app.density_weight(), 1);
  const DensityImage& d = app.view_density();
  std::uint64_t seen = 0;
  for (int py = 0; py < d.rect().h; ++py)
    for (int px = 0; px < d.rect().w; ++px) {
      const auto it = want.find({d.rect().x0 + px, d.rect().y0 + py});
      ASSERT_EQ(d.count(px, py), it == want.end() ? 0u : it->second) << "pixel " << d.rect().x0 + px << "," << d.rect().y0 + py;
      seen += d.count(px, py);
    }
  EXPECT_EQ(seen, s.size());
  // Brighter with more boids (away from the centroid's marker, which lies on the band); the
  // empty world between them its own colour.
  const float cx = t.ox + float(app.source().metrics().centroid_x) * t.scale;
  int last = -1;
  for (const auto& [px, n] : want) {
    if (std::abs(float(px.first) - cx) < 14) continue;
    const int l = luma(img.at(px.first, px.second));
    EXPECT_GE(l, last) << px.first << " holds " << n;
    last = l;
  }
  EXPECT_GT(last, luma(img.at(x_first, y)) + 80);
  EXPECT_EQ(luma(img.at(x_first + 2, y)), luma(std::array<std::uint8_t, 3>{20, 23, 31}.data()));
}

// Zooming into a crowded flock: the density image fades out as the crowding falls, and the
// triangles are back once the boids are few a pixel; the scale says which is drawn.
TEST(GuiDensity, ZoomingInTurnsDensityBackIntoTriangles) {
  Params p;
  p.width = 20000, p.height = 20000, p.predators = 0;
  FlockSnapshot s;
  Pcg32 rng(11, 2);
  for (int i = 0; i < 200000; ++i) {
    s.x.push_back(float(rng.uniform(0, 20000))), s.y.push_back(float(rng.uniform(0, 20000)));
    s.vx.push_back(1), s.vy.push_back(0.5f);
  }
  GuiApp app(headless());
  app.set_source(std::make_unique<LocalSource>(p, s));
  app.frame();
  app.frame();
  ASSERT_EQ(app.density_weight(), 1);
  EXPECT_TRUE(app.item_rect("view:density"));
  const auto v = app.view_rect();
  push_mouse(SDL_MOUSEMOTION, v.cx(), v.cy());
  app.frame();
  double last = 1;
  bool faded = false;
  for (int k = 0; k < 12 && app.density_weight() > 0; ++k) {
    SDL_Event e{};
    e.type = SDL_MOUSEWHEEL;
    e.wheel.y = 1;
    SDL_PushEvent(&e);
    app.frame();  // zooms; the density pass follows the new view in the same frame
    EXPECT_LE(app.density_weight(), last);
    last = app.density_weight();
    faded = faded || (last > 0 && last < 1);
    if (faded && last > 0) {
      const Image img = screenshot(app, test_dir() / "faded.png");  // both drawn, one over the other
      EXPECT_GT(img.w, 0);
    }
  }
  EXPECT_TRUE(faded) << "no frame between triangles and density";
  EXPECT_EQ(app.density_weight(), 0);
  EXPECT_TRUE(app.view_density_counted());
  EXPECT_LT(app.view_density().crowding(), 0.1);
  EXPECT_TRUE(app.item_rect("view:density"));  // the scale's line: triangles, and where density starts
}

// A gathered million-boid flock (clusters of many sizes in the benchmarks' 20,000 x 20,000
// world) drawn headless: the view is the density image, its pixels are not one flat fill, and
// its bright regions are where the state's boids crowd.
TEST(GuiDensity, AGatheredMillionBoidFlockShowsWhereItsBoidsAre) {
  const fs::path dir = test_dir();
  Params p;
  p.width = 20000, p.height = 20000, p.predators = 0;
  FlockSnapshot s;
  Pcg32 rng(53, 1);
  const std::size_t n = 1000000;
  // Forty clusters of different sizes, spreads and populations, and one boid in ten spread
  // over the world.
  struct Cluster {
    double x, y, r;
  };
  std::vector<Cluster> clusters;
  for (int c = 0; c < 40; ++c) clusters.push_back({rng.uniform(2000, 18000), rng.uniform(2000, 18000), rng.uniform(80, 900)});
  for (std::size_t i = 0; i < n; ++i) {
    double x, y;
    if (i % 10 == 0) {
      x = rng.uniform(0, 20000), y = rng.uniform(0, 20000);
    } else {
      const double u = rng.uniform();  // the first clusters get the most boids
      const Cluster& c = clusters[std::size_t(u * u * double(clusters.size()))];
      const double a = rng.uniform(0, 6.283185307179586), d = c.r * std::sqrt(rng.uniform(0, 1));
      x = c.x + d * std::cos(a), y = c.y + d * std::sin(a);
    }
    s.x.push_back(float(x)), s.y.push_back(float(y));
    s.vx.push_back(float(rng.uniform(-3, 3))), s.vy.push_back(float(rng.uniform(-3, 3)));
  }
  GuiApp app(headless());
  app.set_source(std::make_unique<LocalSource>(p, s));
  app.frame();
  app.frame();
  app.request_screenshot(dir / "view.png", true);
  app.frame();
  const Image img = read_png(dir / "view.png");
  const auto v = app.view_rect();
  ASSERT_EQ(img.w, int(v.x1 - v.x0));
  ASSERT_TRUE(app.view_density_counted());
  EXPECT_EQ(app.density_weight(), 1);
  const DensityImage& d = app.view_density();
  const ViewTransform t = app.view_transform();
  // The window's counts are the state's, pixel for pixel (the pass covers the boids' part
  // of the view; the rest holds none).
  const PixelRect& dr = d.rect();
  const auto direct = direct_count(app.source().boids(), t, dr);
  std::size_t lit = 0, counted = 0;
  for (int py = 0; py < dr.h; ++py)
    for (int px = 0; px < dr.w; ++px) {
      const auto it = direct.find({px, py});
      ASSERT_EQ(d.count(px, py), it == direct.end() ? 0u : it->second);
      lit += d.count(px, py) > 0;
      counted += d.count(px, py);
    }
  EXPECT_GT(lit, 1000u);
  EXPECT_EQ(counted, app.source().boids().n);  // every boid is on screen
  // Boids on screen pixel (x, y), from the pass.
  auto count_at = [&](int x, int y) {
    return x >= dr.x0 && x < dr.x0 + dr.w && y >= dr.y0 && y < dr.y0 + dr.h ? d.count(x - dr.x0, y - dr.y0) : 0u;
  };

  // The screenshot's world pixels, away from the read-out (top) and the legends (bottom) ...
  const int sx0 = int(v.x0), sy0 = int(v.y0);
  // ... and the centroid's marker.
  const float cx = t.ox + float(app.source().metrics().centroid_x) * t.scale, cy = t.oy + float(app.source().metrics().centroid_y) * t.scale;
  auto world_pixel = [&](int px, int py) {
    const float x = float(sx0 + px) + 0.5f, y = float(sy0 + py) + 0.5f;
    return x > t.ox + 2 && x < t.ox + 20000 * t.scale - 2 && y > std::max(t.oy + 2, v.y0 + 40) &&
           y < std::min(t.oy + 20000 * t.scale - 2, v.y1 - 150) && (std::abs(x - cx) > 14 || std::abs(y - cy) > 14);
  };
  std::set<int> levels;
  // Mean luma by count band: empty, 1-2 boids, and the most crowded pixels (the top 2 %).
  std::vector<std::uint32_t> counts;
  for (const auto& [px, c] : direct) counts.push_back(c);
  std::sort(counts.begin(), counts.end());
  const std::uint32_t crowded = counts[counts.size() * 98 / 100];
  double sum[3] = {0, 0, 0};
  int num[3] = {0, 0, 0};
  std::vector<std::pair<int, std::uint32_t>> by_luma;  // (luma, count) of each world pixel
  for (int py = 0; py < img.h; ++py)
    for (int px = 0; px < img.w; ++px) {
      if (!world_pixel(px, py)) continue;
      const int l = luma(img.at(px, py));
      const std::uint32_t c = count_at(sx0 + px, sy0 + py);
      levels.insert(l);
      by_luma.emplace_back(l, c);
      const int band = c == 0 ? 0 : c <= 2 ? 1 : c >= crowded ? 2 : -1;
      if (band >= 0) sum[band] += l, ++num[band];
    }
  ASSERT_GT(num[0], 100);
  ASSERT_GT(num[1], 100);
  ASSERT_GT(num[2], 20);
  EXPECT_GT(levels.size(), 30u) << "one flat fill";
  EXPECT_GT(sum[1] / num[1], sum[0] / num[0] + 10);
  EXPECT_GT(sum[2] / num[2], sum[1] / num[1] + 80);
  // The brightest pixels (the top 1 %) are the crowded ones of the state.
  std::sort(by_luma.begin(), by_luma.end(), [](auto& a, auto& b) { return a.first > b.first; });
  const std::size_t top = by_luma.size() / 100;
  std::size_t crowded_in_top = 0;
  for (std::size_t k = 0; k < top; ++k) crowded_in_top += by_luma[k].second >= counts[counts.size() * 9 / 10];
  EXPECT_GT(crowded_in_top, top * 9 / 10);
}

// The density pass alone on a million boids spread over the view of a 1440x900 window (the
// counting, then the tone map), best of five, on 1 and 2 threads: printed, not checked.
TEST(Density, TimingOfAMillionBoids) {
  const std::size_t n = 1000000;
  Boids b;
  Pcg32 rng(7, 3);
  for (std::size_t i = 0; i < n; ++i)
    b.add(float(rng.uniform(0, 20000)), float(rng.uniform(0, 20000)), float(rng.uniform(-3, 3)), float(rng.uniform(-3, 3)));
  const PixelRect r{396, 35, 1038, 522};
  const ViewTransform t{0.025f, 396 + 269.0f, 35 + 11.0f};
  std::vector<std::uint32_t> px(std::size_t(r.w) * std::size_t(r.h));
  DensityStyle style;
  for (int threads : {1, 2}) {
    double count_ms = 1e300, tone_ms = 1e300;
    DensityImage img;
    for (int rep = 0; rep < 5; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      img.accumulate(b.view(), t, r, DensityColour::Count, threads);
      const auto t1 = std::chrono::steady_clock::now();
      img.tone_map(px.data(), r.w * 4, style);
      const auto t2 = std::chrono::steady_clock::now();
      count_ms = std::min(count_ms, std::chrono::duration<double, std::milli>(t1 - t0).count());
      tone_ms = std::min(tone_ms, std::chrono::duration<double, std::milli>(t2 - t1).count());
    }
    std::printf("density, 1M boids on %dx%d pixels, %d threads: count %.2f ms, tone map %.2f ms\n", r.w, r.h, threads, count_ms, tone_ms);
    EXPECT_EQ(img.on_screen(), n);
  }
}
