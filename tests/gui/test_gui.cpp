// The window end to end, headless: SDL's offscreen driver with the software renderer, input
// as synthetic SDL events through GuiApp::frame() (the real window's code path), and checks
// on what it drew (pixels), what core ended up with (parameter values) and what it wrote.
#include <SDL.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "export.hpp"
#include "flockscope/core/io.hpp"
#include "gui_app.hpp"
#include "mouse_events.hpp"
#include "screen_pixels.hpp"

namespace fs = std::filesystem;
using namespace flockscope;
using namespace flockscope::gui;

namespace {

// The CSV that export_all wrote into `dir` (empty when there is none).
fs::path exported_csv(const fs::path& dir) {
  fs::path csv;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".csv") csv = e.path();
  return csv;
}

// A user's drag: move, press, move, release, one frame each.
void drag(GuiApp& app, float x0, float y0, float x1, float y1) {
  push_mouse(SDL_MOUSEMOTION, x0, y0);
  app.frame();
  push_mouse(SDL_MOUSEBUTTONDOWN, x0, y0);
  app.frame();
  push_mouse(SDL_MOUSEMOTION, (x0 + x1) / 2, (y0 + y1) / 2);
  app.frame();
  push_mouse(SDL_MOUSEMOTION, x1, y1);
  app.frame();
  push_mouse(SDL_MOUSEBUTTONUP, x1, y1);
  app.frame();
}

// Four boids at known places in a small world (so they are drawn large), no predators.
std::unique_ptr<LocalSource> known_flock() {
  Params p;
  p.width = 40, p.height = 30, p.predators = 0;
  p.leftmargin = p.rightmargin = p.topmargin = p.bottommargin = 5;
  FlockSnapshot s;
  s.x = {6, 20, 31, 15.5f};
  s.y = {6, 15, 25, 23.5f};
  s.vx = {3, 3, 0, -3};
  s.vy = {0, 0, 3, 0};
  return std::make_unique<LocalSource>(p, s);
}

bool near_colour(const std::uint8_t* px, Rgba c, int tol = 40) {
  return std::abs(px[0] - c.r) <= tol && std::abs(px[1] - c.g) <= tol && std::abs(px[2] - c.b) <= tol;
}

}  // namespace

TEST(GuiDraw, BoidsOfAKnownStateAppearAtTheirPixels) {
  const fs::path dir = test_dir();
  GuiApp app(headless());
  app.set_source(known_flock());
  app.frame();  // lays out the view and fits the camera
  app.frame();
  const Image img = screenshot(app, dir / "shot.png");
  ASSERT_EQ(img.w, 1024);
  ASSERT_EQ(img.h, 640);
  const ViewTransform t = app.view_transform();
  const BoidPalette pal;
  const auto b = app.source().boids();
  for (std::size_t i = 0; i < b.n; ++i) {
    const int sx = int(std::lround(t.ox + b.x[i] * t.scale)), sy = int(std::lround(t.oy + b.y[i] * t.scale));
    bool found = false;
    for (int dy = -1; dy <= 1 && !found; ++dy)
      for (int dx = -1; dx <= 1 && !found; ++dx) found = near_colour(img.at(sx + dx, sy + dy), pal.plain);
    EXPECT_TRUE(found) << "boid " << i << " not drawn at (" << sx << ", " << sy << ")";
    // It points along its velocity: narrow ahead, wide behind. With heading h and its
    // normal n, the pixels at -3h +- 1.5n (toward the tail's corners) are lit, those at
    // +4h +- 3n (beside the tip) are not, and neither is the pixel 8 px behind. (Margins of
    // a pixel or more: the software rasteriser's fill rule moves edges by up to one.)
    const float l = std::hypot(b.vx[i], b.vy[i]), hx = b.vx[i] / l, hy = b.vy[i] / l;
    auto lit = [&](float along, float across) {
      const int px = int(std::lround(float(sx) + along * hx - across * hy)), py = int(std::lround(float(sy) + along * hy + across * hx));
      return near_colour(img.at(px, py), pal.plain, 60);
    };
    EXPECT_TRUE(lit(-3, 1.5f) && lit(-3, -1.5f)) << "boid " << i << " tail";
    EXPECT_TRUE(lit(2, 0)) << "boid " << i << " tip";
    EXPECT_FALSE(lit(4, 3) || lit(4, -3)) << "boid " << i << " beside the tip";
    EXPECT_FALSE(lit(-8, 0)) << "boid " << i << " behind";
  }
  // Empty world between them: the world's background colour.
  const int ex = int(t.ox + 30 * t.scale), ey = int(t.oy + 7.5f * t.scale);
  EXPECT_TRUE(near_colour(img.at(ex, ey), {20, 23, 31, 255}, 6));
  // The panels are there: the control panel's background left, the plots below the view.
  EXPECT_TRUE(near_colour(img.at(5, 630), {23, 26, 31, 255}, 8));
  for (const char* item : {"param:visualRange", "param:boids", "button:Reset", "plot:diameter", "plot:centroid",
                           "plot:path", "plot:polarisation", "plot:speed", "button:Export"})
    EXPECT_TRUE(app.item_rect(item).has_value()) << item;
  const auto plot = *app.item_rect("plot:diameter");
  EXPECT_GT(plot.y0, app.view_rect().y1 - 1);
}

