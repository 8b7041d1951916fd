// The plots as a study uses them, headless: a plot's series picked from its right-click menu
// (share_right for the consensus preset), kept with the window's layout and named in the
// export's side file; the time axes linked (a zoom on one moves the others) and unlinked.
#include <SDL.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gui_app.hpp"
#include "mouse_events.hpp"
#include "screen_pixels.hpp"

namespace fs = std::filesystem;
using namespace flockscope;
using namespace flockscope::gui;

namespace {

fs::path fresh_dir(const std::string& name) { return fresh_test_dir("plots", name); }


fs::path exported(const GuiApp& app, const std::string& suffix) {
  for (const auto& f : app.last_export())
    if (f.string().ends_with(suffix)) return f;
  return {};
}

// Steps the (paused) flock n times in a few frames (every step is plotted).
void steps(GuiApp& app, int n) {
  app.set_steps_per_frame(std::max(1, n / 4));
  app.set_running(true);
  for (int done = 0; done < n; done += std::max(1, n / 4)) app.frame();
  app.set_running(false);
  app.set_steps_per_frame(1);
  app.frame();
}

// Right-clicks a plot and clicks `entry` in its menu ("plotmenu:share_right"), then closes
// the menu by clicking the plot's title row.
void menu_pick(GuiApp& app, const std::string& plot, const std::string& entry) {
  const auto r = app.item_rect("plot:" + plot);
  ASSERT_TRUE(r) << plot;
  click(app, r->cx(), r->cy(), SDL_BUTTON_RIGHT);
  ASSERT_TRUE(frames_at_most(app, 10, [&] { return app.item_rect(entry).has_value(); })) << entry;
  const auto e = app.item_rect(entry);
  click(app, e->x0 + 6, e->cy());
  click(app, r->x0 + 4, r->y0 + 4);  // outside the menu: it closes
  app.frame();
  ASSERT_FALSE(app.item_rect(entry).has_value()) << "the menu closed";
}

}  // namespace

TEST(GuiPlotChoice, APlotShowsShareRightForTheConsensusPreset) {
  GuiApp app(headless(1280, 800));
  app.load_preset_file("cornell-consensus");
  steps(app, 60);
  menu_pick(app, "diameter", "plotmenu:share_right");
  steps(app, 30);
  EXPECT_EQ(app.plots_panel().series("diameter"), (std::vector<std::string>{"diameter", "share_right"}));
  menu_pick(app, "diameter", "plotmenu:diameter");  // diameter off: share_right alone
  steps(app, 5);
  ASSERT_EQ(app.plots_panel().series("diameter"), (std::vector<std::string>{"share_right"}));
  EXPECT_TRUE(app.item_rect("legend:diameter:share right").has_value());
  EXPECT_FALSE(app.item_rect("legend:diameter:diameter").has_value());
  // The series is the engine's share_right of every step, and the plot's values fit it.
  const Series* s = app.plots().series("share_right");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->size(), app.plots().diameter.size());
  EXPECT_EQ(s->y().back(), app.source().metrics().share_right);
  const PlotView& v = app.plot_view(0);
  EXPECT_GT(v.last_columns, 0u);
  EXPECT_GE(v.y0, -0.2);
  EXPECT_LE(v.y1, 1.2);
  EXPECT_GT(v.y1, v.y0);
  // For a person to look at: the plot, and its menu open.
  const fs::path dir = test_dir();
  EXPECT_GT(screenshot(app, dir / "share_right.png").w, 0);
  const auto r = app.item_rect("plot:diameter");
  click(app, r->cx(), r->cy(), SDL_BUTTON_RIGHT);
  EXPECT_GT(screenshot(app, dir / "share_right_menu.png").w, 0);
  std::printf("screenshots: %s\n", dir.c_str());
}

TEST(GuiPlotChoice, EveryMetricOfTheTableIsPlottable) {
  for (const MetricsColumn& col : metrics_table()) {
    if (col.name == "step" || col.name == "time") continue;
    EXPECT_NE(find_plot_metric(col.name), nullptr) << col.name;
  }
  GuiApp app(headless());
  steps(app, 10);
  for (const PlotMetric& m : plot_metrics()) {
    const Series* s = app.plots().series(m.key);
    ASSERT_NE(s, nullptr) << m.key;
    EXPECT_GT(s->size(), 0u) << m.key;  // nearest neighbour and clusters: once per drawn frame
  }
}

