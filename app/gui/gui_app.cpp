// Sections: config_dir | construction and settings | sources | events | update | frame and
// draw | actions (presets, export, recording, sources) | run_gui. The panels and the window's
// parts are in their own files (see gui_app.hpp).
#include "gui_app.hpp"

#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "figures.hpp"
#include "flockscope/core/io.hpp"
#include "serial_source.hpp"

namespace flockscope::gui {

namespace fs = std::filesystem;
using Clock = FrameClock::Clock;

// ---------------------------------------------------------------- config_dir
fs::path config_dir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  fs::path base = xdg && *xdg ? fs::path(xdg) : fs::path(home && *home ? home : "/tmp") / ".config";
  return base / "flockscope";
}

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

// ---------------------------------------------------------------- construction and settings
GuiApp::GuiApp(const GuiOptions& opt) : opt_(opt), config_dir_(config_dir()), running_(opt.start_running) {
  // What to show is settled before any window opens, so a bad preset or recording fails
  // without leaving SDL half set up.
  Params first_params;
  std::optional<Recording> first_recording;
  if (!opt.replay.empty()) {
    first_recording = Recording::load(opt.replay);
    if (first_recording->frames() == 0) throw InputError(opt.replay + ": the recording has no frames");
  } else {
    if (!opt.preset.empty()) first_params = load_preset(resolve_preset(opt.preset));
    edits_.reference() = first_params;
    for (const auto& s : opt.sets)
      if (auto err = apply_assignment(first_params, s)) throw InputError("--set " + s + ": " + *err);
    preset_name_ = opt.preset;
  }
  window_ = std::make_unique<SdlWindow>(opt.width, opt.height, opt.software, opt.vsync,
                                        opt.use_ini ? (config_dir_ / "imgui.ini").string() : std::string());
  if (opt.use_ini) {
    std::error_code ec;
    fs::create_directories(config_dir_, ec);
    std::ifstream in(config_dir_ / "settings.json");
    if (in) {
      try {
        const auto j = nlohmann::json::parse(in);
        export_.restore_folder(j.value("export_folder", export_.folder()));
        serial_panel_.set_port(j.value("serial_port", serial_panel_.port()));
        if (j.contains("plots")) plots_panel_.restore_layout(j["plots"]);
      } catch (const nlohmann::json::exception&) {  // a damaged settings file only loses settings
      }
    }
  }

  view_.set_density_colour(opt.density_colour);
  clock_.start();
  if (first_recording) {
    replay_path_ = opt.replay;
    set_source(std::make_unique<ReplaySource>(std::move(*first_recording), opt.replay));
  } else if (!opt.port.empty()) {
    serial_panel_.set_port(opt.port);
    set_source(std::make_unique<SerialSource>(opt.port, first_params));
  } else {
    set_source(std::make_unique<LocalSource>(first_params));
  }
}

GuiApp::~GuiApp() {
  stop_recording();
  if (opt_.use_ini) save_settings();
  view_.release_texture();
  window_.reset();  // the window closes before a board's link and a map's workers stop
}

void GuiApp::save_settings() {
  try {
    nlohmann::json j;
    if (!export_.saved_folder().empty()) j["export_folder"] = export_.saved_folder();  // never a folder that failed
    if (!serial_panel_.port().empty()) j["serial_port"] = serial_panel_.port();  // the port picker offers it next time
    j["plots"] = plots_panel_.layout();  // each plot's series, linked time axes
    write_text_file(config_dir_ / "settings.json", j.dump(2) + "\n");
  } catch (const std::exception&) {  // settings are a convenience; never fail on them
  }
}

// ---------------------------------------------------------------- sources
void GuiApp::set_source(std::unique_ptr<BoidSource> s, bool keep_plots) {
  stop_recording();
  const double dt = source_ ? source_->params().dt : 1.0;
  source_ = std::move(s);
  edits_.adopt(*source_);
  // A new run: its plots start fitted (a zoom of the last run would hide its first seconds).
  plots_panel_.fit_all();
  if (keep_plots && !source_->timeline())
    plots_.mark_reset(dt);  // the last source's points stay, to compare and export
  else
    plots_.clear();
  frame_times_.clear();
  view_.source_changed();
  if (const Timeline* tl = source_->timeline()) {
    // A replay plots all of its run at once; a playhead follows the frame shown.
    for (std::size_t i = 0; i < tl->frames(); ++i)
      frame_times_.push_back(plots_.push(tl->metrics_at(i), tl->time_at(i), tl->step_at(i), true));
    source_moved_ = true;
    return;
  }
  // A live source has nothing to plot until its first frame arrives.
  source_moved_ = !source_->live();
  if (source_moved_) push_plot_point();
}

