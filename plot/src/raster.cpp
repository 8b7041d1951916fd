// Sections: canvas and blending | coverage of lines, circles, rectangles, polygons | text
// (TrueType via stb_truetype, stb_easy_font fallback) | the scene | PNG
//
// Every shape is first turned into a coverage mask over its bounding box (max-combined for
// the segments of one polyline, so joints are not painted twice) and then blended once.
#include "flockscope/plot/raster.hpp"

#include <stb_image_write.h>
#include <stb_truetype.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

// stb_easy_font is header-only with static functions: it is compiled here, nowhere else.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <stb_easy_font.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace flockscope::plot {
namespace {

// ---------------------------------------------------------------- canvas and blending
struct Box {
  int x0, y0, x1, y1;  // pixels [x0, x1) x [y0, y1)
  bool empty() const { return x1 <= x0 || y1 <= y0; }
};

Box intersect(Box a, Box b) { return {std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)}; }

Box bounds(double x0, double y0, double x1, double y1, const Box& limit) {
  auto fl = [](double v) { return int(std::clamp(std::floor(v), -1e8, 1e8)); };
  auto ce = [](double v) { return int(std::clamp(std::ceil(v), -1e8, 1e8)); };
  return intersect({fl(x0), fl(y0), ce(x1), ce(y1)}, limit);
}

struct Mask {
  Box box{0, 0, 0, 0};
  std::vector<float> cov;
  explicit Mask(Box b) : box(b), cov(b.empty() ? 0 : std::size_t(b.x1 - b.x0) * std::size_t(b.y1 - b.y0), 0.0f) {}
  float& at(int x, int y) { return cov[std::size_t(y - box.y0) * std::size_t(box.x1 - box.x0) + std::size_t(x - box.x0)]; }
};

struct Canvas {
  int w, h;
  std::vector<float> px;  // premultiplied RGBA in [0, 1]
  Box full() const { return {0, 0, w, h}; }
  void blend(const Mask& m, Color c) {
    if (m.box.empty()) return;
    const float a = c.a / 255.0f, r = c.r / 255.0f * a, g = c.g / 255.0f * a, b = c.b / 255.0f * a;
    for (int y = m.box.y0; y < m.box.y1; ++y)
      for (int x = m.box.x0; x < m.box.x1; ++x) {
        const float k = m.cov[std::size_t(y - m.box.y0) * std::size_t(m.box.x1 - m.box.x0) + std::size_t(x - m.box.x0)];
        if (k <= 0) continue;
        const float kk = std::min(k, 1.0f);
        float* p = &px[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4];
        const float keep = 1 - kk * a;
        p[0] = r * kk + p[0] * keep;
        p[1] = g * kk + p[1] * keep;
        p[2] = b * kk + p[2] * keep;
        p[3] = a * kk + p[3] * keep;
      }
  }
};

// ---------------------------------------------------------------- coverage
// Thin axis-aligned lines (frames, grids, ticks) land on pixel centres so they stay crisp.
std::vector<Point> snapped(const std::vector<Point>& pts, double width) {
  if (width > 1.5) return pts;
  std::vector<Point> out = pts;
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i].x == out[i + 1].x) out[i].x = out[i + 1].x = std::floor(out[i].x) + 0.5;
    if (out[i].y == out[i + 1].y) out[i].y = out[i + 1].y = std::floor(out[i].y) + 0.5;
  }
  return out;
}

