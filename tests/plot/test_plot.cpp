// The plot writers: the SVG is well-formed XML that holds every series; the PNG decodes to
// the requested size and shows what the scene says, where it says it.
//
// Sections: SVG | PNG | files
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <pugixml.hpp>
#include <sstream>

#include "../support/scratch.hpp"
#include "flockscope/plot/raster.hpp"
#include "flockscope/plot/svg.hpp"

using namespace flockscope::plot;
namespace fs = std::filesystem;

namespace {

fs::path scratch_root() { return testsupport::scratch_root("plot"); }
const auto* const g_remove_scratch = ::testing::AddGlobalTestEnvironment(new testsupport::RemoveAtExit(scratch_root()));

LinePlot two_series() {
  LinePlot p;
  p.title = "Average flock diameter";
  p.x.label = "time t";
  p.y.label = "diameter D";
  Series a = make_series("baseline", {0, 1, 2, 3, 4}, {5, 4, 3, 2, 1});
  Series b = make_series("D_vis=10 & more", {0, 1, 2, 3, 4}, {1, 3, 2, 5, 4});
  b.lo = {0, 2, 1, 4, 3};
  b.hi = {2, 4, 3, 6, 5};
  b.markers = true;
  p.series = {a, b};
  return p;
}

std::vector<std::pair<double, double>> parse_points(const char* text) {
  std::vector<std::pair<double, double>> pts;
  std::istringstream in(text);
  std::string pair;
  while (in >> pair) {
    const auto comma = pair.find(',');
    pts.emplace_back(std::stod(pair.substr(0, comma)), std::stod(pair.substr(comma + 1)));
  }
  return pts;
}

struct Decoded {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
  const unsigned char* at(int x, int y) const { return &rgb[(std::size_t(y) * std::size_t(w) + std::size_t(x)) * 3]; }
};

Decoded decode(const std::vector<std::uint8_t>& png) {
  Decoded d;
  int channels = 0;
  unsigned char* px = stbi_load_from_memory(png.data(), int(png.size()), &d.w, &d.h, &channels, 3);
  if (px) d.rgb.assign(px, px + std::size_t(d.w) * std::size_t(d.h) * 3), stbi_image_free(px);
  return d;
}

}  // namespace

// ---------------------------------------------------------------- SVG
TEST(PlotSvg, ParsesAndHoldsEverySeries) {
  const LinePlot p = two_series();
  const std::string svg = to_svg(layout(p, {640, 400}));
  pugi::xml_document doc;
  const auto parsed = doc.load_string(svg.c_str());
  ASSERT_TRUE(parsed) << parsed.description();
  const pugi::xml_node root = doc.child("svg");
  EXPECT_STREQ(root.attribute("width").value(), "640");
  EXPECT_STREQ(root.attribute("height").value(), "400");
  for (const auto& s : p.series) {
    const auto line = root.find_child_by_attribute("polyline", "data-series", s.name.c_str());
    ASSERT_TRUE(line) << s.name;
    const auto pts = parse_points(line.attribute("points").value());
    ASSERT_EQ(pts.size(), s.x.size()) << s.name;
    // Pixels follow the data: x grows to the right, y upwards on the page.
    for (std::size_t i = 1; i < pts.size(); ++i) {
      EXPECT_GT(pts[i].first, pts[i - 1].first);
      if (s.y[i] > s.y[i - 1]) {
        EXPECT_LT(pts[i].second, pts[i - 1].second);
      }
    }
  }
  EXPECT_TRUE(root.find_child_by_attribute("polygon", "data-series", "D_vis=10 & more")) << "spread band";
  int markers = 0, texts = 0;
  bool title = false, legend = false;
  for (const auto& n : root.children()) {
    markers += std::string(n.name()) == "circle" && std::string(n.attribute("class").value()) == "marker";
    if (std::string(n.name()) == "text") {
      ++texts;
      title |= std::string(n.text().get()) == p.title;
      legend |= std::string(n.text().get()) == "D_vis=10 & more";
    }
  }
  EXPECT_EQ(markers, 5);
  EXPECT_TRUE(title);
  EXPECT_TRUE(legend);
  EXPECT_GT(texts, 8);  // tick labels
}

TEST(PlotSvg, NaNBreaksALineAndLongSeriesAreThinned) {
  LinePlot p;
  Series s = make_series("gappy", {0, 1, 2, 3, 4, 5}, {1, 2, NAN, 4, 5, 6});
  p.series = {s};
  Series dense = make_series("dense", {}, {});
  for (int i = 0; i <= 100000; ++i) dense.x.push_back(i), dense.y.push_back(std::sin(i * 1e-4));
  p.series.push_back(dense);
  const std::string svg = to_svg(layout(p, {800, 500}));
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(svg.c_str()));
  int gappy = 0;
  for (const auto& n : doc.child("svg").children("polyline"))
    if (std::string(n.attribute("data-series").value()) == "gappy" && std::string(n.attribute("class").value()) == "line") ++gappy;
  EXPECT_EQ(gappy, 2);
  const auto pts = parse_points(doc.child("svg").find_child_by_attribute("polyline", "data-series", "dense").attribute("points").value());
  EXPECT_LT(pts.size(), 5000u);
  EXPECT_GT(pts.size(), 300u);
}

