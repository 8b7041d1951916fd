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

// The measures a map of `spec` can show: sweep's summary plots' (the share going right only
// where the flocks have scout groups).
std::vector<cli::SweepView> measures_of(const SweepSpec& spec) { return cli::sweep_views(spec.kind, has_scouts(spec)); }

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

void ExplorePanel::controls(const Params& base, const std::string& preset, const std::string& folder, WidgetRects& rects) {
  axis_controls("x axis", ax_[0], false);
  axis_controls("y axis", ax_[1], true);
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
  std::vector<std::string> grid;
  for (const AxisPick& a : ax_)
    if (a.param >= 0) grid.push_back(axis_spec(a));
  // Dropping a repeated key keeps one axis: a map of a parameter against itself says nothing.
  if (grid.size() == 2 && grid[0].substr(0, grid[0].find('=')) == grid[1].substr(0, grid[1].find('='))) grid.pop_back();
  SweepSpec plan;
  plan.base = base;
  for (const auto& g : grid) plan.axes.push_back(GridAxis{g.substr(0, g.find('=')), {}, {}});
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
  if (ImGui::Button("Start map")) {
    try {
      start(explore_spec(preset, base, grid, std::uint64_t(reps_), std::uint64_t(steps_)));
    } catch (const std::exception& e) {
      message_ = std::string("cannot start the map: ") + e.what();
      message_error_ = true;
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
    char text[128];
    std::snprintf(text, sizeof text, "%llu / %llu runs%s", static_cast<unsigned long long>(s.done()),
                  static_cast<unsigned long long>(s.total()), state);
    ImGui::ProgressBar(s.total() ? float(double(s.done()) / double(s.total())) : 1.0f, ImVec2(-1, 0), text);
    if (ImGui::Button(show_map_ ? "Show the flock" : "Show the map")) show_map_ = !show_map_;
    ImGui::SameLine();
    const bool export_clicked = ImGui::Button("Export map (SVG, PNG, runs.csv)");
    rects.remember("explore:Export");
    if (export_clicked) {
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
  check_measure(spec, measure_);
  session_.reset();  // cancels and joins the previous map's workers
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

  ImGui::Text("Explore: %s, %llu repeats of %llu steps each", s.preset.c_str(), static_cast<unsigned long long>(s.reps),
              static_cast<unsigned long long>(s.steps));
  if (busy() && flock_waits) {
    ImGui::SameLine(0, 24);
    ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1), "the flock waits while the map runs (Pause the map to run it)");
    rects.remember("explore:flock waits");
  }
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.x = std::max(avail.x, 64.0f), avail.y = std::max(avail.y, 64.0f);
  ImGui::InvisibleButton("##map", avail);
  const bool hovered = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + avail.x, p0.y + avail.y), IM_COL32(20, 23, 31, 255));

  // Plot area: room for the value labels on the left and below, the colour key on the right;
  // whole pixels, so that cells with whole-pixel edges tile it.
  const float left = 70, bottom = 40, right = 90, top = 14;
  const ImVec2 a0(std::round(p0.x + left), std::round(p0.y + top));
  const ImVec2 a1(std::max(std::round(p0.x + avail.x - right), a0.x + 8), std::max(std::round(p0.y + avail.y - bottom), a0.y + 8));
  const float aw = a1.x - a0.x, ah = a1.y - a0.y;

  const cli::SweepView view = view_of(s);
  std::vector<CellValue> values(static_cast<std::size_t>(n_combos));
  for (const auto& c : combos_) values[std::size_t(c.combination)] = cell_value(s, c, measure_);

  const GridAxis& ax = s.axes[0];
  const std::size_t nx = ax.values.size();
  const std::size_t ny = s.axes.size() > 1 ? s.axes[1].values.size() : 1;
  const float cw = aw / float(nx), ch = ah / float(ny);
  // Cell k's edges, rounded to whole pixels: neighbours share an edge, with no gap or overlap
  // (the software renderer fills a fractional rectangle short of its edges).
  auto x_edge = [&](std::size_t k) { return std::round(a0.x + float(k) * cw); };
  auto y_edge = [&](std::size_t k) { return std::round(a1.y - float(k) * ch); };  // k from the bottom
  std::optional<std::uint64_t> under;
  if (s.axes.size() == 2) {
    // The colours span the cell means, as in the exported figure (the same heatmap model and
    // colour range): the intervals are the tooltip's.
    const plot::Heatmap hm = cli::sweep_heatmap(s, combos_, view);
    const plot::Range range = plot::colour_range(hm);
    shown_range_ = range;
    for (std::uint64_t c = 0; c < n_combos; ++c) {
      const std::size_t ix = std::size_t(c / ny), iy = std::size_t(c % ny);
      const Box b{x_edge(ix), y_edge(iy + 1), x_edge(ix + 1), y_edge(iy)};
      boxes_[std::size_t(c)] = b;
      const double mean = hm.values[iy * nx + ix];
      dl->AddRectFilled(ImVec2(b.x0, b.y0), ImVec2(b.x1, b.y1),
                        std::isfinite(mean) ? colour_of((mean - range.lo) / range.span()) : IM_COL32(45, 48, 56, 255));
      if (hovered && mouse.x >= b.x0 && mouse.x < b.x1 && mouse.y >= b.y0 && mouse.y < b.y1) under = c;
    }
    const std::size_t ystep = std::max<std::size_t>(1, std::size_t(std::ceil(16.0f / ch)));
    for (std::size_t iy = 0; iy < ny; iy += ystep)
      dl->AddText(ImVec2(p0.x + 4, a1.y - (float(iy) + 0.5f) * ch - 7), IM_COL32(200, 205, 215, 255), s.axes[1].labels[iy].c_str());
    dl->AddText(ImVec2(p0.x + 4, p0.y - 2), IM_COL32(230, 235, 240, 255), ("y: " + s.axes[1].key).c_str());
    // Colour key.
    for (int k = 0; k < 64; ++k) {
      const float y0 = std::round(a1.y - ah * float(k + 1) / 64), y1 = std::round(a1.y - ah * float(k) / 64);
      dl->AddRectFilled(ImVec2(a1.x + 12, y0), ImVec2(a1.x + 28, y1), colour_of((k + 0.5) / 64));
    }
    dl->AddText(ImVec2(a1.x + 32, a0.y), IM_COL32(200, 205, 215, 255), number_text(range.hi).c_str());
    dl->AddText(ImVec2(a1.x + 32, a1.y - 14), IM_COL32(200, 205, 215, 255), number_text(range.lo).c_str());
  } else {
    // One parameter: the mean as a line, its 95% interval as a band (cut at the plot's edge:
    // the height spans the means, as the colours do), one column per value.
    std::vector<double> means;
    for (const CellValue& v : values) means.push_back(v.mean);
    const plot::Range range = view.share ? plot::Range{0, 1} : plot::padded(plot::finite_range(means), 0.05);
    shown_range_ = range;
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
    dl->AddText(ImVec2(p0.x + 4, a0.y), IM_COL32(200, 205, 215, 255), number_text(range.hi).c_str());
    dl->AddText(ImVec2(p0.x + 4, a1.y - 14), IM_COL32(200, 205, 215, 255), number_text(range.lo).c_str());
  }
  dl->AddRect(a0, a1, IM_COL32(150, 160, 180, 200));
  const std::size_t xstep = std::max<std::size_t>(1, std::size_t(std::ceil(60.0f / cw)));
  for (std::size_t ix = 0; ix < nx; ix += xstep)
    dl->AddText(ImVec2(a0.x + (float(ix) + 0.5f) * cw - 14, a1.y + 4), IM_COL32(200, 205, 215, 255), ax.labels[ix].c_str());
  const std::string& title = view.label;
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
  const cli::SweepView view = view_of(s);
  if (s.axes.size() == 2)
    plot::write_plot(dir / "map", cli::sweep_heatmap(s, combos, view));
  else
    plot::write_plot(dir / "map", cli::sweep_line_plot(s, combos, view));
  return {dir / "runs.csv", dir / "map.svg", dir / "map.png"};
}

}  // namespace flockscope::gui
