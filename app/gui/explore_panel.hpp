// The window's Explore panel: pick one or two parameters, repeats, steps and a measure; run
// the sweep in the background (ExploreSession) and watch its map fill in where the flock
// view was: a heatmap for two parameters, a line with its 95% interval for one. Hovering a
// cell shows its mean and interval; clicking it opens that run's flock (its parameters and
// seed) in the view; "Back to the map" returns. Export writes the map with the figure code
// of `flockscope sweep`'s summary plots, and runs.csv.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "explore_session.hpp"
#include "figures.hpp"
#include "panel_support.hpp"

namespace flockscope::gui {

class ExplorePanel {
 public:
  ExplorePanel();
  ~ExplorePanel();

  // The controls, in the side panel: `base` is what the sliders show (the sweep's base
  // parameters and seed), `preset` its name, `folder` where Export writes.
  // Its buttons go into `rects` as explore:Start map, explore:Pause, explore:Resume,
  // explore:Cancel and explore:Export.
  void controls(const Params& base, const std::string& preset, const std::string& folder, WidgetRects& rects);
  // The map, filling the current ImGui window's free space. Returns the run to open when a
  // cell was clicked: the repeat under the cursor (a cell's repeats lie side by side).
  // `flock_waits`: the window's flock does not step while runs are made (busy()), and the
  // map says so (explore:flock waits in `rects`).
  std::optional<RunPoint> map(WidgetRects& rects, bool flock_waits);

  // Starts a map (replacing any other) and shows it. Throws InputError, also when the
  // measure is not one of this map's (the share going right without scout groups).
  void start(SweepSpec spec);
  ExploreSession* session() { return session_.get(); }
  bool has_map() const { return session_ != nullptr; }
  bool showing_map() const { return session_ && show_map_; }
  void show_map(bool show) { show_map_ = show; }
  // Worker threads of the next map (0: all cores but one, at least one).
  void set_jobs(int jobs) { jobs_ = jobs; }
  // Runs are being made (not paused): the window pauses its local flock meanwhile.
  bool busy() const { return session_ && session_->running() && !session_->paused(); }

  // The measure mapped: a key of sweep_views (final_diameter, mean_diameter, ...,
  // mean_share_right and final_share_right for flocks with scout groups).
  const std::string& measure() const { return measure_; }
  void set_measure(const std::string& key) { measure_ = key; }
  // DIR/runs.csv, DIR/map.svg and DIR/map.png. Returns the files written; throws on failure.
  std::vector<std::filesystem::path> export_files(const std::filesystem::path& dir) const;

  // Where a map cell was drawn last frame (screen pixels), for tests that click it.
  struct Box {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  };
  std::optional<Box> cell_box(std::uint64_t combination) const;
  // The values the colours (two parameters) or the height (one) spanned last frame.
  plot::Range shown_range() const { return shown_range_; }
  const std::string& message() const { return message_; }

 private:
  struct AxisPick {
    int param = -1;  // index into the parameter table, -1 none
    double from = 0, to = 1;
    int count = 10;
    bool log = false;
  };
  bool axis_controls(const char* id, AxisPick& a, bool optional);
  std::string axis_spec(const AxisPick& a) const;
  void refresh();
  cli::SweepView view_of(const SweepSpec& spec) const;
  static void check_measure(const SweepSpec& spec, const std::string& key);

  AxisPick ax_[2];
  int reps_ = 2, steps_ = 1000, jobs_ = 0;
  std::string measure_ = "mean_diameter";
  std::unique_ptr<ExploreSession> session_;
  bool show_map_ = true;
  std::string message_;
  bool message_error_ = false;
  std::uint64_t seen_revision_ = ~0ull;
  std::vector<ComboSummary> combos_;
  std::vector<Box> boxes_;  // per combination, last frame
  plot::Range shown_range_;
};

}  // namespace flockscope::gui
