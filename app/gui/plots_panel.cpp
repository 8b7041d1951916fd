// Sections: the cells and their choices | layout and export | draw | the series menu
#include "plots_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "parameter_panel.hpp"
#include "series_colours.hpp"

namespace flockscope::gui {

namespace {
constexpr ImU32 im_colour(SeriesColour c) { return IM_COL32(c.r, c.g, c.b, 255); }
constexpr ImU32 kColPath = im_colour(kPathColour);
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kPathView = 4;
}  // namespace

// ---------------------------------------------------------------- the cells and their choices
PlotsPanel::PlotsPanel() : hover_t_(kNaN) {
  cells_[0] = {{"diameter"}, {}, "Flock diameter (px)"};
  cells_[1] = {{"centroid_x", "centroid_y"}, {}, "Centroid (px)"};
  cells_[2] = {{"polarisation"}, {}, "Polarisation"};
  // Down and up: +y is down the screen, so gravity shows as "down" above "up".
  cells_[3] = {{"mean_speed", "speed_down", "speed_up"}, {}, "Mean speed"};
  cells_[4] = {{"perched"}, {}, "Perched (boids)"};
  // Boid to its nearest food source, predator to its nearest boid: the mean of each.
  cells_[5] = {{"food_distance", "predator_distance"}, {}, "Distance (px)"};
  for (Cell& c : cells_) c.defaults = c.keys;
  for (const PlotMetric& m : plot_metrics()) visible_.emplace_back(m.key, true);
}

std::size_t PlotsPanel::view_index(std::size_t cell) const {
  constexpr std::size_t kViews[] = {0, 1, 2, 3, 5, 6};
  return kViews[cell];
}

bool PlotsPanel::visible(const std::string& key) const {
  for (const auto& [k, on] : visible_)
    if (k == key) return on;
  return true;
}

ShownSeries PlotsPanel::shown() const {
  return {visible("diameter"),   visible("centroid_x"), visible("centroid_y"),    visible("polarisation"),
          visible("mean_speed"), visible("speed_down"), visible("speed_up"),      visible("perched"),
          visible("food_distance"), visible("predator_distance")};
}

const std::vector<std::string>& PlotsPanel::series(const std::string& cell) const {
  for (std::size_t i = 0; i < kCells.size(); ++i)
    if (cell == kCells[i]) return cells_[i].keys;
  static const std::vector<std::string> none;
  return none;
}

void PlotsPanel::set_series(const std::string& cell, const std::vector<std::string>& keys) {
  for (std::size_t i = 0; i < kCells.size(); ++i) {
    if (cell != kCells[i]) continue;
    cells_[i].keys.clear();
    for (const std::string& k : keys)
      if (find_plot_metric(k) && std::find(cells_[i].keys.begin(), cells_[i].keys.end(), k) == cells_[i].keys.end())
        cells_[i].keys.push_back(k);
  }
}

std::optional<std::pair<double, double>> PlotsPanel::zoomed_range() const {
  if (zoomed_ < 0 || views_[std::size_t(zoomed_)].autofit_x) return std::nullopt;
  const PlotView& v = views_[std::size_t(zoomed_)];
  return std::pair{v.x0, v.x1};
}

void PlotsPanel::fit_all() {
  for (PlotView& v : views_) v.autofit_x = v.autofit_y = true;
  zoomed_ = -1;
}

// ---------------------------------------------------------------- layout and export
nlohmann::json PlotsPanel::layout() const {
  nlohmann::json j;
  for (std::size_t i = 0; i < kCells.size(); ++i) j["series"][kCells[i]] = cells_[i].keys;
  j["linked_time"] = linked_;
  return j;
}

void PlotsPanel::restore_layout(const nlohmann::json& j) {
  if (!j.is_object()) return;
  if (const auto s = j.find("series"); s != j.end() && s->is_object())
    for (const char* cell : kCells)
      if (const auto c = s->find(cell); c != s->end() && c->is_array()) {
        std::vector<std::string> keys;
        for (const auto& k : *c)
          if (k.is_string()) keys.push_back(k.get<std::string>());
        set_series(cell, keys);
      }
  if (const auto l = j.find("linked_time"); l != j.end() && l->is_boolean()) linked_ = l->get<bool>();
}

void PlotsPanel::export_choices(ExportOptions& o) const {
  o.figures.clear();
  for (std::size_t i = 0; i < kCells.size(); ++i) {
    FigureChoice f;
    f.plot = i == 3 ? "mean-speed" : kCells[i];
    for (const std::string& k : cells_[i].keys)
      if (visible(k)) f.series.push_back(k);
    f.default_series = cells_[i].keys == cells_[i].defaults;
    const PlotView& v = views_[view_index(i)];
    if (!v.autofit_y) f.y = std::pair{v.y0, v.y1};
    o.figures.push_back(std::move(f));
  }
  o.linked_time = linked_;
}

// ---------------------------------------------------------------- draw
void PlotsPanel::draw(const PlotData& plots, const Params& p, double playhead, WidgetRects& rects, const PlotData* previous) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const bool extensions = extension_plots(p);
  const int columns = extensions ? 3 : 2;
  const float path_w = std::min(avail.y, avail.x * (extensions ? 0.22f : 0.3f));
  const float cell_w = (avail.x - path_w - float(columns) * gap) / float(columns);
  const float cell_h = (avail.y - ImGui::GetStyle().ItemSpacing.y) / 2;
  const std::span<const double> marks(plots.resets);
  // Amber: not measured over every boid of the frame: the board's own metrics stood in (a
  // partial frame, no state stream), or a partial frame measured over the boids that arrived
  // (link::MetricsSource).
  const std::span<const TimeSpan> bands(plots.board_spans);
  const char* band = "board's or partial";
  const std::span<const double> changes(plots.param_changes);
  const std::string speed = speed_unit(p);
  // A unit as it reads at this dt (speeds in px/time when dt is not 1).
  auto unit_of = [&](const PlotMetric& m) { return m.unit == "px/frame" ? speed : m.unit; };
  std::deque<std::string> names;  // the previous run's legend names, alive while drawn

