// Sections: helpers | controls | the map | export
#include "explore_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "figures.hpp"
#include "flockscope/core/io.hpp"

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

std::string number_text(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// A combination's mean of the measure and its 95% confidence interval (Student's t over the
// repeats; the Wilson interval for the share of runs that formed).
struct CellValue {
  double mean = NAN, lo = NAN, hi = NAN;
  std::size_t n = 0;
};
CellValue cell_value(const SweepSpec& s, const ComboSummary& c, const std::string& key) {
  CellValue v;
  const auto& names = summary_metrics(s.kind);
  const auto k = std::size_t(std::find(names.begin(), names.end(), key) - names.begin());
  if (k >= c.metrics.size()) return v;
  const SampleStats& st = c.metrics[k];
  v.mean = st.mean, v.n = st.n;
  if (key == "formed") {
    const Proportion p = proportion(std::size_t(std::llround(st.mean * double(st.n))), st.n);
    v.lo = p.lo, v.hi = p.hi;
  } else {
    const Interval ci = mean_interval95(st);
    v.lo = ci.lo, v.hi = ci.hi;
  }
  return v;
}

ImU32 colour_of(double t) {
  const plot::Color c = plot::colormap(std::clamp(t, 0.0, 1.0));
  return IM_COL32(c.r, c.g, c.b, 255);
}

}  // namespace

ExplorePanel::ExplorePanel() {
  // Defaults: the report's vision range against cohesion, as the sliders span them.
  const auto params = sweepable();
  auto pick = [&](AxisPick& a, std::string_view name) {
    for (std::size_t i = 0; i < params.size(); ++i)
      if (params[i]->name == name) {
        a.param = int(i);
        a.from = params[i]->slider_min, a.to = params[i]->slider_max, a.log = params[i]->log_scale();
      }
  };
  pick(ax_[0], "visualRange");
  pick(ax_[1], "centeringfactor");
}

ExplorePanel::~ExplorePanel() = default;

