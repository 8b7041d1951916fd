// Sections: series and decimation | drawing helpers | time_plot | path_plot
#include "plot_widget.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "flockscope/plot/ticks.hpp"

namespace flockscope::gui {

// ---------------------------------------------------------------- series and decimation
void Series::push(double t, double y) {
  t_.push_back(t);
  y_.push_back(y);
  const std::size_t n = y_.size();
  // Completing a block of 2 at level 0 may complete one of 4 at level 1, and so on.
  if (n % 2 != 0) return;
  // fmin and fmax pass over a NaN (a metric with nothing to measure): a block is NaN only
  // when all of its points are.
  MinMax m{std::fmin(y_[n - 2], y_[n - 1]), std::fmax(y_[n - 2], y_[n - 1])};
  for (std::size_t k = 0;; ++k) {
    if (levels_.size() <= k) levels_.emplace_back();
    auto& lv = levels_[k];
    lv.push_back(m);
    if (lv.size() % 2 != 0) break;
    m = {std::fmin(lv[lv.size() - 2].lo, lv.back().lo), std::fmax(lv[lv.size() - 2].hi, lv.back().hi)};
  }
}

void Series::clear() {
  t_.clear();
  y_.clear();
  levels_.clear();
}

std::size_t Series::index_at(double x) const {
  const auto it = std::upper_bound(t_.begin(), t_.end(), x);
  return it == t_.begin() ? 0 : std::size_t(it - t_.begin()) - 1;
}

void Series::decimate(double t0, double t1, int columns, std::vector<Column>& out) const {
  out.clear();
  if (t_.empty() || columns <= 0 || !(t1 > t0)) return;
  std::size_t i0 = std::size_t(std::lower_bound(t_.begin(), t_.end(), t0) - t_.begin());
  std::size_t i1 = std::size_t(std::upper_bound(t_.begin(), t_.end(), t1) - t_.begin());
  if (i0 > 0) --i0;
  if (i1 < t_.size()) ++i1;
  const std::size_t count = i1 - i0;
  if (count <= std::size_t(2 * columns)) {
    for (std::size_t i = i0; i < i1; ++i) out.push_back({t_[i], y_[i], y_[i]});
    return;
  }
  // The coarsest level whose blocks still hold at most half a column's worth of points.
  const double per_column = double(count) / columns;
  int k = -1;
  while (k + 1 < int(levels_.size()) && double(std::size_t(2) << (k + 1)) <= per_column / 2) ++k;
  const double scale = columns / (t1 - t0);
  auto add = [&](double t, double lo, double hi) {
    const double col = std::floor((t - t0) * scale);
    if (!out.empty() && std::floor((out.back().t - t0) * scale) == col) {
      out.back().lo = std::fmin(out.back().lo, lo);
      out.back().hi = std::fmax(out.back().hi, hi);
    } else {
      // A column is drawn at its first point's t, which keeps the line on the data.
      out.push_back({t, lo, hi});
    }
  };
  std::size_t i = i0;
  if (k >= 0) {
    const std::size_t bs = std::size_t(2) << k;  // points per block
    for (; i < i1 && i % bs != 0; ++i) add(t_[i], y_[i], y_[i]);
    const auto& lv = levels_[std::size_t(k)];
    for (; i + bs <= i1 && i / bs < lv.size(); i += bs) add(t_[i], lv[i / bs].lo, lv[i / bs].hi);
  }
  for (; i < i1; ++i) add(t_[i], y_[i], y_[i]);
}

// ---------------------------------------------------------------- drawing helpers
namespace {
constexpr ImU32 kFrameBg = IM_COL32(24, 26, 32, 255);
constexpr ImU32 kGrid = IM_COL32(255, 255, 255, 22);
constexpr ImU32 kAxisText = IM_COL32(170, 175, 185, 255);
constexpr ImU32 kMarker = IM_COL32(255, 90, 90, 150);       // a reset
constexpr ImU32 kChange = IM_COL32(150, 170, 200, 110);     // a live parameter change
constexpr ImU32 kBand = IM_COL32(255, 170, 40, 45);         // a board's own metrics stood in
constexpr ImU32 kBandLegend = IM_COL32(255, 180, 60, 255);

struct Frame {
  ImVec2 outer0, outer1, p0, p1;  // whole widget, and the plotting area
  bool hovered, active;
};

// Title, frame, plotting area and the interaction (wheel zoom, drag pan, double-click fit).
// `legend_rows`: rows of legend below the title row (the plotting area starts below them).
Frame begin_plot(const char* id, const char* title, PlotView& v, ImVec2 size, bool zoom_x_only, int legend_rows = 0) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  Frame f;
  f.outer0 = ImGui::GetCursorScreenPos();
  if (size.x <= 0) size.x = ImGui::GetContentRegionAvail().x;
  f.outer1 = ImVec2(f.outer0.x + size.x, f.outer0.y + size.y);
  ImGui::InvisibleButton(id, size);
  f.hovered = ImGui::IsItemHovered();
  f.active = ImGui::IsItemActive();
  v.moved_x = false;
  v.menu_asked = f.hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Right);
  const float fh = ImGui::GetFontSize();
  f.p0 = ImVec2(f.outer0.x + 4.2f * fh, f.outer0.y + fh * (1.4f + 1.1f * float(legend_rows)));
  f.p1 = ImVec2(f.outer1.x - 0.6f * fh, f.outer1.y - fh * 1.5f);
  dl->AddRectFilled(f.outer0, f.outer1, IM_COL32(18, 19, 24, 255), 4.0f);
  dl->AddRectFilled(f.p0, f.p1, kFrameBg);
  dl->AddText(ImVec2(f.outer0.x + 0.5f * fh, f.outer0.y + 0.2f * fh), IM_COL32(225, 228, 235, 255), title);

