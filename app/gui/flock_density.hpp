// The flock view's density image: where boids outnumber what triangles can show, the view
// draws how many boids each screen pixel holds instead of one triangle a boid. The counts are
// accumulated on the engine's threads (OpenMP, one private count array a thread, then summed
// by bands of rows) in one parallel region, tone-mapped on a log scale and written straight into a streaming texture's
// pixels. Free of SDL and ImGui so it can be tested and timed on its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "flock_geometry.hpp"

namespace flockscope::gui {

// What colours the density image: the count alone, or the mean heading (hue by direction of
// travel, grey where headings disagree) or the mean speed of each pixel's boids, with the
// count as brightness.
enum class DensityColour : int { Count = 0, Heading = 1, Speed = 2 };

// A rectangle of whole screen pixels (the view's canvas).
struct PixelRect {
  int x0 = 0, y0 = 0, w = 0, h = 0;
};

// How the view picks between triangles and density: the crowding (boids a screen pixel
// where the boids are, see DensityImage::crowding) at which density starts to fade in and
// where it has replaced the triangles, and the smallest flock ever drawn as density (below
// it the view draws triangles without counting).
struct DensitySwitch {
  double fade_from = 0.1, full_at = 0.25;
  std::size_t min_boids = 20000;
  // The density image's weight over the triangles: 0 triangles only, 1 density only.
  double weight(double crowding) const;
};

// The tone map's inputs beside the counts (whose colouring accumulate() was told): the
// colours of empty pixels (the world's inside and the canvas around it, as the view paints
// them), the world on screen, and the speed range that the Speed colours span (px/frame).
struct DensityStyle {
  Rgba world{20, 23, 31, 255}, canvas{12, 13, 17, 255};
  float world_x0 = 0, world_y0 = 0, world_x1 = 0, world_y1 = 0;  // screen coordinates
  float speed_lo = 0, speed_hi = 1;
};

// Colour of a shade in [0, 1] on the count scale (dark blue to the boids' light blue to
// white), of a heading (radians, screen axes) at a polarisation and shade, and of a speed
// fraction in [0, 1] at a shade; the legend draws with the same functions.
Rgba count_colour(float shade);
Rgba heading_colour(float angle, float polarisation, float shade);
Rgba speed_colour(float fraction, float shade);

class DensityImage {
 public:
  // Counts the boids of `b` on each pixel of `r` under the transform `t` (a boid belongs to
  // the pixel its position falls in; positions off `r` or not finite are not counted), with
  // each pixel's heading or speed sums when `colour` asks for them, on `threads` threads.
  // `fit_to_boids`: only over the part of `r` that the boids' bounding box covers (rect()
  // says which), so a flock that fills part of the view costs that part.
  void accumulate(const PointsView& b, const ViewTransform& t, const PixelRect& r, DensityColour colour, int threads,
                  bool fit_to_boids = false);

  // After accumulate(): boids on pixel (x, y) of rect() (0 <= x < w, 0 <= y < h).
  std::uint32_t count(int x, int y) const { return counts_[std::size_t(y) * std::size_t(rect_.w) + std::size_t(x)]; }
  std::uint32_t max_count() const { return max_; }
  std::size_t on_screen() const { return on_screen_; }
  const PixelRect& rect() const { return rect_; }
  // Boids a screen pixel where the boids are: the boids on screen over the pixels of the 4x4
  // pixel blocks that hold at least one of them. A spread flock of a few boids a block reads
  // low (triangles show it), one packed several to a pixel reads high.
  double crowding() const { return lit_blocks_ ? double(on_screen_) / (16.0 * double(lit_blocks_)) : 0.0; }
  // The shade of a count: log(1 + count) / log(1 + max_count()), 0 for an empty pixel.
  float shade(std::uint32_t count) const;

  // Writes the image of `frame` (rect() when null; a frame holds rect()) as 0xAARRGGBB words
  // (SDL_PIXELFORMAT_ARGB8888, or RGB888 which ignores the top byte), `pitch` bytes a row,
  // every pixel opaque: empty ones, and those outside rect(), in the world's or the canvas's
  // colour. One thread: a pass over the pixels through look-up tables costs less than a
  // second fork and join of the threads on a busy machine.
  void tone_map(void* pixels, int pitch, const DensityStyle& style, const PixelRect* frame = nullptr) const;

 private:
  PixelRect rect_;
  DensityColour colour_ = DensityColour::Count;
  int threads_ = 1;
  // One array a thread; the first holds the sums after accumulate().
  std::vector<std::uint32_t> counts_;
  std::vector<float> sums_;  // two a pixel: heading x, y (unit vectors) or speed, 0
  std::vector<unsigned char> touched_;  // which threads' arrays hold counts
  std::uint32_t max_ = 0;
  std::size_t on_screen_ = 0, lit_blocks_ = 0;
  float log_max_ = 1;
};

}  // namespace flockscope::gui
