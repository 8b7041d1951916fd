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

// ---------------------------------------------------------------- saved setups
namespace {

// Opens the side panel's Explore section (collapsed until a map exists).
void open_explore_section(GuiApp& app) {
  const auto header = settled_rect(app, "header:Explore");
  ASSERT_TRUE(header);
  if (app.item_rect("explore:Save setup")) return;
  click(app, header->cx(), header->cy());
  app.frame();
  ASSERT_TRUE(app.item_rect("explore:Save setup"));
}

void click_button(GuiApp& app, const std::string& name) {
  const auto r = settled_rect(app, name);
  ASSERT_TRUE(r) << name;
  click(app, r->cx(), r->cy());
}

cli::ExploreSetup small_setup() {
  cli::ExploreSetup st;
  st.axes = {cli::ExploreAxis{"visualRange", 20, 60, 3, false, {}}, cli::ExploreAxis{"centeringfactor", 0.0002, 0.002, 2, true, {}}};
  st.repeats = 2, st.steps = 150, st.measure = "mean_polarisation", st.workers = 2;
  return st;
}

}  // namespace

// An Explore setup saved in one window, loaded in a new one and mapped there, and run from the
// command line (`flockscope sweep --setup FILE`): the same runs.csv byte for byte, as is the
// runs.csv of the setup written beside the exported map. Loading takes the setup's
// parameters into the sliders.
TEST(Explore, SetupSavedLoadedInANewWindowAndRunFromTheCliGivesTheSameRunsCsv) {
  const fs::path d = explore_dir();
  const fs::path file = d / "study" / "setup.json";
  Params saved;
  {
    GuiOptions o = headless(1280, 1500);
    o.preset = "cornell-pico-predator";
    o.sets = {"boids=60", "seed=7"};
    GuiApp a(o);
    a.set_export_folder(d.string());
    open_explore_section(a);
    a.explore().apply_setup(small_setup());
    a.explore().set_setup_file(file.string());
    click_button(a, "explore:Save setup");
    ASSERT_FALSE(a.message_is_error()) << a.message();
    EXPECT_NE(a.message().find("saved the Explore setup"), std::string::npos) << a.message();
    saved = a.edited_params();
  }
  ASSERT_TRUE(fs::exists(file));
  const auto j = nlohmann::json::parse(slurp(file));
  EXPECT_EQ(j.at("preset"), "cornell-pico-predator");
  EXPECT_EQ(j.at("seed"), 7);
  EXPECT_EQ(j.at("axes").size(), 2u);

  std::string window_csv;
  {
    GuiApp b(headless(1280, 1500));  // its own preset and 1,000 boids, until the setup is loaded
    b.set_export_folder(d.string());
    ASSERT_NE(b.edited_params(), saved);
    open_explore_section(b);
    b.explore().set_setup_file(file.string());
    click_button(b, "explore:Load setup");
    ASSERT_FALSE(b.message_is_error()) << b.message();
    EXPECT_EQ(b.edited_params(), saved);
    EXPECT_EQ(b.explore().measure(), "mean_polarisation");
    click_button(b, "explore:Start map");
    ASSERT_TRUE(b.explore().has_map()) << b.message();
    ExploreSession& s = *b.explore().session();
    EXPECT_EQ(s.total(), 12u);
    ASSERT_TRUE(frames_until(b, 120000, [&] { return s.complete(); }));
    window_csv = s.runs_csv();
    click_button(b, "explore:Export");
    ASSERT_GT(screenshot(b, d / "window.png").w, 0);  // for eyes: the panel after Load, Start and Export
    ASSERT_FALSE(b.message_is_error()) << b.message();
  }
  const auto cli = sh(std::string(FLOCKSCOPE_BIN) + " sweep --setup " + file.string() + " --no-plots --out " + (d / "cli").string());
  ASSERT_EQ(cli.code, 0) << cli.output;
  EXPECT_EQ(slurp(d / "cli" / "runs.csv"), window_csv);
  // The exported map names its setup beside it, and that setup makes the same runs.
  ASSERT_TRUE(fs::exists(d / "explore" / "setup.json"));
  EXPECT_EQ(slurp(d / "explore" / "runs.csv"), window_csv);
  const auto again = sh(std::string(FLOCKSCOPE_BIN) + " sweep --setup " + (d / "explore" / "setup.json").string() +
                        " --no-plots --out " + (d / "again").string());
  ASSERT_EQ(again.code, 0) << again.output;
  EXPECT_EQ(slurp(d / "again" / "runs.csv"), window_csv);
}

