// Sections: helpers (XDG, PNG, colours) | construction | events | controls panel (source,
// run, presets, parameters, stats, record/replay, export) | update | flock view | plots |
// draw | actions (presets, export, recording) | run_gui
#include "gui_app.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "export.hpp"
#include "figures.hpp"
#include "flockscope/core/io.hpp"
#include "ports.hpp"
#include "wire_params.hpp"

namespace flockscope::gui {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// ---------------------------------------------------------------- helpers
fs::path config_dir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  fs::path base = xdg && *xdg ? fs::path(xdg) : fs::path(home && *home ? home : "/tmp") / ".config";
  return base / "flockscope";
}

std::string write_png(const fs::path& file, int w, int h, const std::uint8_t* rgba) {
  if (!stbi_write_png(file.c_str(), w, h, 4, rgba, w * 4)) return file.string() + ": cannot write the PNG";
  return {};
}

namespace {
// Only the subsystems are shut down, never SDL_Quit(): SDL_Quit unloads the libraries SDL
// opened at run time (D-Bus, ...), whose own leftovers then show up as leaks under ASan;
// the process exits right after anyway.
constexpr Uint32 kSdlSystems = SDL_INIT_VIDEO | SDL_INIT_TIMER;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

constexpr ImU32 kColD = IM_COL32(120, 190, 255, 255);
constexpr ImU32 kColX = IM_COL32(255, 170, 70, 255);
constexpr ImU32 kColY = IM_COL32(120, 220, 140, 255);
constexpr ImU32 kColPath = IM_COL32(200, 150, 255, 255);
constexpr ImU32 kColPol = IM_COL32(255, 120, 160, 255);
constexpr ImU32 kColSpeed = IM_COL32(240, 220, 100, 255);
constexpr ImU32 kPredator = IM_COL32(255, 70, 70, 255);
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const ImVec4 kReset(1.0f, 0.78f, 0.35f, 1.0f);
const ImVec4 kOutsideRange(0.55f, 0.16f, 0.10f, 1.0f);  // a board value beyond this app's range

// Which panel section a parameter belongs to, by name (the table's order is the wire's).
const char* section_of(std::string_view name) {
  static const std::pair<const char*, const char*> map[] = {
      {"width", "World (reset)"}, {"height", "World (reset)"}, {"boids", "World (reset)"},
      {"predators", "World (reset)"}, {"seed", "World (reset)"}, {"rules", "Rules"},
      {"cohesion", "Rules"}, {"separation", "Rules"}, {"alignment", "Rules"}, {"dt", "Rules"},
      {"update", "Rules"}, {"predatorRange", "Predators"}, {"predatorturnfactor", "Predators"}, {"scouts1", "Scout groups"},
      {"scouts2", "Scout groups"}, {"biasval", "Scout groups"}, {"dynamicbias", "Scout groups"},
      {"maxbias", "Scout groups"}, {"bias_increment", "Scout groups"}, {"bias_target", "Scout groups"}, {"S_sep", "Report rules"},
      {"S_align", "Report rules"}, {"S_coh", "Report rules"}, {"D_sep", "Report rules"},
      {"D_vis", "Report rules"}, {"V_max", "Report rules"}, {"report_divisor", "Report rules"}};
  for (const auto& [n, s] : map)
    if (name == n) return s;
  return "Cornell rules";
}

std::string timestamp() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char s[32];
  std::strftime(s, sizeof s, "%Y%m%d-%H%M%S", &tm);
  return s;
}

std::string default_export_dir() {
  const char* home = std::getenv("HOME");
  return (fs::path(home && *home ? home : "/tmp") / "flockscope").string();
}

bool input_text(const char* label, std::string& s) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, "%s", s.c_str());
  if (ImGui::InputText(label, buf, sizeof buf)) {
    s = buf;
    return true;
  }
  return false;
}
}  // namespace

void PlotData::clear() {
  for (Series* s : {&diameter, &cx, &cy, &polarisation, &speed}) s->clear();
  steps.clear();
  nn.clear();
  clusters.clear();
  from_state.clear();
  board_spans.clear();
  resets.clear();
  time_offset = 0;
}

void PlotData::mark_source(double t, bool state) {
  const bool after_board = !from_state.empty() && !from_state.back();
  from_state.push_back(state ? 1 : 0);
  if (state) return;
  if (after_board && !board_spans.empty())
    board_spans.back().t1 = t;
  else
    board_spans.push_back({t, t});
}