TEST(GuiPlotChoice, TheChoiceIsKeptWithTheLayoutAndWrittenBesideTheFigures) {
  const fs::path dir = fresh_dir("layout");
  ::setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
  {
    GuiOptions o = headless();
    o.use_ini = true;
    GuiApp app(o);
    app.plots_panel().set_series("centroid", {"share_right", "clusters", "no-such-metric"});
    app.plots_panel().set_linked(false);
    app.frame();
  }
  {
    GuiOptions o = headless();
    o.use_ini = true;
    GuiApp app(o);
    EXPECT_EQ(app.plots_panel().series("centroid"), (std::vector<std::string>{"share_right", "clusters"}));
    EXPECT_FALSE(app.plots_panel().linked());
    app.set_export_folder((dir / "out").string());
    steps(app, 20);
    app.export_all(dir / "out");
    ASSERT_FALSE(app.message_is_error()) << app.message();
    const fs::path side = exported(app, "-plots.json");
    ASSERT_FALSE(side.empty());
    const auto j = nlohmann::json::parse(read_text(side));
    EXPECT_EQ(j["linked_time"], false);
    bool found = false;
    for (const auto& f : j["figures"])
      if (f["figure"].get<std::string>().ends_with("-centroid.svg")) {
        found = true;
        EXPECT_EQ(f["series"], (nlohmann::json{"share_right", "clusters"}));
      }
    EXPECT_TRUE(found) << j.dump(2);
    const std::string svg = read_text(exported(app, "-centroid.svg"));
    EXPECT_NE(svg.find("data-series=\"share right\""), std::string::npos);
    EXPECT_NE(svg.find("data-series=\"clusters\""), std::string::npos);
    EXPECT_EQ(svg.find("data-series=\"centroid x\""), std::string::npos);
  }
  ::unsetenv("XDG_CONFIG_HOME");
}

TEST(GuiPlotLink, ATimeZoomOnTheDiameterPlotMovesTheCentroidPlot) {
  GuiApp app(headless(1280, 800));
  steps(app, 150);
  ASSERT_TRUE(app.plots_panel().linked());
  ASSERT_TRUE(app.plot_view(1).autofit_x);
  wheel_over(app, "diameter", 4);
  const PlotView& d = app.plot_view(0);
  const PlotView& c = app.plot_view(1);
  ASSERT_FALSE(d.autofit_x);
  EXPECT_FALSE(c.autofit_x);
  EXPECT_EQ(c.x0, d.x0);
  EXPECT_EQ(c.x1, d.x1);
  EXPECT_EQ(app.plot_view(2).x0, d.x0);  // polarisation and speed too
  EXPECT_EQ(app.plot_view(3).x1, d.x1);
  // Unlinked (the menu's toggle): a zoom on the diameter moves it alone.
  menu_pick(app, "centroid", "plotmenu:link");
  ASSERT_FALSE(app.plots_panel().linked());
  const double c0 = c.x0, c1 = c.x1;
  wheel_over(app, "diameter", 3);
  EXPECT_NE(d.x1 - d.x0, c1 - c0);
  EXPECT_EQ(c.x0, c0);
  EXPECT_EQ(c.x1, c1);
}

namespace {
// The columns of `plot` (its item rect, less a margin) where two screenshots differ in more
// than a third of the rows: a vertical line drawn in one and not the other.
std::vector<int> changed_columns(const Image& a, const Image& b, const WidgetRect& plot) {
  std::vector<int> cols;
  const int x0 = int(plot.x0) + 2, x1 = int(plot.x1) - 2, y0 = int(plot.y0) + 2, y1 = int(plot.y1) - 2;
  for (int x = x0; x < x1; ++x) {
    int rows = 0;
    for (int y = y0; y < y1; ++y) {
      const std::uint8_t *p = a.at(x, y), *q = b.at(x, y);
      rows += std::abs(int(p[0]) - int(q[0])) + std::abs(int(p[1]) - int(q[1])) + std::abs(int(p[2]) - int(q[2])) > 20;
    }
    if (3 * rows > y1 - y0) cols.push_back(x);
  }
  return cols;
}
}  // namespace

