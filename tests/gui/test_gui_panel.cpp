// The control panel as a newcomer meets it, through the real window headless: a toolbar and a
// status line that stay put, sliders with units, a right-click back to the preset's value,
// undo, a fine drag with Shift, the active rule set's parameters in view, and the keys that
// quit.
#include <SDL.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "flockscope/core/io.hpp"
#include "gui_app.hpp"
#include "mouse_events.hpp"
#include "parameter_panel.hpp"

namespace fs = std::filesystem;
using namespace flockscope;
using namespace flockscope::gui;

namespace {

// Per process (other checkouts on the machine may run the same tests at the same time), and
// removed when the process ends.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("flockscope_test_gui_panel-" + std::to_string(getpid()));
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

fs::path test_dir() {
  static Scratch scratch;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path d = scratch.dir / info->name();
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}


double visual_range(GuiApp& app) { return app.source().pending_params().visualRange; }

}  // namespace

TEST(GuiPanel, AMessageDoesNotMoveTheControls) {
  GuiApp app(headless());
  const auto reset = settled_rect(app, "button:Reset");
  const auto slider = settled_rect(app, "param:visualRange");
  ASSERT_TRUE(reset && slider);
  app.export_all("/proc/flockscope-cannot-write-here");  // an error: a long red message
  ASSERT_TRUE(app.message_is_error());
  for (int i = 0; i < 3; ++i) app.frame();
  ASSERT_TRUE(app.item_rect("message"));
  const auto reset2 = app.item_rect("button:Reset");
  const auto slider2 = app.item_rect("param:visualRange");
  ASSERT_TRUE(reset2 && slider2);
  EXPECT_EQ(reset2->y0, reset->y0);
  EXPECT_EQ(slider2->y0, slider->y0);
  // The status line sits beside the toolbar, where the click was.
  const auto status = app.item_rect("status");
  const auto exp = app.item_rect("button:Export");
  ASSERT_TRUE(status && exp);
  EXPECT_LT(status->y0 - exp->y1, 40.0f);
}

TEST(GuiPanel, ExportRecordAndLargestFlockNeedNoScrolling) {
  for (const auto& [w, h] : {std::pair{1440, 900}, std::pair{1280, 800}}) {
    GuiApp app(headless(w, h));
    app.frame();
    app.frame();
    for (const char* name : {"button:Export", "button:Record", "largest", "button:Undo"}) {
      const auto r = app.item_rect(name);
      ASSERT_TRUE(r) << name << " at " << w << "x" << h;
      EXPECT_LT(r->y1, 150.0f) << name << " at " << w << "x" << h;  // in the toolbar at the top
    }
    // The Export button works from there: a click writes the files.
    const fs::path dir = test_dir();
    app.set_export_folder(dir.string());
    const auto e = *app.item_rect("button:Export");
    click(app, e.cx(), e.cy());
    EXPECT_FALSE(app.message_is_error()) << app.message();
    EXPECT_NE(app.message().find("exported"), std::string::npos) << app.message();
  }
}

TEST(GuiPanel, AFolderThatFailedIsNotSavedToSettings) {
  const fs::path dir = test_dir();
  const fs::path good = dir / "exports";
  ::setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
  {
    GuiOptions o = headless();
    o.use_ini = true;
    GuiApp app(o);
    app.frame();
    app.export_all(good);
    ASSERT_FALSE(app.message_is_error()) << app.message();
    app.set_export_folder("/proc/flockscope-cannot-write-here");
    app.export_all("/proc/flockscope-cannot-write-here");
    ASSERT_TRUE(app.message_is_error());
  }  // the window closes: settings.json is written
  ::unsetenv("XDG_CONFIG_HOME");
  std::ifstream in(dir / "config" / "flockscope" / "settings.json");
  ASSERT_TRUE(in);
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j.value("export_folder", ""), good.string());
}

TEST(GuiSliders, RightClickRestoresThePresetsValue) {
  GuiApp app(headless());
  const double preset = load_preset(resolve_preset("cornell-pico-predator")).visualRange;
  const auto r = settled_rect(app, "param:visualRange");
  ASSERT_TRUE(r);
  ASSERT_EQ(visual_range(app), preset);
  drag(app, r->cx(), r->cy(), r->x1 + 40);  // to the slider's end
  ASSERT_NE(visual_range(app), preset);
  click(app, r->cx(), r->cy(), SDL_BUTTON_RIGHT);
  EXPECT_EQ(visual_range(app), preset);
  EXPECT_EQ(app.source().params().visualRange, preset);  // and the flock has it
}