// Coverage of a pixel by a round-capped line of half width hw: 1 inside, falling linearly
// to 0 over the pixel at the edge.
Mask line_mask(const std::vector<Point>& in, double width, const Box& limit) {
  const std::vector<Point> pts = snapped(in, width);
  const double hw = std::max(0.5, width / 2);
  // Thinner than a pixel: spread over a pixel, fainter.
  const float faint = float(std::min(1.0, width));
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  for (const auto& p : pts) x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
  Mask m(bounds(x0 - hw - 1, y0 - hw - 1, x1 + hw + 1, y1 + hw + 1, limit));
  if (m.box.empty()) return m;
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    const Point a = pts[i], b = pts[i + 1];
    const Box sb = intersect(bounds(std::min(a.x, b.x) - hw - 1, std::min(a.y, b.y) - hw - 1, std::max(a.x, b.x) + hw + 1,
                                    std::max(a.y, b.y) + hw + 1, limit),
                             m.box);
    const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    for (int y = sb.y0; y < sb.y1; ++y)
      for (int x = sb.x0; x < sb.x1; ++x) {
        const double qx = x + 0.5 - a.x, qy = y + 0.5 - a.y;
        const double t = len2 > 0 ? std::clamp((qx * dx + qy * dy) / len2, 0.0, 1.0) : 0.0;
        const double ex = qx - t * dx, ey = qy - t * dy;
        const double d = std::sqrt(ex * ex + ey * ey);
        const float c = float(std::clamp(hw + 0.5 - d, 0.0, 1.0)) * faint;
        float& cell = m.at(x, y);
        cell = std::max(cell, c);
      }
  }
  return m;
}

Mask circle_mask(const Circle& c, const Box& limit) {
  Mask m(bounds(c.cx - c.r - 1, c.cy - c.r - 1, c.cx + c.r + 1, c.cy + c.r + 1, limit));
  for (int y = m.box.y0; y < m.box.y1; ++y)
    for (int x = m.box.x0; x < m.box.x1; ++x) {
      const double d = std::hypot(x + 0.5 - c.cx, y + 0.5 - c.cy);
      m.at(x, y) = float(std::clamp(c.r + 0.5 - d, 0.0, 1.0));
    }
  return m;
}

// Exact area of each pixel inside an axis-aligned rectangle.
Mask rect_mask(double x, double y, double w, double h, const Box& limit) {
  Mask m(bounds(x, y, x + w, y + h, limit));
  for (int py = m.box.y0; py < m.box.y1; ++py) {
    const double fy = std::max(0.0, std::min(py + 1.0, y + h) - std::max(double(py), y));
    for (int px = m.box.x0; px < m.box.x1; ++px) {
      const double fx = std::max(0.0, std::min(px + 1.0, x + w) - std::max(double(px), x));
      m.at(px, py) = float(fx * fy);
    }
  }
  return m;
}

// Non-zero winding fill, 8 sub-scanlines per pixel row, exact horizontal span coverage.
Mask polygon_mask(const std::vector<Point>& pts, const Box& limit) {
  double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
  for (const auto& p : pts) x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
  Mask m(bounds(x0, y0, x1 + 1, y1 + 1, limit));
  if (m.box.empty() || pts.size() < 3) return m;
  struct Edge {
    double ya, yb, xa, slope;
    int dir;
  };
  std::vector<Edge> edges;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    Point a = pts[i], b = pts[(i + 1) % pts.size()];
    if (a.y == b.y) continue;
    int dir = 1;
    if (a.y > b.y) std::swap(a, b), dir = -1;
    edges.push_back({a.y, b.y, a.x, (b.x - a.x) / (b.y - a.y), dir});
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.ya < b.ya; });
  constexpr int kSub = 8;
  std::vector<const Edge*> active;
  std::vector<std::pair<double, int>> xs;
  std::size_t next = 0;
  for (int py = m.box.y0; py < m.box.y1; ++py)
    for (int s = 0; s < kSub; ++s) {
      const double sy = py + (s + 0.5) / kSub;
      while (next < edges.size() && edges[next].ya <= sy) active.push_back(&edges[next++]);
      std::erase_if(active, [&](const Edge* e) { return e->yb <= sy; });
      xs.clear();
      for (const Edge* e : active)
        if (e->ya <= sy) xs.push_back({e->xa + (sy - e->ya) * e->slope, e->dir});
      std::sort(xs.begin(), xs.end());
      int winding = 0;
      for (std::size_t k = 0; k + 1 < xs.size(); ++k) {
        winding += xs[k].second;
        if (winding == 0) continue;
        const double a = std::max(xs[k].first, double(m.box.x0)), b = std::min(xs[k + 1].first, double(m.box.x1));
        if (b <= a) continue;
        for (int px = int(std::floor(a)); px < int(std::ceil(b)) && px < m.box.x1; ++px) {
          const double cover = std::min(b, px + 1.0) - std::max(a, double(px));
          if (cover > 0) m.at(px, py) += float(cover / kSub);
        }
      }
    }
  return m;
}