// The time under the cursor on the mean speed plot is a line on the diameter and
// polarisation plots at the same time (the same column of each: the plots of a column of the
// grid are as wide and show the same times), and on no other column; unlinked, none. The
// mouse is on the grid's right column, the plots checked on its left: the hover read-out
// opens to the mouse's right, over neither.
TEST(GuiPlotLink, TheHoveredTimeIsALineOnTheOtherPlots) {
  const fs::path dir = test_dir();
  GuiApp app(headless(1280, 800));
  steps(app, 150);
  ASSERT_TRUE(app.plots_panel().linked());
  const auto speed = app.item_rect("plot:speed");
  const auto diameter = app.item_rect("plot:diameter");
  const auto polarisation = app.item_rect("plot:polarisation");
  ASSERT_TRUE(speed && diameter && polarisation);
  ASSERT_LT(diameter->x1, speed->x0);
  ASSERT_EQ(speed->x1 - speed->x0, diameter->x1 - diameter->x0);
  ASSERT_EQ(speed->x1 - speed->x0, polarisation->x1 - polarisation->x0);
  for (int v : {0, 2}) {
    ASSERT_EQ(app.plot_view(v).x0, app.plot_view(3).x0);
    ASSERT_EQ(app.plot_view(v).x1, app.plot_view(3).x1);
  }
  auto shot = [&](float x, float y, const char* name) {
    push_mouse(SDL_MOUSEMOTION, x, y);
    app.frame();
    app.frame();
    return screenshot(app, dir / name);
  };
  const float mx = speed->x0 + 0.4f * (speed->x1 - speed->x0);
  // Away: the mouse on the speed plot's title row (over the plot, not its time).
  const Image away = shot(mx, speed->y0 + 3, "away.png");
  const Image over = shot(mx, speed->y1 - 0.3f * (speed->y1 - speed->y0), "hover.png");
  ASSERT_GT(away.w, 0);
  ASSERT_GT(over.w, 0);
  ASSERT_FALSE(std::isnan(app.plot_view(3).hover_t));
  EXPECT_TRUE(std::isnan(app.plot_view(0).hover_t));
  for (const WidgetRect* r : {&*diameter, &*polarisation}) {
    const int expected = int(mx - speed->x0 + r->x0);
    const std::vector<int> cols = changed_columns(away, over, *r);
    EXPECT_FALSE(cols.empty()) << "no line at x " << expected << "; screenshots in " << dir;
    for (int x : cols) EXPECT_LE(std::abs(x - expected), 1) << "column " << x << ", expected " << expected;
  }
  std::printf("screenshots: %s\n", dir.c_str());

  // Unlinked: the hovered time stays on its plot.
  app.plots_panel().set_linked(false);
  const Image away2 = shot(mx, speed->y0 + 3, "away_unlinked.png");
  const Image over2 = shot(mx, speed->y1 - 0.3f * (speed->y1 - speed->y0), "hover_unlinked.png");
  EXPECT_TRUE(changed_columns(away2, over2, *diameter).empty());
  EXPECT_TRUE(changed_columns(away2, over2, *polarisation).empty());
}

namespace {

void tap(GuiApp& app, SDL_Keycode key) {
  push_key(SDL_KEYDOWN, key, KMOD_NONE);
  app.frame();
  push_key(SDL_KEYUP, key, KMOD_NONE);
  app.frame();
}

void type_text(GuiApp& app, const char* text) {
  SDL_Event e{};
  e.type = SDL_TEXTINPUT;
  std::snprintf(e.text.text, sizeof e.text.text, "%s", text);
  ASSERT_EQ(SDL_PushEvent(&e), 1);
  app.frame();
}

// Ctrl+click on a slider: its text field opens, every character selected.
void ctrl_click(GuiApp& app, const std::string& item) {
  const auto r = settled_rect(app, item);
  ASSERT_TRUE(r) << item;
  push_key(SDL_KEYDOWN, SDLK_LCTRL, KMOD_LCTRL);
  app.frame();
  click(app, r->cx(), r->cy());
  push_key(SDL_KEYUP, SDLK_LCTRL, KMOD_NONE);
  app.frame();
}

// The numbers of an SVG figure's value axis (its tick labels anchored at their end).
std::vector<double> y_ticks(const std::string& svg) {
  std::vector<double> out;
  const std::string mark = "class=\"tick\"";
  for (std::size_t at = svg.find(mark); at != std::string::npos; at = svg.find(mark, at + 1)) {
    const std::size_t end = svg.find("</text>", at), line = svg.find('\n', at);
    if (end == std::string::npos || end > line) continue;
    const std::string text = svg.substr(at, end - at);
    if (text.find("text-anchor=\"end\"") == std::string::npos) continue;
    out.push_back(std::strtod(text.substr(text.rfind('>') + 1).c_str(), nullptr));
  }
  return out;
}
}  // namespace