// ---------------------------------------------------------------- construction
GuiApp::GuiApp(const GuiOptions& opt) : opt_(opt), running_(opt.start_running), export_dir_(default_export_dir()) {
  // What to show is settled before any window opens, so a bad preset or recording fails
  // without leaving SDL half set up.
  Params first_params;
  std::optional<Recording> first_recording;
  if (!opt.replay.empty()) {
    first_recording = Recording::load(opt.replay);
    if (first_recording->frames() == 0) throw InputError(opt.replay + ": the recording has no frames");
  } else {
    if (!opt.preset.empty()) first_params = load_preset(resolve_preset(opt.preset));
    for (const auto& s : opt.sets)
      if (auto err = apply_assignment(first_params, s)) throw InputError("--set " + s + ": " + *err);
    preset_name_ = opt.preset;
  }
  // The software renderer draws into a plain surface: without this hint SDL may back the
  // window with a GL texture (EGL, Mesa, LLVM loaded just to copy pixels).
  if (opt.software) SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
  if (SDL_InitSubSystem(kSdlSystems) != 0) throw std::runtime_error(std::string("no display: ") + SDL_GetError());
  SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear");
  window_ = SDL_CreateWindow("flockscope", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, opt.width, opt.height,
                             SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  if (!window_) {
    const std::string err = SDL_GetError();
    SDL_QuitSubSystem(kSdlSystems);
    throw std::runtime_error("cannot open a window: " + err);
  }
  Uint32 flags = opt.software ? SDL_RENDERER_SOFTWARE : SDL_RENDERER_ACCELERATED;
  if (opt.vsync && !opt.software) flags |= SDL_RENDERER_PRESENTVSYNC;
  renderer_ = SDL_CreateRenderer(window_, -1, flags);
  if (!renderer_ && !opt.software) renderer_ = SDL_CreateRenderer(window_, -1, SDL_RENDERER_SOFTWARE);
  if (!renderer_) {
    const std::string err = SDL_GetError();
    SDL_DestroyWindow(window_);
    SDL_QuitSubSystem(kSdlSystems);
    throw std::runtime_error("cannot create a renderer: " + err);
  }

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  config_dir_ = config_dir();
  io.IniFilename = nullptr;  // never the working directory
  if (opt.use_ini) {
    std::error_code ec;
    fs::create_directories(config_dir_, ec);
    ini_path_ = (config_dir_ / "imgui.ini").string();
    io.IniFilename = ini_path_.c_str();
    std::ifstream in(config_dir_ / "settings.json");
    if (in) {
      try {
        const auto j = nlohmann::json::parse(in);
        export_dir_ = j.value("export_folder", export_dir_);
        port_path_ = j.value("serial_port", port_path_);
      } catch (const nlohmann::json::exception&) {  // a damaged settings file only loses settings
      }
    }
  }
  ImGui::StyleColorsDark();
  ImGuiStyle& st = ImGui::GetStyle();
  st.WindowRounding = 0;
  st.FrameRounding = 3;
  st.GrabRounding = 3;
  st.WindowBorderSize = 0;
  st.ItemSpacing = ImVec2(7, 5);
  st.Colors[ImGuiCol_WindowBg] = ImVec4(0.09f, 0.10f, 0.12f, 1.0f);
  st.Colors[ImGuiCol_Header] = ImVec4(0.20f, 0.27f, 0.38f, 1.0f);
  // DejaVu Sans (Debian's fonts-dejavu-core) reads better than the built-in bitmap font.
  const char* font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (fs::exists(font)) io.Fonts->AddFontFromFileTTF(font, 15.0f);
  ImGui_ImplSDL2_InitForSDLRenderer(window_);
  ImGui_ImplSDLRenderer_Init(renderer_);

  start_ = last_frame_ = Clock::now();
  if (first_recording) {
    replay_path_ = opt.replay;
    set_source(std::make_unique<ReplaySource>(std::move(*first_recording)));
  } else if (!opt.port.empty()) {
    port_path_ = opt.port;
    set_source(std::make_unique<SerialSource>(opt.port, first_params));
  } else {
    set_source(std::make_unique<LocalSource>(first_params));
  }
}

GuiApp::~GuiApp() {
  stop_recording();
  if (opt_.use_ini) save_settings();
  ImGui_ImplSDLRenderer_Shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
  SDL_DestroyRenderer(renderer_);
  SDL_DestroyWindow(window_);
  SDL_QuitSubSystem(kSdlSystems);
}

void GuiApp::save_settings() {
  try {
    nlohmann::json j;
    j["export_folder"] = export_dir_;
    if (!port_path_.empty()) j["serial_port"] = port_path_;  // the port picker offers it next time
    write_text_file(config_dir_ / "settings.json", j.dump(2) + "\n");
  } catch (const std::exception&) {  // settings are a convenience; never fail on them
  }
}

void GuiApp::set_source(std::unique_ptr<BoidSource> s) {
  stop_recording();
  source_ = std::move(s);
  edit_ = source_->pending_params();
  params_revision_ = source_->params_revision();
  plots_.clear();
  centroid_trail_.clear();
  cam_fit_ = true;
  // A live source has nothing to plot until its first frame arrives.
  source_moved_ = !source_->live();
  if (source_moved_) push_plot_point();
}

void GuiApp::note(std::string text, bool error) {
  message_ = std::move(text);
  message_error_ = error;
  std::fprintf(error ? stderr : stdout, "flockscope: %s\n", message_.c_str());
}

void GuiApp::remember(const std::string& name) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  rects_[name] = {a.x, a.y, b.x, b.y};
}

std::optional<GuiApp::Rect> GuiApp::item_rect(const std::string& name) const {
  const auto it = rects_.find(name);
  if (it == rects_.end()) return std::nullopt;
  return it->second;
}

// ---------------------------------------------------------------- events
void GuiApp::process_events() {
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    ImGui_ImplSDL2_ProcessEvent(&e);
    switch (e.type) {
      case SDL_QUIT: quit_ = true; break;
      case SDL_WINDOWEVENT:
        if (e.window.event == SDL_WINDOWEVENT_CLOSE && e.window.windowID == SDL_GetWindowID(window_)) quit_ = true;
        if (e.window.event == SDL_WINDOWEVENT_LEAVE) mouse_x_ = mouse_y_ = -1e30f;
        break;
      case SDL_MOUSEMOTION: mouse_x_ = float(e.motion.x), mouse_y_ = float(e.motion.y); break;
      case SDL_MOUSEBUTTONDOWN:
      case SDL_MOUSEBUTTONUP: {
        const int b = e.button.button == SDL_BUTTON_LEFT ? 0 : e.button.button == SDL_BUTTON_RIGHT ? 1 : e.button.button == SDL_BUTTON_MIDDLE ? 2 : -1;
        mouse_x_ = float(e.button.x), mouse_y_ = float(e.button.y);
        if (b >= 0) {
          mouse_down_[b] = e.type == SDL_MOUSEBUTTONDOWN;
          if (mouse_down_[b]) mouse_clicked_[b] = true;  // a click shorter than a frame still counts
        }
        break;
      }
      case SDL_KEYDOWN:
        if (!ImGui::GetIO().WantCaptureKeyboard) {
          if (e.key.keysym.sym == SDLK_SPACE) {
            if (auto* serial = dynamic_cast<SerialSource*>(source_.get()))
              serial->set_paused(!serial->board_paused());  // a board pauses itself
            else
              running_ = !running_;
          }
          if (e.key.keysym.sym == SDLK_r) reset_requested_ = true;
          if (e.key.keysym.sym == SDLK_s) step_requested_ = true;
          if (e.key.keysym.sym == SDLK_f) cam_fit_ = true, cam_follow_ = false;
        }
        break;
      default: break;
    }
  }
}

