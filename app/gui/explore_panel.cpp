// Sections: helpers | controls | the map | export
#include "explore_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "figures.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/core/text.hpp"

namespace flockscope::gui {
namespace fs = std::filesystem;

// ---------------------------------------------------------------- helpers
namespace {

// Parameters a map can sweep: the numbers of the table, not the seed (the repeats' seeds
// come from the sweep).
std::vector<const ParamDef*> sweepable() {
  std::vector<const ParamDef*> out;
  for (const ParamDef& d : param_table())
    if ((d.kind == ParamKind::Real || d.kind == ParamKind::Int) && d.name != "seed") out.push_back(&d);
  return out;
}

// A combination's mean of the measure and its 95% interval, as the exported figure draws it
// (cli::sweep_value: Student's t over the repeats, the Wilson interval for the share of runs
// that formed).
struct CellValue {
  double mean = NAN, lo = NAN, hi = NAN;
  std::size_t n = 0;
};
CellValue cell_value(const SweepSpec& s, const ComboSummary& c, const std::string& key) {
  CellValue v;
  const auto& names = summary_metrics(s.kind);
  const auto k = std::size_t(std::find(names.begin(), names.end(), key) - names.begin());
  if (k >= c.metrics.size()) return v;
  v.n = c.metrics[k].n;
  cli::sweep_value(s, c, key, v.mean, v.lo, v.hi);
  return v;
}

// The measures a map of `spec` can show: sweep's summary plots' (the share going right only
// where the flocks have scout groups).
std::vector<cli::SweepView> measures_of(const SweepSpec& spec) { return cli::sweep_views(spec.kind, has_scouts(spec)); }

// A value as a map's label: 4 significant digits ("0.008811", "22.22").
std::string value_text(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "-" : v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

}  // namespace

namespace {

// `base` if nothing is there yet, else the first of base-2, base-3, ... that is free.
fs::path fresh_folder(const fs::path& base) {
  std::error_code ec;
  if (!fs::exists(base, ec)) return base;
  for (int k = 2;; ++k) {
    std::string name = base.filename().string();
    name.append(1, '-').append(std::to_string(k));
    const fs::path p = base.parent_path() / name;
    if (!fs::exists(p, ec)) return p;
  }
}

std::string clock_text(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
  return buf;
}

ImU32 colour_of(double t) {
  const plot::Color c = plot::colormap(std::clamp(t, 0.0, 1.0));
  return IM_COL32(c.r, c.g, c.b, 255);
}

}  // namespace

ExplorePanel::ExplorePanel() { pick_defaults(RuleSet::Cornell); }

void ExplorePanel::pick(AxisPick& a, std::string_view name) {
  const auto params = sweepable();
  for (std::size_t i = 0; i < params.size(); ++i)
    if (params[i]->name == name) {
      a = AxisPick{};
      a.param = int(i);
      // Ranges default to the slider's, log steps where the slider is logarithmic.
      a.from = params[i]->slider_min, a.to = params[i]->slider_max, a.log = params[i]->log_scale();
      // The report's D_vis of 0 is infinite vision, not the short end of the range.
      if (name == "D_vis" && a.from <= 0) a.from = 10;
    }
}

// Defaults the active rules read: the vision range against cohesion, Cornell's (and the
// blog's) visualRange x centeringfactor or the report's D_vis x S_coh.
void ExplorePanel::pick_defaults(RuleSet rules) {
  if (rules == RuleSet::Report) pick(ax_[0], "D_vis"), pick(ax_[1], "S_coh");
  else pick(ax_[0], "visualRange"), pick(ax_[1], "centeringfactor");
  defaults_for_ = rules;
}

void ExplorePanel::follow_rules(RuleSet rules) {
  if (axes_default_ && defaults_for_ != rules) pick_defaults(rules);
}

ExplorePanel::~ExplorePanel() = default;

// ---------------------------------------------------------------- controls
bool ExplorePanel::axis_controls(const char* id, AxisPick& a, bool optional, RuleSet rules) {
  const auto params = sweepable();
  ImGui::PushID(id);
  ImGui::SetNextItemWidth(160);
  const char* shown = a.param >= 0 ? params[std::size_t(a.param)]->name.data() : "(none)";
  bool changed = false;
  auto choose = [&](std::size_t i) {
    pick(a, params[i]->name);
    changed = true;
  };
  if (ImGui::BeginCombo(id, shown)) {
    if (optional && ImGui::Selectable("(none)", a.param < 0)) a.param = -1, changed = true;
    // The active rules' parameters first; the others after, greyed: a map along a parameter
    // the rules do not read shows only the seeds' noise.
    for (std::size_t i = 0; i < params.size(); ++i)
      if (params[i]->used_by_rules(rules) && ImGui::Selectable(std::string(params[i]->name).c_str(), int(i) == a.param)) choose(i);
    ImGui::TextDisabled("not read by the %s rules:", std::string(rule_names()[std::size_t(rules)]).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    for (std::size_t i = 0; i < params.size(); ++i)
      if (!params[i]->used_by_rules(rules) && ImGui::Selectable(std::string(params[i]->name).c_str(), int(i) == a.param)) choose(i);
    ImGui::PopStyleColor();
    ImGui::EndCombo();
  }
  if (changed) a.list.clear();
  if (a.param >= 0 && !a.list.empty()) {
    std::string text;
    for (const auto& v : a.list) text += (text.empty() ? "" : ", ") + v;
    if (text.size() > 48) text = text.substr(0, 45) + "...";
    ImGui::TextDisabled("%zu values: %s", a.list.size(), text.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("as a range")) {
      double lo = INFINITY, hi = -INFINITY;
      for (const auto& v : a.list) {
        double d = NAN;
        if (parse_double(v, d) && std::isfinite(d)) lo = std::min(lo, d), hi = std::max(hi, d);
      }
      if (lo <= hi) a.from = lo, a.to = hi;
      a.count = std::clamp(int(a.list.size()), 1, 100);
      a.list.clear();
    }
  } else if (a.param >= 0) {
    ImGui::SetNextItemWidth(70);
    ImGui::InputDouble("from", &a.from, 0, 0, "%.4g");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(70);
    ImGui::InputDouble("to", &a.to, 0, 0, "%.4g");
    ImGui::SetNextItemWidth(70);
    ImGui::InputInt("values", &a.count, 0);
    a.count = std::clamp(a.count, 1, 100);
    ImGui::SameLine();
    ImGui::Checkbox("log steps", &a.log);
  }
  ImGui::PopID();
  if (changed) axes_default_ = false;
  return changed;
}

// Under an axis whose parameter the rules do not read: why its map would be noise, and the
// rules' own parameters to take instead (buttons explore:use NAME).
void ExplorePanel::unread_axis_warning(AxisPick& a, RuleSet rules, WidgetRects& rects) {
  const auto params = sweepable();
  if (a.param < 0 || params[std::size_t(a.param)]->used_by_rules(rules)) return;
  const std::string rule_name(rule_names()[std::size_t(rules)]);
  ImGui::PushTextWrapPos(0);
  ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1), "%s is not read by the %s rules: a map along it shows only the seeds' noise. Take one they read:",
                     params[std::size_t(a.param)]->name.data(), rule_name.c_str());
  ImGui::PopTextWrapPos();
  rects.remember("explore:axis not read");
  float line = 0;
  const float room = ImGui::GetContentRegionAvail().x;
  for (const ParamDef* d : params) {
    // The rule set's own weights and ranges, not what every rule set reads (world, margins).
    const bool own = (d->section == ParamSection::Cornell || d->section == ParamSection::Report) && d->used_by_rules(rules);
    if (!own) continue;
    const std::string name(d->name);
    const float w = ImGui::CalcTextSize(name.c_str()).x + ImGui::GetStyle().FramePadding.x * 2;
    if (line > 0 && line + w + 8 < room) ImGui::SameLine();
    else line = 0;
    line += w + 8;
    ImGui::PushID(&a);
    if (ImGui::SmallButton(name.c_str())) pick(a, d->name), axes_default_ = false;
    ImGui::PopID();
    rects.remember("explore:use " + name);
  }
}

std::vector<cli::ExploreAxis> ExplorePanel::picked_axes() const {
  const auto params = sweepable();
  std::vector<cli::ExploreAxis> out;
  for (const AxisPick& a : ax_) {
    if (a.param < 0) continue;
    cli::ExploreAxis x;
    x.key = std::string(params[std::size_t(a.param)]->name);
    x.from = a.from, x.to = a.to, x.values = a.count, x.log = a.log, x.list = a.list;
    // A map of a parameter against itself says nothing: the repeated key keeps one axis.
    if (!out.empty() && out[0].key == x.key) continue;
    out.push_back(std::move(x));
  }
  return out;
}

cli::ExploreSetup ExplorePanel::setup(const Params& base, const std::string& preset) const {
  cli::ExploreSetup st;
  st.preset = preset;
  st.params = base;
  st.axes = picked_axes();
  st.repeats = std::uint64_t(reps_), st.steps = std::uint64_t(steps_);
  st.measure = measure_;
  st.workers = jobs_;
  return st;
}

void ExplorePanel::apply_setup(const cli::ExploreSetup& st) {
  const auto params = sweepable();
  for (std::size_t k = 0; k < 2; ++k) {
    AxisPick a;
    if (k < st.axes.size()) {
      const cli::ExploreAxis& x = st.axes[k];
      for (std::size_t i = 0; i < params.size(); ++i)
        if (params[i]->name == x.key) a.param = int(i);
      a.from = x.from, a.to = x.to, a.count = x.values, a.log = x.log, a.list = x.list;
    }
    ax_[k] = a;
  }
  axes_default_ = false;
  reps_ = int(st.repeats), steps_ = int(std::min<std::uint64_t>(st.steps, 10000000));
  measure_ = st.measure;
  jobs_ = st.workers;
}

std::optional<cli::ExploreSetup> ExplorePanel::controls(const Params& base, const std::string& preset, const std::string& folder,
                                                       WidgetRects& rects, Messages& messages) {
  std::optional<cli::ExploreSetup> loaded;
  auto say = [&](std::string text, bool error) {
    message_ = text, message_error_ = error;
    messages.note(std::move(text), error);
  };
  const RuleSet rules = base.rule_set();
  follow_rules(rules);
  axis_controls("x axis", ax_[0], false, rules);
  unread_axis_warning(ax_[0], rules, rects);
  axis_controls("y axis", ax_[1], true, rules);
  unread_axis_warning(ax_[1], rules, rects);
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("repeats", &reps_);
  reps_ = std::clamp(reps_, 1, 1000);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("steps", &steps_, 100, 1000);
  steps_ = std::clamp(steps_, 1, 10000000);
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("workers", &jobs_);
  jobs_ = std::clamp(jobs_, 0, 1024);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Threads that make the map's runs (from the next Start map); 0: all cores but one, which the window keeps");
  // The measures of the map Start would make (the share going right when its flocks have
  // scouts); a measure picked for another map stays until Start says why it does not fit.
  const cli::ExploreSetup planned = setup(base, preset);
  SweepSpec plan;
  plan.base = base;
  for (const auto& a : planned.axes) plan.axes.push_back(GridAxis{a.key, {}, {}});
  const auto views = measures_of(plan);
  std::string shown = measure_;
  for (const auto& v : views)
    if (v.key == measure_) shown = v.label;
  ImGui::SetNextItemWidth(200);
  if (ImGui::BeginCombo("measure", shown.c_str())) {
    for (const auto& v : views) {
      if (ImGui::Selectable(v.label.c_str(), v.key == measure_)) measure_ = v.key;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (%s)", v.help.c_str(), v.key.c_str());
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    for (const auto& v : views)
      if (v.key == measure_) ImGui::SetTooltip("%s (%s)", v.help.c_str(), v.key.c_str());
  // The setup as a file: saved, it makes the same map again here or with
  // `flockscope sweep --setup FILE`.
  if (setup_file_.empty()) setup_file_ = (fs::path(folder) / "explore-setup.json").string();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float buttons = ImGui::CalcTextSize("Save setupLoad setup").x + 4 * style.FramePadding.x + 2 * style.ItemSpacing.x;
  ImGui::SetNextItemWidth(std::max(80.0f, ImGui::GetContentRegionAvail().x - buttons));
  input_text("##setupfile", setup_file_);
  rects.remember("explore:setup file");
  ImGui::SameLine();
  if (ImGui::Button("Save setup")) {
    try {
      if (planned.axes.empty()) throw InputError("pick a parameter for the x axis first");
      const fs::path file(setup_file_);
      if (file.has_parent_path()) fs::create_directories(file.parent_path());
      cli::save_setup(planned, file);
      say("saved the Explore setup to " + setup_file_ + " (flockscope sweep --setup " + setup_file_ + " --out DIR)", false);
    } catch (const std::exception& e) {
      say(std::string("cannot save the setup: ") + e.what(), true);
    }
  }
  rects.remember("explore:Save setup");
  ImGui::SameLine();
  if (ImGui::Button("Load setup")) {
    try {
      loaded = cli::load_setup(setup_file_);
      apply_setup(*loaded);
      say("loaded the Explore setup " + setup_file_ + ": its parameters are the sliders' now", false);
    } catch (const std::exception& e) {
      say(std::string("cannot load the setup: ") + e.what(), true);
    }
  }
  rects.remember("explore:Load setup");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("A setup holds the parameters, axes, repeats, steps and measure; loading one sets the sliders too");
  if (ImGui::Button("Start map")) {
    try {
      start(planned);
    } catch (const std::exception& e) {
      say(std::string("cannot start the map: ") + e.what(), true);
    }
  }
  rects.remember("explore:Start map");
  if (session_) {
    ExploreSession& s = *session_;
    const bool running = s.running();
    ImGui::SameLine();
    if (running) {
      const bool paused = s.paused();
      if (ImGui::Button(paused ? "Resume" : "Pause")) s.set_paused(!paused);
      rects.remember(paused ? "explore:Resume" : "explore:Pause");
      ImGui::SameLine();
      if (ImGui::Button("Cancel")) s.cancel();
      rects.remember("explore:Cancel");
    } else if (!s.complete()) {
      if (ImGui::Button("Resume")) s.set_paused(false), s.start();
      rects.remember("explore:Resume");
    }
    char state[48] = "";
    const int in_flight = s.in_flight();  // read once: a worker may finish meanwhile
    if (s.paused() && in_flight > 0)
      std::snprintf(state, sizeof state, " (pausing: %d run%s finishing)", in_flight, in_flight == 1 ? "" : "s");
    else if (s.paused())
      std::snprintf(state, sizeof state, " (paused)");
    else if (!running && !s.complete())
      std::snprintf(state, sizeof state, " (cancelled)");
    char left[48] = "";
    if (const double secs = s.seconds_left(); std::isfinite(secs)) std::snprintf(left, sizeof left, ", about %s left", clock_text(secs).c_str());
    char text[160];
    std::snprintf(text, sizeof text, "%llu / %llu runs%s%s", static_cast<unsigned long long>(s.done()),
                  static_cast<unsigned long long>(s.total()), state, left);
    ImGui::ProgressBar(s.total() ? float(double(s.done()) / double(s.total())) : 1.0f, ImVec2(-1, 0), text);
    if (ImGui::Button(show_map_ ? "Show the flock" : "Show the map")) show_map_ = !show_map_;
    ImGui::SameLine();
    const bool export_clicked = ImGui::Button("Export map (SVG, PNG, runs.csv, setup)");
    rects.remember("explore:Export");
    if (export_clicked) {
      try {
        // Never over an earlier export: explore, then explore-2, explore-3, ...
        const fs::path dir = fresh_folder(fs::path(folder) / "explore");
        const auto files = export_files(dir);
        std::string names;
        for (const auto& f : files) names += (names.empty() ? "" : ", ") + f.filename().string();
        say("exported the map to " + dir.string() + " (" + names + ")", false);
      } catch (const std::exception& e) {
        say(std::string("export failed: ") + e.what(), true);
      }
    }
    if (const std::string err = s.error(); !err.empty() && message_ != "the map stopped: " + err) say("the map stopped: " + err, true);
  }
  if (!message_.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(message_error_ ? ImVec4(1, 0.45f, 0.4f, 1) : ImVec4(0.6f, 0.9f, 0.6f, 1), "%s", message_.c_str());
    ImGui::PopTextWrapPos();
  }
  return loaded;
}

void ExplorePanel::start(const cli::ExploreSetup& st) {
  const std::string measure = measure_;
  const int jobs = jobs_;
  measure_ = st.measure, jobs_ = st.workers;
  try {
    start(cli::setup_spec(st));
  } catch (...) {
    measure_ = measure, jobs_ = jobs;
    throw;
  }
  map_setup_ = st;
}

void ExplorePanel::start(SweepSpec spec) {
  if (spec.axes.empty() || spec.axes.size() > 2) throw InputError("a map sweeps one or two parameters (--explore-grid once or twice)");
  check_measure(spec, measure_);
  session_.reset();  // cancels and joins the previous map's workers
  map_setup_ = cli::setup_of_spec(spec, measure_, jobs_);
  session_ = std::make_unique<ExploreSession>(std::move(spec), jobs_);
  seen_revision_ = ~0ull;
  combos_.clear();
  boxes_.clear();
  show_map_ = true;
  message_.clear();
  session_->start();
}

cli::SweepView ExplorePanel::view_of(const SweepSpec& spec) const {
  for (const auto& v : measures_of(spec))
    if (v.key == measure_) return v;
  return {measure_, measure_, "", false};  // start() lets no other measure through
}

void ExplorePanel::check_measure(const SweepSpec& spec, const std::string& key) {
  std::string known;
  for (const auto& v : measures_of(spec)) {
    if (v.key == key) return;
    known += (known.empty() ? "" : ", ") + v.key;
  }
  if (key == "mean_share_right" || key == "final_share_right")
    throw InputError("the share going right (" + key + ") is a measure of flocks with scout groups: " + spec.preset +
                     " has no scouts1 or scouts2 and the map does not set them");
  throw InputError("measure " + key + ": not a measure of this map (" + known + ")");
}

void ExplorePanel::refresh() {
  if (!session_ || session_->revision() == seen_revision_) return;
  seen_revision_ = session_->revision();
  combos_ = session_->combos();
}

// ---------------------------------------------------------------- the map
std::optional<RunPoint> ExplorePanel::map(WidgetRects& rects, bool flock_waits) {
  if (!session_) return std::nullopt;
  refresh();
  const SweepSpec& s = session_->spec();
  const std::uint64_t n_combos = combination_count(s);
  boxes_.assign(std::size_t(n_combos), Box{});

  ImGui::Text("Explore: %s, %llu repeat%s of %llu steps each", s.preset.c_str(), static_cast<unsigned long long>(s.reps),
              s.reps == 1 ? "" : "s", static_cast<unsigned long long>(s.steps));
  if (busy() && flock_waits) {
    ImGui::SameLine(0, 24);
    ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1), "the flock waits while the map runs (Pause the map to run it)");
    rects.remember("explore:flock waits");
  }
  // An axis the flocks' rules do not read varies nothing: what the map shows along it is the
  // seeds' noise.
  const RuleSet rules = s.base.rule_set();
  for (const GridAxis& a : s.axes)
    if (const ParamDef* d = find_param(a.key); d && !d->used_by_rules(rules)) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1), "%s is not read by the %s rules: along it this map shows only the seeds' noise "
                         "(the Explore panel offers the parameters they read)", a.key.c_str(), std::string(rule_names()[std::size_t(rules)]).c_str());
      ImGui::PopTextWrapPos();
      rects.remember("explore:map axis not read");
    }
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.x = std::max(avail.x, 64.0f), avail.y = std::max(avail.y, 64.0f);
  ImGui::InvisibleButton("##map", avail);
  const bool hovered = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + avail.x, p0.y + avail.y), IM_COL32(20, 23, 31, 255));

  const cli::SweepView view = view_of(s);
  std::vector<CellValue> values(static_cast<std::size_t>(n_combos));
  for (const auto& c : combos_) values[std::size_t(c.combination)] = cell_value(s, c, view.key);

  const GridAxis& ax = s.axes[0];
  const std::size_t nx = ax.values.size();
  const std::size_t ny = s.axes.size() > 1 ? s.axes[1].values.size() : 1;
  const std::vector<std::string> x_ticks = cli::tick_labels(ax.labels);
  const std::vector<std::string> y_ticks = s.axes.size() > 1 ? cli::tick_labels(s.axes[1].labels) : std::vector<std::string>{};

  // The value range: the colours (two parameters) or the height (one) span the cells' means,
  // as in the exported figure.
  plot::Heatmap hm;
  plot::Range range;
  if (s.axes.size() == 2) {
    hm = cli::sweep_heatmap(s, combos_, view);
    range = plot::colour_range(hm);
  } else {
    std::vector<double> means;
    for (const CellValue& v : values) means.push_back(v.mean);
    range = view.share ? plot::Range{0, 1} : plot::padded(plot::finite_range(means), 0.05);
  }
  shown_range_ = range;
  const std::string hi_text = value_text(range.hi), lo_text = value_text(range.lo);

  // Plot area: room for the widest value labels on the left (and the colour key's on the
  // right) and two lines below; whole pixels, so that cells with whole-pixel edges tile it.
  auto width = [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; };
  float left_labels = 0;
  for (const auto& t : s.axes.size() == 2 ? y_ticks : std::vector<std::string>{hi_text, lo_text}) left_labels = std::max(left_labels, width(t));
  const float line_h = ImGui::GetTextLineHeight();
  const float left = std::max(40.0f, left_labels + 12), bottom = 2 * line_h + 12, top = line_h + 6;
  const float right = s.axes.size() == 2 ? 40 + std::max(width(hi_text), width(lo_text)) : 16;
  const ImVec2 a0(std::round(p0.x + left), std::round(p0.y + top));
  const ImVec2 a1(std::max(std::round(p0.x + avail.x - right), a0.x + 8), std::max(std::round(p0.y + avail.y - bottom), a0.y + 8));
  const float aw = a1.x - a0.x, ah = a1.y - a0.y;
  const ImU32 label_colour = IM_COL32(200, 205, 215, 255), title_colour = IM_COL32(230, 235, 240, 255);

  const float cw = aw / float(nx), ch = ah / float(ny);
  // Cell k's edges, rounded to whole pixels: neighbours share an edge, with no gap or overlap
  // (the software renderer fills a fractional rectangle short of its edges).
  auto x_edge = [&](std::size_t k) { return std::round(a0.x + float(k) * cw); };
  auto y_edge = [&](std::size_t k) { return std::round(a1.y - float(k) * ch); };  // k from the bottom
  std::optional<std::uint64_t> under;
  if (s.axes.size() == 2) {
    for (std::uint64_t c = 0; c < n_combos; ++c) {
      const std::size_t ix = std::size_t(c / ny), iy = std::size_t(c % ny);
      const Box b{x_edge(ix), y_edge(iy + 1), x_edge(ix + 1), y_edge(iy)};
      boxes_[std::size_t(c)] = b;
      const double mean = hm.values[iy * nx + ix];
      dl->AddRectFilled(ImVec2(b.x0, b.y0), ImVec2(b.x1, b.y1),
                        std::isfinite(mean) ? colour_of((mean - range.lo) / range.span()) : IM_COL32(45, 48, 56, 255));
      if (hovered && mouse.x >= b.x0 && mouse.x < b.x1 && mouse.y >= b.y0 && mouse.y < b.y1) under = c;
    }
    // The y values right-aligned against the map, as many as fit one above the other.
    const std::size_t ystep = std::max<std::size_t>(1, std::size_t(std::ceil((line_h + 2) / ch)));
    for (std::size_t iy = 0; iy < ny; iy += ystep)
      dl->AddText(ImVec2(a0.x - 6 - width(y_ticks[iy]), a1.y - (float(iy) + 0.5f) * ch - line_h / 2), label_colour, y_ticks[iy].c_str());
    dl->AddText(ImVec2(p0.x + 4, p0.y + 2), title_colour, ("y: " + cli::key_title(s.axes[1].key)).c_str());
    // Colour key.
    for (int k = 0; k < 64; ++k) {
      const float y0 = std::round(a1.y - ah * float(k + 1) / 64), y1 = std::round(a1.y - ah * float(k) / 64);
      dl->AddRectFilled(ImVec2(a1.x + 12, y0), ImVec2(a1.x + 28, y1), colour_of((k + 0.5) / 64));
    }
    dl->AddText(ImVec2(a1.x + 32, a0.y), label_colour, hi_text.c_str());
    dl->AddText(ImVec2(a1.x + 32, a1.y - line_h), label_colour, lo_text.c_str());
  } else {
    // One parameter: the mean as a line, its 95% interval as a band (cut at the plot's edge:
    // the height spans the means, as the colours do), one column per value.
    auto Y = [&](double v) { return a1.y - float((v - range.lo) / range.span()) * ah; };
    dl->PushClipRect(a0, a1, true);
    std::optional<ImVec2> prev;
    for (std::uint64_t c = 0; c < n_combos; ++c) {
      const Box b{x_edge(std::size_t(c)), a0.y, x_edge(std::size_t(c) + 1), a1.y};
      boxes_[std::size_t(c)] = b;
      if (hovered && mouse.x >= b.x0 && mouse.x < b.x1) {
        under = c;
        dl->AddRectFilled(ImVec2(b.x0, b.y0), ImVec2(b.x1, b.y1), IM_COL32(255, 255, 255, 18));
      }
      const CellValue& v = values[std::size_t(c)];
      const float x = (b.x0 + b.x1) / 2;
      if (std::isfinite(v.lo) && std::isfinite(v.hi))
        dl->AddRectFilled(ImVec2(x - cw * 0.3f, Y(v.hi)), ImVec2(x + cw * 0.3f, Y(v.lo)), IM_COL32(120, 190, 255, 60));
      if (!std::isfinite(v.mean)) {
        prev.reset();
        continue;
      }
      const ImVec2 pt(x, Y(v.mean));
      if (prev) dl->AddLine(*prev, pt, IM_COL32(120, 190, 255, 255), 2);
      dl->AddCircleFilled(pt, 3.5f, IM_COL32(120, 190, 255, 255));
      prev = pt;
    }
    dl->PopClipRect();
    dl->AddText(ImVec2(a0.x - 6 - width(hi_text), a0.y), label_colour, hi_text.c_str());
    dl->AddText(ImVec2(a0.x - 6 - width(lo_text), a1.y - line_h), label_colour, lo_text.c_str());
  }
  dl->AddRect(a0, a1, IM_COL32(150, 160, 180, 200));
  // The x values centred under their columns, every k-th where they would overlap, none
  // past the map's edges.
  float widest = 0;
  for (const auto& t : x_ticks) widest = std::max(widest, width(t));
  const std::size_t xstep = std::max<std::size_t>(1, std::size_t(std::ceil((widest + 10) / cw)));
  for (std::size_t ix = 0; ix < nx; ix += xstep) {
    const float w = width(x_ticks[ix]);
    const float x = std::clamp(a0.x + (float(ix) + 0.5f) * cw - w / 2, p0.x + 2, p0.x + avail.x - w - 2);
    dl->AddText(ImVec2(x, a1.y + 4), label_colour, x_ticks[ix].c_str());
  }
  const std::string& title = view.label;
  const std::string runs = std::to_string(s.reps) + (s.reps == 1 ? " run" : " runs");
  const std::string what = s.axes.size() == 2 ? "    colour: " + title + " (mean of " + runs + ")"
                                              : "    height: " + title + " (mean, band: 95% interval over " + runs + ")";
  dl->AddText(ImVec2(a0.x, a1.y + line_h + 8), title_colour, ("x: " + cli::key_title(ax.key) + what + "; click a cell to open its flock").c_str());
  rects.remember("explore:map", WidgetRect{p0.x, p0.y, p0.x + avail.x, p0.y + avail.y});

  if (under) {
    const ComboSummary* found = nullptr;
    for (const auto& c : combos_)
      if (c.combination == *under) found = &c;
    // A cell holds its repeats side by side: where the click falls across it picks one.
    const Box& b = boxes_[std::size_t(*under)];
    const double across = b.x1 > b.x0 ? (mouse.x - b.x0) / (b.x1 - b.x0) : 0.0;
    const auto rep = std::min<std::uint64_t>(s.reps - 1, std::uint64_t(std::max(0.0, across) * double(s.reps)));
    const RunPoint pt = session_->point(*under, rep);
    ImGui::BeginTooltip();
    for (std::size_t a = 0; a < s.axes.size(); ++a)
      ImGui::Text("%s = %s", s.axes[a].key.c_str(), s.axes[a].labels[pt.value_index[a]].c_str());
    const CellValue& v = values[std::size_t(*under)];
    if (found && std::isfinite(v.mean)) {
      ImGui::Text("%s: mean %.4g", title.c_str(), v.mean);
      if (std::isfinite(v.lo)) ImGui::Text("95%% interval [%.4g, %.4g] over %zu runs", v.lo, v.hi, v.n);
      else ImGui::Text("%zu run%s (no interval)", v.n, v.n == 1 ? "" : "s");
    } else {
      ImGui::TextDisabled("not run yet");
    }
    ImGui::TextDisabled("click here: open the flock of repeat %llu of %llu (seed %u)", static_cast<unsigned long long>(rep + 1),
                        static_cast<unsigned long long>(s.reps), pt.seed);
    ImGui::EndTooltip();
    if (clicked) {
      show_map_ = false;
      return pt;
    }
  }
  return std::nullopt;
}

std::optional<ExplorePanel::Box> ExplorePanel::cell_box(std::uint64_t combination) const {
  if (combination >= boxes_.size()) return std::nullopt;
  return boxes_[std::size_t(combination)];
}

// ---------------------------------------------------------------- export
std::vector<fs::path> ExplorePanel::export_files(const fs::path& dir) const {
  if (!session_) throw InputError("no map to export");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) throw OutputError(dir.string() + ": cannot create the folder");
  const SweepSpec& s = session_->spec();
  write_text_file(dir / "runs.csv", session_->runs_csv());
  cli::ExploreSetup setup = map_setup_ ? *map_setup_ : cli::setup_of_spec(s, measure_, jobs_);
  setup.measure = measure_;
  cli::save_setup(setup, dir / cli::kSetupFileName);
  const auto combos = session_->combos();
  const cli::SweepView view = view_of(s);
  if (s.axes.size() == 2)
    plot::write_plot(dir / "map", cli::sweep_heatmap(s, combos, view));
  else
    plot::write_plot(dir / "map", cli::sweep_line_plot(s, combos, view));
  return {dir / "runs.csv", dir / "map.svg", dir / "map.png", dir / cli::kSetupFileName};
}

}  // namespace flockscope::gui
