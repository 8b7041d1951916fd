// The window's export and plot clearing as a user meets them, headless: presets picked from
// the preset list, Run and Pause clicked, a plot zoomed with the wheel, a line hidden by its
// legend entry, the range chosen and Export clicked; then the files are read back.
#include <SDL.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "export.hpp"
#include "flockscope/core/io.hpp"
#include "gui_app.hpp"
#include "mouse_events.hpp"

namespace fs = std::filesystem;
using namespace flockscope;
using namespace flockscope::gui;

namespace {

fs::path fresh_dir(const std::string& name) { return fresh_test_dir("export", name); }

// Tall enough that the whole control panel fits without scrolling.
GuiOptions tall_window() { return headless(1280, 1500); }

// Clicks an item where it is once the panel has settled (a message shown after the last
// click moves the controls down a row).
void click(GuiApp& app, const std::string& item) {
  const auto r = settled_rect(app, item);
  ASSERT_TRUE(r.has_value()) << item;
  drag(app, r->cx(), r->cy(), r->cx());
}

// Opens the preset list and picks `name` in it.
void pick_preset(GuiApp& app, const std::string& name) {
  click(app, "preset:list");
  ASSERT_TRUE(frames_until(app, 2000, [&] { return app.item_rect("preset:" + name).has_value(); })) << name;
  click(app, "preset:" + name);
  app.frame();
}


fs::path exported(const GuiApp& app, const std::string& suffix) {
  for (const auto& f : app.last_export())
    if (f.string().size() >= suffix.size() && f.string().ends_with(suffix)) return f;
  return {};
}

// Run until the plots hold at least n points, then pause (both by clicking Run).
void run_for(GuiApp& app, std::size_t n) {
  click(app, "button:Run");
  ASSERT_TRUE(app.running());
  // A local flock steps once a frame while running: n frames and some to spare.
  ASSERT_TRUE(frames_at_most(app, int(n) + 200, [&] { return app.plots().diameter.size() >= n; }));
  click(app, "button:Run");
  ASSERT_FALSE(app.running());
}

}  // namespace

TEST(GuiExportFlow, VisibleRangeOfAZoomedPlotWithAHiddenLine) {
  const fs::path dir = fresh_dir("visible");
  GuiApp app(tall_window());
  app.set_export_folder(dir.string());
  app.frame();
  app.frame();
  pick_preset(app, "blog-numpy");
  ASSERT_FALSE(app.message_is_error()) << app.message();
  ASSERT_EQ(app.source().params().rules, int(RuleSet::Blog));
  run_for(app, 120);
  const std::size_t points = app.plots().diameter.size();

  // Zoom the centroid plot about its middle, then hide its "centroid x" line.
  wheel_over(app, "centroid", 4);
  const PlotView v = app.plot_view(1);
  ASSERT_FALSE(v.autofit_x);
  const double full = app.plots().diameter.t().back() - app.plots().diameter.t().front();
  ASSERT_LT(v.x1 - v.x0, 0.7 * full) << "the wheel zoomed in";
  click(app, "legend:centroid:centroid x");
  click(app, "export:visible");
  click(app, "button:Export");
  ASSERT_FALSE(app.message_is_error()) << app.message();

  // The CSV: the rows with time inside the zoomed range, and no centroid_x column.
  const auto rows = read_csv(exported(app, ".csv"));
  ASSERT_GE(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"time", "step", "diameter", "centroid_y", "polarisation", "mean_speed",
                                               "mean_nn_distance", "clusters", "perched", "speed_down", "speed_up",
                                               "food_distance", "predator_distance", "source", "run", "share_right",
                                               "share_left"}));
  const PlotData& d = app.plots();
  std::size_t expected = 0, first = d.diameter.size();
  for (std::size_t i = 0; i < d.diameter.size(); ++i)
    if (d.diameter.t()[i] >= v.x0 && d.diameter.t()[i] <= v.x1) ++expected, first = std::min(first, i);
  ASSERT_GT(expected, 5u);
  ASSERT_LT(expected, points);
  ASSERT_EQ(rows.size() - 1, expected);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const std::size_t i = first + r - 1;
    EXPECT_EQ(std::strtod(rows[r][0].c_str(), nullptr), d.diameter.t()[i]);
    EXPECT_EQ(std::strtod(rows[r][2].c_str(), nullptr), d.diameter.y()[i]);
    EXPECT_EQ(std::strtod(rows[r][3].c_str(), nullptr), d.cy.y()[i]);
  }

  // The figures name the preset and seed, and leave the hidden line out.
  const std::string seed = std::to_string(app.source().params().seed);
  const std::string centroid = read_text(exported(app, "-centroid.svg"));
  EXPECT_NE(centroid.find("Centroid (blog-numpy, seed " + seed + ", N = 300)"), std::string::npos) << centroid.substr(0, 2000);
  EXPECT_NE(centroid.find("data-series=\"centroid y\""), std::string::npos);
  EXPECT_EQ(centroid.find("data-series=\"centroid x\""), std::string::npos);
  EXPECT_NE(centroid.find("time t (steps x dt)"), std::string::npos);
  // Centroid y in the window's green (120, 220, 140).
  EXPECT_NE(centroid.find("\"#78dc8c\""), std::string::npos);
  const std::string diameter = read_text(exported(app, "-diameter.svg"));
  EXPECT_NE(diameter.find("blog-numpy, seed " + seed), std::string::npos);

  // The preset beside them loads back (as --preset FILE does) to the parameters of the run.
  const fs::path preset = exported(app, "-preset.json");
  ASSERT_FALSE(preset.empty());
  EXPECT_TRUE(load_preset(resolve_preset(preset.string())) == app.source().params());
}

