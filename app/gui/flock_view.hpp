// The flock view: the boids of a source drawn by SDL in one geometry call, or, where they
// crowd more than triangles can show, as one density image (flock_density.hpp); with ImGui
// overlays (world and margins, centroid and its trail, ledge, food, predators, the lab's
// read-out, the legends) and a camera that fits, follows the centroid, zooms about the cursor
// and pans.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "boid_source.hpp"
#include "flock_density.hpp"
#include "flock_geometry.hpp"
#include "panel_support.hpp"

struct SDL_Renderer;
struct SDL_Texture;

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
  // The read-out's t: the plots' time of the step shown (it goes on across resets, as the
  // plots' axis does). NaN: the source's own time.
  double plot_time = std::numeric_limits<double>::quiet_NaN();
};

class FlockView {
 public:
  FlockView();
  ~FlockView();
  FlockView(const FlockView&) = delete;
  FlockView& operator=(const FlockView&) = delete;

  // The view's options and canvas in the current ImGui window: takes this frame's wheel and
  // drags, sets the transform, and draws the overlays: the world, margins, centroid and its
  // trail, the perching ledge, food sources, predators and their aims, the read-out, a REC
  // badge while recording, a colour legend and the density scale, and hud.stale over it all
  // when not empty. Before the overlays it runs the density pass for this transform (see
  // build_density) and lays its image under them, faded in by density_weight().
  void panel(const BoidSource& s, const ViewHud& hud, WidgetRects& rects, SDL_Renderer* renderer);
  // No density this frame (the Explore map has the view's place).
  // The read-out as drawn last frame (boids, fps, step, t, wall clock).
  const std::string& readout() const { return readout_; }
  void skip_density() { weight_ = 0, counted_ = false, density_ms_ = 0; }
  // The boids' triangles and colours for the transform panel() set (no drawing; none while
  // the density image covers the view).
  void build_geometry(const BoidSource& s);
  // Draws the world and the boids built by build_geometry() into the canvas, under ImGui's
  // draw data (the density image and the overlays).
  void render(SDL_Renderer* r, const Params& p) const;
  // The texture belongs to the renderer: released before the renderer goes.
  void release_texture();

  // How much of the picture is the density image: 0 triangles only, 1 density only.
  double density_weight() const { return weight_; }
  // The density pass's time this frame (ms; 0 when it did not run).
  double density_ms() const { return density_ms_; }
  // The last density pass's counts (empty below DensitySwitch::min_boids).
  const DensityImage& density() const { return density_; }
  bool density_counted() const { return counted_; }
  DensityColour density_colour() const { return colour_; }
  void set_density_colour(DensityColour c) { colour_ = c; }

  void fit() { fit_ = true, follow_ = false; }
  // A new source or a reset: the trail starts again; a new source is fitted.
  void clear_trail() { trail_.clear(); }
  void source_changed() { trail_.clear(), fit_ = true; }
  void push_centroid(double x, double y);

  const WidgetRect& rect() const { return rect_; }
  const ViewTransform& transform() const { return xf_; }

 private:
  std::string readout_;
  void fit_camera(const Params& p);
  // Counts the boids a pixel when there are enough of them to matter and, where they crowd,
  // tone-maps the counts into the view's streaming texture (created on `renderer`). Decides
  // density_weight().
  void build_density(const BoidSource& s, SDL_Renderer* renderer);
  void density_legend(const Params& p, WidgetRects& rects);

  // Camera: world point at the canvas centre, pixels per world unit.
  double cam_x_ = 320, cam_y_ = 240, zoom_ = 1;
  bool fit_ = true, follow_ = false, show_path_ = true, show_margins_ = true;
  WidgetRect rect_{0, 0, 1, 1};
  ViewTransform xf_;
  std::vector<float> xy_;
  std::vector<Rgba> colours_;
  std::size_t boids_ = 0;
  std::vector<std::pair<float, float>> trail_;

  DensitySwitch switch_;
  DensityColour colour_ = DensityColour::Count;
  DensityImage density_;
  bool counted_ = false;
  double weight_ = 0, density_ms_ = 0;
  DensityStyle style_;  // as the last image was tone-mapped (the legend's speed range)
  int threads_ = 1;
  SDL_Texture* texture_ = nullptr;
  int texture_w_ = 0, texture_h_ = 0;
};

}  // namespace flockscope::gui