TEST(GuiSliders, ShiftDragIsTenTimesFiner) {
  GuiApp app(headless());
  const auto r = settled_rect(app, "param:visualRange");
  ASSERT_TRUE(r);
  const double start = visual_range(app);
  // A plain drag of 40 px: the value under the pointer, then 40 px further.
  drag(app, r->cx(), r->cy(), r->cx());
  const double at_press = visual_range(app);
  drag(app, r->cx(), r->cy(), r->cx() + 40);
  const double plain = visual_range(app) - at_press;
  ASSERT_GT(plain, 10.0);
  click(app, r->cx(), r->cy(), SDL_BUTTON_RIGHT);
  ASSERT_EQ(visual_range(app), start);
  // The same 40 px with Shift held: from where the value was, a tenth as far.
  push_key(SDL_KEYDOWN, SDLK_LSHIFT, KMOD_LSHIFT);
  drag(app, r->cx(), r->cy(), r->cx() + 40);
  push_key(SDL_KEYUP, SDLK_LSHIFT, KMOD_NONE);
  app.frame();
  const double fine = visual_range(app) - start;
  EXPECT_GT(fine, 0.0);
  EXPECT_LE(fine, plain / 10 + 1e-9) << "plain " << plain << " fine " << fine;
  EXPECT_NEAR(fine, plain / 10, plain / 10 * 0.25);
}

TEST(GuiSliders, UndoTakesBackTheLastChangeByKeyAndByButton) {
  GuiApp app(headless());
  const auto r = settled_rect(app, "param:visualRange");
  ASSERT_TRUE(r);
  const double start = visual_range(app);
  drag(app, r->cx(), r->cy(), r->x1 + 40);  // one drag, many frames: one undo step
  const double first = visual_range(app);
  ASSERT_NE(first, start);
  drag(app, r->cx(), r->cy(), r->x0 - 40);
  ASSERT_NE(visual_range(app), first);
  push_key(SDL_KEYDOWN, SDLK_z, KMOD_LCTRL);
  app.frame();
  push_key(SDL_KEYUP, SDLK_z, KMOD_NONE);
  app.frame();
  EXPECT_EQ(visual_range(app), first);
  EXPECT_NE(app.message().find("visualRange"), std::string::npos) << app.message();
  const auto undo = app.item_rect("button:Undo");
  ASSERT_TRUE(undo);
  click(app, undo->cx(), undo->cy());
  EXPECT_EQ(visual_range(app), start);
  EXPECT_EQ(app.source().params().visualRange, start);
}

TEST(GuiSliders, TheActiveRuleSetsParametersAreInView) {
  GuiApp app(headless(1280, 800));
  app.load_preset_file("report-baseline");
  for (int i = 0; i < 3; ++i) app.frame();
  for (const char* name : {"param:D_vis", "param:S_sep", "param:S_align", "param:S_coh", "param:V_max"}) {
    const auto r = app.item_rect(name);
    ASSERT_TRUE(r) << name;
    EXPECT_LT(r->y1, 800.0f) << name << " below the window";
  }
  EXPECT_FALSE(app.item_rect("param:visualRange")) << "a Cornell slider shown under the report rules";
  app.load_preset_file("blog-numpy");
  for (int i = 0; i < 3; ++i) app.frame();
  EXPECT_TRUE(app.item_rect("param:visualRange"));
  EXPECT_FALSE(app.item_rect("param:D_vis"));
  EXPECT_FALSE(app.item_rect("param:predatorRange"));  // the blog's boids ignore predators
}

TEST(GuiSliders, UnitsFollowDt) {
  Params p;
  p.dt = 1;
  EXPECT_EQ(unit_shown(*find_param("maxspeed"), p), "px/frame");
  EXPECT_STREQ(speed_unit(p), "px/frame");
  p.dt = 0.05;
  EXPECT_EQ(unit_shown(*find_param("maxspeed"), p), "px/time");
  EXPECT_EQ(unit_shown(*find_param("centeringfactor"), p), "1/step");
  EXPECT_EQ(unit_shown(*find_param("visualRange"), p), "px");
  EXPECT_STREQ(speed_unit(p), "px/time");
}

TEST(GuiKeys, EscapeAndCtrlQQuit) {
  for (const auto& [key, mods] : {std::pair{SDLK_ESCAPE, KMOD_NONE}, std::pair{SDLK_q, KMOD_LCTRL}}) {
    GuiApp app(headless());
    EXPECT_TRUE(app.frame());
    push_key(SDL_KEYDOWN, key, mods);
    EXPECT_FALSE(app.frame()) << SDL_GetKeyName(key);
    SDL_SetModState(KMOD_NONE);
  }
}

