// GuiApp: the flockscope window (SDL2 + Dear ImGui 1.86 with the SDL_Renderer backend).
// A library class rather than code in main() so that tests drive the very same frame loop
// with synthetic SDL events and read back what it drew.
//
// One frame, in ImGui's example order: events (SDL events, then the control panel turns
// clicks into requests), update (apply requests, simulate or replay, metrics, recording),
// draw (the flock's geometry in one SDL_RenderGeometryRaw call, then ImGui's draw data: the
// density image of a crowded flock, the overlays, the plots and panels). The simulation never runs inside drawing code.
//
// GuiApp keeps that order and what ties the parts together (the source, the plots, the
// messages); each part is its own class. SdlWindow holds the window, its renderer and ImGui;
// MouseInput the mouse seen through events; FrameClock the frame rate and timings;
// ParamEdits the parameters the sliders show and their undo history; ScreenshotQueue the
// screenshots asked for. The control panel (controls_panel.cpp: source, run, stats, record)
// hosts the PresetsPanel, ParameterPanel, SerialPanel, ExplorePanel's controls and the
// ExportPanel; the FlockView (or the Explore map) and the PlotsPanel fill the rest of the
// window. SourceRecorder records, LargestFlock runs the lab's challenge. What the source can
// do, the source says (BoidSource).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "boid_source.hpp"
#include "explore_panel.hpp"
#include "export_panel.hpp"
#include "flock_view.hpp"
#include "frame_clock.hpp"
#include "largest_flock.hpp"
#include "mouse_input.hpp"
#include "panel_support.hpp"
#include "param_edits.hpp"
#include "parameter_panel.hpp"
#include "plot_data.hpp"
#include "plots_panel.hpp"
#include "presets_panel.hpp"
#include "screenshot_queue.hpp"
#include "sdl_window.hpp"
#include "serial_panel.hpp"
#include "source_recorder.hpp"

namespace flockscope::gui {

struct GuiOptions {
  std::string preset = "cornell-pico-predator";
  std::vector<std::string> sets;  // key=value overrides, as --set
  std::string replay;             // open this recording instead of a local flock
  std::string port;               // mirror the board on this serial port instead
  int width = 1440, height = 900;
  bool software = false;   // software renderer (headless drawing, tests)
  bool use_ini = true;     // imgui.ini and settings.json under $XDG_CONFIG_HOME/flockscope
  bool vsync = true;
  bool start_running = true;
  // What colours the flock view's density image of a crowded flock (the view's "colour").
  DensityColour density_colour = DensityColour::Count;
  // Headless Explore map (run_gui): these grid axes, as `flockscope sweep --grid`; the map
  // is drawn until complete, then DIR/runs.csv and DIR/map.png (and .svg) are written.
  std::vector<std::string> explore_grid;
  std::uint64_t explore_reps = 1, explore_steps = 1000;
  std::string explore_out, explore_measure = "mean_diameter";
};

class GuiApp {
 public:
  // Opens the window and the renderer and starts a local flock from the options' preset.
  // Throws std::runtime_error with SDL's reason (no display, ...) or InputError (bad preset).
  explicit GuiApp(const GuiOptions& opt);
  ~GuiApp();
  GuiApp(const GuiApp&) = delete;
  GuiApp& operator=(const GuiApp&) = delete;

  // One whole frame: events, update, draw, present. Returns false once the user closed the
  // window.
  bool frame();

  // Saves the next drawn frame (all of it, or only the flock view) as PNG; the result shows
  // in message(). Returns immediately; the file is written during the next frame().
  void request_screenshot(const std::filesystem::path& file, bool flock_view_only = false) {
    shots_.request(file, flock_view_only);
  }

  BoidSource& source() { return *source_; }
  // A new source of boids; its plots start empty unless `keep_plots` (the last source's
  // points stay, a reset marker between them), and every plot fits its data again.
  void set_source(std::unique_ptr<BoidSource> s, bool keep_plots = false);
  PlotData& plots() { return plots_; }
  const PlotData& previous_plots() const { return previous_plots_; }
  const FrameTimes& times() const { return clock_.times(); }
  bool running() const { return running_; }
  void set_running(bool r) { running_ = r; }
  void set_steps_per_frame(int n) { steps_per_frame_ = n; }
  // The plot time of a replay's current frame (the plots' playhead); NaN for other sources.
  double playhead();

  // The last message shown in the window (errors in red) and whether it is an error.
  const std::string& message() const { return messages_.text(); }
  bool message_is_error() const { return messages_.is_error(); }
  // What the panel names a flock simulated here by: its preset, or where its parameters came
  // from (a board, a recording).
  const std::string& preset_label() const { return preset_name_; }

