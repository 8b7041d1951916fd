// The flock view's geometry: every boid becomes one small triangle pointing along its
// velocity, written straight into the arrays SDL_RenderGeometryRaw takes, so all the boids
// reach the renderer in one call. This is the hot loop of drawing (a million boids a frame),
// kept free of SDL and ImGui so it can be benchmarked and tested on its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "flockscope/core/metrics.hpp"

namespace flockscope::gui {

// World to screen: screen = offset + world * scale (world y grows downwards, like the VGA).
struct ViewTransform {
  float scale = 1, ox = 0, oy = 0;
};

struct Rgba {
  std::uint8_t r, g, b, a;
};

// Per-boid colours by scout group (0 none, 1 right, 2 left).
struct BoidPalette {
  Rgba plain{200, 225, 255, 255};
  Rgba scout_right{255, 170, 60, 255};
  Rgba scout_left{110, 230, 120, 255};
};

// Writes 3 vertices (6 floats) per boid into xy (resized to 6n). `size_px` is the triangle's
// length on screen. A boid at rest points along +x (no NaN from a zero velocity).
void build_boid_triangles(const PointsView& b, const ViewTransform& t, float size_px, std::vector<float>& xy);

// Writes 3 colours per boid (resized to 3n). With no scouts every boid has the same colour,
// and the array is only rewritten when its length changes (the caller keeps it).
void build_boid_colours(const std::uint32_t* ids, std::size_t n, std::int64_t scouts1, std::int64_t scouts2,
                        const BoidPalette& pal, std::vector<Rgba>& colours);

// The same from scout groups (0 none, 1 right, 2 left), as a board sends them.
void build_group_colours(const std::uint8_t* groups, std::size_t n, const BoidPalette& pal, std::vector<Rgba>& colours);

}  // namespace flockscope::gui