  auto draw_cell = [&](std::size_t c) {
    Cell& cell = cells_[c];
    const std::size_t vi = view_index(c);
    PlotView& v = views_[vi];
    std::vector<PlotLine> lines;
    for (const std::string& k : cell.keys) {
      const PlotMetric* m = find_plot_metric(k);
      const Series* s = plots.series(k);
      if (!m || !s) continue;
      auto vis = std::find_if(visible_.begin(), visible_.end(), [&](const auto& e) { return e.first == k; });
      lines.push_back({m->label.c_str(), s, im_colour(m->colour), &vis->second});
    }
    if (previous) {  // the run before the last preset, in grey, for comparison
      constexpr ImU32 kPrevious = IM_COL32(150, 150, 160, 150);
      for (const std::string& k : cell.keys) {
        const PlotMetric* m = find_plot_metric(k);
        const Series* s = previous->series(k);
        if (!m || !s || k == "speed_down" || k == "speed_up") continue;
        std::string label = m->label;
        if (label.rfind("centroid ", 0) == 0) label = label.substr(9);
        names.push_back(cell.keys.size() == 1 || k == "mean_speed" ? "previous run" : "previous " + label);
        lines.push_back({names.back().c_str(), s, kPrevious, &show_previous_});
      }
    }
    // The default series keep their panel's title; a choice of one names it, of several counts them.
    std::string title = cell.title;
    if (c == 3 && cell.keys == cell.defaults) title += " (" + speed + ")";
    if (cell.keys != cell.defaults) {
      if (cell.keys.size() == 1) {
        const PlotMetric* m = find_plot_metric(cell.keys[0]);
        const std::string u = unit_of(*m);
        title = m->label + (u.empty() ? "" : " (" + u + ")");
        title[0] = char(std::toupper(static_cast<unsigned char>(title[0])));
      } else {
        title = cell.keys.empty() ? "No series (right-click)" : std::to_string(cell.keys.size()) + " series";
      }
    }
    v.cursor = linked_ && std::isnan(v.hover_t) ? hover_t_ : kNaN;
    time_plot(kCells[c], title.c_str(), "time", v, lines, marks, ImVec2(cell_w, cell_h), bands, band, playhead, changes);
    rects.remember(std::string("plot:") + kCells[c]);
    for (const auto& l : v.legend)
      rects.remember(std::string("legend:") + kCells[c] + ":" + l.name, {l.x0, l.y0, l.x1, l.y1});
    // Linked: a zoom, pan or fit of this time axis moves the others (each draws it from its
    // next frame on; those drawn after this one, in this frame).
    if (linked_ && v.moved_x)
      for (std::size_t o = 0; o < cells_.size(); ++o) {
        PlotView& w = views_[view_index(o)];
        if (&w == &v) continue;
        w.autofit_x = v.autofit_x, w.x0 = v.x0, w.x1 = v.x1;
        seen_x_[view_index(o)] = {w.x0, w.x1};
      }
    if (!v.autofit_x && (v.x0 != seen_x_[vi].first || v.x1 != seen_x_[vi].second)) zoomed_ = int(vi);
    seen_x_[vi] = {v.x0, v.x1};
    menu(c, rects);
  };