TEST(GuiInput, DraggingALiveSliderChangesCoreInTheSameFrame) {
  GuiApp app(headless());
  app.set_source(known_flock());
  app.frame();
  const auto r = app.item_rect("param:visualRange");
  ASSERT_TRUE(r);
  const double before = app.source().params().visualRange;
  drag(app, r->cx(), r->cy(), r->x1 + 40, r->cy());  // past the right end: the slider's max
  const ParamDef& d = *find_param("visualRange");
  EXPECT_NE(app.source().params().visualRange, before);
  EXPECT_DOUBLE_EQ(app.source().params().visualRange, d.slider_max);
  // Drag to the left end: the minimum.
  drag(app, r->cx(), r->cy(), r->x0 - 40, r->cy());
  EXPECT_DOUBLE_EQ(app.source().params().visualRange, d.slider_min);
}

TEST(GuiInput, ResetOnlySliderWaitsForReset) {
  GuiApp app(headless());
  app.frame();
  const auto boids_before = app.source().params().boids;
  const auto r = app.item_rect("param:boids");
  ASSERT_TRUE(r);
  drag(app, r->cx(), r->cy(), r->x0 + (r->x1 - r->x0) * 0.3f, r->cy());
  const auto pending = app.source().pending_params().boids;
  EXPECT_NE(pending, boids_before);
  EXPECT_EQ(app.source().params().boids, boids_before);  // not yet
  EXPECT_EQ(app.source().boids().n, std::size_t(boids_before));
  const auto reset = app.item_rect("button:Reset");
  ASSERT_TRUE(reset);
  click(app, reset->cx(), reset->cy());
  EXPECT_EQ(app.source().params().boids, pending);
  EXPECT_EQ(app.source().boids().n, std::size_t(pending));
  EXPECT_EQ(app.plots().resets.size(), 1u);  // the reset is marked on the plots
}

TEST(GuiExport, CsvParsesBackToThePlottedValues) {
  const fs::path dir = test_dir();
  GuiApp app(headless());
  app.set_running(true);
  for (int i = 0; i < 12; ++i) app.frame();
  app.export_all(dir);
  ASSERT_FALSE(app.message_is_error()) << app.message();
  const fs::path csv = exported_csv(dir);
  ASSERT_FALSE(csv.empty());
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line,
            "time,step,diameter,centroid_x,centroid_y,polarisation,mean_speed,mean_nn_distance,clusters,"
            "perched,speed_down,speed_up,food_distance,predator_distance,source,run,share_right,share_left");
  const PlotData& d = app.plots();
  std::size_t row = 0;
  while (std::getline(in, line)) {
    std::vector<double> v;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) v.push_back(std::strtod(cell.c_str(), nullptr)), cells.push_back(cell);
    ASSERT_EQ(v.size(), 18u) << line;
    ASSERT_LT(row, d.diameter.size());
    EXPECT_EQ(v[15], 1);  // no reset: the first run
    EXPECT_EQ(v[0], d.diameter.t()[row]);
    EXPECT_EQ(v[2], d.diameter.y()[row]);
    EXPECT_EQ(v[3], d.cx.y()[row]);
    EXPECT_EQ(v[4], d.cy.y()[row]);
    EXPECT_EQ(v[5], d.polarisation.y()[row]);
    EXPECT_EQ(v[6], d.speed.y()[row]);
    EXPECT_EQ(v[9], d.perched.y()[row]);
    EXPECT_EQ(v[10], d.speed_down.y()[row]);
    EXPECT_EQ(v[11], d.speed_up.y()[row]);
    EXPECT_EQ(cells[12], "");  // the default flock has no food
    if (app.source().predators().empty())
      EXPECT_EQ(cells[13], "");
    else
      EXPECT_EQ(v[13], d.predator_distance.y()[row]);
    EXPECT_EQ(v[16], d.series("share_right")->y()[row]);
    EXPECT_EQ(v[17], d.series("share_left")->y()[row]);
    ++row;
  }
  EXPECT_EQ(row, d.diameter.size());
  EXPECT_GE(row, 12u);
}