  ImGuiIO& io = ImGui::GetIO();
  const float w = f.p1.x - f.p0.x, h = f.p1.y - f.p0.y;
  if (f.hovered && io.MouseWheel != 0 && w > 0 && h > 0) {
    const double factor = std::pow(0.85, io.MouseWheel);
    if (io.KeyShift && !zoom_x_only) {
      const double my = v.y1 - (io.MousePos.y - f.p0.y) / h * (v.y1 - v.y0);
      v.y0 = my + (v.y0 - my) * factor, v.y1 = my + (v.y1 - my) * factor;
      v.autofit_y = false;
    } else {
      const double mx = v.x0 + (io.MousePos.x - f.p0.x) / w * (v.x1 - v.x0);
      v.x0 = mx + (v.x0 - mx) * factor, v.x1 = mx + (v.x1 - mx) * factor;
      v.autofit_x = false;
      v.moved_x = true;
      if (zoom_x_only) {
        const double my = v.y1 - (io.MousePos.y - f.p0.y) / h * (v.y1 - v.y0);
        v.y0 = my + (v.y0 - my) * factor, v.y1 = my + (v.y1 - my) * factor;
        v.autofit_y = false;
      }
    }
  }
  if (f.active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.0f) && w > 0 && h > 0) {
    const double dx = io.MouseDelta.x / w * (v.x1 - v.x0), dy = io.MouseDelta.y / h * (v.y1 - v.y0);
    v.x0 -= dx, v.x1 -= dx;
    v.y0 += dy, v.y1 += dy;
    v.autofit_x = v.autofit_y = false;
    v.moved_x = v.moved_x || dx != 0;
  }
  if (f.hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) v.autofit_x = v.autofit_y = true, v.moved_x = true;
  return f;
}

void fit_y(PlotView& v, double lo, double hi) {
  if (!(hi >= lo)) lo = 0, hi = 1;
  const double pad = hi > lo ? 0.06 * (hi - lo) : std::max(1e-9, std::fabs(hi) * 0.05 + 0.5);
  v.y0 = lo - pad, v.y1 = hi + pad;
}

// Grid lines and tick labels; y grows upwards unless flip_y.
void draw_axes(const Frame& f, const PlotView& v, const char* x_label, bool flip_y) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float fh = ImGui::GetFontSize();
  const float w = f.p1.x - f.p0.x, h = f.p1.y - f.p0.y;
  const auto xt = plot::nice_ticks({v.x0, v.x1}, std::max(2, int(w / (fh * 6))));
  for (std::size_t i = 0; i < xt.values.size(); ++i) {
    const double t = xt.values[i];
    const float x = f.p0.x + float((t - v.x0) / (v.x1 - v.x0)) * w;
    dl->AddLine(ImVec2(x, f.p0.y), ImVec2(x, f.p1.y), kGrid);
    const std::string& s = xt.labels[i];
    const float tw = ImGui::CalcTextSize(s.c_str()).x;
    dl->AddText(ImVec2(std::clamp(x - tw / 2, f.p0.x, f.p1.x - tw), f.p1.y + 0.15f * fh), kAxisText, s.c_str());
  }
  (void)x_label;  // named in the hover read-out; the title row holds the legend
  const auto yt = plot::nice_ticks({v.y0, v.y1}, std::max(4, int(h / (fh * 1.5f))));
  for (std::size_t i = 0; i < yt.values.size(); ++i) {
    const double t = yt.values[i];
    const float fy = float((t - v.y0) / (v.y1 - v.y0));
    const float y = flip_y ? f.p0.y + fy * h : f.p1.y - fy * h;
    dl->AddLine(ImVec2(f.p0.x, y), ImVec2(f.p1.x, y), kGrid);
    const std::string& s = yt.labels[i];
    const float tw = ImGui::CalcTextSize(s.c_str()).x;
    dl->AddText(ImVec2(f.p0.x - tw - 0.3f * fh, y - fh / 2), kAxisText, s.c_str());
  }
}
}  // namespace

