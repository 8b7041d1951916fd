// The lab's extensions in the window, headless: the perching ledge, the food sources and a
// hunting predator's aim drawn over the flock (checked on the screenshot's pixels), the
// plots of the perched boids and the distances, and their export.
#include <SDL.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "export.hpp"
#include "flock_view.hpp"
#include "gui_app.hpp"
#include "mouse_events.hpp"
#include "screen_pixels.hpp"

namespace fs = std::filesystem;
using namespace flockscope;
using namespace flockscope::gui;

namespace {

bool near_colour(const std::uint8_t* px, Rgba c, int tol) {
  return std::abs(px[0] - c.r) <= tol && std::abs(px[1] - c.g) <= tol && std::abs(px[2] - c.b) <= tol;
}

// Whether a pixel within `r` of (x, y) has colour c.
bool colour_near(const Image& img, float x, float y, Rgba c, int r = 1, int tol = 12) {
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx) {
      const int px = int(std::lround(x)) + dx, py = int(std::lround(y)) + dy;
      if (px >= 0 && py >= 0 && px < img.w && py < img.h && near_colour(img.at(px, py), c, tol)) return true;
    }
  return false;
}

// A Cornell flock that perches, with two food sources, a predator chasing a boid and gravity: 60
// steps in, so boids have landed and the predator has picked its prey.
Params extensions_params() {
  Params p;
  p.rules = int(RuleSet::Cornell);
  p.boids = 300;
  p.seed = 5;  // the predator and its prey inside the world at step 60
  p.predators = 1;
  p.predator_mode = int(PredatorMode::Chase);
  p.predator_vision = 400;
  p.perch_frames = 200;
  p.food = 2;
  p.gravity = 0.05;
  return p;
}

}  // namespace

TEST(GuiExtensions, LedgeFoodAndAPredatorsAimAreDrawn) {
  const fs::path dir = test_dir();
  auto source = std::make_unique<LocalSource>(extensions_params());
  source->advance(60);
  GuiApp app(headless(1280, 800));
  app.set_source(std::move(source));
  app.frame();  // lays out the view and fits the camera
  app.frame();
  const Image img = screenshot(app, dir / "extensions.png");
  ASSERT_EQ(img.w, 1280);
  const ViewTransform t = app.view_transform();
  auto sx = [&](double x) { return float(t.ox + x * t.scale); };
  auto sy = [&](double y) { return float(t.oy + y * t.scale); };
  const Params& p = app.source().params();

  // The ledge: a line of its colour from perch_x0 to perch_x1 at perch_y. Boids sitting on it
  // are drawn under it, the centroid's cross or a food disc may lie over a few of its pixels.
  int on_ledge = 0, samples = 0;
  for (double x = p.perch_x0 + 4; x <= p.perch_x1 - 4; x += 6, ++samples)
    on_ledge += colour_near(img, sx(x), sy(p.perch_y), kLedgeColour);
  EXPECT_GE(on_ledge, samples * 9 / 10) << on_ledge << " of " << samples << " points of the ledge";
  // ... and nothing of its colour just beyond its ends.
  EXPECT_FALSE(colour_near(img, sx(p.perch_x0) - 8, sy(p.perch_y), kLedgeColour));
  EXPECT_FALSE(colour_near(img, sx(p.perch_x1) + 8, sy(p.perch_y), kLedgeColour));

  // Each food source: a disc of its colour where the source is.
  const auto food = app.source().food();
  ASSERT_EQ(food.size(), 2u);
  for (const FoodSource& f : food)
    EXPECT_TRUE(colour_near(img, sx(f.x), sy(f.y), kFoodColour, 2)) << "food at (" << f.x << ", " << f.y << ")";

  // The predator chases a boid: a thin red line from it to its aim. Sampled every 4 px between
  // 25 % and 75 % of the way (clear of the predator's triangle and of the aim's ring) where
  // that lies inside the view; most of those pixels are red.
  const auto aims = app.source().predator_aims();
  ASSERT_EQ(aims.size(), 1u);
  ASSERT_TRUE(aims[0].active) << "no boid within predator_vision after 60 steps";
  EXPECT_GE(aims[0].target, 0);
  const Predator& pr = app.source().predators()[0];
  const auto view = app.view_rect();
  const double len = std::hypot(aims[0].x - pr.x, aims[0].y - pr.y) * t.scale;
  ASSERT_GT(len, 20) << "the predator sits on its prey: no line to see";
  int red = 0, inside = 0;
  for (double a = 0.25; a <= 0.75; a += 4 / len) {
    const float x = sx(pr.x + a * (aims[0].x - pr.x)), y = sy(pr.y + a * (aims[0].y - pr.y));
    if (x < view.x0 + 2 || x > view.x1 - 2 || y < view.y0 + 2 || y > view.y1 - 2) continue;
    ++inside;
    bool found = false;
    for (int dy = -1; dy <= 1 && !found; ++dy)
      for (int dx = -1; dx <= 1 && !found; ++dx) {
        const std::uint8_t* px = img.at(int(std::lround(x)) + dx, int(std::lround(y)) + dy);
        found = px[0] > 120 && px[0] > px[1] + 50 && px[0] > px[2] + 50;
      }
    red += found;
  }
  ASSERT_GT(inside, 3) << "the aim line lies outside the view";
  EXPECT_GE(red, inside * 8 / 10) << red << " of " << inside << " points of the aim line are red";

  // The legend names them, and the plots offer the perched boids and the distances.
  const auto legend = app.item_rect("view:legend");
  ASSERT_TRUE(legend.has_value());
  // Gravity: its arrow in the legend, in its colour.
  int arrow = 0;
  for (int y = int(legend->y0); y < int(legend->y1); ++y)
    for (int x = int(legend->x0); x < int(legend->x1); ++x) arrow += near_colour(img.at(x, y), kGravityColour, 12);
  EXPECT_GT(arrow, 10) << "no gravity arrow in the legend";
  for (const char* item : {"plot:perched", "plot:distance", "legend:distance:food", "legend:distance:predator",
                           "legend:speed:down", "legend:speed:up", "legend:perched:perched"})
    EXPECT_TRUE(app.item_rect(item).has_value()) << item;
  EXPECT_GT(app.plots().perched.y().back(), 0) << "no boid perched after 60 steps";
  EXPECT_TRUE(std::isfinite(app.plots().food_distance.y().back()));
  EXPECT_TRUE(std::isfinite(app.plots().predator_distance.y().back()));
}