TEST(GuiPlotFixes, ANewRunStartsWithItsPlotsFitted) {
  GuiApp app(headless(1280, 800));
  steps(app, 120);
  wheel_over(app, "diameter", 5);
  ASSERT_FALSE(app.plot_view(0).autofit_x);
  // A map cell's run (or any new source): its first seconds are in view.
  RunPoint pt;
  pt.params = app.source().params();
  pt.seed = 3;
  app.open_explore_run(pt);
  app.set_running(false);
  app.frame();
  EXPECT_TRUE(app.plot_view(0).autofit_x);
  EXPECT_TRUE(app.plot_view(1).autofit_x);
  EXPECT_TRUE(app.plot_view(0).autofit_y);
}

TEST(GuiPlotFixes, TypingIntoALocalSliderAppliesTheCommittedValueOnly) {
  GuiApp app(headless(1280, 1000));
  app.frame();
  const double start = app.source().params().visualRange;
  ASSERT_NE(start, 47.0);
  const std::size_t markers = app.plots().param_changes.size();
  ctrl_click(app, "param:visualRange");
  type_text(app, "4");
  EXPECT_EQ(app.source().params().visualRange, start) << "a keystroke is not a value";
  type_text(app, "7");
  EXPECT_EQ(app.source().params().visualRange, start);
  tap(app, SDLK_RETURN);
  app.frame();
  EXPECT_EQ(app.source().params().visualRange, 47.0);
  EXPECT_EQ(app.plots().param_changes.size(), markers + 1);
  // Typed, then Esc: nothing changes, no marker, no undo step.
  ctrl_click(app, "param:visualRange");
  type_text(app, "9");
  tap(app, SDLK_ESCAPE);
  app.frame();
  EXPECT_EQ(app.source().params().visualRange, 47.0);
  EXPECT_EQ(app.plots().param_changes.size(), markers + 1);
  // Undo takes back the 47 (the only step), not an empty one.
  push_key(SDL_KEYDOWN, SDLK_z, KMOD_LCTRL);
  app.frame();
  push_key(SDL_KEYUP, SDLK_z, KMOD_NONE);
  app.frame();
  app.frame();
  EXPECT_EQ(app.message(), "undone: visualRange");
  EXPECT_EQ(app.source().params().visualRange, start);
}

TEST(GuiPlotFixes, TheExportedDiameterFitsItsDataOrTheScreensZoom) {
  const fs::path dir = fresh_dir("yrange");
  GuiApp app(headless(1280, 800));
  app.load_preset_file("report-vis25");  // a diameter far from 0
  steps(app, 80);
  app.export_all(dir);
  ASSERT_FALSE(app.message_is_error()) << app.message();
  const auto& d = app.plots().diameter.y();
  const double lo = *std::min_element(d.begin(), d.end());
  ASSERT_GT(lo, 20.0);
  const auto fitted = y_ticks(read_text(exported(app, "-diameter.svg")));
  ASSERT_GE(fitted.size(), 2u);
  EXPECT_GT(*std::min_element(fitted.begin(), fitted.end()), 0.5 * lo) << "the axis fits the data, not 0";
  // Zoomed values on screen (shift+wheel): the figure takes the screen's range.
  const auto r = app.item_rect("plot:diameter");
  ASSERT_TRUE(r);
  push_mouse(SDL_MOUSEMOTION, r->cx(), r->cy());
  app.frame();
  push_key(SDL_KEYDOWN, SDLK_LSHIFT, KMOD_LSHIFT);
  app.frame();
  SDL_Event wheel{};
  wheel.type = SDL_MOUSEWHEEL;
  wheel.wheel.y = -3;
  ASSERT_EQ(SDL_PushEvent(&wheel), 1);
  app.frame();
  push_key(SDL_KEYUP, SDLK_LSHIFT, KMOD_NONE);
  app.frame();
  const PlotView v = app.plot_view(0);
  ASSERT_FALSE(v.autofit_y);
  app.export_all(dir);
  const auto side = nlohmann::json::parse(read_text(exported(app, "-plots.json")));
  for (const auto& f : side["figures"])
    if (f["figure"].get<std::string>().ends_with("-diameter.svg")) {
      EXPECT_EQ(f["y"][0].get<double>(), v.y0);
      EXPECT_EQ(f["y"][1].get<double>(), v.y1);
    }
  const auto zoomed = y_ticks(read_text(exported(app, "-diameter.svg")));
  ASSERT_GE(zoomed.size(), 2u);
  EXPECT_GE(*std::min_element(zoomed.begin(), zoomed.end()), v.y0);
  EXPECT_LE(*std::max_element(zoomed.begin(), zoomed.end()), v.y1);
}