// ---------------------------------------------------------------- time_plot
void time_plot(const char* id, const char* title, const char* x_label, PlotView& v, std::span<PlotLine> lines,
               std::span<const double> markers, ImVec2 size, std::span<const TimeSpan> bands, const char* band_label,
               double playhead, std::span<const double> changes) {
  ImGui::PushID(id);
  // The legend follows the title; entries that do not fit in its row wrap onto rows of their
  // own below it (a narrow plot), so every entry stays visible and clickable.
  const float fh = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float right = origin.x + (size.x > 0 ? size.x : ImGui::GetContentRegionAvail().x) - 0.3f * fh;
  static thread_local std::vector<ImVec2> legend_at;
  legend_at.clear();
  int legend_rows = 0;
  {
    const float row_start = origin.x + 0.5f * fh;
    ImVec2 lp(origin.x + ImGui::CalcTextSize(title).x + 1.6f * fh, origin.y + 0.2f * fh);
    for (auto& l : lines) {
      const float w = fh + ImGui::CalcTextSize(l.name).x;
      if (lp.x + w > right && lp.x > row_start) lp = ImVec2(row_start, lp.y + 1.1f * fh), ++legend_rows;
      legend_at.push_back(lp);
      lp.x += w + fh;
    }
  }
  Frame f = begin_plot("##plot", title, v, size, false, legend_rows);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float w = f.p1.x - f.p0.x, h = f.p1.y - f.p0.y;
  const int columns = std::max(1, int(w));

  if (v.autofit_x) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (auto& l : lines)
      if (*l.visible && l.series->size() > 0) lo = std::min(lo, l.series->t().front()), hi = std::max(hi, l.series->t().back());
    if (!(hi > lo)) lo = std::isfinite(lo) ? lo : 0, hi = lo + 1;
    v.x0 = lo, v.x1 = hi;
  }
  // Decimate every visible line once; autofit y from the columns themselves.
  static thread_local std::vector<std::vector<Series::Column>> cols;
  cols.resize(lines.size());
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  v.last_columns = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    cols[i].clear();
    if (!*lines[i].visible) continue;
    lines[i].series->decimate(v.x0, v.x1, columns, cols[i]);
    v.last_columns += cols[i].size();
    for (const auto& c : cols[i])
      if (c.t >= v.x0 && c.t <= v.x1 && std::isfinite(c.lo) && std::isfinite(c.hi)) lo = std::min(lo, c.lo), hi = std::max(hi, c.hi);
  }
  if (v.autofit_y) fit_y(v, lo, hi);
  draw_axes(f, v, x_label, false);

  auto sx = [&](double t) { return f.p0.x + float((t - v.x0) / (v.x1 - v.x0)) * w; };
  auto sy = [&](double y) { return f.p1.y - float((y - v.y0) / (v.y1 - v.y0)) * h; };
  dl->PushClipRect(f.p0, f.p1, true);
  bool band_shown = false;
  for (const TimeSpan& b : bands) {
    if (b.t1 < v.x0 || b.t0 > v.x1) continue;
    const float x0 = sx(b.t0) - 1, x1 = std::max(sx(b.t1) + 1, x0 + 3);  // a lone point stays visible
    dl->AddRectFilled(ImVec2(x0, f.p0.y), ImVec2(x1, f.p1.y), kBand);
    band_shown = true;
  }
  for (double m : changes)
    if (m >= v.x0 && m <= v.x1) dl->AddLine(ImVec2(sx(m), f.p0.y), ImVec2(sx(m), f.p1.y), kChange, 1.0f);
  for (double m : markers)
    if (m >= v.x0 && m <= v.x1) dl->AddLine(ImVec2(sx(m), f.p0.y), ImVec2(sx(m), f.p1.y), kMarker, 1.5f);
  if (playhead >= v.x0 && playhead <= v.x1)
    dl->AddLine(ImVec2(sx(playhead), f.p0.y), ImVec2(sx(playhead), f.p1.y), IM_COL32(240, 240, 240, 200), 1.5f);
  if (v.cursor >= v.x0 && v.cursor <= v.x1)  // the time hovered on a linked plot
    dl->AddLine(ImVec2(sx(v.cursor), f.p0.y), ImVec2(sx(v.cursor), f.p1.y), IM_COL32(255, 255, 255, 70));
  static thread_local std::vector<ImVec2> pts;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!*lines[i].visible || cols[i].empty()) continue;
    // Drawn in pieces: ImGui 1.86 uses 16-bit indices per draw command.
    auto flush = [&] {
      for (std::size_t s = 0; s + 1 < pts.size(); s += 4000)
        dl->AddPolyline(pts.data() + s, int(std::min<std::size_t>(4001, pts.size() - s)), lines[i].colour, 0, 1.5f);
      pts.clear();
    };
    // Each column contributes its range as a vertical stroke; entering at the end nearer
    // the previous point keeps a noisy series looking like a band, not a zigzag. A reset
    // ends the line: the next run starts a new one.
    pts.clear();
    float prev = sy(cols[i].front().lo);
    std::size_t next_reset = std::size_t(std::upper_bound(markers.begin(), markers.end(), cols[i].front().t) - markers.begin());
    for (const auto& c : cols[i]) {
      if (!std::isfinite(c.lo) || !std::isfinite(c.hi)) {  // no value there: a gap in the line
        flush();
        continue;
      }
      if (next_reset < markers.size() && c.t >= markers[next_reset]) {
        flush();
        while (next_reset < markers.size() && markers[next_reset] <= c.t) ++next_reset;
        prev = sy(c.lo);
      }
      const float x = sx(c.t), a = sy(c.lo), b = sy(c.hi);
      if (std::fabs(a - prev) <= std::fabs(b - prev)) {
        pts.emplace_back(x, a);
        if (b != a) pts.emplace_back(x, b);
        prev = b;
      } else {
        pts.emplace_back(x, b);
        pts.emplace_back(x, a);
        prev = a;
      }
    }
    flush();
  }
  dl->PopClipRect();

  // Legend, after the title (laid out above): click an entry to hide or show its line.
  ImVec2 lp(f.outer0.x + ImGui::CalcTextSize(title).x + 1.6f * fh, f.outer0.y + 0.2f * fh);
  ImGuiIO& io = ImGui::GetIO();
  dl->PushClipRect(f.outer0, f.outer1, true);  // a narrow plot cuts its legend, not its neighbour
  v.legend.clear();
  for (std::size_t k = 0; k < lines.size(); ++k) {
    auto& l = lines[k];
    lp = legend_at[k];
    const ImVec2 ts = ImGui::CalcTextSize(l.name);
    const ImVec2 b0 = lp, b1(lp.x + fh + ts.x, lp.y + fh);
    v.legend.push_back({l.name, b0.x, b0.y, b1.x, b1.y});
    const bool over = io.MousePos.x >= b0.x && io.MousePos.x <= b1.x && io.MousePos.y >= b0.y && io.MousePos.y <= b1.y;
    if (over && f.hovered && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < 16.0f)
      *l.visible = !*l.visible;
    const ImU32 c = *l.visible ? l.colour : IM_COL32(110, 110, 110, 255);
    dl->AddRectFilled(ImVec2(lp.x + 2, lp.y + fh * 0.3f), ImVec2(lp.x + fh * 0.7f, lp.y + fh * 0.75f), c);
    dl->AddText(ImVec2(lp.x + fh, lp.y), *l.visible ? IM_COL32(220, 222, 228, 255) : IM_COL32(120, 120, 120, 255), l.name);
    lp.x = b1.x + fh;
  }
  if (band_shown && band_label) {
    dl->AddRectFilled(ImVec2(lp.x + 2, lp.y + fh * 0.2f), ImVec2(lp.x + fh * 0.7f, lp.y + fh * 0.85f), kBandLegend);
    dl->AddText(ImVec2(lp.x + fh, lp.y), kBandLegend, band_label);
  }
  dl->PopClipRect();

  // Hover read-out: the value of every visible line at the cursor's time.
  v.hover_t = std::numeric_limits<double>::quiet_NaN();
  if (f.hovered && io.MousePos.x >= f.p0.x && io.MousePos.x <= f.p1.x && io.MousePos.y >= f.p0.y &&
      io.MousePos.y <= f.p1.y) {
    const double t = v.x0 + (io.MousePos.x - f.p0.x) / w * (v.x1 - v.x0);
    v.hover_t = t;
    dl->AddLine(ImVec2(io.MousePos.x, f.p0.y), ImVec2(io.MousePos.x, f.p1.y), IM_COL32(255, 255, 255, 70));
    ImGui::BeginTooltip();
    ImGui::Text("%s %.4g", x_label, t);
    for (auto& l : lines) {
      if (!*l.visible || l.series->size() == 0) continue;
      const double y = l.series->y()[l.series->index_at(t)];
      if (std::isnan(y))
        ImGui::TextDisabled("%s -", l.name);
      else
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(l.colour), "%s %.6g", l.name, y);
    }
    ImGui::TextDisabled("wheel: zoom  drag: pan  double-click: fit  right-click: series");
    ImGui::EndTooltip();
  }
  ImGui::PopID();
}