// ---------------------------------------------------------------- controls
bool ExplorePanel::axis_controls(const char* id, AxisPick& a, bool optional) {
  const auto params = sweepable();
  ImGui::PushID(id);
  ImGui::SetNextItemWidth(160);
  const char* shown = a.param >= 0 ? params[std::size_t(a.param)]->name.data() : "(none)";
  bool changed = false;
  if (ImGui::BeginCombo(id, shown)) {
    if (optional && ImGui::Selectable("(none)", a.param < 0)) a.param = -1, changed = true;
    for (std::size_t i = 0; i < params.size(); ++i)
      if (ImGui::Selectable(std::string(params[i]->name).c_str(), int(i) == a.param)) {
        a.param = int(i);
        // Ranges default to the slider's, log steps where the slider is logarithmic.
        a.from = params[i]->slider_min, a.to = params[i]->slider_max, a.log = params[i]->log_scale();
        changed = true;
      }
    ImGui::EndCombo();
  }
  if (a.param >= 0) {
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
  return changed;
}

// "key=v1,v2,...": evenly spaced values, or evenly spaced logarithms.
std::string ExplorePanel::axis_spec(const AxisPick& a) const {
  const ParamDef& d = *sweepable()[std::size_t(a.param)];
  std::string s = std::string(d.name) + "=";
  const bool log = a.log && a.from > 0 && a.to > 0;
  for (int k = 0; k < a.count; ++k) {
    const double t = a.count > 1 ? double(k) / double(a.count - 1) : 0.0;
    double v = log ? a.from * std::pow(a.to / a.from, t) : a.from + (a.to - a.from) * t;
    if (d.kind == ParamKind::Int) v = std::round(v);
    if (k > 0) s += ',';
    s += number_text(v);
  }
  return s;
}

void ExplorePanel::controls(const Params& base, const std::string& preset, const std::string& folder) {
  axis_controls("x axis", ax_[0], false);
  axis_controls("y axis", ax_[1], true);
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("repeats", &reps_);
  reps_ = std::clamp(reps_, 1, 1000);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("steps", &steps_, 100, 1000);
  steps_ = std::clamp(steps_, 1, 10000000);
  ImGui::SetNextItemWidth(200);
  if (ImGui::BeginCombo("measure", measure_.c_str())) {
    for (const auto& v : cli::sweep_views(SweepKind::Flock))
      if (ImGui::Selectable(v.label.c_str(), v.key == measure_)) measure_ = v.key;
    ImGui::EndCombo();
  }
  if (ImGui::Button("Start map")) {
    try {
      std::vector<std::string> grid;
      for (const AxisPick& a : ax_)
        if (a.param >= 0) grid.push_back(axis_spec(a));
      // Dropping a repeated key keeps one axis: a map of a parameter against itself says nothing.
      if (grid.size() == 2 && grid[0].substr(0, grid[0].find('=')) == grid[1].substr(0, grid[1].find('='))) grid.pop_back();
      start(explore_spec(preset, base, grid, std::uint64_t(reps_), std::uint64_t(steps_)));
    } catch (const std::exception& e) {
      message_ = std::string("cannot start the map: ") + e.what();
      message_error_ = true;
    }
  }
  if (session_) {
    ExploreSession& s = *session_;
    const bool running = s.running();
    ImGui::SameLine();
    if (running) {
      if (ImGui::Button(s.paused() ? "Resume" : "Pause")) s.set_paused(!s.paused());
      ImGui::SameLine();
      if (ImGui::Button("Cancel")) s.cancel();
    } else if (!s.complete()) {
      if (ImGui::Button("Resume")) s.set_paused(false), s.start();
    }
    char text[96];
    std::snprintf(text, sizeof text, "%llu / %llu runs%s", static_cast<unsigned long long>(s.done()),
                  static_cast<unsigned long long>(s.total()), s.paused() ? " (paused)" : !running && !s.complete() ? " (cancelled)" : "");
    ImGui::ProgressBar(s.total() ? float(double(s.done()) / double(s.total())) : 1.0f, ImVec2(-1, 0), text);
    if (ImGui::Button(show_map_ ? "Show the flock" : "Show the map")) show_map_ = !show_map_;
    ImGui::SameLine();
    if (ImGui::Button("Export map (SVG, PNG, runs.csv)")) {
      try {
        const auto files = export_files(fs::path(folder) / "explore");
        message_ = "exported " + std::to_string(files.size()) + " files to " + (fs::path(folder) / "explore").string();
        message_error_ = false;
      } catch (const std::exception& e) {
        message_ = std::string("export failed: ") + e.what();
        message_error_ = true;
      }
    }
    if (const std::string err = s.error(); !err.empty()) message_ = "the map stopped: " + err, message_error_ = true;
  }
  if (!message_.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(message_error_ ? ImVec4(1, 0.45f, 0.4f, 1) : ImVec4(0.6f, 0.9f, 0.6f, 1), "%s", message_.c_str());
    ImGui::PopTextWrapPos();
  }
}

void ExplorePanel::start(SweepSpec spec) {
  if (spec.axes.empty() || spec.axes.size() > 2) throw InputError("a map sweeps one or two parameters (--explore-grid once or twice)");
  session_.reset();  // cancels and joins the previous map's workers
  session_ = std::make_unique<ExploreSession>(std::move(spec));
  seen_revision_ = ~0ull;
  combos_.clear();
  boxes_.clear();
  show_map_ = true;
  message_.clear();
  session_->start();
}

void ExplorePanel::refresh() {
  if (!session_ || session_->revision() == seen_revision_) return;
  seen_revision_ = session_->revision();
  combos_ = session_->combos();
}

// ---------------------------------------------------------------- the map
std::optional<RunPoint> ExplorePanel::map() {
  if (!session_) return std::nullopt;
  refresh();
  const SweepSpec& s = session_->spec();
  const std::uint64_t n_combos = combination_count(s);
  boxes_.assign(std::size_t(n_combos), Box{});

  ImGui::Text("Explore: %s, %llu repeats of %llu steps each", s.preset.c_str(), static_cast<unsigned long long>(s.reps),
              static_cast<unsigned long long>(s.steps));
  if (busy()) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1), "   the local flock is paused while the map runs");
  }
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.x = std::max(avail.x, 64.0f), avail.y = std::max(avail.y, 64.0f);
  ImGui::InvisibleButton("##map", avail);
  const bool hovered = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + avail.x, p0.y + avail.y), IM_COL32(20, 23, 31, 255));

  // Plot area: room for the value labels on the left and below, the colour key on the right.
  const float left = 70, bottom = 40, right = 90, top = 14;
  const ImVec2 a0(p0.x + left, p0.y + top), a1(p0.x + avail.x - right, p0.y + avail.y - bottom);
  const float aw = std::max(a1.x - a0.x, 8.0f), ah = std::max(a1.y - a0.y, 8.0f);

  // The colour scale (or the line's y range) from the finished combinations.
  std::vector<CellValue> values(static_cast<std::size_t>(n_combos));
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& c : combos_) {
    values[std::size_t(c.combination)] = cell_value(s, c, measure_);
    const CellValue& v = values[std::size_t(c.combination)];
    for (double x : {v.mean, v.lo, v.hi})
      if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  }
  if (!(hi > lo)) lo = std::isfinite(lo) ? lo - 0.5 : 0, hi = lo + 1;
  auto scaled = [&](double v) { return (v - lo) / (hi - lo); };

  const GridAxis& ax = s.axes[0];
  const std::size_t nx = ax.values.size();
  const std::size_t ny = s.axes.size() > 1 ? s.axes[1].values.size() : 1;
  const float cw = aw / float(nx), ch = ah / float(ny);
  std::optional<std::uint64_t> under;
  if (s.axes.size() == 2) {
    for (std::uint64_t c = 0; c < n_combos; ++c) {
      const std::size_t ix = std::size_t(c / ny), iy = std::size_t(c % ny);
      const Box b{a0.x + float(ix) * cw, a1.y - float(iy + 1) * ch, a0.x + float(ix + 1) * cw, a1.y - float(iy) * ch};
      boxes_[std::size_t(c)] = b;
      const CellValue& v = values[std::size_t(c)];
      dl->AddRectFilled(ImVec2(b.x0, b.y0), ImVec2(b.x1, b.y1), std::isfinite(v.mean) ? colour_of(scaled(v.mean)) : IM_COL32(45, 48, 56, 255));
      if (hovered && mouse.x >= b.x0 && mouse.x < b.x1 && mouse.y >= b.y0 && mouse.y < b.y1) under = c;
    }
    const std::size_t ystep = std::max<std::size_t>(1, std::size_t(std::ceil(16.0f / ch)));
    for (std::size_t iy = 0; iy < ny; iy += ystep)
      dl->AddText(ImVec2(p0.x + 4, a1.y - (float(iy) + 0.5f) * ch - 7), IM_COL32(200, 205, 215, 255), s.axes[1].labels[iy].c_str());
    dl->AddText(ImVec2(p0.x + 4, p0.y - 2), IM_COL32(230, 235, 240, 255), ("y: " + s.axes[1].key).c_str());
    // Colour key.
    for (int k = 0; k < 64; ++k) {
      const float y0 = a1.y - ah * float(k + 1) / 64, y1 = a1.y - ah * float(k) / 64;
      dl->AddRectFilled(ImVec2(a1.x + 12, y0), ImVec2(a1.x + 28, y1), colour_of((k + 0.5) / 64));
    }
    dl->AddText(ImVec2(a1.x + 32, a0.y), IM_COL32(200, 205, 215, 255), number_text(hi).c_str());
    dl->AddText(ImVec2(a1.x + 32, a1.y - 14), IM_COL32(200, 205, 215, 255), number_text(lo).c_str());
  } else {
    // One parameter: the mean as a line, its 95% interval as a band, one column per value.
    auto Y = [&](double v) { return a1.y - float(scaled(v)) * ah; };
    std::optional<ImVec2> prev;
    for (std::uint64_t c = 0; c < n_combos; ++c) {
      const Box b{a0.x + float(c) * cw, a0.y, a0.x + float(c + 1) * cw, a1.y};
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
    dl->AddText(ImVec2(p0.x + 4, a0.y), IM_COL32(200, 205, 215, 255), number_text(hi).c_str());
    dl->AddText(ImVec2(p0.x + 4, a1.y - 14), IM_COL32(200, 205, 215, 255), number_text(lo).c_str());
  }
  dl->AddRect(a0, a1, IM_COL32(150, 160, 180, 200));
  const std::size_t xstep = std::max<std::size_t>(1, std::size_t(std::ceil(60.0f / cw)));
  for (std::size_t ix = 0; ix < nx; ix += xstep)
    dl->AddText(ImVec2(a0.x + (float(ix) + 0.5f) * cw - 14, a1.y + 4), IM_COL32(200, 205, 215, 255), ax.labels[ix].c_str());
  std::string title;
  for (const auto& v : cli::sweep_views(s.kind))
    if (v.key == measure_) title = v.label;
  dl->AddText(ImVec2(a0.x, a1.y + 22), IM_COL32(230, 235, 240, 255),
              ("x: " + ax.key + "    colour / height: " + title + " (mean; click a cell to open its flock)").c_str());

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
  const auto combos = session_->combos();
  cli::SweepView view{measure_, measure_};
  for (const auto& v : cli::sweep_views(s.kind))
    if (v.key == measure_) view = v;
  if (s.axes.size() == 2)
    plot::write_plot(dir / "map", cli::sweep_heatmap(s, combos, view));
  else
    plot::write_plot(dir / "map", cli::sweep_line_plot(s, combos, view));
  return {dir / "runs.csv", dir / "map.svg", dir / "map.png"};
}

}  // namespace flockscope::gui