// ---------------------------------------------------------------- controls panel
void GuiApp::controls_panel() {
  const std::string_view kind = source_->kind();
  const bool local = kind == "local", replay = kind == "replay";
  auto* serial = dynamic_cast<SerialSource*>(source_.get());
  if (!message_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, message_error_ ? ImVec4(1, 0.45f, 0.4f, 1) : ImVec4(0.6f, 0.9f, 0.6f, 1));
    ImGui::TextWrapped("%s", message_.c_str());
    ImGui::PopStyleColor();
    remember("message");
    if (ImGui::SmallButton("dismiss")) message_.clear();
    ImGui::Separator();
  }

  // Source and run controls.
  ImGui::Text("Source: %s", local ? "local flock" : replay ? "replay" : "board");
  ImGui::SameLine();
  ImGui::TextDisabled("%s", local ? preset_name_.c_str() : replay ? replay_path_.c_str() : serial->port().c_str());
  if (serial) {
    // The board runs by itself: Pause and Resume are commands to it.
    ImGui::BeginDisabled(!serial->connected());
    if (ImGui::Button(serial->board_paused() ? "Resume" : "Pause", ImVec2(70, 0))) serial->set_paused(!serial->board_paused());
    remember("button:Run");
    ImGui::EndDisabled();
  } else {
    if (ImGui::Button(running_ ? "Pause" : "Run", ImVec2(70, 0))) running_ = !running_;
    remember("button:Run");
    ImGui::SameLine();
    if (ImGui::Button("Step")) step_requested_ = true;
    remember("button:Step");
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset")) reset_requested_ = true;
  remember("button:Reset");
  if (local || serial) {
    ImGui::SameLine();
    if (ImGui::Button("New seed")) {
      edit_.seed = (edit_.seed + 1) % 4294967296LL;
      params_changed_ = reset_requested_ = true;
    }
  }
  if (!serial) {
    ImGui::SetNextItemWidth(150);
    ImGui::SliderInt("steps per frame", &steps_per_frame_, 1, 50, "%d", ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic);
  }

  if (replay) {
    auto* rs = static_cast<ReplaySource*>(source_.get());
    int idx = int(rs->index());
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderInt("##timeline", &idx, 0, int(std::max<std::size_t>(rs->frames(), 1) - 1), "frame %d")) {
      rs->seek(std::size_t(idx));
      source_moved_ = false;
    }
    remember("replay:timeline");
    if (ImGui::Button("Back to a local flock")) {
      Params p = rs->recording().params();
      set_source(std::make_unique<LocalSource>(p));
      return;
    }
  }

  // Presets.
  if (local && ImGui::CollapsingHeader("Presets", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::SetNextItemWidth(200);
    if (ImGui::BeginCombo("preset", preset_name_.c_str())) {
      for (const auto& name : preset_names())
        if (ImGui::Selectable(name.c_str(), name == preset_name_)) load_preset_file(name);
      ImGui::EndCombo();
    }
    if (preset_path_.empty()) preset_path_ = (fs::path(export_dir_) / "my-preset.json").string();
    ImGui::SetNextItemWidth(200);
    input_text("##presetfile", preset_path_);
    ImGui::SameLine();
    if (ImGui::Button("Load")) load_preset_file(preset_path_);
    ImGui::SameLine();
    if (ImGui::Button("Save")) {
      try {
        fs::create_directories(fs::path(preset_path_).parent_path());
        save_preset(edit_, preset_path_, "saved from the flockscope window");
        note("preset saved: " + preset_path_);
      } catch (const std::exception& e) {
        note(std::string("cannot save the preset: ") + e.what(), true);
      }
    }
  }

  // The panel may switch sources (connect, disconnect): this frame's panel ends there.
  if (ImGui::CollapsingHeader("Board (serial port)", serial ? ImGuiTreeNodeFlags_DefaultOpen : 0) && serial_panel()) return;

  if (ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) parameter_widgets();

  if (ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) {
    const auto b = source_->boids();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    ImGui::Text("boids %zu   predators %zu", b.n, source_->predators().size());
    ImGui::Text("frame rate %.1f fps   elapsed %.0f s", fps_, elapsed);
    ImGui::Text("step %" PRIu64 "   sim time %.1f", source_->step(), source_->time());
    const double per_step = times_.steps > 0 ? times_.simulate / times_.steps : 0;
    ImGui::Text("simulate + metrics %.2f ms (%.2f ms/step)  rest %.2f ms", times_.simulate, per_step, times_.update_rest);
    ImGui::Text("geometry %.2f ms (%.1f ns/boid)  render %.2f ms", times_.geometry,
                b.n ? times_.geometry * 1e6 / double(b.n) : 0.0, times_.render);
    if (local) {
      ImGui::Checkbox("Largest flock", &largest_);
      remember("largest");
      ImGui::SameLine();
      ImGui::SetNextItemWidth(90);
      ImGui::InputFloat("target fps", &target_fps_, 0, 0, "%.0f");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The lab's challenge: keep adding boids while the frame rate stays at or above the target");
      if (largest_best_ > 0) ImGui::Text("largest flock at %.0f fps: %zu boids", target_fps_, largest_best_);
    }
  }

  if (ImGui::CollapsingHeader("Explore (parameter map)", explore_.has_map() ? ImGuiTreeNodeFlags_DefaultOpen : 0))
    explore_.controls(edit_, preset_name_, export_dir_);

  if (ImGui::CollapsingHeader("Record and replay")) {
    if (!replay) {
      if (!recorder_) {
        if (ImGui::Button("Record")) start_recording(fs::path(export_dir_) / ("recording-" + timestamp() + ".flkrec"));
      } else {
        ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.7f, 0.15f, 0.15f, 1));
        if (ImGui::Button("Stop recording")) stop_recording();
        ImGui::PopStyleColor();
        if (recorder_) {
          ImGui::SameLine();
          ImGui::Text("%" PRIu64 " frames, %.1f MB", recorder_->frames(), double(recorder_->bytes()) / 1e6);
        }
      }
    }
    ImGui::SetNextItemWidth(220);
    input_text("##replayfile", replay_path_);
    ImGui::SameLine();
    if (ImGui::Button("Open replay")) open_replay(replay_path_);
  }

  if (ImGui::CollapsingHeader("Export", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::SetNextItemWidth(-1);
    if (input_text("##exportdir", export_dir_)) preset_path_.clear();
    remember("export:folder");
    if (ImGui::Button("Export plots (CSV, SVG, PNG)")) export_all(export_dir_);
    remember("button:Export");
    if (ImGui::Button("Screenshot of the flock view")) request_screenshot(fs::path(export_dir_) / ("flock-" + timestamp() + ".png"), true);
  }
}