// Four steps per drawn frame: every step is a plotted point, an exported row and a recorded
// frame, with the metrics of that very step (an independent flock stepped alongside), and
// the neighbour metrics only where they were computed (the drawn steps), empty elsewhere.
TEST(GuiExport, FourStepsPerFrameExportAndRecordEveryStep) {
  const fs::path dir = test_dir();
  GuiApp app(headless());
  Params params = app.source().params();
  params.boids = 400;  // a quick flock: the point is the steps, not the size
  app.set_source(std::make_unique<LocalSource>(params));
  app.start_recording(dir / "steps.flkrec");
  ASSERT_FALSE(app.message_is_error()) << app.message();
  app.set_steps_per_frame(4);
  app.set_running(true);
  for (int i = 0; i < 100; ++i) app.frame();
  app.stop_recording();
  app.export_all(dir);
  ASSERT_FALSE(app.message_is_error()) << app.message();
  const fs::path csv = exported_csv(dir);
  ASSERT_FALSE(csv.empty());
  const auto rows = read_csv(csv);
  ASSERT_EQ(rows.size(), 1u + 401u);  // the header, the first state, 400 steps
  Flock twin(params);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const auto& c = rows[r];
    ASSERT_EQ(c.size(), 18u) << "row " << r;
    const std::uint64_t step = r - 1;
    EXPECT_EQ(std::strtoull(c[1].c_str(), nullptr, 10), step);
    if (step > 0) twin.step();
    const Metrics m = compute_metrics(twin);
    const Metrics s = compute_step_metrics(view_of(twin), 1);  // what the window plots every step
    EXPECT_EQ(std::strtod(c[2].c_str(), nullptr), s.diameter) << "step " << step;
    EXPECT_EQ(std::strtod(c[5].c_str(), nullptr), s.polarisation) << "step " << step;
    EXPECT_NEAR(s.diameter, m.diameter, 1e-9 * m.diameter);
    // The drawn steps (every fourth, and the first state) have the neighbour metrics.
    if (step % 4 == 0) {
      EXPECT_EQ(std::strtod(c[7].c_str(), nullptr), m.mean_nn_distance) << "step " << step;
      EXPECT_EQ(std::atoi(c[8].c_str()), m.clusters) << "step " << step;
    } else {
      EXPECT_EQ(c[7], "") << "step " << step;
      EXPECT_EQ(c[8], "") << "step " << step;
    }
    // The extensions' metrics of every step: no food here (an empty cell), the preset's predator.
    EXPECT_EQ(std::strtoull(c[9].c_str(), nullptr, 10), s.perched) << "step " << step;
    EXPECT_EQ(std::strtod(c[10].c_str(), nullptr), s.speed_down) << "step " << step;
    EXPECT_EQ(c[12], "") << "step " << step;
    if (!twin.predators().empty()) {
      EXPECT_EQ(std::strtod(c[13].c_str(), nullptr), s.predator_distance) << "step " << step;
    }
    EXPECT_EQ(c[14], "state");
  }
  const Recording rec = Recording::load(dir / "steps.flkrec");
  ASSERT_EQ(rec.frames(), 401u);
  for (std::size_t i = 0; i < rec.frames(); ++i) EXPECT_EQ(rec.frame(i).step, i);
}