// Two presets in a row: the plots hold the second flock alone, from its step 0, point for
// point the metrics of a flock built from that preset.
TEST(GuiExportFlow, LoadingTwoPresetsInARowKeepsOnlyTheSecondFlock) {
  GuiApp app(tall_window());
  app.frame();
  app.frame();
  pick_preset(app, "blog-numpy");
  run_for(app, 30);
  pick_preset(app, "cornell-consensus");
  ASSERT_EQ(app.source().params().boids, 1000);
  run_for(app, 20);
  const PlotData& d = app.plots();
  EXPECT_TRUE(d.resets.empty());
  ASSERT_EQ(d.steps.size(), d.diameter.size());
  Flock twin(load_preset(resolve_preset("cornell-consensus")));
  for (std::size_t i = 0; i < d.diameter.size(); ++i) {
    ASSERT_EQ(d.steps[i], double(i)) << "point " << i;
    if (i > 0) twin.step();
    EXPECT_EQ(d.diameter.y()[i], compute_step_metrics(view_of(twin), 1).diameter) << "point " << i;
  }
  // The time axis starts at the second flock's start.
  EXPECT_EQ(d.diameter.t().front(), 0.0);
  // The first flock's run is one click away, drawn in grey behind.
  EXPECT_GE(app.previous_plots().diameter.size(), 30u);
  EXPECT_FALSE(app.item_rect("legend:diameter:previous run").has_value());
  click(app, "plots:previous");
  app.frame();
  EXPECT_TRUE(app.item_rect("legend:diameter:previous run").has_value());
}

