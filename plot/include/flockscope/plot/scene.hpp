// A laid-out plot: every mark in pixel coordinates (origin top left, y down), in drawing
// order. Both back ends draw exactly this, so SVG and PNG show the same picture.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "flockscope/plot/plot.hpp"

namespace flockscope::plot {

struct Point {
  double x, y;
};

enum class Anchor { Start, Middle, End };

struct Polyline {
  std::vector<Point> points;
  Color color;
  double width = 1;
};
struct Polygon {
  std::vector<Point> points;
  Color fill;
};
struct Rect {
  double x, y, w, h;
  Color fill;                      // alpha 0: not filled
  Color stroke{0, 0, 0, 0};        // alpha 0: no outline
  double stroke_width = 0;
};
struct Circle {
  double cx, cy, r;
  Color fill;
};
// (x, y) is the baseline point that `anchor` refers to; vertical text reads bottom to top,
// turned about (x, y).
struct Text {
  double x, y;
  std::string text;
  double size = 12;
  Color color;
  Anchor anchor = Anchor::Start;
  bool vertical = false;
  bool bold = false;
};

struct Item {
  std::variant<Polyline, Polygon, Rect, Circle, Text> shape;
  bool clip = false;    // clipped to Scene::clip (the plot area)
  std::string series;   // the data series this mark draws, if any (SVG: data-series)
  std::string role;     // what it is: "frame", "grid", "tick", "title", "legend", "band", "line", "cell" (SVG: class)
};

struct Scene {
  int width = 0, height = 0;
  Color background{255, 255, 255, 255};
  Rect clip{0, 0, 0, 0, {}};
  std::vector<Item> items;
};

Scene layout(const LinePlot& p, Size size);
Scene layout(const Heatmap& h, Size size);

// Width of a text line, estimated from character classes so that layout does not depend on
// which font file a machine has (the back ends anchor text with their real widths).
double text_width(std::string_view text, double size);

}  // namespace flockscope::plot
