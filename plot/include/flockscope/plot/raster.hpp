// The PNG back end: a small rasteriser (anti-aliased lines by distance to the segment,
// polygons by sub-scanline coverage) and text from a TrueType font found at run time
// ($FLOCKSCOPE_FONT, else DejaVu Sans from Debian's fonts-dejavu-core), with stb_easy_font's
// built-in strokes when no font file exists.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flockscope/plot/scene.hpp"

namespace flockscope::plot {

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // row-major, 4 bytes per pixel, not premultiplied
};

Image rasterise(const Scene& scene);
std::vector<std::uint8_t> encode_png(const Image& image);

// The font file text is drawn with, or empty when the built-in fallback is used.
std::string font_path();

}  // namespace flockscope::plot