// A flock without the extensions keeps the two columns of plots and draws no ledge or food.
TEST(GuiExtensions, APlainFlockHasNoExtensionPlotsOrMarks) {
  const fs::path dir = test_dir();
  Params p;
  p.rules = int(RuleSet::Cornell);
  p.boids = 200;
  p.predators = 0;
  GuiApp app(headless(1280, 800));
  app.set_source(std::make_unique<LocalSource>(p));
  app.frame();
  app.frame();
  const Image img = screenshot(app, dir / "plain.png");
  EXPECT_FALSE(app.item_rect("plot:perched").has_value());
  EXPECT_FALSE(app.item_rect("plot:distance").has_value());
  EXPECT_TRUE(app.item_rect("legend:speed:down").has_value());
  const ViewTransform t = app.view_transform();
  const Params& q = app.source().params();
  int on_ledge = 0;
  for (double x = q.perch_x0 + 4; x <= q.perch_x1 - 4; x += 6)
    on_ledge += colour_near(img, float(t.ox + x * t.scale), float(t.oy + q.perch_y * t.scale), kLedgeColour);
  EXPECT_EQ(on_ledge, 0) << "a ledge drawn while perch_frames is 0";
}

// The export: the perched and distance figures for a run with the extensions, and the CSV's
// last five columns (an empty cell where there is nothing to measure).
TEST(GuiExtensions, ExportWritesTheExtensionsColumnsAndFigures) {
  const fs::path dir = test_dir();
  PlotData d;
  Metrics m;
  m.perched = 4, m.speed_down = 2.5, m.speed_up = 1.25, m.predator_distance = 30;  // no food: NaN
  d.push(m, 0, 0, false);
  m.perched = 6, m.food_distance = 12.5;
  d.push(m, 1, 1, false);
  const std::string csv = series_csv(d);
  EXPECT_NE(csv.find(",clusters,perched,speed_down,speed_up,food_distance,predator_distance,source,run,"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",,,4,2.5,1.25,,30,state,1,"), std::string::npos) << csv;  // no nn, clusters or food
  EXPECT_NE(csv.find(",,,6,2.5,1.25,12.5,30,state,1,"), std::string::npos) << csv;
  ShownSeries shown;
  shown.food_distance = false;  // hidden on the plots: left out
  EXPECT_EQ(series_csv(d, shown).find("food_distance"), std::string::npos);

  ExportOptions o;
  o.size = {480, 300};
  o.extensions = true;
  const ExportResult r = export_plot_files(dir, "x", d, o);
  for (const char* f : {"x-perched.svg", "x-perched.png", "x-distance.svg", "x-distance.png", "x-mean-speed.svg"})
    EXPECT_TRUE(fs::exists(dir / f)) << f;
  std::ifstream in(dir / "x-mean-speed.svg");
  const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(svg.find("data-series=\"moving down\""), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"moving up\""), std::string::npos);
  o.extensions = false;
  fs::remove_all(dir);
  fs::create_directories(dir);
  export_plot_files(dir, "y", d, o);
  EXPECT_FALSE(fs::exists(dir / "y-perched.svg"));
  EXPECT_FALSE(fs::exists(dir / "y-distance.svg"));
}