// ---------------------------------------------------------------- path_plot
void path_plot(const char* id, const char* title, PlotView& v, const Series& xs, const Series& ys, ImU32 colour,
               ImVec2 size, std::size_t max_points) {
  ImGui::PushID(id);
  Frame f = begin_plot("##plot", title, v, size, true);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float w = f.p1.x - f.p0.x, h = f.p1.y - f.p0.y;
  const std::size_t n = std::min(xs.size(), ys.size());
  const std::size_t stride = std::max<std::size_t>(1, n / std::max<std::size_t>(1, max_points));
  static thread_local std::vector<std::size_t> idx;
  idx.clear();
  for (std::size_t i = 0; i < n; i += stride) idx.push_back(i);
  if (n > 0 && idx.back() != n - 1) idx.push_back(n - 1);
  if (v.autofit_x || v.autofit_y) {
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (std::size_t i : idx) {
      x0 = std::min(x0, xs.y()[i]), x1 = std::max(x1, xs.y()[i]);
      y0 = std::min(y0, ys.y()[i]), y1 = std::max(y1, ys.y()[i]);
    }
    if (!(x1 >= x0)) x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    // Equal scales on both axes, so the path keeps its shape.
    const double cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    double half = std::max({(x1 - x0) / 2 * 1.08, (y1 - y0) / 2 * 1.08 * w / std::max(h, 1.0f), 1.0});
    v.x0 = cx - half, v.x1 = cx + half;
    const double hy = half * h / std::max(w, 1.0f);
    v.y0 = cy - hy, v.y1 = cy + hy;
  }
  draw_axes(f, v, "x", true);
  auto sx = [&](double x) { return f.p0.x + float((x - v.x0) / (v.x1 - v.x0)) * w; };
  auto sy = [&](double y) { return f.p0.y + float((y - v.y0) / (v.y1 - v.y0)) * h; };
  dl->PushClipRect(f.p0, f.p1, true);
  static thread_local std::vector<ImVec2> pts;
  pts.clear();
  for (std::size_t i : idx) pts.emplace_back(sx(xs.y()[i]), sy(ys.y()[i]));
  for (std::size_t s = 0; s + 1 < pts.size(); s += 4000)
    dl->AddPolyline(pts.data() + s, int(std::min<std::size_t>(4001, pts.size() - s)), colour, 0, 1.5f);
  if (!pts.empty()) dl->AddCircleFilled(pts.back(), 4.0f, IM_COL32(255, 255, 255, 255));
  dl->PopClipRect();
  v.last_columns = pts.size();
  ImGuiIO& io = ImGui::GetIO();
  if (f.hovered && io.MousePos.x >= f.p0.x && io.MousePos.x <= f.p1.x && io.MousePos.y >= f.p0.y && io.MousePos.y <= f.p1.y) {
    ImGui::BeginTooltip();
    ImGui::Text("x %.1f  y %.1f", v.x0 + (io.MousePos.x - f.p0.x) / w * (v.x1 - v.x0),
                v.y0 + (io.MousePos.y - f.p0.y) / h * (v.y1 - v.y0));
    if (n > 0) ImGui::Text("now: (%.1f, %.1f)", xs.y()[n - 1], ys.y()[n - 1]);
    ImGui::EndTooltip();
  }
  ImGui::PopID();
}

}  // namespace flockscope::gui
