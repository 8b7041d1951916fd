// The Explore map: its background sweep (ExploreSession) against `flockscope sweep`'s files,
// cancel and resume, and a map cell clicked through the real window (headless) against
// `flockscope run` with the same values and seed.
#include <SDL.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "../support/shell.hpp"
#include "explore_session.hpp"
#include "flockscope/core/io.hpp"
#include "gui_app.hpp"
#include "mouse_events.hpp"
#include "screen_pixels.hpp"

namespace fs = std::filesystem;
using namespace flockscope;
using namespace flockscope::gui;
using testsupport::sh;
using testsupport::slurp;

namespace {

fs::path explore_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path d = fs::temp_directory_path() / "flockscope_test_explore" / info->name();
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

const std::vector<std::string> kGrid = {"visualRange=20:60:20", "centeringfactor=0.0002,0.0005"};

SweepSpec small_spec() {
  Params base = load_preset(resolve_preset("cornell-pico-predator"));
  base.boids = 60;
  return explore_spec("cornell-pico-predator", base, kGrid, 2, 150);
}

}  // namespace

// The session's runs.csv is the one run_sweep (the engine of `flockscope sweep`) writes.
TEST(Explore, SessionRunsCsvIsTheSweepsByteForByte) {
  const fs::path d = explore_dir();
  const SweepSpec spec = small_spec();
  ExploreSession s(spec, 2);
  s.start();
  s.wait();
  ASSERT_TRUE(s.complete());
  EXPECT_EQ(s.done(), 12u);
  run_sweep(spec, d / "sweep");
  EXPECT_EQ(s.runs_csv(), slurp(d / "sweep" / "runs.csv"));
  // Every combination summarised, as summary.csv has them.
  EXPECT_EQ(summary_csv(spec, s.combos()), slurp(d / "sweep" / "summary.csv"));
}

// ---------------------------------------------------------------- the map drawn
namespace {

int colour_distance(const std::uint8_t* px, plot::Color c) {
  return std::max({std::abs(int(px[0]) - int(c.r)), std::abs(int(px[1]) - int(c.g)), std::abs(int(px[2]) - int(c.b))});
}

std::size_t metric_index(const SweepSpec& s, const std::string& key) {
  const auto& names = summary_metrics(s.kind);
  return std::size_t(std::find(names.begin(), names.end(), key) - names.begin());
}

}  // namespace

// The heatmap's colours span the cell means (the exported figure's scale), not the means'
// 95% intervals: the lowest mean is the colour scale's first colour, the highest its last.
// And the cells tile the map: along a row every pixel is the colour of the cell it lies in,
// with no seam between neighbours (7 columns, so that their edges fall between pixels).
TEST(Explore, HeatmapColoursSpanTheCellMeansAndTheCellsTile) {
  const fs::path d = explore_dir();
  Params base = load_preset(resolve_preset("cornell-pico-predator"));
  base.boids = 60;
  GuiApp app(headless(1024, 640));
  app.explore().set_measure("mean_diameter");
  app.explore().start(explore_spec("cornell-pico-predator", base, {"visualRange=10:70:10", "centeringfactor=0.0002,0.0005,0.001"}, 2, 150));
  ExploreSession& s = *app.explore().session();
  ASSERT_TRUE(frames_until(app, 60000, [&] { return s.complete(); }));
  const Image img = screenshot(app, d / "window.png");
  ASSERT_GT(img.w, 0);

  const auto combos = s.combos();
  ASSERT_EQ(combos.size(), 21u);
  const std::size_t k = metric_index(s.spec(), "mean_diameter");
  std::uint64_t lowest = 0, highest = 0;
  for (const auto& c : combos) {
    if (c.metrics[k].mean < combos[lowest].metrics[k].mean) lowest = c.combination;
    if (c.metrics[k].mean > combos[highest].metrics[k].mean) highest = c.combination;
  }
  const plot::Range shown = app.explore().shown_range();
  EXPECT_DOUBLE_EQ(shown.lo, combos[lowest].metrics[k].mean);
  EXPECT_DOUBLE_EQ(shown.hi, combos[highest].metrics[k].mean);
  // Two repeats: the intervals are wide (Student's t with one degree of freedom), and a
  // scale that held them would reach far below the lowest mean.
  EXPECT_LT(mean_interval95(combos[lowest].metrics[k]).lo, shown.lo - 1);

  auto centre = [&](std::uint64_t c) {
    const auto b = app.explore().cell_box(c);
    return img.at(int((b->x0 + b->x1) / 2), int((b->y0 + b->y1) / 2));
  };
  EXPECT_LE(colour_distance(centre(lowest), plot::colormap(0)), 2);
  EXPECT_LE(colour_distance(centre(highest), plot::colormap(1)), 2);

  // The middle row (centeringfactor = 0.0005: combinations 1, 4, 7, ..., 19).
  const auto first = app.explore().cell_box(1), last = app.explore().cell_box(19);
  ASSERT_TRUE(first && last);
  const int y = int((first->y0 + first->y1) / 2);
  int seams = 0;
  // Inside the map's frame (an anti-aliased line over the outer pixels).
  for (int x = int(first->x0) + 3; x < int(last->x1) - 3; ++x) {
    std::uint64_t c = 1;
    while (c < 19 && float(x) >= app.explore().cell_box(c)->x1) c += 3;
    const std::uint8_t *px = img.at(x, y), *want = centre(c);
    if (px[0] != want[0] || px[1] != want[1] || px[2] != want[2]) ++seams;
  }
  EXPECT_EQ(seams, 0);
}

