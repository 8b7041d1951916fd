#include "plots_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <span>
#include <string>

#include "parameter_panel.hpp"

namespace flockscope::gui {

namespace {
constexpr ImU32 kColD = IM_COL32(120, 190, 255, 255);
constexpr ImU32 kColX = IM_COL32(255, 170, 70, 255);
constexpr ImU32 kColY = IM_COL32(120, 220, 140, 255);
constexpr ImU32 kColPath = IM_COL32(200, 150, 255, 255);
constexpr ImU32 kColPol = IM_COL32(255, 120, 160, 255);
constexpr ImU32 kColSpeed = IM_COL32(240, 220, 100, 255);
}  // namespace

void PlotsPanel::draw(const PlotData& plots, const Params& p, double playhead, WidgetRects& rects) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float path_w = std::min(avail.y, avail.x * 0.3f);
  const float cell_w = (avail.x - path_w - 2 * gap) / 2, cell_h = (avail.y - ImGui::GetStyle().ItemSpacing.y) / 2;
  const std::span<const double> marks(plots.resets);
  PlotLine d[] = {{"diameter", &plots.diameter, kColD, &show_d_}};
  PlotLine c[] = {{"centroid x", &plots.cx, kColX, &show_cx_}, {"centroid y", &plots.cy, kColY, &show_cy_}};
  PlotLine pol[] = {{"polarisation", &plots.polarisation, kColPol, &show_pol_}};
  PlotLine sp[] = {{"mean speed", &plots.speed, kColSpeed, &show_speed_}};
  ImGui::BeginGroup();
  // Amber: the board's own metrics (a partial frame, no state stream), not all of its boids.
  const std::span<const TimeSpan> bands(plots.board_spans);
  const char* band = "board's metrics";
  time_plot("diameter", "Flock diameter (px)", "time", views_[0], d, marks, ImVec2(cell_w, cell_h), bands, band, playhead);
  rects.remember("plot:diameter");
  ImGui::SameLine();
  time_plot("centroid", "Centroid (px)", "time", views_[1], c, marks, ImVec2(cell_w, cell_h), bands, band, playhead);
  rects.remember("plot:centroid");
  time_plot("polarisation", "Polarisation", "time", views_[2], pol, marks, ImVec2(cell_w, cell_h), bands, band, playhead);
  rects.remember("plot:polarisation");
  ImGui::SameLine();
  const std::string speed_title = std::string("Mean speed (") + speed_unit(p) + ")";
  time_plot("speed", speed_title.c_str(), "time", views_[3], sp, marks, ImVec2(cell_w, cell_h), bands, band, playhead);
  rects.remember("plot:speed");
  ImGui::EndGroup();
  ImGui::SameLine();
  path_plot("path", "Centroid path (x, y)", views_[4], plots.cx, plots.cy, kColPath, ImVec2(path_w, avail.y));
  rects.remember("plot:path");
}

}  // namespace flockscope::gui