  // Where a named widget was drawn last frame ("param:visualRange", "button:Reset", ...),
  // for tests that click and drag like a user.
  using Rect = WidgetRect;
  std::optional<Rect> item_rect(const std::string& name) const { return rects_.find(name); }
  // The flock view's canvas and the world-to-screen transform used to draw it last frame.
  Rect view_rect() const { return view_.rect(); }
  // The flock view's read-out as drawn last frame ("boids 300   fps 60   step 12   t 12 ...").
  const std::string& view_readout() const { return view_.readout(); }
  ViewTransform view_transform() const { return view_.transform(); }
  // The flock view's density pass as drawn last frame (its counts, and how much of the
  // picture it is: 0 triangles only, 1 density only), and its colouring.
  const DensityImage& view_density() const { return view_.density(); }
  bool view_density_counted() const { return view_.density_counted(); }
  double density_weight() const { return view_.density_weight(); }
  void set_density_colour(DensityColour c) { view_.set_density_colour(c); }

  // Actions the panels offer, callable directly (tests, the command line).
  // A preset is a new experiment: its world and seed apply now and the plots start empty.
  void load_preset_file(const std::string& name_or_file);
  // Exports with the Export section's choices (rows, plots); the files written are in
  // last_export().
  void export_all(const std::filesystem::path& folder);
  const std::vector<std::filesystem::path>& last_export() const { return export_.last_export(); }
  // Empties the plots (the flock goes on; its next step is the first point).
  void clear_plots();
  // A plot's view (0 diameter, 1 centroid, 2 polarisation, 3 speed, 4 path) as drawn last frame.
  const PlotView& plot_view(std::size_t i) const { return plots_panel_.view(i); }
  // The plots panel: which series each plot draws, linked time axes.
  PlotsPanel& plots_panel() { return plots_panel_; }
  void start_recording(const std::filesystem::path& file);
  void stop_recording();
  void open_replay(const std::filesystem::path& file);
  // Mirrors the board on this port (keeps trying until it answers); disconnect goes back to
  // a local flock with the board's parameters.
  void connect_serial(const std::string& port);
  void disconnect_serial();
  void set_export_folder(const std::string& dir) { export_.set_folder(dir); }
  // The Explore panel (its map, its session); open_explore_run loads a map cell's run into a
  // local flock, as `flockscope run` would start it.
  ExplorePanel& explore() { return explore_; }
  void open_explore_run(const RunPoint& pt);
  // An Explore setup file: saved from the panel's choices over the sliders' parameters;
  // loaded, its parameters become the sliders' (as a preset's do) and the panel takes the rest.
  void save_explore_setup(const std::filesystem::path& file);
  void load_explore_setup(const std::filesystem::path& file);
  // The parameters the sliders show (an Explore map's base).
  const Params& edited_params() const { return edits_.edit(); }

  SDL_Renderer* renderer() { return window_->renderer(); }
  SDL_Window* window() { return window_->window(); }

 private:
  void process_events();
  // controls_panel.cpp
  void controls_panel();
  void toolbar();
  void scrolled_controls();
  void undo();
  void update();
  void draw();
  void push_plot_point();  // the source's current step
  void record_frame();
  void note(std::string text, bool error = false) { messages_.note(std::move(text), error); }
  void take_setup_params(const cli::ExploreSetup& setup);
  void save_settings();
  std::string stale_view_text();

  GuiOptions opt_;
  std::filesystem::path config_dir_;
  std::unique_ptr<SdlWindow> window_;  // opened once the options were found good
  bool quit_ = false;

  std::unique_ptr<BoidSource> source_;
  std::string preset_name_;
  ParamEdits edits_;
  // What this frame's keys and buttons asked of the update (undo: before the panels draw).
  struct Requests {
    bool reset = false, step = false, undo = false;
  };
  Requests asked_;
  bool running_ = true;
  int steps_per_frame_ = 1;
  bool source_moved_ = false;
  MouseInput mouse_;
  FrameClock clock_;

  FlockView view_;
  PlotData plots_;
  PlotData previous_plots_;     // the run before the last preset loaded ...
  bool show_previous_ = false;  // ... drawn in grey when asked for
  std::vector<double> frame_times_;  // a replay's plot time of each frame
  PlotsPanel plots_panel_;
  PresetsPanel presets_;
  ParameterPanel parameter_panel_;
  SerialPanel serial_panel_;
  ExportPanel export_;

  LargestFlock largest_;
  SourceRecorder recorder_;
  std::string replay_path_;  // the replay field: the last recording made or opened
  ScreenshotQueue shots_;
  Messages messages_;
  WidgetRects rects_;
  ExplorePanel explore_;
};

// The window's main loop until the user quits; `frames` > 0 draws that many frames, saves
// `screenshot` (if given) and returns. Prints a one-line reason and returns non-zero when
// there is no display.
int run_gui(const GuiOptions& opt, int frames, const std::string& screenshot);

// $XDG_CONFIG_HOME/flockscope (else ~/.config/flockscope); created on demand.
std::filesystem::path config_dir();

}  // namespace flockscope::gui