void GuiApp::parameter_widgets() {
  const bool editable = source_->editable();
  const Params& active = source_->params();
  ImGui::BeginDisabled(!editable);
  static const char* const sections[] = {"World (reset)", "Rules", "Cornell rules", "Predators", "Scout groups", "Report rules"};
  for (const char* sec : sections) {
    const std::string_view sv(sec);
    if (!ImGui::TreeNodeEx(sec, sv == "Predators" || sv == "Scout groups" || sv == "Report rules" ? 0 : ImGuiTreeNodeFlags_DefaultOpen))
      continue;
  for (const ParamDef& d : param_table()) {
    if (std::string_view(section_of(d.name)) != sv) continue;
    ImGui::PushID(int(d.id));
    const std::string name(d.name);
    const bool reset_only = d.apply == Apply::Reset;
    const bool pending = reset_only && get_param(edit_, d) != get_param(active, d);
    const bool in_flight = source_->param_pending(d.id);  // sent to a board, not acknowledged yet
    const bool absent = !source_->has_param(d.id);      // a board without this parameter
    ImGui::BeginDisabled(absent);
    double v = get_param(edit_, d);
    bool changed = false;
    // A board's value outside this app's range: shown as the board has it, in a warning
    // colour; the slider's position is the nearest valid value, and moving it sends one.
    const std::optional<double> outside = in_flight ? std::nullopt : source_->outside_value(d.id);
    const double board_v = outside.value_or(0);
    char shown[64] = "%.5g";
    if (outside) {
      std::snprintf(shown, sizeof shown, "%.6g (!)", board_v);
      for (char* c = shown; *c; ++c)
        if (*c == '%') *c = ' ';  // the text is an ImGui format string
    }
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
    const int styled = in_flight || reset_only || outside ? 1 : 0;
    if (outside)
      ImGui::PushStyleColor(ImGuiCol_FrameBg, kOutsideRange);
    else if (in_flight)
      ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0.15f, 0.32f, 0.55f, 1));
    else if (reset_only)
      ImGui::PushStyleColor(ImGuiCol_FrameBg, pending ? ImVec4(0.45f, 0.33f, 0.08f, 1) : ImVec4(0.22f, 0.19f, 0.12f, 1));
    switch (d.kind) {
      case ParamKind::Bool: {
        bool b = v != 0;
        if (ImGui::Checkbox("##v", &b)) v = b, changed = true;
        break;
      }
      case ParamKind::Choice: {
        const auto names = choice_names(d);
        int c = int(v);
        if (ImGui::Combo("##v", &c, [](void* data, int i, const char** out) {
              *out = static_cast<const std::string_view*>(data)[i].data();
              return true;
            }, const_cast<std::string_view*>(names.data()), int(names.size())))
          v = c, changed = true;
        break;
      }
      case ParamKind::Int: {
        auto i = std::int64_t(v);
        if (name == "seed") {
          changed = ImGui::InputScalar("##v", ImGuiDataType_S64, &i);
        } else {
          const auto lo = std::int64_t(d.slider_min), hi = std::int64_t(d.slider_max);
          // Counts spanning decades (boids 0..100000) get a logarithmic slider too.
          const ImGuiSliderFlags f = hi >= 1000 ? ImGuiSliderFlags_Logarithmic : 0;
          changed = ImGui::SliderScalar("##v", ImGuiDataType_S64, &i, &lo, &hi, outside ? shown : "%lld", f);
        }
        if (changed) v = double(i);
        break;
      }
      case ParamKind::Real: {
        const double lo = d.slider_min, hi = d.slider_max;
        double x = std::isinf(v) ? hi : v;
        const ImGuiSliderFlags f = d.log_scale() ? ImGuiSliderFlags_Logarithmic : 0;
        if (ImGui::SliderScalar("##v", ImGuiDataType_Double, &x, &lo, &hi, outside ? shown : std::isinf(v) ? "inf" : "%.5g", f))
          v = x, changed = true;
        break;
      }
    }
    ImGui::PopStyleColor(styled);
    remember("param:" + name);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
      ImGui::TextUnformatted(d.help.data(), d.help.data() + d.help.size());
      if (outside)
        ImGui::TextColored(ImVec4(1, 0.55f, 0.35f, 1), "the board's value %.6g is outside this app's range %s; moving the slider sends a value within it",
                           board_v, describe_range(d).c_str());
      ImGui::TextDisabled("range %s%s%s", describe_range(d).c_str(), d.log_scale() ? ", logarithmic slider" : "",
                          reset_only ? "; applied on Reset" : "; acts in this frame");
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    ImGui::SameLine();
    if (absent)
      ImGui::TextDisabled("%s (not on the board)", name.c_str());
    else if (in_flight)
      ImGui::TextColored(ImVec4(0.5f, 0.75f, 1, 1), "%s (sent)", name.c_str());
    else if (outside)
      ImGui::TextColored(ImVec4(1, 0.55f, 0.35f, 1), "%s (outside this app's range)", name.c_str());
    else if (reset_only)
      ImGui::TextColored(kReset, "%s%s", name.c_str(), pending ? " *" : "");
    else
      ImGui::TextUnformatted(name.c_str());
    if (changed) {
      if (auto err = set_param(edit_, d, v))
        note(*err, true);
      else
        params_changed_ = true;
    }
    ImGui::EndDisabled();
    ImGui::PopID();
  }
    ImGui::TreePop();
  }
  ImGui::EndDisabled();
  ImGui::TextColored(kReset, "yellow: reset-only (* = waiting for Reset)");
  if (source_->live()) ImGui::TextColored(ImVec4(0.5f, 0.75f, 1, 1), "blue: sent to the board, waiting for its ack");
}