// ---------------------------------------------------------------- text
std::vector<std::uint32_t> codepoints(std::string_view s) {
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    std::uint32_t cp = extra == 0 ? c : extra == 1 ? (c & 0x1Fu) : extra == 2 ? (c & 0x0Fu) : (c & 0x07u);
    ++i;
    for (; extra > 0 && i < s.size(); --extra, ++i) cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3Fu);
    out.push_back(cp);
  }
  return out;
}

struct Face {
  std::vector<unsigned char> data;
  stbtt_fontinfo info{};
  bool ok = false;
  bool load(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return false;
    data.assign(std::istreambuf_iterator<char>(in), {});
    ok = !data.empty() && stbtt_InitFont(&info, data.data(), stbtt_GetFontOffsetForIndex(data.data(), 0)) != 0;
    return ok;
  }
};

struct Fonts {
  Face regular, bold;
  std::string path;
};

const Fonts& fonts() {
  static const Fonts f = [] {
    Fonts fs;
    std::vector<std::filesystem::path> candidates;
    if (const char* env = std::getenv("FLOCKSCOPE_FONT"); env && *env) candidates.emplace_back(env);
    for (const char* p : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
                          "/usr/share/fonts/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
                          "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"})
      candidates.emplace_back(p);
    for (const auto& c : candidates)
      if (fs.regular.load(c)) {
        fs.path = c.string();
        auto bold = c;
        bold.replace_filename(c.stem().string() + "-Bold" + c.extension().string());
        fs.bold.load(bold);
        break;
      }
    return fs;
  }();
  return f;
}

// Text as a coverage mask, horizontal, with the pen starting at (0, baseline).
struct TextMask {
  int w = 0, h = 0, baseline = 0;
  std::vector<float> cov;
};

TextMask render_truetype(const Face& face, std::string_view text, double size, bool faux_bold) {
  const stbtt_fontinfo* info = &face.info;
  const float scale = stbtt_ScaleForMappingEmToPixels(info, float(size));
  int ascent = 0, descent = 0, gap = 0;
  stbtt_GetFontVMetrics(info, &ascent, &descent, &gap);
  const auto cps = codepoints(text);
  double pen = 0;
  std::vector<double> at;
  for (std::size_t i = 0; i < cps.size(); ++i) {
    at.push_back(pen);
    int adv = 0, lsb = 0;
    stbtt_GetCodepointHMetrics(info, int(cps[i]), &adv, &lsb);
    pen += double(adv) * scale;
    if (i + 1 < cps.size()) pen += double(stbtt_GetCodepointKernAdvance(info, int(cps[i]), int(cps[i + 1]))) * scale;
  }
  TextMask m;
  m.baseline = int(std::ceil(double(ascent) * scale)) + 1;
  m.h = m.baseline + int(std::ceil(-double(descent) * scale)) + 2;
  m.w = int(std::ceil(pen)) + 3;
  m.cov.assign(std::size_t(m.w) * std::size_t(m.h), 0.0f);
  for (std::size_t i = 0; i < cps.size(); ++i) {
    const float shift = float(at[i] - std::floor(at[i]));
    int gw = 0, gh = 0, xoff = 0, yoff = 0;
    unsigned char* bmp = stbtt_GetCodepointBitmapSubpixel(info, scale, scale, shift, 0, int(cps[i]), &gw, &gh, &xoff, &yoff);
    if (!bmp) continue;
    const int ox = int(std::floor(at[i])) + xoff, oy = m.baseline + yoff;
    for (int passes = faux_bold ? 2 : 1, p = 0; p < passes; ++p)
      for (int y = 0; y < gh; ++y)
        for (int x = 0; x < gw; ++x) {
          const int tx = ox + x + p, ty = oy + y;
          if (tx < 0 || ty < 0 || tx >= m.w || ty >= m.h) continue;
          float& c = m.cov[std::size_t(ty) * std::size_t(m.w) + std::size_t(tx)];
          c = std::max(c, bmp[y * gw + x] / 255.0f);
        }
    stbtt_FreeBitmap(bmp, nullptr);
  }
  return m;
}