// A reset: the run column counts up and the step restarts, while time goes on; Clear plots
// empties them.
TEST(GuiExportFlow, ResetStartsRunTwoAndClearEmptiesThePlots) {
  const fs::path dir = fresh_dir("reset");
  GuiApp app(tall_window());
  app.set_export_folder(dir.string());
  app.frame();
  app.frame();
  run_for(app, 10);
  const std::size_t before = app.plots().diameter.size();
  click(app, "button:Reset");
  run_for(app, before + 10);
  click(app, "export:since-reset");
  click(app, "button:Export");
  ASSERT_FALSE(app.message_is_error()) << app.message();
  const auto rows = read_csv(exported(app, ".csv"));
  ASSERT_EQ(app.plots().resets.size(), 1u);
  ASSERT_EQ(rows.size() - 1, app.plots().diameter.size() - before);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    EXPECT_EQ(rows[r][1], std::to_string(r - 1)) << "the step restarts at the reset";
    EXPECT_EQ(rows[r][15], "2") << "the second run";
    EXPECT_EQ(rows[0][15], "run");
    EXPECT_GE(std::strtod(rows[r][0].c_str(), nullptr), app.plots().resets[0]) << "time goes on";
  }
  // The figure of everything: one line per run (none joins the runs), the reset marked.
  click(app, "export:everything");
  click(app, "button:Export");
  const std::string svg = read_text(exported(app, "-diameter.svg"));
  std::size_t lines = 0;
  for (std::size_t at = 0; (at = svg.find("<polyline class=\"line\" data-series=\"diameter\"", at)) != std::string::npos; ++at)
    ++lines;
  EXPECT_EQ(lines, 2u) << "two runs, two lines";
  EXPECT_NE(svg.find("data-series=\"reset\""), std::string::npos);
  std::size_t csvs = 0;  // two exports within a second: neither overwrites the other
  for (const auto& e : fs::directory_iterator(dir)) csvs += e.path().extension() == ".csv";
  EXPECT_EQ(csvs, 2u);
  click(app, "button:Clear plots");
  EXPECT_LE(app.plots().diameter.size(), 1u);
  EXPECT_TRUE(app.plots().resets.empty());
}

// One plot asked for: the CSV, the preset and that plot's two files, nothing else.
TEST(GuiExportFlow, OnePlotExportsOnlyThatPlot) {
  const fs::path dir = fresh_dir("one");
  GuiApp app(tall_window());
  app.set_export_folder(dir.string());
  app.frame();
  app.frame();
  run_for(app, 5);
  click(app, "export:plot");
  ASSERT_TRUE(frames_until(app, 2000, [&] { return app.item_rect("export:plot:centroid-path").has_value(); }));
  click(app, "export:plot:centroid-path");
  click(app, "button:Export");
  ASSERT_FALSE(app.message_is_error()) << app.message();
  ASSERT_EQ(app.last_export().size(), 5u);  // the CSV, the preset, the figure's SVG and PNG, its side file
  EXPECT_FALSE(exported(app, "-plots.json").empty());
  const std::string path = read_text(exported(app, "-centroid-path.svg"));
  EXPECT_NE(path.find("data-series=\"start\""), std::string::npos);
  EXPECT_NE(path.find("data-series=\"end\""), std::string::npos);
  EXPECT_NE(path.find("downwards"), std::string::npos);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 5u);
}

// share_right plotted for the consensus preset and exported: the CSV has it (and share_left)
// after the columns scripts read, with the plotted values exactly, so the figure's data is
// in the CSV; the columns before stay as they were.
TEST(GuiExportFlow, ThePlottableShareRightIsInTheCsv) {
  const fs::path dir = fresh_dir("share");
  GuiApp app(tall_window());
  app.set_export_folder(dir.string());
  pick_preset(app, "cornell-consensus");
  app.plots_panel().set_series("diameter", {"share_right"});
  run_for(app, 20);
  click(app, "button:Export");
  ASSERT_FALSE(app.message_is_error()) << app.message();
  const auto rows = read_csv(exported(app, ".csv"));
  ASSERT_GE(rows.size(), 21u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"time", "step", "diameter", "centroid_x", "centroid_y", "polarisation",
                                               "mean_speed", "mean_nn_distance", "clusters", "perched", "speed_down",
                                               "speed_up", "food_distance", "predator_distance", "source", "run",
                                               "share_right", "share_left"}));
  const PlotData& d = app.plots();
  const Series* right = d.series("share_right");
  const Series* left = d.series("share_left");
  ASSERT_TRUE(right && left);
  ASSERT_EQ(rows.size() - 1, d.diameter.size());
  ASSERT_EQ(right->size(), d.diameter.size());
  bool between = false;  // some step with boids going both ways: not a column of 0 or 1
  for (std::size_t r = 1; r < rows.size(); ++r) {
    ASSERT_EQ(rows[r].size(), 18u) << r;
    EXPECT_EQ(std::strtod(rows[r][0].c_str(), nullptr), d.diameter.t()[r - 1]);
    EXPECT_EQ(std::strtod(rows[r][16].c_str(), nullptr), right->y()[r - 1]);
    EXPECT_EQ(std::strtod(rows[r][17].c_str(), nullptr), left->y()[r - 1]);
    between = between || (right->y()[r - 1] > 0 && right->y()[r - 1] < 1);
  }
  EXPECT_TRUE(between);
  // The side file names the figure's series, whose column the CSV has.
  const auto side = nlohmann::json::parse(read_text(exported(app, "-plots.json")));
  EXPECT_NE(side.dump().find("share_right"), std::string::npos) << side.dump();
}

