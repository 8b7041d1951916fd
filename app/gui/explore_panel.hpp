// The window's Explore panel: pick one or two parameters, repeats, steps and a measure; run
// the sweep in the background (ExploreSession) and watch its map fill in where the flock
// view was: a heatmap for two parameters, a line with its 95% interval for one. Hovering a
// cell shows its mean and interval; clicking it opens that run's flock (its parameters and
// seed) in the view; "Back to the map" returns. Export writes the map with the figure code
// of `flockscope sweep`'s summary plots, runs.csv and the map's setup (setup.json). A setup
// (explore_setup.hpp) saves to and loads from a JSON file; `flockscope sweep --setup FILE`
// makes the same runs headless.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "explore_session.hpp"
#include "explore_setup.hpp"
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
  // explore:Cancel, explore:Export, explore:Save setup and explore:Load setup; what they
  // report also goes to the window's status line (`messages`). Returns a setup loaded from
  // its file: the window takes its parameters (apply_setup takes the rest).
  std::optional<cli::ExploreSetup> controls(const Params& base, const std::string& preset, const std::string& folder,
                                            WidgetRects& rects, Messages& messages);
  // The map, filling the current ImGui window's free space. Returns the run to open when a
  // cell was clicked: the repeat under the cursor (a cell's repeats lie side by side).
  // `flock_waits`: the window's flock does not step while runs are made (busy()), and the
  // map says so (explore:flock waits in `rects`).
  std::optional<RunPoint> map(WidgetRects& rects, bool flock_waits);

  // Starts a map (replacing any other) and shows it. Throws InputError, also when the
  // measure is not one of this map's (the share going right without scout groups).
  void start(SweepSpec spec);
  // The same from a setup (its measure and workers too).
  void start(const cli::ExploreSetup& setup);

  // The setup the controls show, over these base parameters.
  cli::ExploreSetup setup(const Params& base, const std::string& preset) const;
  // Sets the controls to a setup's axes, repeats, steps, measure and workers.
  void apply_setup(const cli::ExploreSetup& setup);
  // The setup field's file (default FOLDER/explore-setup.json).
  const std::string& setup_file() const { return setup_file_; }
  void set_setup_file(const std::string& file) { setup_file_ = file; }
  ExploreSession* session() { return session_.get(); }
  bool has_map() const { return session_ != nullptr; }
  bool showing_map() const { return session_ && show_map_; }
  void show_map(bool show) { show_map_ = show; }
  // The default axes are parameters the flock's rules read: with the rules changed (a preset
  // of another rule set), axes the user has not picked follow them.
  void follow_rules(RuleSet rules);
  // The axes the controls show now (as a setup has them).
  std::vector<cli::ExploreAxis> axes() const { return picked_axes(); }
  // Worker threads of the next map (0: all cores but one, at least one).
  void set_jobs(int jobs) { jobs_ = jobs; }
  // Runs are being made (not paused): the window pauses its local flock meanwhile.
  bool busy() const { return session_ && session_->running() && !session_->paused(); }

  // The measure mapped: a key of sweep_views (final_diameter, mean_diameter, ...,
  // mean_share_right and final_share_right for flocks with scout groups).
  const std::string& measure() const { return measure_; }
  void set_measure(const std::string& key) { measure_ = key; }
  // DIR/runs.csv, DIR/map.svg, DIR/map.png and DIR/setup.json (the map's setup). Returns the
  // files written; throws on failure.
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
    std::vector<std::string> list;  // a setup's list of values (instead of from/to/count)
  };
  bool axis_controls(const char* id, AxisPick& a, bool optional, RuleSet rules);
  void unread_axis_warning(AxisPick& a, RuleSet rules, WidgetRects& rects);
  void pick(AxisPick& a, std::string_view name);
  void pick_defaults(RuleSet rules);
  std::vector<cli::ExploreAxis> picked_axes() const;
  void refresh();
  cli::SweepView view_of(const SweepSpec& spec) const;
  static void check_measure(const SweepSpec& spec, const std::string& key);

  AxisPick ax_[2];
  bool axes_default_ = true;  // not picked by the user: they follow the rules
  RuleSet defaults_for_ = RuleSet::Cornell;
  int reps_ = 2, steps_ = 1000, jobs_ = 0;
  std::string measure_ = "mean_diameter";
  std::unique_ptr<ExploreSession> session_;
  bool show_map_ = true;
  std::string message_;
  bool message_error_ = false;
  std::string setup_file_;
  std::optional<cli::ExploreSetup> map_setup_;  // the setup of the map shown
  std::uint64_t seen_revision_ = ~0ull;
  std::vector<ComboSummary> combos_;
  std::vector<Box> boxes_;  // per combination, last frame
  plot::Range shown_range_;
};

}  // namespace flockscope::gui