// stb_easy_font draws about 12-unit-high glyphs (caps 7 units) as quads; scaled to size.
TextMask render_easy(std::string_view text, double size) {
  std::string s;
  for (char c : text) s += (c >= 32 && c < 127) ? c : '?';  // the font covers printable ASCII only
  static thread_local std::vector<char> buffer(1 << 17);
  const int quads = stb_easy_font_print(0, 0, s.data(), nullptr, buffer.data(), int(buffer.size()));
  const double k = size / 10.0;
  TextMask m;
  m.baseline = int(std::ceil(8 * k)) + 1;
  m.h = m.baseline + int(std::ceil(4 * k)) + 1;
  m.w = int(std::ceil(stb_easy_font_width(s.data()) * k)) + 3;
  m.cov.assign(std::size_t(m.w) * std::size_t(m.h), 0.0f);
  for (int q = 0; q < quads; ++q) {
    const float* v = reinterpret_cast<const float*>(buffer.data() + q * 64);
    const double x0 = v[0] * k, y0 = v[1] * k + (m.baseline - 7 * k), x1 = v[8] * k, y1 = v[9] * k + (m.baseline - 7 * k);
    Mask r = rect_mask(x0, y0, x1 - x0, y1 - y0, {0, 0, m.w, m.h});
    for (int y = r.box.y0; y < r.box.y1; ++y)
      for (int x = r.box.x0; x < r.box.x1; ++x) {
        float& c = m.cov[std::size_t(y) * std::size_t(m.w) + std::size_t(x)];
        c = std::min(1.0f, c + r.at(x, y));
      }
  }
  return m;
}

TextMask render_text(const Text& t) {
  const Fonts& f = fonts();
  if (!f.regular.ok) return render_easy(t.text, t.size);
  if (t.bold && f.bold.ok) return render_truetype(f.bold, t.text, t.size, false);
  return render_truetype(f.regular, t.text, t.size, t.bold);
}

void draw_text(Canvas& cv, const Text& t, const Box& limit) {
  const TextMask tm = render_text(t);
  // The ink's advance width is what the anchor refers to (the mask has a little slack).
  const double advance = tm.w - 3;
  const double shift = t.anchor == Anchor::Middle ? advance / 2 : t.anchor == Anchor::End ? advance : 0;
  const int ax = int(std::lround(t.x)), ay = int(std::lround(t.y));
  Mask m(limit);
  if (!t.vertical) {
    const int ox = int(std::lround(t.x - shift)), oy = ay - tm.baseline;
    m = Mask(intersect({ox, oy, ox + tm.w, oy + tm.h}, limit));
    for (int y = m.box.y0; y < m.box.y1; ++y)
      for (int x = m.box.x0; x < m.box.x1; ++x) m.at(x, y) = tm.cov[std::size_t(y - oy) * std::size_t(tm.w) + std::size_t(x - ox)];
  } else {
    // Turned a quarter counter-clockwise about (x, y): text x runs up, text y runs right.
    const int s = int(std::lround(shift));
    const Box b{ax - tm.baseline, ay - (tm.w - s) + 1, ax - tm.baseline + tm.h, ay + s + 1};
    m = Mask(intersect(b, limit));
    for (int y = m.box.y0; y < m.box.y1; ++y)
      for (int x = m.box.x0; x < m.box.x1; ++x) {
        const int tx = s + (ay - y), ty = tm.baseline + (x - ax);
        if (tx >= 0 && tx < tm.w && ty >= 0 && ty < tm.h) m.at(x, y) = tm.cov[std::size_t(ty) * std::size_t(tm.w) + std::size_t(tx)];
      }
  }
  cv.blend(m, t.color);
}

}  // namespace

