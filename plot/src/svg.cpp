#include "flockscope/plot/svg.hpp"

#include <cstdio>

namespace flockscope::plot {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  // "12.50" -> "12.5", "3.00" -> "3": smaller files, same picture.
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string escape(std::string_view t) {
  std::string out;
  for (char c : t) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string rgb(Color c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

// fill="..." plus fill-opacity when the colour is translucent.
std::string paint(const char* what, Color c) {
  std::string s = std::string(" ") + what + "=\"" + rgb(c) + "\"";
  if (c.a != 255) s += std::string(" ") + what + "-opacity=\"" + num(c.a / 255.0) + "\"";
  return s;
}

std::string points(const std::vector<Point>& pts) {
  std::string s;
  s.reserve(pts.size() * 14);
  for (const auto& p : pts) {
    if (!s.empty()) s += ' ';
    s += num(p.x);
    s += ',';
    s += num(p.y);
  }
  return s;
}

}  // namespace

std::string to_svg(const Scene& scene) {
  std::string out;
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + std::to_string(scene.width) +
         "\" height=\"" + std::to_string(scene.height) + "\" viewBox=\"0 0 " + std::to_string(scene.width) + " " +
         std::to_string(scene.height) + "\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n";
  out += "<defs><clipPath id=\"plot-area\"><rect x=\"" + num(scene.clip.x) + "\" y=\"" + num(scene.clip.y) +
         "\" width=\"" + num(scene.clip.w) + "\" height=\"" + num(scene.clip.h) + "\"/></clipPath></defs>\n";
  out += "<rect width=\"100%\" height=\"100%\"" + paint("fill", scene.background) + "/>\n";
  for (const Item& item : scene.items) {
    std::string attrs = " class=\"" + item.role + "\"";
    if (!item.series.empty()) attrs += " data-series=\"" + escape(item.series) + "\"";
    if (item.clip) attrs += " clip-path=\"url(#plot-area)\"";
    if (const auto* l = std::get_if<Polyline>(&item.shape)) {
      out += "<polyline" + attrs + " points=\"" + points(l->points) + "\" fill=\"none\"" + paint("stroke", l->color) +
             " stroke-width=\"" + num(l->width) + "\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n";
    } else if (const auto* g = std::get_if<Polygon>(&item.shape)) {
      out += "<polygon" + attrs + " points=\"" + points(g->points) + "\"" + paint("fill", g->fill) + "/>\n";
    } else if (const auto* r = std::get_if<Rect>(&item.shape)) {
      out += "<rect" + attrs + " x=\"" + num(r->x) + "\" y=\"" + num(r->y) + "\" width=\"" + num(r->w) + "\" height=\"" +
             num(r->h) + "\"" + (r->fill.a ? paint("fill", r->fill) : std::string(" fill=\"none\""));
      if (r->stroke.a && r->stroke_width > 0) out += paint("stroke", r->stroke) + " stroke-width=\"" + num(r->stroke_width) + "\"";
      out += "/>\n";
    } else if (const auto* c = std::get_if<Circle>(&item.shape)) {
      out += "<circle" + attrs + " cx=\"" + num(c->cx) + "\" cy=\"" + num(c->cy) + "\" r=\"" + num(c->r) + "\"" +
             paint("fill", c->fill) + "/>\n";
    } else if (const auto* t = std::get_if<Text>(&item.shape)) {
      const char* anchor = t->anchor == Anchor::Middle ? "middle" : t->anchor == Anchor::End ? "end" : "start";
      out += "<text" + attrs + " x=\"" + num(t->x) + "\" y=\"" + num(t->y) + "\" font-size=\"" + num(t->size) +
             "\" text-anchor=\"" + anchor + "\"" + paint("fill", t->color);
      if (t->bold) out += " font-weight=\"bold\"";
      if (t->vertical) out += " transform=\"rotate(-90 " + num(t->x) + " " + num(t->y) + ")\"";
      out += ">" + escape(t->text) + "</text>\n";
    }
  }
  out += "</svg>\n";
  return out;
}

}  // namespace flockscope::plot