// Points whose metrics are not from a whole state (a board's own, or the boids that arrived
// of a partial frame) are marked: adjacent ones make one amber span on the plots, and the
// CSV says `board` or `partial` for them.
TEST(GuiPlots, BoardMetricsAreShadedAndExportedAsBoard) {
  const fs::path dir = test_dir();
  GuiApp app(headless());
  PlotData& d = app.plots();
  d.clear();
  for (int i = 0; i < 100; ++i) {
    const double t = i;
    d.diameter.push(t, 50 + i % 3), d.cx.push(t, 1), d.cy.push(t, 2), d.polarisation.push(t, 0.5), d.speed.push(t, 3);
    d.steps.push_back(t), d.nn.push_back(NAN), d.clusters.push_back(NAN);
    d.mark_source(t, i >= 40 && i < 60 ? link::MetricsSource::kBoard
                     : i == 80          ? link::MetricsSource::kPartial
                                        : link::MetricsSource::kState);
  }
  ASSERT_EQ(d.board_spans.size(), 2u);
  EXPECT_EQ(d.board_spans[0].t0, 40);
  EXPECT_EQ(d.board_spans[0].t1, 59);
  EXPECT_EQ(d.board_spans[1].t0, 80);
  EXPECT_EQ(d.board_spans[1].t1, 80);

  const Image img = screenshot(app, dir / "bands.png");
  const auto r = app.item_rect("plot:centroid");
  ASSERT_TRUE(r);
  // A row of the centroid plot between its two flat lines, below the legend (two rows of it in
  // this narrow plot): amber only across the spans (the 20-point one is a fifth of the time
  // axis, which is most of the plot's width).
  const int y = int(r->y0 + (r->y1 - r->y0) * 0.55f);
  auto amber = [&](float frac) {
    const auto* px = img.at(int(r->x0 + (r->x1 - r->x0) * frac), y);
    return px[0] > px[2] + 15 && px[1] > px[2];
  };
  int amber_cols = 0, cols = 0;
  for (float f = 0.1f; f < 0.95f; f += 0.01f, ++cols) amber_cols += amber(f);
  EXPECT_GT(amber_cols, cols / 14);
  EXPECT_LT(amber_cols, cols / 4);
  EXPECT_FALSE(amber(0.12f));

  app.export_all(dir);
  const fs::path csv = exported_csv(dir);
  const auto rows = read_csv(csv);
  ASSERT_EQ(rows.size(), 101u);
  EXPECT_EQ(rows[1 + 39][14], "state");  // after the five extensions' columns (empty here)
  EXPECT_EQ(rows[1 + 40][14], "board");
  EXPECT_EQ(rows[1 + 59][14], "board");
  EXPECT_EQ(rows[1 + 60][14], "state");
  EXPECT_EQ(rows[1 + 80][14], "partial");
  EXPECT_EQ(rows[1 + 10][7], "");  // not computed: empty, not a number
}

TEST(GuiExport, SvgParsesWithTheSeriesAndPngHasTheRequestedSize) {
  const fs::path dir = test_dir();
  GuiApp app(headless());
  app.set_running(true);
  for (int i = 0; i < 8; ++i) app.frame();
  app.set_running(false);
  const ExportResult r = export_plot_files(dir, "x", app.plots(), plot::Size{640, 360});
  EXPECT_EQ(r.files.size(), 11u);  // the CSV, and SVG + PNG of five plots
  for (const auto& f : r.files) EXPECT_TRUE(fs::exists(f)) << f;
  // An XML parser accepts the SVG and finds the plotted series in it.
  const std::string cmd = "python3 -c \"import sys, xml.etree.ElementTree as E; "
                          "names = {e.get('data-series') for e in E.parse(sys.argv[1]).iter()}; "
                          "sys.exit(0 if {'centroid x', 'centroid y'} <= names else 3)\" " +
                          (dir / "x-centroid.svg").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const Image png = read_png(dir / "x-diameter.png");
  EXPECT_EQ(png.w, 640);
  EXPECT_EQ(png.h, 360);
}

TEST(GuiErrors, UnwritableExportFolderGivesAMessageNotACrash) {
  GuiApp app(headless());
  app.frame();
  app.export_all("/proc/flockscope-cannot-write-here");
  EXPECT_TRUE(app.message_is_error());
  EXPECT_NE(app.message().find("export failed"), std::string::npos) << app.message();
  app.frame();
  EXPECT_TRUE(app.item_rect("message").has_value());  // shown in the window
  app.request_screenshot("/proc/flockscope-cannot-write-here/shot.png");
  app.frame();
  EXPECT_TRUE(app.message_is_error());
  EXPECT_NE(app.message().find("screenshot failed"), std::string::npos) << app.message();
}

TEST(GuiErrors, BadPresetFileGivesAMessageAndChangesNothing) {
  const fs::path dir = test_dir();
  GuiApp app(headless());
  app.frame();
  const Params before = app.source().pending_params();
  std::ofstream(dir / "bad.json") << "{\"params\": {\"visualRange\": -5}}";
  app.load_preset_file((dir / "bad.json").string());
  EXPECT_TRUE(app.message_is_error());
  EXPECT_NE(app.message().find("visualRange"), std::string::npos) << app.message();
  std::ofstream(dir / "broken.json") << "{ not json";
  app.load_preset_file((dir / "broken.json").string());
  EXPECT_TRUE(app.message_is_error());
  app.frame();
  EXPECT_TRUE(app.source().pending_params() == before);
  EXPECT_TRUE(app.item_rect("message").has_value());
}