std::string font_path() { return fonts().path; }

// ---------------------------------------------------------------- the scene
Image rasterise(const Scene& scene) {
  Canvas cv{std::max(0, scene.width), std::max(0, scene.height), {}};
  cv.px.assign(std::size_t(cv.w) * std::size_t(cv.h) * 4, 0.0f);
  {
    Mask bg(cv.full());
    std::fill(bg.cov.begin(), bg.cov.end(), 1.0f);
    cv.blend(bg, scene.background);
  }
  const Box clip = intersect(bounds(scene.clip.x, scene.clip.y, scene.clip.x + scene.clip.w, scene.clip.y + scene.clip.h, cv.full()), cv.full());
  for (const Item& item : scene.items) {
    const Box limit = item.clip ? clip : cv.full();
    if (const auto* l = std::get_if<Polyline>(&item.shape)) {
      if (l->points.size() >= 2) cv.blend(line_mask(l->points, l->width, limit), l->color);
    } else if (const auto* g = std::get_if<Polygon>(&item.shape)) {
      cv.blend(polygon_mask(g->points, limit), g->fill);
    } else if (const auto* r = std::get_if<Rect>(&item.shape)) {
      if (r->fill.a) cv.blend(rect_mask(r->x, r->y, r->w, r->h, limit), r->fill);
      if (r->stroke.a && r->stroke_width > 0) {
        const std::vector<Point> outline = {{r->x, r->y}, {r->x + r->w, r->y}, {r->x + r->w, r->y + r->h}, {r->x, r->y + r->h}, {r->x, r->y}};
        cv.blend(line_mask(outline, r->stroke_width, limit), r->stroke);
      }
    } else if (const auto* c = std::get_if<Circle>(&item.shape)) {
      cv.blend(circle_mask(*c, limit), c->fill);
    } else if (const auto* t = std::get_if<Text>(&item.shape)) {
      draw_text(cv, *t, limit);
    }
  }
  Image img;
  img.width = cv.w, img.height = cv.h;
  img.rgba.resize(cv.px.size());
  for (std::size_t i = 0; i < cv.px.size(); i += 4) {
    const float a = cv.px[i + 3];
    for (int k = 0; k < 3; ++k) {
      const float v = a > 0 ? cv.px[i + std::size_t(k)] / a : 0.0f;
      img.rgba[i + std::size_t(k)] = std::uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
    }
    img.rgba[i + 3] = std::uint8_t(std::lround(std::clamp(a, 0.0f, 1.0f) * 255.0f));
  }
  return img;
}

// ---------------------------------------------------------------- PNG
std::vector<std::uint8_t> encode_png(const Image& image) {
  std::vector<std::uint8_t> out;
  if (image.width <= 0 || image.height <= 0) return out;
  auto sink = [](void* ctx, void* data, int size) {
    auto* v = static_cast<std::vector<std::uint8_t>*>(ctx);
    const auto* b = static_cast<const std::uint8_t*>(data);
    v->insert(v->end(), b, b + size);
  };
  // An opaque image goes out as RGB: a quarter smaller, same picture.
  bool all_opaque = true;
  for (std::size_t i = 3; i < image.rgba.size(); i += 4) all_opaque &= image.rgba[i] == 255;
  if (all_opaque) {
    std::vector<std::uint8_t> rgb;
    rgb.reserve(image.rgba.size() / 4 * 3);
    for (std::size_t i = 0; i < image.rgba.size(); i += 4) rgb.insert(rgb.end(), image.rgba.begin() + std::ptrdiff_t(i), image.rgba.begin() + std::ptrdiff_t(i) + 3);
    stbi_write_png_to_func(sink, &out, image.width, image.height, 3, rgb.data(), image.width * 3);
  } else {
    stbi_write_png_to_func(sink, &out, image.width, image.height, 4, image.rgba.data(), image.width * 4);
  }
  return out;
}

}  // namespace flockscope::plot
