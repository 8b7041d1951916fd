// Sections: colours | text widths | line plot layout (ranges, margins, grid, bands, lines,
// markers, frame, ticks, labels, legend) | heatmap layout (cells, labels, colour bar)
#include <algorithm>
#include <array>
#include <cmath>

#include "flockscope/plot/scene.hpp"
#include "flockscope/plot/ticks.hpp"

namespace flockscope::plot {

// ---------------------------------------------------------------- colours
Color with_alpha(Color c, double alpha) {
  c.a = std::uint8_t(std::lround(std::clamp(alpha, 0.0, 1.0) * 255.0));
  return c;
}

Color palette(std::size_t i) {
  static constexpr std::array<Color, 10> colours = {{{31, 119, 180, 255},
                                                     {230, 120, 20, 255},
                                                     {44, 150, 60, 255},
                                                     {200, 40, 40, 255},
                                                     {130, 90, 180, 255},
                                                     {140, 86, 75, 255},
                                                     {220, 100, 170, 255},
                                                     {110, 110, 110, 255},
                                                     {170, 170, 30, 255},
                                                     {20, 170, 190, 255}}};
  return colours[i % colours.size()];
}

Color colormap(double t) {
  static constexpr std::array<std::array<double, 3>, 5> stops = {
      {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
  if (!std::isfinite(t)) t = 0;
  t = std::clamp(t, 0.0, 1.0) * double(stops.size() - 1);
  const auto k = std::min<std::size_t>(std::size_t(t), stops.size() - 2);
  const double f = t - double(k);
  Color c;
  c.r = std::uint8_t(std::lround(stops[k][0] + f * (stops[k + 1][0] - stops[k][0])));
  c.g = std::uint8_t(std::lround(stops[k][1] + f * (stops[k + 1][1] - stops[k][1])));
  c.b = std::uint8_t(std::lround(stops[k][2] + f * (stops[k + 1][2] - stops[k][2])));
  return c;
}

Series make_series(std::string name, std::vector<double> x, std::vector<double> y) {
  Series s;
  s.name = std::move(name);
  s.x = std::move(x);
  s.y = std::move(y);
  return s;
}

// ---------------------------------------------------------------- text widths
double text_width(std::string_view text, double size) {
  double em = 0;
  for (unsigned char c : text) {
    if (c >= '0' && c <= '9') em += 0.64;
    else if (c == ' ' || c == '.' || c == ',' || c == ':' || c == ';') em += 0.32;
    else if (c == 'i' || c == 'j' || c == 'l' || c == '|' || c == '!' || c == '\'' || c == 'I') em += 0.29;
    else if (c == 'f' || c == 't' || c == 'r' || c == '-' || c == '/' || c == '(' || c == ')' || c == '[' || c == ']') em += 0.40;
    else if (c == 'm' || c == 'w' || c == 'M' || c == 'W' || c == '%') em += 0.92;
    else if (c == '=' || c == '+' || c == '<' || c == '>' || c == '~') em += 0.84;
    else if (c >= 'A' && c <= 'Z') em += 0.70;
    else if (c >= 0x80) em += 0.30;  // UTF-8 bytes: about 0.6 em per two-byte character
    else em += 0.61;
  }
  return em * size;
}

namespace {

constexpr double kTitleSize = 16, kLabelSize = 13, kTickSize = 11.5, kLegendSize = 12;
constexpr Color kInk{40, 40, 40, 255}, kFrame{90, 90, 90, 255}, kGrid{228, 228, 228, 255};

void add(Scene& s, auto shape, const char* role, bool clip = false, std::string series = {}) {
  s.items.push_back(Item{std::move(shape), clip, std::move(series), role});
}

Text text(double x, double y, std::string t, double size, Anchor a, Color c = kInk) {
  Text tx{x, y, std::move(t), size, c, a, false, false};
  return tx;
}

void title_and_labels(Scene& s, const std::string& title, double x0, double w, double y0, double h,
                      const std::string& xlabel, const std::string& ylabel, double ylabel_x) {
  if (!title.empty()) {
    Text t = text(x0 + w / 2, 26, title, kTitleSize, Anchor::Middle);
    t.bold = true;
    add(s, t, "title");
  }
  if (!xlabel.empty()) add(s, text(x0 + w / 2, s.height - 10.0, xlabel, kLabelSize, Anchor::Middle), "label");
  if (!ylabel.empty()) {
    Text t = text(ylabel_x, y0 + h / 2, ylabel, kLabelSize, Anchor::Middle);
    t.vertical = true;
    add(s, t, "label");
  }
}

// Keeps a point only when it is at least `min_step` pixels from the last one kept, so a
// 100,000-step series does not become 100,000 SVG coordinates.
std::vector<Point> decimate(const std::vector<Point>& pts, double min_step) {
  if (pts.size() < 3) return pts;
  std::vector<Point> out{pts.front()};
  for (std::size_t i = 1; i + 1 < pts.size(); ++i) {
    const double dx = pts[i].x - out.back().x, dy = pts[i].y - out.back().y;
    if (dx * dx + dy * dy >= min_step * min_step) out.push_back(pts[i]);
  }
  out.push_back(pts.back());
  return out;
}

Range axis_range(const Axis& a, const std::vector<double>& data, double pad) {
  Range r = padded(finite_range(data), pad);
  if (a.min) r.lo = *a.min;
  if (a.max) r.hi = *a.max;
  if (!(r.hi > r.lo)) r = padded({r.lo, r.lo}, pad);
  return r;
}

}  // namespace

// ---------------------------------------------------------------- line plot layout
Scene layout(const LinePlot& p, Size size) {
  Scene s;
  s.width = size.width, s.height = size.height;
  const double W = size.width, H = size.height;

  std::vector<double> xs, ys;
  for (const auto& se : p.series) {
    xs.insert(xs.end(), se.x.begin(), se.x.end());
    ys.insert(ys.end(), se.y.begin(), se.y.end());
    ys.insert(ys.end(), se.lo.begin(), se.lo.end());
    ys.insert(ys.end(), se.hi.begin(), se.hi.end());
  }
  // Categories sit at 0..n-1 with half a step of room on each side.
  auto cat_range = [](const Axis& a, const std::vector<double>& data, double pad) {
    return a.categories.empty() ? axis_range(a, data, pad) : Range{-0.5, double(a.categories.size()) - 0.5};
  };
  const Range xr = cat_range(p.x, xs, 0.02), yr = cat_range(p.y, ys, 0.05);

  const double top = p.title.empty() ? 14 : 40;
  const double bottom = 24 + (p.x.label.empty() ? 6 : 24);
  const auto ticks_for = [](const Axis& a, Range r, double pixels, double spacing) {
    const int target = std::max(2, int(pixels / spacing));
    if (a.categories.empty()) return a.integer ? integer_ticks(r, target) : nice_ticks(r, target);
    Ticks t = integer_ticks(r, target);
    t.labels.clear();
    for (double v : t.values) {
      const auto k = std::size_t(std::llround(v));
      t.labels.push_back(v >= 0 && k < a.categories.size() ? a.categories[k] : std::string());
    }
    return t;
  };
  const Ticks yt = ticks_for(p.y, yr, H - top - bottom, 50);
  double label_w = 0;
  for (const auto& l : yt.labels) label_w = std::max(label_w, text_width(l, kTickSize));
  const double left = 10 + (p.y.label.empty() ? 0 : 22) + label_w + 8, right = 22;
  double x0 = left, y0 = top, w = std::max(10.0, W - left - right), h = std::max(10.0, H - top - bottom);
  if (p.equal_aspect) {
    const double scale = std::min(w / xr.span(), h / yr.span());
    const double w2 = scale * xr.span(), h2 = scale * yr.span();
    x0 += (w - w2) / 2, y0 += (h - h2) / 2, w = w2, h = h2;
  }
  Ticks xt = ticks_for(p.x, xr, w, 90), yt_final = yt;
  if (p.equal_aspect && p.x.categories.empty() && p.y.categories.empty()) {
    // One unit is as long on both axes, so one step for both: a square grid.
    const double step = nice_step(std::max(xr.span(), yr.span()), std::max(2, int(std::max(w, h) / 70)));
    xt = ticks_at(xr, step);
    yt_final = ticks_at(yr, step);
  }
  const auto px = [&](double x) { return x0 + (x - xr.lo) / xr.span() * w; };
  const auto py = [&](double y) {
    const double f = (y - yr.lo) / yr.span() * h;
    return p.y.downward ? y0 + f : y0 + h - f;
  };
  s.clip = Rect{x0, y0, w, h, {}};

  for (double v : xt.values) add(s, Polyline{{{px(v), y0}, {px(v), y0 + h}}, kGrid, 1}, "grid");
  for (double v : yt_final.values) add(s, Polyline{{{x0, py(v)}, {x0 + w, py(v)}}, kGrid, 1}, "grid");

  // Bands first, then lines, then markers: a line is never hidden under another's band.
  std::vector<std::vector<Point>> drawn(p.series.size());
  for (std::size_t k = 0; k < p.series.size(); ++k) {
    const Series& se = p.series[k];
    const Color c = se.color.value_or(palette(k));
    const std::size_t n = std::min(se.x.size(), se.y.size());
    if (se.lo.size() >= n && se.hi.size() >= n && n > 0) {
      std::vector<std::size_t> run;
      auto flush = [&] {
        if (run.size() >= 2) {
          Polygon band{{}, with_alpha(c, se.band_alpha)};
          for (auto i : run) band.points.push_back({px(se.x[i]), py(se.hi[i])});
          for (auto it = run.rbegin(); it != run.rend(); ++it) band.points.push_back({px(se.x[*it]), py(se.lo[*it])});
          add(s, std::move(band), "band", true, se.name);
        }
        run.clear();
      };
      for (std::size_t i = 0; i < n; ++i) {
        if (std::isfinite(se.x[i]) && std::isfinite(se.lo[i]) && std::isfinite(se.hi[i])) run.push_back(i);
        else flush();
      }
      flush();
    }
  }
  for (std::size_t k = 0; k < p.series.size(); ++k) {
    const Series& se = p.series[k];
    const Color c = se.color.value_or(palette(k));
    const std::size_t n = std::min(se.x.size(), se.y.size());
    std::vector<Point> run;
    auto flush = [&] {
      if (se.lines && run.size() >= 2) {
        auto pts = decimate(run, 0.5);
        drawn[k].insert(drawn[k].end(), pts.begin(), pts.end());
        add(s, Polyline{std::move(pts), c, se.line_width}, "line", true, se.name);
      } else if (se.lines && run.size() == 1) {
        drawn[k].push_back(run.front());
        add(s, Circle{run.front().x, run.front().y, se.line_width, c}, "line", true, se.name);
      }
      run.clear();
    };
    for (std::size_t i = 0; i < n; ++i) {
      if (std::isfinite(se.x[i]) && std::isfinite(se.y[i])) run.push_back({px(se.x[i]), py(se.y[i])});
      else flush();
    }
    flush();
    if (se.markers)
      for (std::size_t i = 0; i < n; ++i)
        if (std::isfinite(se.x[i]) && std::isfinite(se.y[i])) {
          drawn[k].push_back({px(se.x[i]), py(se.y[i])});
          add(s, Circle{px(se.x[i]), py(se.y[i]), se.marker_radius, c}, "marker", true, se.name);
        }
  }

  add(s, Rect{x0, y0, w, h, {0, 0, 0, 0}, kFrame, 1}, "frame");
  for (std::size_t i = 0; i < xt.values.size(); ++i) {
    const double x = px(xt.values[i]);
    add(s, Polyline{{{x, y0 + h}, {x, y0 + h + 4}}, kFrame, 1}, "tick");
    add(s, text(x, y0 + h + 18, xt.labels[i], kTickSize, Anchor::Middle), "tick");
  }
  for (std::size_t i = 0; i < yt_final.values.size(); ++i) {
    const double y = py(yt_final.values[i]);
    add(s, Polyline{{{x0 - 4, y}, {x0, y}}, kFrame, 1}, "tick");
    add(s, text(x0 - 7, y + 4, yt_final.labels[i], kTickSize, Anchor::End), "tick");
  }
  // The y label stays next to its tick labels when an equal aspect narrows the plot area.
  title_and_labels(s, p.title, x0, w, y0, h, p.x.label, p.y.label, std::max(16.0, x0 - 7 - label_w - 12));

  // Legend: in the corner of the plot area that covers the fewest drawn points.
  std::vector<std::size_t> entries;
  for (std::size_t k = 0; k < p.series.size(); ++k)
    if (!p.series[k].name.empty()) entries.push_back(k);
  if (p.legend && !entries.empty()) {
    double tw = 0;
    for (auto k : entries) tw = std::max(tw, text_width(p.series[k].name, kLegendSize));
    const double row = 18, bw = 10 + 24 + 8 + tw + 10, bh = 8 + row * double(entries.size());
    const double inset = 8;
    const std::array<Point, 4> corners = {{{x0 + w - inset - bw, y0 + inset},
                                           {x0 + inset, y0 + inset},
                                           {x0 + w - inset - bw, y0 + h - inset - bh},
                                           {x0 + inset, y0 + h - inset - bh}}};
    std::size_t best = 0, best_count = SIZE_MAX;
    for (std::size_t c = 0; c < corners.size(); ++c) {
      // Points just outside the box count too: a legend touching a line reads badly.
      const double m = 12;
      std::size_t count = 0;
      for (const auto& pts : drawn)
        for (const auto& pt : pts)
          count += pt.x >= corners[c].x - m && pt.x <= corners[c].x + bw + m && pt.y >= corners[c].y - m &&
                   pt.y <= corners[c].y + bh + m;
      if (count < best_count) best = c, best_count = count;
    }
    const double lx = corners[best].x, ly = corners[best].y;
    add(s, Rect{lx, ly, bw, bh, {255, 255, 255, 225}, {170, 170, 170, 255}, 1}, "legend");
    for (std::size_t e = 0; e < entries.size(); ++e) {
      const Series& se = p.series[entries[e]];
      const Color c = se.color.value_or(palette(entries[e]));
      const double cy = ly + 4 + row * (double(e) + 0.5) + 0.5;
      if (!se.lo.empty()) add(s, Rect{lx + 10, cy - 6, 24, 12, with_alpha(c, std::max(0.22, se.band_alpha))}, "legend", false, se.name);
      if (se.lines) add(s, Polyline{{{lx + 10, cy}, {lx + 34, cy}}, c, se.line_width}, "legend", false, se.name);
      if (se.markers) add(s, Circle{lx + 22, cy, se.marker_radius, c}, "legend", false, se.name);
      add(s, text(lx + 42, cy + 4, se.name, kLegendSize, Anchor::Start), "legend", false, se.name);
    }
  }
  return s;
}

// ---------------------------------------------------------------- heatmap layout
Range colour_range(const Heatmap& hm) {
  Range vr = finite_range(hm.values);
  if (hm.min) vr.lo = *hm.min;
  if (hm.max) vr.hi = *hm.max;
  if (!(vr.hi > vr.lo)) vr = padded({vr.lo, vr.lo}, 0.05);
  return vr;
}

Scene layout(const Heatmap& hm, Size size) {
  Scene s;
  s.width = size.width, s.height = size.height;
  const double W = size.width, H = size.height;
  const std::size_t nx = std::max<std::size_t>(1, hm.x_categories.size());
  const std::size_t ny = std::max<std::size_t>(1, hm.y_categories.size());
  auto value = [&](std::size_t ix, std::size_t iy) {
    const std::size_t k = iy * nx + ix;
    return k < hm.values.size() ? hm.values[k] : NAN;
  };
  const Range vr = colour_range(hm);

  double ylab_w = 0;
  for (const auto& c : hm.y_categories) ylab_w = std::max(ylab_w, text_width(c, kTickSize));
  const double top = hm.title.empty() ? 14 : 40;
  const double bottom = 24 + (hm.x_label.empty() ? 6 : 24);
  const double left = 10 + (hm.y_label.empty() ? 0 : 22) + ylab_w + 8;
  const Ticks vt = nice_ticks(vr, std::max(2, int((H - top - bottom) / 45)));
  double vlab_w = 0;
  for (const auto& l : vt.labels) vlab_w = std::max(vlab_w, text_width(l, kTickSize));
  const double bar_gap = 14, bar_w = 16;
  const double right = bar_gap + bar_w + 6 + vlab_w + (hm.value_label.empty() ? 10 : 30);
  const double x0 = left, y0 = top, w = std::max(10.0, W - left - right), h = std::max(10.0, H - top - bottom);
  const double cw = w / double(nx), ch = h / double(ny);
  s.clip = Rect{x0, y0, w, h, {}};

  for (std::size_t iy = 0; iy < ny; ++iy)
    for (std::size_t ix = 0; ix < nx; ++ix) {
      const double v = value(ix, iy);
      const Color fill = std::isfinite(v) ? colormap((v - vr.lo) / vr.span()) : Color{215, 215, 215, 255};
      // Row 0 at the bottom, as on a y axis that grows upwards.
      const double cx = x0 + double(ix) * cw, cy = y0 + h - double(iy + 1) * ch;
      // Each cell reaches one pixel into its right and lower neighbour (drawn before it or
      // over it), so the anti-aliased edges of two cells never let the background through.
      const double grow_x = ix + 1 < nx ? 1 : 0, grow_y = iy > 0 ? 1 : 0;
      add(s, Rect{cx, cy, cw + grow_x, ch + grow_y, fill}, "cell");
      if (!hm.annotate) continue;
      const std::string label = format_value(v, 3);
      if (cw >= text_width(label, kTickSize) + 6 && ch >= 16) {
        const double lum = 0.299 * fill.r + 0.587 * fill.g + 0.114 * fill.b;
        add(s, text(cx + cw / 2, cy + ch / 2 + 4, label, kTickSize, Anchor::Middle,
                    lum > 140 ? Color{20, 20, 20, 255} : Color{250, 250, 250, 255}),
            "cell");
      }
    }
  add(s, Rect{x0, y0, w, h, {0, 0, 0, 0}, kFrame, 1}, "frame");

  // Category labels, thinned out so that they never overlap.
  double xlab_w = 0;
  for (const auto& c : hm.x_categories) xlab_w = std::max(xlab_w, text_width(c, kTickSize));
  const std::size_t xstep = std::max<std::size_t>(1, std::size_t(std::ceil((xlab_w + 8) / cw)));
  for (std::size_t ix = 0; ix < hm.x_categories.size(); ix += xstep) {
    const double x = x0 + (double(ix) + 0.5) * cw;
    add(s, Polyline{{{x, y0 + h}, {x, y0 + h + 4}}, kFrame, 1}, "tick");
    add(s, text(x, y0 + h + 18, hm.x_categories[ix], kTickSize, Anchor::Middle), "tick");
  }
  const std::size_t ystep = std::max<std::size_t>(1, std::size_t(std::ceil(16 / ch)));
  for (std::size_t iy = 0; iy < hm.y_categories.size(); iy += ystep) {
    const double y = y0 + h - (double(iy) + 0.5) * ch;
    add(s, Polyline{{{x0 - 4, y}, {x0, y}}, kFrame, 1}, "tick");
    add(s, text(x0 - 7, y + 4, hm.y_categories[iy], kTickSize, Anchor::End), "tick");
  }

  // Colour bar: thin slices of the scale, ticks on its right.
  const double bx = x0 + w + bar_gap;
  const int slices = 64;
  for (int k = 0; k < slices; ++k) {
    const double t0 = double(k) / slices;
    add(s, Rect{bx, y0 + h * (1 - t0 - 1.0 / slices), bar_w, h / slices + (k > 0 ? 1 : 0), colormap(t0 + 0.5 / slices)},
        "colorbar");
  }
  add(s, Rect{bx, y0, bar_w, h, {0, 0, 0, 0}, kFrame, 1}, "colorbar");
  for (std::size_t i = 0; i < vt.values.size(); ++i) {
    const double y = y0 + h - (vt.values[i] - vr.lo) / vr.span() * h;
    add(s, Polyline{{{bx + bar_w, y}, {bx + bar_w + 4, y}}, kFrame, 1}, "colorbar");
    add(s, text(bx + bar_w + 6, y + 4, vt.labels[i], kTickSize, Anchor::Start), "colorbar");
  }
  if (!hm.value_label.empty()) {
    Text t = text(W - 12, y0 + h / 2, hm.value_label, kLabelSize, Anchor::Middle);
    t.vertical = true;
    add(s, t, "label");
  }
  title_and_labels(s, hm.title, x0, w, y0, h, hm.x_label, hm.y_label, 16);
  return s;
}

}  // namespace flockscope::plot