// A map started from sweep's own grid (the headless flags) keeps its exact values in the
// setup written beside it: a list (as sweep's labels), which `sweep --setup` runs to the
// same runs.csv.
TEST(Explore, SetupOfAGridMapKeepsItsValues) {
  const fs::path d = explore_dir();
  const auto e = sh("SDL_VIDEODRIVER=offscreen " + std::string(FLOCKSCOPE_BIN) +
                    " --preset cornell-pico-predator --set boids=40 --reps 2 --steps 60 --explore-grid visualRange=10:70:30"
                    " --explore-grid centeringfactor=0.0002,1e-3 --explore-out " + (d / "map").string() + " --size 800x500");
  ASSERT_EQ(e.code, 0) << e.output;
  const auto j = nlohmann::json::parse(slurp(d / "map" / "setup.json"));
  EXPECT_EQ(j.at("axes").at(1).at("values").dump(), "[0.0002,0.001]");
  const auto w = sh(std::string(FLOCKSCOPE_BIN) + " sweep --setup " + (d / "map" / "setup.json").string() + " --no-plots --out " +
                    (d / "sweep").string());
  ASSERT_EQ(w.code, 0) << w.output;
  EXPECT_EQ(slurp(d / "sweep" / "runs.csv"), slurp(d / "map" / "runs.csv"));
}

// A malformed setup file: one line naming the file, the field and what was expected (exit 2
// from the command line, red in the window's status line), never a crash.
TEST(Explore, MalformedSetupGetsAOneLineErrorNamingTheField) {
  const fs::path d = explore_dir();
  const std::string axis = R"({"key": "visualRange", "from": 10, "to": 50, "values": 3})";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{not json", "not valid JSON"},
      {"[1, 2]", "expected a JSON object"},
      {R"({"preset": "cornell-pico-predator", "repeats": 1, "steps": 10})", "axes: expected a list of one or two axes, missing"},
      {R"({"preset": "cornell-pico-predator", "axes": [], "repeats": 1, "steps": 10})", "axes: expected a list of one or two axes, got []"},
      {R"({"preset": "cornell-pico-predator", "axes": [{"key": "visualRange", "from": "ten", "to": 50, "values": 3}], "repeats": 1, "steps": 10})",
       R"(axes[0].from: expected a finite number, got "ten")"},
      {R"({"preset": "cornell-pico-predator", "axes": [{"key": "visualRang", "from": 1, "to": 50, "values": 3}], "repeats": 1, "steps": 10})",
       "axes[0].key: unknown parameter 'visualRang' (did you mean visualRange?)"},
      {R"({"preset": "cornell-pico-predator", "axes": [{"key": "visualRange", "from": 1, "to": 50, "values": 300}], "repeats": 1, "steps": 10})",
       "axes[0].values: expected a whole number from 1 to 100, got 300"},
      {R"({"preset": "cornell-pico-predator", "axes": [{"key": "visualRange", "from": -5, "to": 50, "values": 3}], "repeats": 1, "steps": 10})",
       "axes[0].from: expected a value of visualRange in [0, 10000] px, got -5"},
      {R"({"preset": "cornell-pico-predator", "axes": [)" + axis + R"(], "repeats": 2.5, "steps": 10})",
       "repeats: expected a whole number from 1 to 1000000, got 2.5"},
      {R"({"preset": "cornell-pico-predator", "axes": [)" + axis + R"(], "repeats": 1})", "steps: expected a whole number from 0 to 100000000, missing"},
      {R"({"preset": "cornell-pico-predator", "axes": [)" + axis + R"(], "repeats": 1, "steps": 10, "measure": "diameter"})",
       "measure: expected one of final_diameter"},
      {R"({"axes": [)" + axis + R"(], "repeats": 1, "steps": 10})", "params: expected the base parameters"},
      {R"({"preset": "cornell-pico-predator", "params": {"visualRange": "wide"}, "axes": [)" + axis + R"(], "repeats": 1, "steps": 10})",
       "params: visualRange"},
      {R"({"preset": "cornell-pico-predator", "axis": [], "repeats": 1, "steps": 10})", "axis: not a field of an Explore setup"},
  };
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const fs::path f = d / ("bad" + std::to_string(k) + ".json");
    write_text_file(f, cases[k].first);
    const auto r = sh(std::string(FLOCKSCOPE_BIN) + " sweep --setup " + f.string() + " --out " + (d / "out").string());
    EXPECT_EQ(r.code, 2) << cases[k].first << "\n" << r.output;
    EXPECT_NE(r.output.find(f.string() + ": "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(cases[k].second), std::string::npos) << cases[k].first << "\n" << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  }
  EXPECT_FALSE(fs::exists(d / "out" / "runs.csv"));
  // --setup names the parameters and axes: --preset or --grid beside it is refused.
  const auto both = sh(std::string(FLOCKSCOPE_BIN) + " sweep --setup " + (d / "bad0.json").string() +
                       " --grid visualRange=1,2 --out " + (d / "out").string());
  EXPECT_EQ(both.code, 2) << both.output;

  GuiApp app(headless(1280, 1500));
  const Params before = app.edited_params();
  open_explore_section(app);
  app.explore().set_setup_file((d / "bad4.json").string());
  click_button(app, "explore:Load setup");
  EXPECT_TRUE(app.message_is_error());
  EXPECT_NE(app.message().find("axes[0].from"), std::string::npos) << app.message();
  EXPECT_EQ(app.edited_params(), before);
}