TEST(GuiView, RecIndicatorOnTheViewWhileRecording) {
  const fs::path dir = test_dir();
  GuiApp app(headless());
  app.frame();
  EXPECT_FALSE(app.item_rect("view:rec"));
  app.start_recording(dir / "r.flkrec");
  ASSERT_FALSE(app.message_is_error()) << app.message();
  app.frame();
  const auto rec = app.item_rect("view:rec");
  ASSERT_TRUE(rec);
  const auto view = app.view_rect();
  EXPECT_GE(rec->x0, view.x0);  // on the flock view, not in the panel
  EXPECT_LE(rec->x1, view.x1);
  app.stop_recording();
  app.frame();
  EXPECT_FALSE(app.item_rect("view:rec"));
}

TEST(GuiView, LegendListsTheKindsOnScreen) {
  GuiApp app(headless());
  app.load_preset_file("report-baseline");  // no scouts, no predators: nothing to tell apart
  app.frame();
  app.frame();
  EXPECT_FALSE(app.item_rect("view:legend"));
  app.load_preset_file("cornell-pico-predator");  // boids and a predator: two rows
  app.frame();
  app.frame();
  const auto two = app.item_rect("view:legend");
  ASSERT_TRUE(two);
  app.load_preset_file("cornell-consensus");  // boids and both scout groups: three rows
  app.frame();
  app.frame();
  const auto three = app.item_rect("view:legend");
  ASSERT_TRUE(three);
  EXPECT_NEAR((three->y1 - three->y0 - 4) / (two->y1 - two->y0 - 4), 1.5, 0.01);  // rows + 4 px of padding
}

TEST(GuiSources, LeavingABoardOrAReplayNamesWhereTheParametersCameFrom) {
  const fs::path dir = test_dir();
  GuiApp app(headless());
  app.frame();
  EXPECT_EQ(app.preset_label(), "cornell-pico-predator");
  app.connect_serial((dir / "no-such-port").string());  // keeps trying; nothing answers
  app.frame();
  app.disconnect_serial();
  app.frame();
  EXPECT_TRUE(app.source().simulated_here());
  EXPECT_EQ(app.preset_label(), "(the board's parameters)");
  // A replay, then back: no stale "replaying" line.
  app.start_recording(dir / "r.flkrec");
  app.set_running(true);
  for (int i = 0; i < 5; ++i) app.frame();
  app.stop_recording();
  app.open_replay(dir / "r.flkrec");
  ASSERT_NE(app.message().find("replaying"), std::string::npos) << app.message();
  app.frame();
  app.frame();
  const auto back = settled_rect(app, "button:Back to a local flock");
  ASSERT_TRUE(back);
  click(app, back->cx(), back->cy());
  EXPECT_TRUE(app.source().simulated_here());
  EXPECT_EQ(app.message().find("replaying"), std::string::npos) << app.message();
  EXPECT_EQ(app.preset_label(), "(the recording's parameters)");
}

TEST(GuiPlots, AReplayIsPlottedWholeWithAPlayheadOnItsFrame) {
  const fs::path dir = test_dir();
  GuiApp app(headless());
  app.load_preset_file("report-baseline");  // dt 0.05: plot time is steps x dt
  app.frame();
  app.start_recording(dir / "r.flkrec");
  app.set_running(true);
  for (int i = 0; i < 10; ++i) app.frame();
  app.set_running(false);
  app.stop_recording();
  const std::size_t recorded = app.plots().diameter.size();
  EXPECT_TRUE(std::isnan(app.playhead()));  // a local flock has none

  app.open_replay(dir / "r.flkrec");
  ASSERT_FALSE(app.message_is_error()) << app.message();
  app.frame();
  const auto& t = app.plots().diameter.t();
  ASSERT_GE(recorded, 11u);
  EXPECT_EQ(t.size(), 11u);  // every recorded frame (the start and 10 steps) before one is played
  EXPECT_EQ(t.size(), app.source().timeline()->frames());
  EXPECT_DOUBLE_EQ(app.playhead(), t[0]);
  // Scrub the timeline: the playhead follows, the plots stay as they are.
  const auto tl = settled_rect(app, "replay:timeline");
  ASSERT_TRUE(tl);
  drag(app, tl->cx(), tl->cy(), tl->x1 + 20);
  const Timeline* timeline = app.source().timeline();
  ASSERT_NE(timeline, nullptr);
  EXPECT_EQ(timeline->index(), timeline->frames() - 1);
  EXPECT_EQ(app.plots().diameter.t().size(), t.size());
  EXPECT_DOUBLE_EQ(app.playhead(), t.back());
  EXPECT_NEAR(t.back() - t.front(), 0.05 * double(timeline->step_at(timeline->frames() - 1) - timeline->step_at(0)), 1e-9);
}