double GuiApp::playhead() {
  const Timeline* tl = source_->timeline();
  return tl && tl->index() < frame_times_.size() ? frame_times_[tl->index()] : kNaN;
}

// ---------------------------------------------------------------- events
void GuiApp::process_events() {
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    if (window_->process(e)) quit_ = true;
    mouse_.handle(e);
    switch (e.type) {
      case SDL_QUIT: quit_ = true; break;
      case SDL_KEYDOWN: {
        const bool ctrl = (e.key.keysym.mod & KMOD_CTRL) != 0;
        if (ctrl && e.key.keysym.sym == SDLK_q) quit_ = true;
        if (ctrl && e.key.keysym.sym == SDLK_z && !ImGui::GetIO().WantTextInput) asked_.undo = true;
        if (!ImGui::GetIO().WantCaptureKeyboard && !ctrl) {
          // Esc closes an open list or tooltip first (Dear ImGui's own); only then the window.
          if (e.key.keysym.sym == SDLK_ESCAPE && !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) quit_ = true;
          if (e.key.keysym.sym == SDLK_SPACE) {
            if (source_->live())
              source_->set_paused(!source_->paused());  // a board pauses itself
            else
              running_ = !running_;
          }
          if (e.key.keysym.sym == SDLK_r) asked_.reset = true;
          if (e.key.keysym.sym == SDLK_s) asked_.step = true;
          if (e.key.keysym.sym == SDLK_f) view_.fit();
        }
        break;
      }
      default: break;
    }
  }
}

// ---------------------------------------------------------------- update
void GuiApp::update() {
  const auto t0 = Clock::now();
  FrameTimes& times = clock_.times();
  times.simulate = times.update_rest = 0;
  times.steps = 0;
  source_moved_ = false;
  // A live change is marked on the plots (one marker for a drag's run of changes).
  const ParamEdits::Applied applied = edits_.apply(*source_, clock_.frames());
  if (applied.new_marker) plots_.mark_param_change();
  if (applied.applied) recorder_.params(source_->params());
  if (asked_.reset) {
    asked_.reset = false;
    if (!source_->timeline()) plots_.mark_reset(source_->params().dt);
    source_->reset();
    edits_.reload(*source_);
    view_.clear_trail();
    source_moved_ = true;
    recorder_.params(source_->params(), /*always=*/true);
  }
  // While an Explore map runs, its workers have the cores: the flock waits (the map and the
  // view say so; a board runs by itself, below).
  int steps = running_ && !explore_.busy() ? steps_per_frame_ : 0;
  if (asked_.step) steps = std::max(steps, 1), asked_.step = false;
  if (source_->live()) steps = 1;  // a board runs by itself: take what came
  // Every step is plotted and recorded, not only the one drawn (a replay's run is plotted
  // already: its points only move the trail).
  const bool record = recorder_.active() && source_->recordable();
  const bool plot = !source_->timeline();
  int taken = 0;
  if (steps > 0) {
    const auto s0 = Clock::now();
    const bool moved = source_->advance(steps, [&] {
      ++taken;
      if (plot) push_plot_point();
      else view_.push_centroid(source_->metrics().centroid_x, source_->metrics().centroid_y);
      if (record) record_frame();
    });
    if (!moved && source_->ended()) running_ = false;
    times.simulate = ms_since(s0);
    times.steps = source_->live() ? taken : steps;
    source_moved_ = source_moved_ || moved;
  }
  for (auto& n : source_->take_notes()) note(n.text, n.error);
  // The source changed its parameters (a board's set read back, a change rejected).
  if (edits_.follow(*source_)) parameter_panel_.keep_uncommitted(edits_.edit());
  export_.reap();
  if (source_moved_ && taken == 0 && plot) {  // a reset without a step: its state is a point too
    push_plot_point();
    if (record) record_frame();
  }
  const LargestFlock::Outcome grown = largest_.update(*source_, clock_.seconds());
  if (grown.running) running_ = true;
  if (grown.grew) edits_.reload(*source_);
  if (grown.finished) note(*grown.finished, grown.short_of_target);
  times.update_rest = std::max(0.0, ms_since(t0) - times.simulate);
}