// ---------------------------------------------------------------- update
void GuiApp::update() {
  const auto t0 = Clock::now();
  times_.simulate = times_.update_rest = 0;
  times_.steps = 0;
  source_moved_ = false;
  if (params_changed_ && source_->editable()) {
    source_->set_params(edit_);  // live parameters act from this frame's steps on
    params_changed_ = false;
    if (recorder_ && !(recorded_params_ == source_->params())) {
      recorder_->write_params(source_->params());
      recorded_params_ = source_->params();
    }
  }
  if (reset_requested_) {
    reset_requested_ = false;
    if (!plots_.diameter.t().empty()) {
      plots_.time_offset = plots_.diameter.t().back() + std::max(source_->params().dt, 1e-9);
      plots_.resets.push_back(plots_.time_offset);
    }
    source_->reset();
    edit_ = source_->pending_params();
    centroid_trail_.clear();
    source_moved_ = true;
    if (recorder_) {
      recorder_->write_params(source_->params());
      recorded_params_ = source_->params();
    }
  }
  // While an Explore map runs, its workers have the cores: the local flock waits.
  int steps = running_ && !explore_.busy() ? steps_per_frame_ : 0;
  if (step_requested_) steps = std::max(steps, 1), step_requested_ = false;
  if (source_->live()) steps = 1;  // a board runs by itself: take what came
  // Every step is plotted and recorded, not only the one drawn.
  const bool record = recorder_ && std::string_view(source_->kind()) != "replay";
  int taken = 0;
  if (steps > 0) {
    const auto s0 = Clock::now();
    const bool moved = source_->advance(steps, [&] {
      ++taken;
      push_plot_point();
      if (record) record_frame();
    });
    if (!moved && source_->ended()) running_ = false;
    times_.simulate = ms_since(s0);
    times_.steps = source_->live() ? taken : steps;
    source_moved_ = source_moved_ || moved;
  }
  for (auto& n : source_->take_notes()) note(n.text, n.error);
  if (source_->params_revision() != params_revision_) {
    // The source changed its parameters (a board's set read back, a change rejected).
    params_revision_ = source_->params_revision();
    edit_ = source_->pending_params();
  }
  if (source_moved_ && taken == 0) {  // a reset without a step: its state is a point too
    push_plot_point();
    if (record) record_frame();
  }
  largest_flock_update(std::chrono::duration<double>(Clock::now() - start_).count());
  times_.update_rest = std::max(0.0, ms_since(t0) - times_.simulate);
}

void GuiApp::record_frame() {
  if (!recorder_) return;
  try {
    recorder_->write_frame(source_->step(), source_->time(), source_->metrics(), source_->boids(), source_->ids(),
                           std::vector<Predator>(source_->predators().begin(), source_->predators().end()));
  } catch (const std::exception& e) {
    note(e.what(), true);
    recorder_.reset();
  }
}

void GuiApp::push_plot_point() {
  const Metrics& m = source_->metrics();
  double t = plots_.time_offset + source_->time();
  if (!plots_.diameter.t().empty() && t < plots_.diameter.t().back()) {
    // Time went back without a reset here (a replayed reset, a seek): keep the axis monotonic.
    plots_.time_offset = plots_.diameter.t().back() - source_->time();
    plots_.resets.push_back(plots_.diameter.t().back());
    t = plots_.diameter.t().back();
  }
  plots_.diameter.push(t, m.diameter);
  plots_.cx.push(t, m.centroid_x);
  plots_.cy.push(t, m.centroid_y);
  plots_.polarisation.push(t, m.polarisation);
  plots_.speed.push(t, m.mean_speed);
  plots_.steps.push_back(double(source_->step()));
  const bool nb = source_->has_neighbour_metrics();
  plots_.nn.push_back(nb ? m.mean_nn_distance : kNaN);
  plots_.clusters.push_back(nb ? double(m.clusters) : kNaN);
  plots_.mark_source(t, source_->metrics_from_state());
  centroid_trail_.emplace_back(float(m.centroid_x), float(m.centroid_y));
  if (centroid_trail_.size() > 600) centroid_trail_.erase(centroid_trail_.begin(), centroid_trail_.begin() + 100);
}

void GuiApp::largest_flock_update(double now) {
  auto* local = dynamic_cast<LocalSource*>(source_.get());
  if (!largest_ || !local) {
    largest_since_ = now;
    largest_frames_ = 0;
    return;
  }
  running_ = true;
  ++largest_frames_;
  if (now - largest_since_ < 0.75) return;  // judge the frame rate over most of a second
  const double fps = largest_frames_ / (now - largest_since_);
  largest_since_ = now;
  largest_frames_ = 0;
  const std::size_t n = local->boids().n;
  if (fps >= target_fps_) {
    largest_best_ = std::max(largest_best_, n);
    largest_below_ = 0;
    local->add_boids(std::max<std::size_t>(100, n / 10), std::uint64_t(now * 1000));
    edit_ = local->pending_params();
  } else if (++largest_below_ >= 2) {
    largest_ = false;
    note("largest flock at " + std::to_string(int(target_fps_)) + " fps: " + std::to_string(largest_best_) + " boids");
  }
}

// ---------------------------------------------------------------- flock view
void GuiApp::fit_camera() {
  const Params& p = source_->params();
  const double w = view_rect_.x1 - view_rect_.x0, h = view_rect_.y1 - view_rect_.y0;
  zoom_ = std::max(1e-6, std::min(w / p.width, h / p.height) * 0.96);
  cam_x_ = p.width / 2, cam_y_ = p.height / 2;
}