TEST(PlotSvg, HeatmapHasACellPerValue) {
  Heatmap h;
  h.title = "final diameter";
  h.x_categories = {"5", "10", "25"};
  h.y_categories = {"0.04", "0.06"};
  h.values = {1, 2, 3, 4, NAN, 6};
  const std::string svg = to_svg(layout(h, {600, 400}));
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(svg.c_str()));
  int cells = 0;
  for (const auto& n : doc.child("svg").children("rect")) cells += std::string(n.attribute("class").value()) == "cell";
  EXPECT_EQ(cells, 6);
}

TEST(PlotSvg, CategoricalAxesAndEscapedText) {
  LinePlot p;
  p.title = "a < b & \"c\"";
  p.x.categories = {"10", "25", "inf"};
  p.series = {make_series("", {0, 1, 2}, {3, 1, 2})};
  const std::string svg = to_svg(layout(p, {500, 300}));
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(svg.c_str()));
  bool inf = false, title = false;
  for (const auto& n : doc.child("svg").children("text")) {
    inf |= std::string(n.text().get()) == "inf";
    title |= std::string(n.text().get()) == p.title;
  }
  EXPECT_TRUE(inf);
  EXPECT_TRUE(title);
}

// ---------------------------------------------------------------- PNG
TEST(PlotPng, DecodesToTheRequestedSize) {
  for (Size size : {Size{800, 500}, Size{333, 217}}) {
    const auto png = encode_png(rasterise(layout(two_series(), size)));
    ASSERT_GT(png.size(), 8u);
    EXPECT_EQ(std::string(png.begin(), png.begin() + 4), "\x89PNG");
    const Decoded d = decode(png);
    EXPECT_EQ(d.w, size.width);
    EXPECT_EQ(d.h, size.height);
  }
}

TEST(PlotPng, DrawsShapesWhereTheSceneSays) {
  Scene s;
  s.width = 100, s.height = 60;
  s.items.push_back({Polyline{{{10, 20.5}, {90, 20.5}}, Color{255, 0, 0, 255}, 2.5}, false, "", "line"});
  s.items.push_back({Rect{10, 40, 20, 10, Color{0, 0, 255, 255}}, false, "", "cell"});
  s.items.push_back({Circle{70, 45, 5, Color{0, 128, 0, 255}}, false, "", "marker"});
  const Decoded d = decode(encode_png(rasterise(s)));
  ASSERT_EQ(d.w, 100);
  auto rgb = [&](int x, int y) { return std::vector<int>{d.at(x, y)[0], d.at(x, y)[1], d.at(x, y)[2]}; };
  EXPECT_EQ(rgb(50, 20), (std::vector<int>{255, 0, 0}));      // on the line
  EXPECT_EQ(rgb(50, 10), (std::vector<int>{255, 255, 255}));  // background
  EXPECT_EQ(rgb(20, 45), (std::vector<int>{0, 0, 255}));      // in the rectangle
  EXPECT_EQ(rgb(70, 45), (std::vector<int>{0, 128, 0}));      // circle centre
  // Anti-aliased: 2.5 px wide about a pixel centre, so the rows beside it are three quarters
  // red, and the next ones untouched.
  for (int y : {19, 21}) {
    EXPECT_EQ(rgb(50, y)[0], 255);
    EXPECT_NEAR(rgb(50, y)[1], 64, 2) << y;
  }
  EXPECT_EQ(rgb(50, 22), (std::vector<int>{255, 255, 255}));
}

TEST(PlotPng, ClippedMarksStayInsideThePlotArea) {
  Scene s;
  s.width = 50, s.height = 50;
  s.clip = Rect{10, 10, 30, 30, {}};
  s.items.push_back({Rect{0, 0, 50, 50, Color{0, 0, 0, 255}}, true, "", "band"});
  const Decoded d = decode(encode_png(rasterise(s)));
  EXPECT_EQ(d.at(5, 5)[0], 255);
  EXPECT_EQ(d.at(25, 25)[0], 0);
}

TEST(PlotPng, TextIsDrawn) {
  Scene s;
  s.width = 120, s.height = 40;
  s.items.push_back({Text{10, 28, "Flock 42", 18, Color{0, 0, 0, 255}}, false, "", "title"});
  const Decoded d = decode(encode_png(rasterise(s)));
  int dark = 0;
  for (int y = 0; y < d.h; ++y)
    for (int x = 0; x < d.w; ++x) dark += d.at(x, y)[0] < 128;
  EXPECT_GT(dark, 40) << "font: " << (font_path().empty() ? "built-in" : font_path());
  for (int y = 0; y < d.h; ++y) EXPECT_EQ(d.at(115, y)[0], 255) << "text ran past its width";
}

// ---------------------------------------------------------------- files
TEST(PlotFiles, WritePlotWritesBothFormats) {
  const fs::path dir = scratch_root();
  fs::remove_all(dir);
  write_plot(dir / "sub" / "diameter", two_series(), {640, 360});
  ASSERT_TRUE(fs::exists(dir / "sub" / "diameter.svg"));
  std::ifstream in(dir / "sub" / "diameter.png", std::ios::binary);
  const std::vector<std::uint8_t> png{std::istreambuf_iterator<char>(in), {}};
  const Decoded d = decode(png);
  EXPECT_EQ(d.w, 640);
  EXPECT_EQ(d.h, 360);
  Heatmap h;
  h.x_categories = {"a"};
  h.y_categories = {"b"};
  h.values = {1};
  write_plot(dir / "heat", h, {300, 200});
  EXPECT_TRUE(fs::exists(dir / "heat.png"));
  EXPECT_THROW(write_plot(dir / "heat.png" / "x", h, {300, 200}), std::runtime_error);
}