  double hovered = kNaN;
  ImGui::BeginGroup();
  draw_cell(0);
  ImGui::SameLine();
  draw_cell(1);
  if (extensions) {
    ImGui::SameLine();
    draw_cell(4);
  }
  draw_cell(2);
  ImGui::SameLine();
  draw_cell(3);
  if (extensions) {
    ImGui::SameLine();
    draw_cell(5);
  }
  ImGui::EndGroup();
  for (std::size_t c = 0; c < cells_.size(); ++c)
    if (!std::isnan(views_[view_index(c)].hover_t)) hovered = views_[view_index(c)].hover_t;
  hover_t_ = hovered;
  ImGui::SameLine();
  path_plot("path", "Centroid path (x, y)", views_[kPathView], plots.cx, plots.cy, kColPath, ImVec2(path_w, avail.y));
  rects.remember("plot:path");
}

// ---------------------------------------------------------------- the series menu
// A right-click on a time plot: every plottable metric as a checkbox, the link of the time
// axes, and a fit.
void PlotsPanel::menu(std::size_t c, WidgetRects& rects) {
  Cell& cell = cells_[c];
  const std::size_t vi = view_index(c);
  ImGui::PushID(kCells[c]);
  if (views_[vi].menu_asked) ImGui::OpenPopup("series");
  if (ImGui::BeginPopup("series")) {
    ImGui::TextDisabled("plot these metrics (every step)");
    for (const PlotMetric& m : plot_metrics()) {
      bool on = std::find(cell.keys.begin(), cell.keys.end(), m.key) != cell.keys.end();
      ImGui::PushStyleColor(ImGuiCol_CheckMark, ImGui::ColorConvertU32ToFloat4(im_colour(m.colour)));
      if (ImGui::Checkbox(m.key.c_str(), &on)) {
        if (on)
          cell.keys.push_back(m.key);
        else
          cell.keys.erase(std::find(cell.keys.begin(), cell.keys.end(), m.key));
        views_[vi].autofit_y = true;
      }
      ImGui::PopStyleColor();
      rects.remember(std::string("plotmenu:") + m.key);
      if (m.key == "mean_nn_distance" || m.key == "clusters")
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("computed once per drawn frame, for flocks up to 20,000 boids");
    }
    ImGui::Separator();
    if (ImGui::Selectable("default series", false, ImGuiSelectableFlags_DontClosePopups)) cell.keys = cell.defaults;
    rects.remember("plotmenu:default");
    ImGui::Checkbox("link time axes", &linked_);
    rects.remember("plotmenu:link");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("a zoom or pan of one plot's time moves them all");
    if (ImGui::Selectable("fit all plots")) fit_all();
    ImGui::EndPopup();
  }
  ImGui::PopID();
}

}  // namespace flockscope::gui