void GuiApp::flock_view_panel() {
  ImGui::Checkbox("fit", &cam_fit_);
  remember("view:fit");
  if (cam_fit_) cam_follow_ = false;
  ImGui::SameLine();
  if (ImGui::Checkbox("follow centroid", &cam_follow_) && cam_follow_) cam_fit_ = false;
  ImGui::SameLine();
  ImGui::Checkbox("centroid path", &show_path_);
  ImGui::SameLine();
  ImGui::Checkbox("margins", &show_margins_);
  ImGui::SameLine();
  ImGui::TextDisabled("   wheel: zoom   drag: pan   F: fit   space: run/pause   R: reset");

  const ImVec2 c0 = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.x = std::max(avail.x, 16.0f), avail.y = std::max(avail.y, 16.0f);
  ImGui::InvisibleButton("##canvas", avail, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  view_rect_ = {c0.x, c0.y, c0.x + avail.x, c0.y + avail.y};
  ImGuiIO& io = ImGui::GetIO();
  const Metrics& m = source_->metrics();
  if (cam_fit_) fit_camera();
  if (cam_follow_ && std::isfinite(m.centroid_x)) cam_x_ = m.centroid_x, cam_y_ = m.centroid_y;
  const float vcx = (view_rect_.x0 + view_rect_.x1) / 2, vcy = (view_rect_.y0 + view_rect_.y1) / 2;
  if (ImGui::IsItemHovered() && io.MouseWheel != 0) {
    // Zoom about the point under the cursor.
    const double wx = cam_x_ + (io.MousePos.x - vcx) / zoom_, wy = cam_y_ + (io.MousePos.y - vcy) / zoom_;
    zoom_ = std::clamp(zoom_ * std::pow(1.15, io.MouseWheel), 1e-5, 1e3);
    cam_x_ = wx - (io.MousePos.x - vcx) / zoom_, cam_y_ = wy - (io.MousePos.y - vcy) / zoom_;
    cam_fit_ = false;
  }
  if (ImGui::IsItemActive() && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0)) {
    cam_x_ -= io.MouseDelta.x / zoom_, cam_y_ -= io.MouseDelta.y / zoom_;
    cam_fit_ = cam_follow_ = false;
  }
  xf_ = {float(zoom_), float(vcx - cam_x_ * zoom_), float(vcy - cam_y_ * zoom_)};

  // Overlays (a handful of items; the boids themselves go to SDL in draw()).
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(view_rect_.x0, view_rect_.y0), ImVec2(view_rect_.x1, view_rect_.y1), true);
  auto S = [&](double x, double y) { return ImVec2(xf_.ox + float(x) * xf_.scale, xf_.oy + float(y) * xf_.scale); };
  const Params& p = source_->params();
  dl->AddRect(S(0, 0), S(p.width, p.height), IM_COL32(150, 160, 180, 200), 0, 0, 1.5f);
  if (show_margins_)
    dl->AddRect(S(p.leftmargin, p.topmargin), S(p.width - p.rightmargin, p.height - p.bottommargin),
                IM_COL32(110, 130, 170, 110), 0, 0, 1.0f);
  if (show_path_ && centroid_trail_.size() > 1) {
    std::vector<ImVec2> pts;
    pts.reserve(centroid_trail_.size());
    for (auto [x, y] : centroid_trail_) pts.push_back(S(x, y));
    dl->AddPolyline(pts.data(), int(pts.size()), IM_COL32(200, 150, 255, 170), 0, 1.5f);
  }
  if (std::isfinite(m.centroid_x)) {
    const ImVec2 c = S(m.centroid_x, m.centroid_y);
    dl->AddCircle(c, 6, IM_COL32(255, 255, 255, 230), 16, 2.0f);
    dl->AddLine(ImVec2(c.x - 10, c.y), ImVec2(c.x + 10, c.y), IM_COL32(255, 255, 255, 230), 1.5f);
    dl->AddLine(ImVec2(c.x, c.y - 10), ImVec2(c.x, c.y + 10), IM_COL32(255, 255, 255, 230), 1.5f);
  }
  for (const Predator& pr : source_->predators()) {
    // Predators: larger red triangles along their velocity.
    const float l = std::hypot(pr.vx, pr.vy);
    const float hx = l > 0 ? pr.vx / l : 1, hy = l > 0 ? pr.vy / l : 0;
    const ImVec2 c = S(pr.x, pr.y);
    const float sz = 14;
    dl->AddTriangleFilled(ImVec2(c.x + hx * sz, c.y + hy * sz), ImVec2(c.x - hx * sz * 0.6f - hy * sz * 0.55f, c.y - hy * sz * 0.6f + hx * sz * 0.55f),
                          ImVec2(c.x - hx * sz * 0.6f + hy * sz * 0.55f, c.y - hy * sz * 0.6f - hx * sz * 0.55f), kPredator);
    if (p.predatorRange > 0) dl->AddCircle(c, float(p.predatorRange) * xf_.scale, IM_COL32(255, 70, 70, 60), 48);
  }
  // The lab's VGA read-out: boid count, frame rate, elapsed time.
  char hud[160];
  std::snprintf(hud, sizeof hud, "boids %zu   fps %.0f   time %.0f s   step %" PRIu64, source_->boids().n, fps_,
                std::chrono::duration<double>(Clock::now() - start_).count(), source_->step());
  dl->AddRectFilled(ImVec2(view_rect_.x0 + 6, view_rect_.y0 + 6),
                    ImVec2(view_rect_.x0 + 14 + ImGui::CalcTextSize(hud).x, view_rect_.y0 + 10 + ImGui::GetFontSize()),
                    IM_COL32(0, 0, 0, 150), 3);
  dl->AddText(ImVec2(view_rect_.x0 + 10, view_rect_.y0 + 8), IM_COL32(230, 235, 240, 255), hud);
  dl->PopClipRect();
}

// ---------------------------------------------------------------- plots
void GuiApp::plots_panel() {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float path_w = std::min(avail.y, avail.x * 0.3f);
  const float cell_w = (avail.x - path_w - 2 * gap) / 2, cell_h = (avail.y - ImGui::GetStyle().ItemSpacing.y) / 2;
  const std::span<const double> marks(plots_.resets);
  PlotLine d[] = {{"diameter", &plots_.diameter, kColD, &show_d_}};
  PlotLine c[] = {{"centroid x", &plots_.cx, kColX, &show_cx_}, {"centroid y", &plots_.cy, kColY, &show_cy_}};
  PlotLine pol[] = {{"polarisation", &plots_.polarisation, kColPol, &show_pol_}};
  PlotLine sp[] = {{"mean speed", &plots_.speed, kColSpeed, &show_speed_}};
  ImGui::BeginGroup();
  // Amber: the board's own metrics (a partial frame, no state stream), not all of its boids.
  const std::span<const TimeSpan> bands(plots_.board_spans);
  const char* band = "board's metrics";
  time_plot("diameter", "Flock diameter (px)", "time", plot_views_[0], d, marks, ImVec2(cell_w, cell_h), bands, band);
  remember("plot:diameter");
  ImGui::SameLine();
  time_plot("centroid", "Centroid (px)", "time", plot_views_[1], c, marks, ImVec2(cell_w, cell_h), bands, band);
  remember("plot:centroid");
  time_plot("polarisation", "Polarisation", "time", plot_views_[2], pol, marks, ImVec2(cell_w, cell_h), bands, band);
  remember("plot:polarisation");
  ImGui::SameLine();
  time_plot("speed", "Mean speed (px/frame)", "time", plot_views_[3], sp, marks, ImVec2(cell_w, cell_h), bands, band);
  remember("plot:speed");
  ImGui::EndGroup();
  ImGui::SameLine();
  path_plot("path", "Centroid path (x, y)", plot_views_[4], plots_.cx, plots_.cy, kColPath, ImVec2(path_w, avail.y));
  remember("plot:path");
}

