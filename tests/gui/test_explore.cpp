// The Explore map: its background sweep (ExploreSession) against `flockscope sweep`'s files,
// cancel and resume, and a map cell clicked through the real window (headless) against
// `flockscope run` with the same values and seed.
#include <SDL.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "../support/shell.hpp"
#include "explore_session.hpp"
#include "flockscope/core/io.hpp"
#include "gui_app.hpp"
#include "mouse_events.hpp"

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
