// The flock view: the boids of a source drawn by SDL in one geometry call, with ImGui
// overlays (world and margins, centroid and its trail, ledge, food, predators, the lab's
// read-out) and a camera that fits, follows the centroid, zooms about the cursor and pans.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "boid_source.hpp"
#include "flock_geometry.hpp"
#include "panel_support.hpp"

struct SDL_Renderer;

namespace flockscope::gui {

// The lab's extensions as the view draws them (the tests look for these colours).
inline constexpr Rgba kLedgeColour{205, 150, 90, 255};  // the perching ledge
inline constexpr Rgba kFoodColour{250, 210, 50, 255};   // a food source
inline constexpr Rgba kGravityColour{120, 200, 255, 255};  // the gravity arrow in the legend
inline constexpr Rgba kAimColour{255, 70, 70, 170};     // a hunting predator's line to its aim

// What the view's read-out shows beside the source's own numbers.
struct ViewHud {
  double fps = 0;
  double elapsed_s = 0;  // wall-clock seconds since the window opened
  bool recording = false;
  std::uint64_t recorded_frames = 0;
  // Laid over the view when not empty: the flock shown is not moving (a board's link is
  // down and this is the last frame received, or the local flock waits for an Explore map).
  std::string stale;
};

class FlockView {
 public:
  // The view's options and canvas in the current ImGui window: takes this frame's wheel and
  // drags, sets the transform, and draws the overlays: the world, margins, centroid and its
  // trail, the perching ledge, food sources, predators and their aims, the read-out, a REC
  // badge while recording and a colour legend, and hud.stale over it all when not empty.
  void panel(const BoidSource& s, const ViewHud& hud, WidgetRects& rects);
  // The boids' triangles and colours for the transform panel() set (no drawing).
  void build_geometry(const BoidSource& s);
  // Draws the world and the boids built by build_geometry() into the canvas.
  void render(SDL_Renderer* r, const Params& p) const;

  void fit() { fit_ = true, follow_ = false; }
  // A new source or a reset: the trail starts again; a new source is fitted.
  void clear_trail() { trail_.clear(); }
  void source_changed() { trail_.clear(), fit_ = true; }
  void push_centroid(double x, double y);

  const WidgetRect& rect() const { return rect_; }
  const ViewTransform& transform() const { return xf_; }

 private:
  void fit_camera(const Params& p);

  // Camera: world point at the canvas centre, pixels per world unit.
  double cam_x_ = 320, cam_y_ = 240, zoom_ = 1;
  bool fit_ = true, follow_ = false, show_path_ = true, show_margins_ = true;
  WidgetRect rect_{0, 0, 1, 1};
  ViewTransform xf_;
  std::vector<float> xy_;
  std::vector<Rgba> colours_;
  std::size_t boids_ = 0;
  std::vector<std::pair<float, float>> trail_;
};

}  // namespace flockscope::gui