// A live slider dragged while the flock runs: one marker at the drag's start, on the plots
// and in the figures.
TEST(GuiExportFlow, ALiveChangeIsMarkedOnce) {
  const fs::path dir = fresh_dir("change");
  GuiApp app(tall_window());
  app.set_export_folder(dir.string());
  app.frame();
  app.frame();
  click(app, "button:Run");
  ASSERT_TRUE(frames_until(app, 5000, [&] { return app.plots().diameter.size() >= 5; }));
  const auto r = settled_rect(app, "param:visualRange");
  ASSERT_TRUE(r);
  push_mouse(SDL_MOUSEMOTION, r->cx(), r->cy());
  app.frame();
  push_mouse(SDL_MOUSEBUTTONDOWN, r->cx(), r->cy());
  app.frame();
  for (int i = 1; i <= 6; ++i) {  // a drag over six frames: six changes
    push_mouse(SDL_MOUSEMOTION, r->cx() + 8.0f * float(i), r->cy());
    app.frame();
  }
  push_mouse(SDL_MOUSEBUTTONUP, r->cx() + 48, r->cy());
  app.frame();
  click(app, "button:Run");
  ASSERT_EQ(app.plots().param_changes.size(), 1u);
  const auto& t = app.plots().diameter.t();
  EXPECT_NE(std::find(t.begin(), t.end(), app.plots().param_changes[0]), t.end()) << "at a plotted point";
  EXPECT_TRUE(app.plots().resets.empty());
  click(app, "button:Export");
  EXPECT_NE(read_text(exported(app, "-diameter.svg")).find("data-series=\"parameter change\""), std::string::npos);
}

// Open folder without xdg-open on the PATH: a message, the files still there, no crash.
TEST(GuiExportFlow, OpenFolderWithoutXdgOpenIsAMessage) {
  const fs::path dir = fresh_dir("open");
  GuiApp app(tall_window());
  app.set_export_folder(dir.string());
  app.frame();
  app.frame();
  EXPECT_FALSE(app.item_rect("button:Open folder").has_value()) << "nothing exported yet";
  click(app, "button:Export");
  ASSERT_FALSE(app.message_is_error()) << app.message();
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", (dir / "no-programs-here").c_str(), 1);
  click(app, "button:Open folder");
  setenv("PATH", path.c_str(), 1);
  EXPECT_TRUE(app.message_is_error());
  EXPECT_NE(app.message().find("cannot open " + dir.string() + ": xdg-open"), std::string::npos) << app.message();
  app.frame();
}

// The time column is steps x dt printed as written: with dt = 0.1 the third step is at 0.3
// (a running sum of dt gives 0.30000000000000004), and every row's time is its step / 10.
TEST(GuiExportFlow, TimeColumnIsStepsTimesDtPrintedCleanly) {
  const fs::path dir = fresh_dir("time");
  GuiOptions o = tall_window();
  o.sets = {"dt=0.1", "boids=50"};
  GuiApp app(o);
  app.set_export_folder(dir.string());
  app.frame();
  run_for(app, 40);
  app.export_all(dir);
  ASSERT_FALSE(app.message_is_error()) << app.message();
  const auto rows = read_csv(exported(app, ".csv"));
  ASSERT_GE(rows.size(), 41u);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const double step = std::strtod(rows[r][1].c_str(), nullptr);
    char want[32];
    std::snprintf(want, sizeof want, "%.10g", step / 10);
    EXPECT_EQ(rows[r][0], want) << "step " << rows[r][1];
  }
}
