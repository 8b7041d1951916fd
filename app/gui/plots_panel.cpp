#include "plots_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "parameter_panel.hpp"
#include "series_colours.hpp"

namespace flockscope::gui {

namespace {
constexpr ImU32 im_colour(SeriesColour c) { return IM_COL32(c.r, c.g, c.b, 255); }
constexpr ImU32 kColD = im_colour(kDiameterColour);
constexpr ImU32 kColX = im_colour(kCentroidXColour);
constexpr ImU32 kColY = im_colour(kCentroidYColour);
constexpr ImU32 kColPath = im_colour(kPathColour);
constexpr ImU32 kColPol = im_colour(kPolarisationColour);
constexpr ImU32 kColSpeed = im_colour(kSpeedColour);
constexpr ImU32 kColDown = im_colour(kSpeedDownColour);
constexpr ImU32 kColUp = im_colour(kSpeedUpColour);
constexpr ImU32 kColPerched = im_colour(kPerchedColour);
constexpr ImU32 kColFood = im_colour(kFoodDistanceColour);
constexpr ImU32 kColPredator = im_colour(kPredatorDistanceColour);
}  // namespace

std::optional<std::pair<double, double>> PlotsPanel::zoomed_range() const {
  if (zoomed_ < 0 || views_[std::size_t(zoomed_)].autofit_x) return std::nullopt;
  const PlotView& v = views_[std::size_t(zoomed_)];
  return std::pair{v.x0, v.x1};
}

void PlotsPanel::fit_all() {
  for (PlotView& v : views_) v.autofit_x = v.autofit_y = true;
  zoomed_ = -1;
}

void PlotsPanel::draw(const PlotData& plots, const Params& p, double playhead, WidgetRects& rects, const PlotData* previous) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const bool extensions = extension_plots(p);
  const int columns = extensions ? 3 : 2;
  const float path_w = std::min(avail.y, avail.x * (extensions ? 0.22f : 0.3f));
  const float cell_w = (avail.x - path_w - float(columns) * gap) / float(columns);
  const float cell_h = (avail.y - ImGui::GetStyle().ItemSpacing.y) / 2;
  const std::span<const double> marks(plots.resets);
  std::vector<PlotLine> d = {{"diameter", &plots.diameter, kColD, &show_d_}};
  std::vector<PlotLine> c = {{"centroid x", &plots.cx, kColX, &show_cx_}, {"centroid y", &plots.cy, kColY, &show_cy_}};
  std::vector<PlotLine> pol = {{"polarisation", &plots.polarisation, kColPol, &show_pol_}};
  // Down and up: +y is down the screen, so gravity shows as "down" above "up".
  std::vector<PlotLine> sp = {{"mean speed", &plots.speed, kColSpeed, &show_speed_},
                              {"down", &plots.speed_down, kColDown, &show_down_},
                              {"up", &plots.speed_up, kColUp, &show_up_}};
  std::vector<PlotLine> perched = {{"perched", &plots.perched, kColPerched, &show_perched_}};
  std::vector<PlotLine> dist = {{"food", &plots.food_distance, kColFood, &show_food_},
                                {"predator", &plots.predator_distance, kColPredator, &show_predator_}};
  if (previous) {  // the run before the last preset, in grey, for comparison
    constexpr ImU32 kPrevious = IM_COL32(150, 150, 160, 150);
    d.push_back({"previous run", &previous->diameter, kPrevious, &show_previous_});
    c.push_back({"previous x", &previous->cx, kPrevious, &show_previous_});
    c.push_back({"previous y", &previous->cy, kPrevious, &show_previous_});
    pol.push_back({"previous run", &previous->polarisation, kPrevious, &show_previous_});
    sp.push_back({"previous run", &previous->speed, kPrevious, &show_previous_});
    perched.push_back({"previous run", &previous->perched, kPrevious, &show_previous_});
    dist.push_back({"previous food", &previous->food_distance, kPrevious, &show_previous_});
    dist.push_back({"previous predator", &previous->predator_distance, kPrevious, &show_previous_});
  }
  ImGui::BeginGroup();
  // Amber: not measured over every boid of the frame: the board's own metrics stood in (a
  // partial frame, no state stream), or a partial frame measured over the boids that arrived
  // (link::MetricsSource).
  const std::span<const TimeSpan> bands(plots.board_spans);
  const char* band = "board's or partial";
  const std::span<const double> changes(plots.param_changes);
  // Each plot's rectangle and legend entries, and which one the user zoomed or panned last.
  auto placed = [&](std::size_t i, const char* name) {
    rects.remember(std::string("plot:") + name);
    for (const auto& l : views_[i].legend) rects.remember(std::string("legend:") + name + ":" + l.name, {l.x0, l.y0, l.x1, l.y1});
    const PlotView& v = views_[i];
    if (!v.autofit_x && (v.x0 != seen_x_[i].first || v.x1 != seen_x_[i].second)) zoomed_ = int(i);
    seen_x_[i] = {v.x0, v.x1};
  };
  time_plot("diameter", "Flock diameter (px)", "time", views_[0], d, marks, ImVec2(cell_w, cell_h), bands, band, playhead, changes);
  placed(0, "diameter");
  ImGui::SameLine();
  time_plot("centroid", "Centroid (px)", "time", views_[1], c, marks, ImVec2(cell_w, cell_h), bands, band, playhead, changes);
  placed(1, "centroid");
  if (extensions) {
    ImGui::SameLine();
    time_plot("perched", "Perched (boids)", "time", views_[5], perched, marks, ImVec2(cell_w, cell_h), bands, band, playhead,
              changes);
    placed(5, "perched");
  }
  time_plot("polarisation", "Polarisation", "time", views_[2], pol, marks, ImVec2(cell_w, cell_h), bands, band, playhead, changes);
  placed(2, "polarisation");
  ImGui::SameLine();
  const std::string speed_title = std::string("Mean speed (") + speed_unit(p) + ")";
  time_plot("speed", speed_title.c_str(), "time", views_[3], sp, marks, ImVec2(cell_w, cell_h), bands, band, playhead, changes);
  placed(3, "speed");
  if (extensions) {
    // Boid to its nearest food source, predator to its nearest boid: the mean of each.
    ImGui::SameLine();
    time_plot("distance", "Distance (px)", "time", views_[6], dist, marks, ImVec2(cell_w, cell_h), bands, band, playhead,
              changes);
    placed(6, "distance");
  }
  ImGui::EndGroup();
  ImGui::SameLine();
  path_plot("path", "Centroid path (x, y)", views_[4], plots.cx, plots.cy, kColPath, ImVec2(path_w, avail.y));
  rects.remember("plot:path");
}

}  // namespace flockscope::gui