// ---------------------------------------------------------------- draw
bool GuiApp::frame() {
  const auto f0 = Clock::now();
  const double dt = std::chrono::duration<double>(f0 - last_frame_).count();
  last_frame_ = f0;
  if (dt > 0) fps_ = fps_ == 0 ? 1 / dt : fps_ * 0.9 + 0.1 / dt;
  ++frame_count_;

  // Events.
  process_events();
  ImGui_ImplSDLRenderer_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(mouse_x_, mouse_y_);
  for (int b = 0; b < 3; ++b) io.MouseDown[b] = mouse_down_[b] || mouse_clicked_[b], mouse_clicked_[b] = false;
  ImGui::NewFrame();
  rects_.clear();

  int ww, wh;
  SDL_GetWindowSize(window_, &ww, &wh);
  const float side_w = std::min(390.0f, float(ww) * 0.4f);
  const float plots_h = std::floor(float(wh) * 0.38f);
  const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  const auto u0 = Clock::now();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(side_w, float(wh)));
  ImGui::Begin("flockscope", nullptr, fixed);
  controls_panel();
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
    if (const auto pt = explore_.map()) open_explore_run(*pt);
  } else {
    if (explore_.has_map()) {
      if (ImGui::Button("Back to the map")) explore_.show_map(true);
      remember("button:Back to the map");
      ImGui::SameLine();
    }
    flock_view_panel();
  }
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::SetNextWindowPos(ImVec2(side_w, float(wh) - plots_h));
  ImGui::SetNextWindowSize(ImVec2(float(ww) - side_w, plots_h));
  ImGui::Begin("Plots", nullptr, fixed | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  plots_panel();
  ImGui::End();
  ImGui::Render();
  times_.ui = ui_ms + ms_since(u1);

  draw();
  times_.frame = ms_since(f0);
  return !quit_;
}

void GuiApp::draw() {
  // Build the boids' geometry from the state update() left (timed on its own: the budget).
  const auto g0 = Clock::now();
  const PointsView b = source_->boids();
  const float size_px = std::clamp(float(3.2 * std::sqrt(zoom_)) + 2.0f, 3.5f, 16.0f);
  build_boid_triangles(b, xf_, size_px, xy_);
  const Params& p = source_->params();
  if (const std::uint8_t* g = source_->groups())
    build_group_colours(g, b.n, BoidPalette{}, colours_);
  else
    build_boid_colours(source_->ids(), b.n, p.scouts1, p.scouts2, BoidPalette{}, colours_);
  times_.geometry = ms_since(g0);

  const auto r0 = Clock::now();
  SDL_SetRenderDrawColor(renderer_, 12, 13, 17, 255);
  SDL_RenderClear(renderer_);
  const SDL_Rect clip{int(view_rect_.x0), int(view_rect_.y0), int(view_rect_.x1 - view_rect_.x0), int(view_rect_.y1 - view_rect_.y0)};
  SDL_RenderSetClipRect(renderer_, &clip);
  SDL_SetRenderDrawColor(renderer_, 20, 23, 31, 255);
  const SDL_FRect world{xf_.ox, xf_.oy, float(p.width) * xf_.scale, float(p.height) * xf_.scale};
  const bool flock_shown = !explore_.showing_map();  // the Explore map takes the view's place
  if (flock_shown) SDL_RenderFillRectF(renderer_, &world);
  if (b.n > 0 && flock_shown)
    SDL_RenderGeometryRaw(renderer_, nullptr, xy_.data(), 2 * sizeof(float), reinterpret_cast<const SDL_Color*>(colours_.data()),
                          sizeof(SDL_Color), nullptr, 0, int(3 * b.n), nullptr, 0, 0);
  SDL_RenderSetClipRect(renderer_, nullptr);
  ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());

  // Screenshots read the finished frame back before it is presented.
  for (const Shot& s : shots_) {
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(renderer_, &w, &h);
    SDL_Rect r{0, 0, w, h};
    if (s.view_only) r = clip;
    std::vector<std::uint8_t> px(std::size_t(r.w) * std::size_t(r.h) * 4);
    std::string err;
    std::error_code ec;
    if (!s.file.parent_path().empty()) fs::create_directories(s.file.parent_path(), ec);
    if (SDL_RenderReadPixels(renderer_, &r, SDL_PIXELFORMAT_ABGR8888, px.data(), r.w * 4) != 0)
      err = std::string("cannot read the frame back: ") + SDL_GetError();
    else
      err = write_png(s.file, r.w, r.h, px.data());
    if (err.empty())
      note("screenshot saved: " + s.file.string());
    else
      note("screenshot failed: " + err + (ec ? " (" + ec.message() + ")" : ""), true);
  }
  shots_.clear();
  SDL_RenderPresent(renderer_);
  times_.render = ms_since(r0);
}

void GuiApp::request_screenshot(const fs::path& file, bool flock_view_only) { shots_.push_back({file, flock_view_only}); }

// ---------------------------------------------------------------- actions
void GuiApp::load_preset_file(const std::string& name_or_file) {
  try {
    const Params p = load_preset(resolve_preset(name_or_file));
    preset_name_ = fs::path(name_or_file).stem().string();
    edit_ = p;
    source_->set_params(p);
    reset_requested_ = true;  // a preset is a new experiment: its world and seed apply now
    note("preset loaded: " + name_or_file);
  } catch (const std::exception& e) {
    note(std::string("cannot load the preset: ") + e.what(), true);
  }
}

void GuiApp::export_all(const fs::path& folder) {
  try {
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) throw InputError(folder.string() + ": cannot create the folder (" + ec.message() + ")");
    const std::string stamp = timestamp();
    const ExportResult r = export_plot_files(folder, "flockscope-" + stamp, plots_);
    note("exported " + std::to_string(r.files.size()) + " files to " + folder.string() + (r.note.empty() ? "" : " (" + r.note + ")"));
  } catch (const std::exception& e) {
    note(std::string("export failed: ") + e.what(), true);
  }
}

void GuiApp::open_explore_run(const RunPoint& pt) {
  set_source(std::make_unique<LocalSource>(pt.params));
  preset_name_ = "map cell, seed " + std::to_string(pt.seed);
  running_ = true;
  note("opened the map's run " + std::to_string(pt.id) + " (seed " + std::to_string(pt.seed) + ")");
}

void GuiApp::start_recording(const fs::path& file) {
  try {
    std::error_code ec;
    if (!file.parent_path().empty()) fs::create_directories(file.parent_path(), ec);
    recorder_ = std::make_unique<RecordingWriter>(file, source_->params(), source_->kind());
    recorded_params_ = source_->params();
    recorder_->write_frame(source_->step(), source_->time(), source_->metrics(), source_->boids(), source_->ids(),
                           std::vector<Predator>(source_->predators().begin(), source_->predators().end()));
    replay_path_ = file.string();
    note("recording to " + file.string());
  } catch (const std::exception& e) {
    recorder_.reset();
    note(std::string("cannot record: ") + e.what(), true);
  }
}