TEST(GuiPlotFixes, TheReadoutsTimeIsThePlotsTimeAcrossAReset) {
  GuiApp app(headless(1280, 800));
  steps(app, 20);
  tap(app, SDLK_r);
  steps(app, 10);
  const double t = app.plots().last_time();
  ASSERT_GT(t, 25.0);  // the plots' time went on across the reset
  char expect[32];
  std::snprintf(expect, sizeof expect, "   t %.4g   ", t);
  EXPECT_NE(app.view_readout().find(expect), std::string::npos) << app.view_readout() << " vs " << expect;
}

TEST(GuiPlotFixes, AfterClearThePlotsTimeStartsAtZero) {
  GuiApp app(headless(1280, 800));
  steps(app, 30);
  app.load_preset_file("cornell-pico-predator");
  steps(app, 40);
  app.clear_plots();
  steps(app, 10);
  ASSERT_GT(app.plots().diameter.size(), 5u);
  // The previous run starts at 0: the run after Clear starts there too, beside it.
  EXPECT_EQ(app.previous_plots().diameter.t().front(), 0.0);
  EXPECT_LE(app.plots().diameter.t().front(), 1.0);
}

// The keys' hint above the flock ends inside the window at the docs' 1280 px (it ran past the
// edge, cutting off S and R), and a wide window shows it whole.
TEST(GuiPlotFixes, TheKeysHintFitsItsRow) {
  float narrow = 0;
  for (int w : {1280, 1024, 1920}) {
    GuiApp app(headless(w, 800));
    app.frame();
    app.frame();
    const auto r = app.item_rect("view:keys");
    ASSERT_TRUE(r) << w;
    EXPECT_LE(r->x1, float(w)) << w;
    if (w == 1280) narrow = r->x1 - r->x0;
    if (w == 1920) {
      EXPECT_GT(r->x1 - r->x0, narrow);  // the whole hint
    }
  }
}

TEST(GuiPlotFixes, ASlidersLabelIsNeverCut) {
  GuiApp app(headless(1280, 1400));
  app.frame();
  const auto section = settled_rect(app, "section:Predators");
  ASSERT_TRUE(section);
  click(app, section->x0 + 30, section->cy());
  const auto label = settled_rect(app, "label:predatorturnfactor");
  ASSERT_TRUE(label) << "the Predators section opened";
  const float panel_right = 390;  // the control panel's width at 1280 px
  EXPECT_LE(label->x1, panel_right - 4) << "the whole label shows: " << label->x0 << ".." << label->x1;
  const auto slider = app.item_rect("param:predatorturnfactor");
  ASSERT_TRUE(slider);
  EXPECT_GT(slider->x1 - slider->x0, 90) << "the slider keeps a usable width";
}

namespace {
// The brightest pixel (mean of R, G, B: 0..255) of a widget in a screenshot: a slider's
// grab and its digits.
double brightness(const Image& img, const GuiApp::Rect& r) {
  double most = 0;
  for (int y = int(r.y0) + 1; y < int(r.y1) - 1; ++y)
    for (int x = int(r.x0) + 1; x < int(r.x1) - 1; ++x)
      most = std::max(most, (img.at(x, y)[0] + img.at(x, y)[1] + img.at(x, y)[2]) / 3.0);
  return most;
}
}  // namespace

// A replay's sliders take no drags: they look it (dimmer than ImGui's disabled default) and
// say why. The screenshots stay in the test's folder for a person to look at.
TEST(GuiPlotFixes, AReplaysSlidersLookDisabled) {
  const fs::path dir = test_dir();
  GuiApp app(headless(1280, 800));
  app.frame();
  app.start_recording(dir / "r.flkrec");
  steps(app, 8);
  app.stop_recording();
  const auto local_rect = settled_rect(app, "param:visualRange");
  ASSERT_TRUE(local_rect);
  const double local = brightness(screenshot(app, dir / "local.png"), *local_rect);
  EXPECT_FALSE(app.item_rect("params:read-only").has_value());
  app.open_replay(dir / "r.flkrec");
  ASSERT_FALSE(app.message_is_error()) << app.message();
  const auto r = settled_rect(app, "param:visualRange");
  ASSERT_TRUE(r);
  EXPECT_TRUE(app.item_rect("params:read-only").has_value()) << "the panel says why";
  const double replay = brightness(screenshot(app, dir / "replay.png"), *r);
  std::printf("slider brightness: local %.1f, replay %.1f (%s)\n", local, replay, dir.c_str());
  EXPECT_LT(replay, 0.5 * local);
  const double before = app.source().params().visualRange;
  drag(app, r->cx(), r->cy(), r->x1 + 30);
  EXPECT_EQ(app.source().params().visualRange, before);
}