// The progress bar's estimate of the time left: from the pace of the finished runs, none
// while paused.
TEST(Explore, SessionEstimatesTheTimeLeft) {
  ExploreSession s(small_spec(), 1);
  EXPECT_TRUE(std::isnan(s.seconds_left()));
  s.start();
  while (s.done() < 2 && s.running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const double left = s.seconds_left();
  if (!s.complete()) {
    EXPECT_TRUE(std::isfinite(left));
    EXPECT_GE(left, 0);
  }
  s.set_paused(true);
  EXPECT_TRUE(std::isnan(s.seconds_left()));
  s.set_paused(false);
  s.wait();
  EXPECT_TRUE(std::isnan(s.seconds_left()));
}

// ---------------------------------------------------------------- what a first study trips on
// The default axes are parameters the flock's rules read (the report's D_vis x S_coh for a
// report preset); an axis they do not read is named, in the panel with the rules' own
// parameters to take instead, and on the map.
TEST(Explore, AxesTheRulesDoNotReadAreNamedAndTheRulesOwnOffered) {
  const fs::path d = explore_dir();
  GuiOptions o = headless(1280, 1500);
  o.preset = "report-vis25";
  o.sets = {"boids=40"};
  GuiApp app(o);
  open_explore_section(app);
  const auto axes = app.explore().axes();
  ASSERT_EQ(axes.size(), 2u);
  for (const auto& a : axes) EXPECT_TRUE(find_param(a.key)->used_by_rules(RuleSet::Report)) << a.key;
  EXPECT_EQ(axes[0].key, "D_vis");
  EXPECT_EQ(axes[1].key, "S_coh");
  app.frame();
  EXPECT_FALSE(app.item_rect("explore:axis not read"));

  cli::ExploreSetup st;
  st.axes = {cli::ExploreAxis{"visualRange", 20, 40, 2, false, {}}};
  st.repeats = 1, st.steps = 20;
  app.explore().apply_setup(st);
  app.frame();
  // For eyes: the panel's warning and the rules' own parameters offered under the axis.
  ASSERT_GT(screenshot(app, d / "panel-axis-not-read.png").w, 0);
  EXPECT_TRUE(app.item_rect("explore:axis not read"));
  EXPECT_TRUE(app.item_rect("explore:use D_vis"));
  EXPECT_FALSE(app.item_rect("explore:use visualRange"));
  click_button(app, "explore:use S_align");
  ASSERT_EQ(app.explore().axes().size(), 1u);
  EXPECT_EQ(app.explore().axes()[0].key, "S_align");
  app.frame();
  EXPECT_FALSE(app.item_rect("explore:axis not read"));

  // A map along it says so over the map.
  app.explore().start(explore_spec("report-vis25", app.edited_params(), {"visualRange=20,40"}, 1, 20));
  ASSERT_TRUE(frames_until(app, 60000, [&] { return app.explore().session()->complete(); }));
  app.frame();
  ASSERT_GT(screenshot(app, d / "map-axis-not-read.png").w, 0);  // for eyes
  EXPECT_TRUE(app.item_rect("explore:map axis not read"));
  app.explore().start(explore_spec("report-vis25", app.edited_params(), {"D_vis=20,40"}, 1, 20));
  app.frame();
  EXPECT_FALSE(app.item_rect("explore:map axis not read"));
}

// A one-parameter map's export draws what the window draws: the mean with its 95% interval
// (Student's t over the repeats), and says so; not mean +- sd.
TEST(Explore, OneParameterExportDrawsTheWindowsInterval) {
  Params base = load_preset(resolve_preset("cornell-pico-predator"));
  base.boids = 60;
  const SweepSpec spec = explore_spec("cornell-pico-predator", base, {"visualRange=20:60:20"}, 3, 150);
  ExploreSession s(spec, 2);
  s.start();
  s.wait();
  const auto combos = s.combos();
  const auto views = cli::sweep_views(spec.kind);
  const auto view = *std::find_if(views.begin(), views.end(), [](const cli::SweepView& v) { return v.key == "mean_diameter"; });
  const plot::LinePlot lp = cli::sweep_line_plot(spec, combos, view);
  ASSERT_EQ(lp.series.size(), 1u);
  const plot::Series& se = lp.series[0];
  ASSERT_EQ(se.lo.size(), 3u);
  const std::size_t k = metric_index(spec, "mean_diameter");
  for (std::size_t i = 0; i < 3; ++i) {
    const Interval ci = mean_interval95(combos[i].metrics[k]);
    EXPECT_DOUBLE_EQ(se.lo[i], ci.lo);
    EXPECT_DOUBLE_EQ(se.hi[i], ci.hi);
  }
  EXPECT_NE(lp.title.find("95% interval"), std::string::npos) << lp.title;
  EXPECT_EQ(lp.title.find("sd"), std::string::npos) << lp.title;
}

// Export never writes over an earlier export: explore, then explore-2, and the window's
// status line says where the files went.
TEST(Explore, ExportGoesToANewFolderAndTheStatusLineSaysWhere) {
  const fs::path d = explore_dir();
  GuiApp app(headless(1280, 1500));
  app.set_export_folder(d.string());
  app.explore().start(small_spec());
  ASSERT_TRUE(frames_until(app, 60000, [&] { return app.explore().session()->complete(); }));
  click_button(app, "explore:Export");
  ASSERT_TRUE(fs::exists(d / "explore" / "runs.csv"));
  EXPECT_NE(app.message().find((d / "explore").string()), std::string::npos) << app.message();
  write_text_file(d / "explore" / "runs.csv", "kept\n");
  click_button(app, "explore:Export");
  EXPECT_EQ(slurp(d / "explore" / "runs.csv"), "kept\n");
  EXPECT_EQ(slurp(d / "explore-2" / "runs.csv"), app.explore().session()->runs_csv());
  EXPECT_TRUE(fs::exists(d / "explore-2" / "map.png"));
  EXPECT_TRUE(fs::exists(d / "explore-2" / "setup.json"));
  EXPECT_NE(app.message().find((d / "explore-2").string()), std::string::npos) << app.message();
  EXPECT_FALSE(app.message_is_error());
}

// The map's tick labels (the window's and the exported heatmap's): rounded to three
// significant digits, more only where neighbours would read alike; units from the parameter
// table.
TEST(Explore, TickLabelsAreRoundedAndAxesHaveUnits) {
  EXPECT_EQ(cli::tick_labels({"0.0088108", "0.0176216", "22.2222"}), (std::vector<std::string>{"0.00881", "0.0176", "22.2"}));
  EXPECT_EQ(cli::tick_labels({"1", "1.0001", "1.0002"}), (std::vector<std::string>{"1", "1.0001", "1.0002"}));
  EXPECT_EQ(cli::tick_labels({"inf", "true"}), (std::vector<std::string>{"inf", "true"}));
  EXPECT_EQ(cli::key_title("visualRange"), "visualRange (px)");
  EXPECT_EQ(cli::key_title("centeringfactor"), "centeringfactor (1/frame)");
  EXPECT_EQ(cli::key_title("S_coh"), "S_coh");
  // The exported heatmap's categories too.
  SweepSpec spec = small_spec();
  spec.axes[0] = parse_grid_axis("visualRange=10,32.2222,54.4444");
  spec.axes[1] = parse_grid_axis("centeringfactor=0.0088108,0.00128058");
  const plot::Heatmap hm = cli::sweep_heatmap(spec, {}, cli::sweep_views(spec.kind)[0]);
  EXPECT_EQ(hm.x_categories, (std::vector<std::string>{"10", "32.2", "54.4"}));
  EXPECT_EQ(hm.y_categories, (std::vector<std::string>{"0.00881", "0.00128"}));
  EXPECT_EQ(hm.x_label, "visualRange (px)");
}