void GuiApp::stop_recording() {
  if (!recorder_) return;
  recorder_->close();
  note("recorded " + std::to_string(recorder_->frames()) + " frames to " + replay_path_);
  recorder_.reset();
}

// ---------------------------------------------------------------- board (serial) panel
// Port picker, connect/disconnect, the link's state and counters, the board's own stats,
// and the commands that are not parameters.
bool GuiApp::serial_panel() {
  auto* serial = dynamic_cast<SerialSource*>(source_.get());
  const double now = std::chrono::duration<double>(Clock::now() - start_).count();
  if (now - ports_listed_at_ > 2) {  // re-listed every 2 s: a board plugged in shows up
    ports_listed_at_ = now;
    port_list_.clear();
    for (const auto& p : link::list_ports()) port_list_.emplace_back(p.path, p.label);
    if (port_path_.empty() && !port_list_.empty()) port_path_ = port_list_.front().first;
  }
  if (!serial) {
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##ports", port_list_.empty() ? "no board found (type a path below)" : port_path_.c_str())) {
      for (const auto& [path, label] : port_list_)
        if (ImGui::Selectable((label + "  " + path).c_str(), path == port_path_)) port_path_ = path;
      ImGui::EndCombo();
    }
    ImGui::SetNextItemWidth(220);
    input_text("##portpath", port_path_);
    remember("serial:port");
    ImGui::SameLine();
    const bool connect = ImGui::Button("Connect") && !port_path_.empty();
    remember("button:Connect");
    ImGui::TextDisabled("a Pico: /dev/ttyACM0; the virtual board: flockscope board --link PATH");
    if (connect) connect_serial(port_path_);
    return connect;
  }
  const link::LinkStatus st = serial->link_status();
  const auto& c = st.counters;
  const bool ok = st.state == link::LinkState::kConnected;
  const bool bad = st.state == link::LinkState::kVersionMismatch;
  ImGui::TextColored(ok ? ImVec4(0.5f, 0.9f, 0.5f, 1) : bad ? ImVec4(1, 0.45f, 0.4f, 1) : ImVec4(1, 0.8f, 0.4f, 1), "%s",
                     link::to_string(st.state));
  remember("serial:state");
  ImGui::SameLine();
  if (ImGui::SmallButton("Disconnect")) {
    disconnect_serial();
    return true;
  }
  remember("button:Disconnect");
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", st.detail.c_str());
  ImGui::PopTextWrapPos();
  if (st.board) {
    const auto& h = *st.board;
    ImGui::Text("%s  firmware %u.%u.%u  protocol %u  up to %u boids", st.board_name.c_str(), h.sw_major, h.sw_minor,
                unsigned(h.sw_patch), h.protocol_version, h.max_boids);
  }
  const auto& f = serial->frame();
  if (f.has_stats) {
    const auto& s = f.stats;
    ImGui::Text("board: %.1f fps  compute %.1f ms  spare %.1f ms", double(s.fps), s.compute_us / 1000.0, s.spare_us / 1000.0);
    ImGui::Text("boids %u  elapsed %.1f s  frame %u%s", s.boid_count, s.elapsed_ms / 1000.0, s.frame,
                serial->board_paused() ? "  (paused)" : "");
  }
  if (ImGui::BeginTable("link", 2, ImGuiTableFlags_SizingStretchSame)) {
    auto row = [](const char* k, const char* fmt, auto v) {
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", k);
      ImGui::SameLine();
      ImGui::Text(fmt, v);
    };
    row("frames/s", "%.1f", c.frames_per_s);
    row("KB/s", "%.0f", c.bytes_per_s / 1000);
    row("bad checksums", "%u", c.rx.bad_crc);
    row("framing errors", "%u", c.rx.bad_framing + c.rx.oversize + c.rx.malformed);
    row("sequence gaps", "%u", c.rx.seq_gaps);
    row("frames missed", "%u", c.frames.missed);
    row("partial frames", "%u", c.frames.partial);
    row("reconnects", "%u", c.reconnects);
    ImGui::TableNextColumn();
    ImGui::TextDisabled("last change");
    ImGui::SameLine();
    if (c.last_rtt_ms >= 0)
      ImGui::Text("%.1f ms", c.last_rtt_ms);
    else
      ImGui::TextUnformatted("-");
    row("unanswered", "%u", c.unanswered);
    ImGui::EndTable();
  }
  remember("serial:counters");
  ImGui::BeginDisabled(!serial->connected());
  ImGui::SetNextItemWidth(110);
  ImGui::InputInt("##boidcount", &boid_count_request_, 100, 1000);
  boid_count_request_ = std::clamp(boid_count_request_, 0, 65535);
  ImGui::SameLine();
  if (ImGui::Button("Set boid count")) serial->set_boid_count(std::uint32_t(boid_count_request_));
  bool predators = serial->board_predators();
  if (ImGui::Checkbox("Predators", &predators)) serial->set_predators(predators);
  ImGui::EndDisabled();
  return false;
}

void GuiApp::connect_serial(const std::string& port) {
  port_path_ = port;
  set_source(std::make_unique<SerialSource>(port, source_->pending_params()));
  note("connecting to " + port);
}

void GuiApp::disconnect_serial() {
  const Params p = source_->params();
  set_source(std::make_unique<LocalSource>(p));
  note("disconnected; a local flock with the board's parameters");
}

void GuiApp::open_replay(const fs::path& file) {
  try {
    stop_recording();
    auto rs = std::make_unique<ReplaySource>(Recording::load(file));
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
  bool known = false;
  for (const auto& v : cli::sweep_views(spec.kind)) known = known || v.key == opt.explore_measure;
  if (!known) throw InputError("--explore-measure " + opt.explore_measure + ": not a measure of the map");
  app.explore().set_measure(opt.explore_measure);
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
        sum.simulate += t.simulate, sum.update_rest += t.update_rest, sum.geometry += t.geometry;
        sum.render += t.render, sum.ui += t.ui, sum.frame += t.frame;
        ++counted;
      }
      if (counted > 0) {
        const double n = counted, boids = double(app.source().boids().n);
        std::printf("flockscope: %d frames of %.0f boids, ms per frame: simulate + metrics %.2f  rest of update %.2f  geometry %.2f "
                    "(%.2f ns/boid)  render %.2f  ui %.2f  total %.2f\n",
                    counted, boids, sum.simulate / n, sum.update_rest / n, sum.geometry / n,
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