// Cancelled part-way, then resumed: the same final map as one uninterrupted run; paused, no
// run finishes.
TEST(Explore, CancelAndResumeGiveTheSameMap) {
  const SweepSpec spec = small_spec();
  ExploreSession whole(spec, 1);
  whole.start();
  whole.wait();

  ExploreSession s(spec, 1);
  s.start();
  while (s.done() < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  s.cancel();
  s.wait();
  const std::uint64_t at_cancel = s.done();
  EXPECT_GE(at_cancel, 3u);
  EXPECT_LT(at_cancel, s.total());
  EXPECT_FALSE(s.running());
  s.set_paused(true);
  s.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(s.done(), at_cancel);  // paused: nothing new
  s.set_paused(false);
  s.wait();
  ASSERT_TRUE(s.complete());
  EXPECT_EQ(s.runs_csv(), whole.runs_csv());
  EXPECT_EQ(summary_csv(spec, s.combos()), summary_csv(spec, whole.combos()));
}

// The panel's buttons clicked in the window: Pause stops the progress (and lets the flock run
// again), Resume goes on, Cancel leaves a partial map (finished cells coloured, the others
// grey), Resume completes it as one uninterrupted run would, and Export writes runs.csv and
// the map's SVG and PNG. While runs are made, the map and the flock view say the flock waits,
// and it does.
TEST(Explore, PauseCancelResumeAndExportButtonsInTheWindow) {
  const fs::path d = explore_dir();
  Params base = load_preset(resolve_preset("cornell-pico-predator"));
  base.boids = 200;
  // 60 runs of 3,000 steps on one worker: seconds of work on any machine, so that the clicks
  // land while it runs.
  const SweepSpec spec = explore_spec("cornell-pico-predator", base,
                                      {"visualRange=10:50:10", "centeringfactor=0.0002,0.0004,0.0006,0.0008"}, 3, 3000);
  GuiApp app(headless(1280, 1500, /*running=*/true));  // tall: the whole side panel shows
  app.set_export_folder(d.string());
  app.explore().set_jobs(1);
  app.explore().start(spec);
  ExploreSession& s = *app.explore().session();
  // Waits without drawing (a drawn frame of this tall window costs more than a run), then
  // draws one frame.
  auto idle = [&](int ms, const std::function<bool()>& until = [] { return false; }) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!until() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    app.frame();
    return until();
  };
  auto button = [&](const std::string& name) {
    const auto r = settled_rect(app, name);
    EXPECT_TRUE(r) << name;
    return r.value_or(WidgetRect{0, 0, 0, 0});
  };

  // Running: the flock waits, and the map and the view say so.
  const WidgetRect pause = button("explore:Pause");
  EXPECT_TRUE(app.item_rect("explore:flock waits"));
  app.explore().show_map(false);
  app.frame();
  const std::uint64_t step0 = app.source().step();
  for (int i = 0; i < 5; ++i) app.frame();
  EXPECT_EQ(app.source().step(), step0);
  EXPECT_TRUE(app.item_rect("view:stale"));
  app.explore().show_map(true);

  // Pause: the run in flight finishes, then no more; the flock runs meanwhile.
  click(app, pause.cx(), pause.cy());
  ASSERT_TRUE(s.paused());
  // The run in flight finishes (however long a loaded or instrumented machine takes).
  EXPECT_LE(s.in_flight(), 1);  // one worker
  ASSERT_TRUE(idle(300000, [&] { return s.in_flight() == 0; }));
  const std::uint64_t at_pause = s.done();
  ASSERT_LT(at_pause, s.total()) << "the map was complete before Pause was clicked";
  idle(700);
  EXPECT_EQ(s.done(), at_pause);
  EXPECT_FALSE(app.item_rect("explore:flock waits"));
  EXPECT_FALSE(app.item_rect("explore:Pause"));
  app.explore().show_map(false);
  const std::uint64_t step1 = app.source().step();
  for (int i = 0; i < 5; ++i) app.frame();
  EXPECT_GT(app.source().step(), step1);
  EXPECT_FALSE(app.item_rect("view:stale"));
  app.explore().show_map(true);

  // Resume: runs finish again.
  const WidgetRect resume = button("explore:Resume");
  click(app, resume.cx(), resume.cy());
  EXPECT_FALSE(s.paused());
  EXPECT_TRUE(idle(60000, [&] { return s.done() > at_pause; }));

  // Cancel: the workers stop after their run; the map keeps what finished.
  const WidgetRect cancel = button("explore:Cancel");
  click(app, cancel.cx(), cancel.cy());
  ASSERT_TRUE(idle(60000, [&] { return !s.running(); }));
  const std::uint64_t at_cancel = s.done();
  idle(500);
  EXPECT_EQ(s.done(), at_cancel);
  ASSERT_LT(at_cancel, s.total() - spec.reps) << "cancelled too late to leave a cell without runs";
  const Image partial = screenshot(app, d / "partial.png");
  ASSERT_GT(partial.w, 0);
  std::set<std::uint64_t> finished;
  for (const auto& c : s.combos()) finished.insert(c.combination);
  ASSERT_FALSE(finished.empty());
  for (std::uint64_t c = 0; c < combination_count(spec); ++c) {
    const auto b = app.explore().cell_box(c);
    const std::uint8_t* px = partial.at(int((b->x0 + b->x1) / 2), int((b->y0 + b->y1) / 2));
    const bool grey = px[0] == 45 && px[1] == 48 && px[2] == 56;
    EXPECT_EQ(grey, !finished.count(c)) << "cell " << c;
  }

  // Resume after Cancel: the map completes, the same as one uninterrupted run.
  const WidgetRect again = button("explore:Resume");
  click(app, again.cx(), again.cy());
  s.wait();  // the workers stop when every run is made
  app.frame();
  ASSERT_TRUE(s.complete());
  SweepOptions two;
  two.jobs = 2;
  ASSERT_TRUE(run_sweep(spec, d / "sweep", two).complete);
  const std::string whole = slurp(d / "sweep" / "runs.csv");
  EXPECT_EQ(s.runs_csv(), whole);

  // Export: runs.csv and the map's SVG and PNG under the export folder.
  const WidgetRect exp = button("explore:Export");
  click(app, exp.cx(), exp.cy());
  EXPECT_EQ(slurp(d / "explore" / "runs.csv"), whole);
  EXPECT_NE(slurp(d / "explore" / "map.svg").find("<svg"), std::string::npos);
  const Image png = read_png(d / "explore" / "map.png");
  EXPECT_EQ(png.w, 800);
  EXPECT_EQ(png.h, 500);
  EXPECT_FALSE(app.message_is_error());
}