TEST(GuiPresets, SaveThenLoadRoundTrips) {
  const fs::path dir = test_dir();
  GuiApp app(headless());
  app.frame();
  app.load_preset_file("report-vis10");
  app.frame();
  EXPECT_EQ(app.source().params().rules, int(RuleSet::Report));
  EXPECT_EQ(app.source().params().D_vis, 10);
  save_preset(app.source().pending_params(), dir / "mine.json");
  app.load_preset_file("cornell-pic32-lab");
  app.frame();
  app.load_preset_file((dir / "mine.json").string());
  app.frame();
  EXPECT_FALSE(app.message_is_error()) << app.message();
  EXPECT_EQ(app.source().params().D_vis, 10);
}

TEST(GuiRecord, ReplayReproducesTheRecordedMetricsExactly) {
  const fs::path dir = test_dir();
  GuiApp app(headless());
  Params p = load_preset(resolve_preset("cornell-pico-predator"));
  p.boids = 300;
  app.set_source(std::make_unique<LocalSource>(p));
  app.start_recording(dir / "run.flkrec");
  ASSERT_FALSE(app.message_is_error()) << app.message();
  app.set_running(true);
  for (int i = 0; i < 12; ++i) app.frame();
  app.set_running(false);
  app.stop_recording();
  const PlotData recorded = app.plots();
  ASSERT_EQ(recorded.diameter.size(), 13u);

  app.open_replay(dir / "run.flkrec");
  ASSERT_FALSE(app.message_is_error()) << app.message();
  EXPECT_STREQ(app.source().kind(), "replay");
  app.set_running(true);
  for (int i = 0; i < 16; ++i) app.frame();  // runs past the end: stops there
  const PlotData& replayed = app.plots();
  ASSERT_EQ(replayed.diameter.size(), recorded.diameter.size());
  for (std::size_t i = 0; i < recorded.diameter.size(); ++i) {
    EXPECT_EQ(replayed.diameter.y()[i], recorded.diameter.y()[i]) << i;
    EXPECT_EQ(replayed.cx.y()[i], recorded.cx.y()[i]) << i;
    EXPECT_EQ(replayed.cy.y()[i], recorded.cy.y()[i]) << i;
    EXPECT_EQ(replayed.polarisation.y()[i], recorded.polarisation.y()[i]) << i;
    EXPECT_EQ(replayed.speed.y()[i], recorded.speed.y()[i]) << i;
    EXPECT_EQ(replayed.diameter.t()[i], recorded.diameter.t()[i]) << i;
  }
  EXPECT_FALSE(app.running());
  EXPECT_EQ(app.source().boids().n, 300u);
}

TEST(GuiErrors, BadRecordingGivesAMessage) {
  const fs::path dir = test_dir();
  GuiApp app(headless());
  std::ofstream(dir / "junk.flkrec") << "this is not a recording";
  app.open_replay(dir / "junk.flkrec");
  EXPECT_TRUE(app.message_is_error());
  EXPECT_NE(app.message().find("bad magic"), std::string::npos) << app.message();
  EXPECT_STREQ(app.source().kind(), "local");
  app.frame();
}

TEST(GuiDraw, FlockViewScreenshotIsTheViewsSize) {
  const fs::path dir = test_dir();
  GuiApp app(headless(1000, 700));
  app.frame();
  app.request_screenshot(dir / "view.png", true);
  app.frame();
  const Image img = read_png(dir / "view.png");
  const auto r = app.view_rect();
  EXPECT_EQ(img.w, int(r.x1 - r.x0));
  EXPECT_EQ(img.h, int(r.y1 - r.y0));
}

TEST(GuiView, WheelZoomsAboutTheCursorAndFitRestores) {
  GuiApp app(headless());
  app.set_source(known_flock());
  app.frame();
  app.frame();  // ImGui settles a new window's size in its first frame
  const ViewTransform fit = app.view_transform();
  const auto v = app.view_rect();
  push_mouse(SDL_MOUSEMOTION, v.cx(), v.cy());
  app.frame();
  SDL_Event e{};
  e.type = SDL_MOUSEWHEEL;
  e.wheel.y = 3;
  SDL_PushEvent(&e);
  app.frame();
  app.frame();
  EXPECT_GT(app.view_transform().scale, fit.scale * 1.1f);
  const auto f = app.item_rect("view:fit");
  ASSERT_TRUE(f);
  click(app, f->cx(), f->cy());
  EXPECT_FLOAT_EQ(app.view_transform().scale, fit.scale);
}

int main(int argc, char** argv) {
  // Headless and hermetic: offscreen video, settings in a scratch XDG folder.
  setenv("SDL_VIDEODRIVER", "offscreen", 0);
  const fs::path home = fs::temp_directory_path() / "flockscope_test_gui" / "xdg";
  fs::create_directories(home);
  setenv("XDG_CONFIG_HOME", home.c_str(), 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