void GuiApp::record_frame() {
  try {
    recorder_.record_frame(*source_);
  } catch (const std::exception& e) {
    note(e.what(), true);
  }
}

void GuiApp::push_plot_point() {
  const Metrics& m = source_->metrics();
  plots_.push(m, source_->time(), source_->step(), source_->has_neighbour_metrics(), source_->metrics_source());
  view_.push_centroid(m.centroid_x, m.centroid_y);
}

// ---------------------------------------------------------------- frame and draw
bool GuiApp::frame() {
  const auto f0 = clock_.tick();

  // Events.
  process_events();
  window_->new_frame();
  mouse_.feed(ImGui::GetIO());
  ImGui::NewFrame();
  rects_.clear();

  int ww, wh;
  SDL_GetWindowSize(window_->window(), &ww, &wh);
  const float side_w = std::min(390.0f, float(ww) * 0.4f);
  const float plots_h = std::floor(float(wh) * 0.38f);
  const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  const auto u0 = Clock::now();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(side_w, float(wh)));
  ImGui::Begin("flockscope", nullptr, fixed);
  if (asked_.undo) undo(), asked_.undo = false;
  const BoidSource* shown = source_.get();
  const Params before = edits_.edit();
  controls_panel();
  // One undo step per change of the user's: a whole drag, a typed value, a preset loaded.
  if (source_.get() == shown) edits_.note_change(before);
  if (!ImGui::IsAnyItemActive()) edits_.end_change();
  ImGui::End();
  double ui_ms = ms_since(u0);

  // Update: the requests of this frame's clicks take effect before anything is drawn.
  update();

  const auto u1 = Clock::now();
  ImGui::SetNextWindowPos(ImVec2(side_w, 0));
  ImGui::SetNextWindowSize(ImVec2(float(ww) - side_w, float(wh) - plots_h));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6, 6));
  ImGui::Begin("Flock", nullptr, fixed | ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  if (explore_.showing_map()) {
    view_.skip_density();
    if (const auto pt = explore_.map(rects_, !source_->live())) open_explore_run(*pt);
  } else {
    if (explore_.has_map()) {
      if (ImGui::Button("Back to the map")) explore_.show_map(true);
      rects_.remember("button:Back to the map");
      ImGui::SameLine();
    }
    const double plot_time = source_->timeline() ? playhead() : plots_.diameter.size() ? plots_.last_time() : kNaN;
    view_.panel(*source_, {clock_.fps(), clock_.seconds(), recorder_.active(), recorder_.frames(), stale_view_text(), plot_time},
                rects_, window_->renderer());
  }
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::SetNextWindowPos(ImVec2(side_w, float(wh) - plots_h));
  ImGui::SetNextWindowSize(ImVec2(float(ww) - side_w, plots_h));
  ImGui::Begin("Plots", nullptr, fixed | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  plots_panel_.draw(plots_, source_->params(), playhead(), rects_,
                    show_previous_ && previous_plots_.diameter.size() > 0 ? &previous_plots_ : nullptr);
  ImGui::End();
  ImGui::Render();
  // The view's density pass ran inside its panel; it is timed on its own.
  clock_.times().density = view_.density_ms();
  clock_.times().ui = ui_ms + ms_since(u1) - view_.density_ms();

  draw();
  clock_.times().frame = ms_since(f0);
  return !quit_;
}

void GuiApp::draw() {
  // Build the boids' geometry from the state update() left, where triangles are drawn (timed
  // on its own: the budget).
  const auto g0 = Clock::now();
  view_.build_geometry(*source_);
  clock_.times().geometry = ms_since(g0);

  const auto r0 = Clock::now();
  SDL_Renderer* r = window_->renderer();
  SDL_SetRenderDrawColor(r, 12, 13, 17, 255);
  SDL_RenderClear(r);
  if (!explore_.showing_map()) view_.render(r, source_->params());  // the map takes the view's place
  window_->render_ui();
  // Screenshots read the finished frame back before it is presented.
  shots_.save(r, view_.rect(), messages_);
  SDL_RenderPresent(r);
  clock_.times().render = ms_since(r0);
}

// ---------------------------------------------------------------- actions
void GuiApp::load_preset_file(const std::string& name_or_file) {
  try {
    const Params p = load_preset(resolve_preset(name_or_file));
    preset_name_ = fs::path(name_or_file).stem().string();
    edits_.edit() = p;
    edits_.reference() = p;
    source_->set_params(p);
    asked_.reset = true;  // a preset is a new experiment: its world and seed apply now
    previous_plots_ = std::move(plots_);  // ... its plots start empty; the last run stays one click away
    clear_plots();
    plots_.time_offset = 0;  // the reset asked for starts the flock's time at 0
    note("preset loaded: " + name_or_file);
  } catch (const std::exception& e) {
    note(std::string("cannot load the preset: ") + e.what(), true);
  }
}

void GuiApp::take_setup_params(const cli::ExploreSetup& st) {
  // A setup is an experiment on a flock simulated here, even when a board or a recording was shown.
  if (!source_->simulated_here()) set_source(std::make_unique<LocalSource>(st.params));
  preset_name_ = st.preset.empty() ? std::string("(an Explore setup's parameters)") : st.preset;
  edits_.edit() = st.params;
  edits_.reference() = st.params;
  source_->set_params(st.params);
  asked_.reset = true;  // as a preset: the setup's world and seed apply now
  previous_plots_ = std::move(plots_);
  clear_plots();
}

void GuiApp::save_explore_setup(const fs::path& file) {
  try {
    cli::save_setup(explore_.setup(edits_.edit(), preset_name_), file);
    note("saved the Explore setup to " + file.string());
  } catch (const std::exception& e) {
    note(std::string("cannot save the setup: ") + e.what(), true);
  }
}

void GuiApp::load_explore_setup(const fs::path& file) {
  try {
    const cli::ExploreSetup st = cli::load_setup(file);
    explore_.apply_setup(st);
    take_setup_params(st);
    note("loaded the Explore setup " + file.string());
  } catch (const std::exception& e) {
    note(std::string("cannot load the setup: ") + e.what(), true);
  }
}

void GuiApp::export_all(const fs::path& folder) {
  export_.export_all(folder, plots_, plots_panel_, *source_, preset_name_, messages_);
}

void GuiApp::open_explore_run(const RunPoint& pt) {
  set_source(std::make_unique<LocalSource>(pt.params));
  preset_name_ = "map cell, seed " + std::to_string(pt.seed);
  running_ = true;
  note("opened the map's run " + std::to_string(pt.id) + " (seed " + std::to_string(pt.seed) + ")");
}

void GuiApp::clear_plots() {
  plots_.clear();
  // The plots' time starts again at 0 with the flock's next step, as a new run's does (so a
  // previous run drawn behind starts where this one does).
  if (!source_->timeline()) plots_.time_offset = -source_->time();
  view_.clear_trail();
  plots_panel_.fit_all();
}

// What lies over the flock view while the flock shown does not move on its own: an Explore
// map's workers have the cores, or a board's link is not up (empty: nothing).
std::string GuiApp::stale_view_text() {
  if (explore_.busy() && !source_->live())
    return "the flock waits while the Explore map runs\n(Pause or Cancel the map to run it)";
  BoardControls* board = source_->board();
  if (!board) return {};
  const link::LinkStatus st = board->link_status();
  if (st.state == link::LinkState::kConnected) return {};
  const char* what = st.state == link::LinkState::kReconnecting      ? "link lost: reconnecting"
                     : st.state == link::LinkState::kVersionMismatch ? "the board speaks another protocol version"
                                                                     : link::to_string(st.state);
  return std::string(what) + " (" + board->port() + ")\n" +
         (source_->boids().n > 0 ? "the flock shown is the last frame received" : "no frame received yet");
}

void GuiApp::start_recording(const fs::path& file) {
  try {
    recorder_.start(file, *source_);
    if (file.has_parent_path()) export_.took_file(file.parent_path().string());
    replay_path_ = file.string();
    note("recording to " + file.string());
  } catch (const std::exception& e) {
    note(std::string("cannot record: ") + e.what(), true);
  }
}

void GuiApp::stop_recording() {
  if (!recorder_.active()) return;
  const std::uint64_t frames = recorder_.stop();
  note("recorded " + std::to_string(frames) + " frames to " + recorder_.file().string());
}

void GuiApp::connect_serial(const std::string& port) {
  serial_panel_.set_port(port);
  set_source(std::make_unique<SerialSource>(port, source_->pending_params()));
  note("connecting to " + port);
}

void GuiApp::disconnect_serial() {
  const Params p = source_->params();
  set_source(std::make_unique<LocalSource>(p), /*keep_plots=*/true);  // the board's plots stay to export
  preset_name_ = "(the board's parameters)";
  edits_.reference() = p;
  note("disconnected; a local flock with the board's parameters");
}

void GuiApp::open_replay(const fs::path& file) {
  try {
    stop_recording();
    auto rs = std::make_unique<ReplaySource>(Recording::load(file), file.string());
    if (rs->frames() == 0) throw InputError(file.string() + ": the recording has no frames");
    replay_path_ = file.string();
    set_source(std::move(rs));
    note("replaying " + file.string());
  } catch (const std::exception& e) {
    note(std::string("cannot open the replay: ") + e.what(), true);
  }
}

// ---------------------------------------------------------------- run_gui
namespace {

// Draws the window while the map fills in, then writes DIR/runs.csv and DIR/map.png (and
// map.svg) and the screenshot. Prints the frames drawn per second while the map ran.
int run_explore_headless(GuiApp& app, const GuiOptions& opt, const std::string& screenshot) {
  SweepSpec spec = explore_spec(opt.preset, app.edited_params(), opt.explore_grid, opt.explore_reps, opt.explore_steps);
  app.explore().set_measure(opt.explore_measure);  // start() refuses one the map does not have
  app.explore().start(std::move(spec));
  ExploreSession& s = *app.explore().session();
  const auto t0 = Clock::now();
  std::uint64_t frames = 0;
  while (s.running()) {
    if (!app.frame()) return 1;
    ++frames;
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (const std::string err = s.error(); !err.empty()) throw std::runtime_error("the map stopped: " + err);
  if (!screenshot.empty()) app.request_screenshot(screenshot);
  app.frame();  // the finished map
  app.explore().export_files(opt.explore_out);
  std::printf("flockscope: explore map of %llu runs on %d worker threads in %.2f s while drawing %llu frames (%.1f frames/s); "
              "%s, %s\n",
              static_cast<unsigned long long>(s.total()), s.jobs(), seconds, static_cast<unsigned long long>(frames),
              seconds > 0 ? double(frames) / seconds : 0.0, (fs::path(opt.explore_out) / "runs.csv").c_str(),
              (fs::path(opt.explore_out) / "map.png").c_str());
  return !screenshot.empty() && app.message_is_error() ? 1 : 0;
}

}  // namespace

int run_gui(const GuiOptions& opt, int frames, const std::string& screenshot) {
  try {
    GuiApp app(opt);
    if (!opt.explore_grid.empty()) return run_explore_headless(app, opt, screenshot);
    if (frames > 0) {
      // Headless frames also measure: the frame-time split, averaged after two warm-up frames.
      FrameTimes sum;
      int counted = 0;
      for (int i = 0; i < frames; ++i) {
        if (i == frames - 1 && !screenshot.empty()) app.request_screenshot(screenshot);
        if (!app.frame()) break;
        if (i < 2 && frames > 4) continue;
        const FrameTimes& t = app.times();
        sum.simulate += t.simulate, sum.update_rest += t.update_rest, sum.density += t.density, sum.geometry += t.geometry;
        sum.render += t.render, sum.ui += t.ui, sum.frame += t.frame;
        ++counted;
      }
      if (counted > 0) {
        const double n = counted, boids = double(app.source().boids().n);
        std::printf("flockscope: %d frames of %.0f boids, ms per frame: simulate + metrics %.2f  rest of update %.2f  density %.2f "
                    "(%s)  geometry %.2f (%.2f ns/boid)  render %.2f  ui %.2f  total %.2f\n",
                    counted, boids, sum.simulate / n, sum.update_rest / n, sum.density / n,
                    app.density_weight() >= 1 ? "drawn" : app.density_weight() > 0 ? "faded in" : "not drawn", sum.geometry / n,
                    boids > 0 ? sum.geometry / n * 1e6 / boids : 0.0, sum.render / n, sum.ui / n, sum.frame / n);
      }
      if (!screenshot.empty() && app.message_is_error()) return 1;
      return 0;
    }
    while (app.frame()) {
    }
    return 0;
  } catch (const InputError& e) {
    std::fprintf(stderr, "flockscope: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr,
                 "flockscope: %s\n(no window without a display: run `flockscope run --preset NAME --out DIR` headless, "
                 "or draw offscreen with SDL_VIDEODRIVER=offscreen flockscope --frames N --screenshot FILE.png)\n",
                 e.what());
    return 1;
  }
}

}  // namespace flockscope::gui