TEST(Explore, BadGridIsRefusedWithItsName) {
  Params base;
  try {
    explore_spec("x", base, {"nosuchkey=1:2:1"}, 1, 10);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nosuchkey"), std::string::npos) << e.what();
  }
  try {
    explore_spec("x", base, {"visualRange=5:1:1"}, 1, 10);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("smaller"), std::string::npos) << e.what();
  }
}

// A cell clicked in the window opens that run's flock: after N steps its state hash is the
// one `flockscope run` writes for the cell's values and seed.
TEST(Explore, ClickedCellIsTheFlockOfFlockscopeRun) {
  const fs::path d = explore_dir();
  GuiApp app(headless());
  app.explore().start(small_spec());
  ExploreSession& s = *app.explore().session();
  ASSERT_TRUE(frames_until(app, 60000, [&] { return s.complete(); }));
  app.frame();
  const std::uint64_t cell = 4;  // visualRange=60, centeringfactor=0.0002 (the first axis is outer)
  const auto box = app.explore().cell_box(cell);
  ASSERT_TRUE(box);
  // The right half of the cell: its second repeat (a cell's repeats lie side by side).
  const float x = box->x0 + (box->x1 - box->x0) * 0.75f, y = (box->y0 + box->y1) / 2;
  click(app, x, y);
  ASSERT_FALSE(app.explore().showing_map());
  const RunPoint pt = s.point(cell, 1);
  ASSERT_NE(pt.seed, s.point(cell, 0).seed);
  EXPECT_EQ(app.source().params().seed, std::int64_t(pt.seed));
  app.set_running(false);
  auto* local = dynamic_cast<LocalSource*>(&app.source());
  ASSERT_NE(local, nullptr);
  const std::uint64_t n = 300;
  ASSERT_LE(local->step(), n);
  local->advance(int(n - local->step()));
  ASSERT_EQ(local->step(), n);

  std::string sets;
  for (std::size_t a = 0; a < s.spec().axes.size(); ++a)
    sets += " --set " + s.spec().axes[a].key + "=" + s.spec().axes[a].labels[pt.value_index[a]];
  const auto r = sh(std::string(FLOCKSCOPE_BIN) + " run --preset cornell-pico-predator --set boids=60" + sets + " --seed " +
                    std::to_string(pt.seed) + " --steps " + std::to_string(n) + " --out " + (d / "run").string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto j = nlohmann::json::parse(slurp(d / "run" / "run.json"));
  EXPECT_EQ(local->flock().state_hash(), j.at("final_state_hash").get<std::uint64_t>());

  // Back returns to the map.
  const auto back = app.item_rect("button:Back to the map");
  ASSERT_TRUE(back);
  click(app, back->cx(), back->cy());
  EXPECT_TRUE(app.explore().showing_map());
}

// The headless flags write `flockscope sweep`'s runs.csv byte for byte, and a map.png.
TEST(Explore, HeadlessRunsCsvIsSweepsByteForByte) {
  const fs::path d = explore_dir();
  std::string grid_e, grid_s;
  for (const auto& g : kGrid) grid_e += " --explore-grid " + g, grid_s += " --grid " + g;
  const std::string common = " --preset cornell-pico-predator --set boids=60 --reps 2 --steps 150";
  const auto e = sh("SDL_VIDEODRIVER=offscreen " + std::string(FLOCKSCOPE_BIN) + common + grid_e + " --explore-out " +
                    (d / "map").string() + " --size 800x500");
  ASSERT_EQ(e.code, 0) << e.output;
  EXPECT_NE(e.output.find("frames/s"), std::string::npos) << e.output;
  const auto w = sh(std::string(FLOCKSCOPE_BIN) + " sweep" + common + grid_s + " --no-plots --out " + (d / "sweep").string());
  ASSERT_EQ(w.code, 0) << w.output;
  EXPECT_EQ(slurp(d / "map" / "runs.csv"), slurp(d / "sweep" / "runs.csv"));
  EXPECT_GT(fs::file_size(d / "map" / "map.png"), 1000u);
  EXPECT_TRUE(fs::exists(d / "map" / "map.svg"));
  // Half a pair of flags is refused.
  const auto bad = sh("SDL_VIDEODRIVER=offscreen " + std::string(FLOCKSCOPE_BIN) + " --explore-grid visualRange=1:2:1");
  EXPECT_EQ(bad.code, 2) << bad.output;
}

// The share going right is a measure of flocks with scout groups: the map refuses it for a
// preset without them (headless: exit 2, saying why), and for one with them it maps it on
// the shares' 0..1 scale from the sweep's own rows, byte for byte `flockscope sweep`'s.
TEST(Explore, ShareGoingRightIsMappedForScoutPresetsOnly) {
  const fs::path d = explore_dir();
  {
    GuiApp app(headless());
    app.explore().set_measure("mean_share_right");
    try {
      app.explore().start(small_spec());
      FAIL() << "no error";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("scout"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(app.explore().has_map());
    Params scouts = load_preset(resolve_preset("consensus-study"));
    scouts.boids = 40;
    app.explore().start(explore_spec("consensus-study", scouts, {"scouts1=0,10,20", "biasval=0.002,0.02"}, 2, 100));
    ASSERT_TRUE(frames_until(app, 60000, [&] { return app.explore().session()->complete(); }));
    app.frame();
    EXPECT_EQ(app.explore().shown_range().lo, 0);
    EXPECT_EQ(app.explore().shown_range().hi, 1);
  }
  const std::string bin = "SDL_VIDEODRIVER=offscreen " + std::string(FLOCKSCOPE_BIN);
  const auto refused = sh(bin + " --preset cornell-pico-predator --set boids=40 --explore-grid visualRange=20,40 --reps 1 --steps 20"
                                " --explore-measure final_share_right --explore-out " + (d / "refused").string());
  EXPECT_EQ(refused.code, 2) << refused.output;
  EXPECT_NE(refused.output.find("scout"), std::string::npos) << refused.output;
  EXPECT_FALSE(fs::exists(d / "refused" / "runs.csv"));

  const std::string common = " --preset consensus-study --set boids=40 --reps 2 --steps 100";
  const auto e = sh(bin + common + " --explore-grid scouts1=0,10,20 --explore-measure mean_share_right --explore-out " +
                    (d / "map").string() + " --size 800x500");
  ASSERT_EQ(e.code, 0) << e.output;
  const auto w = sh(std::string(FLOCKSCOPE_BIN) + " sweep" + common + " --grid scouts1=0,10,20 --out " + (d / "sweep").string());
  ASSERT_EQ(w.code, 0) << w.output;
  EXPECT_EQ(slurp(d / "map" / "runs.csv"), slurp(d / "sweep" / "runs.csv"));
  // sweep's own summary plots have the measure too (its flocks have scouts).
  EXPECT_TRUE(fs::exists(d / "sweep" / "plots" / "mean_share_right.png"));
  EXPECT_EQ(read_png(d / "map" / "map.png").w, 800);
}
