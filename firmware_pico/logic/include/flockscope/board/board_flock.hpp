// The board's flock: Cornell rules (seeds 000/001/004) in Q16.16 fixed point, the per-boid
// arithmetic taken from core's rules.hpp templates (the same code as the float engine),
// a uniform neighbour grid, and a step split into three parts so that two cores can share
// it: begin_step() (grid sort, one core), update(begin, end) on disjoint slot ranges (any
// number of cores at once: each reads the shared previous frame and writes only its own
// slots), end_step() (predators, frame counter, one core).
//
// Memory is the caller's (static arrays on the RP2040, vectors on the host): see
// FlockBuffers and bytes_per_boid(). Synchronous update as in core: every boid reads the
// previous frame only.
//
// Sections: buffers | coefficients | BoardFlock
#pragma once

#include <cstddef>
#include <cstdint>

#include "flockscope/board/board_params.hpp"
#include "flockscope/board/fixed.hpp"
#include "flockscope/core/rng.hpp"
#include "flockscope/core/rules.hpp"

namespace flockscope::board {

// ---- buffers
struct FlockBuffers {
  fix *x, *y, *vx, *vy;      // state after the last step, in the last sort's order
  fix *sx, *sy, *svx, *svy;  // the previous frame, sorted by grid cell (scratch)
  std::uint16_t *id, *sid;   // stable boid ids (spawn order) for both
  std::uint16_t* cell;       // per boid, scratch for the sort
  std::uint16_t* cell_start; // max_cells + 1 entries
  fix* bias;                 // per scout id, bias_capacity entries
  std::uint32_t capacity, max_cells, bias_capacity;
};
// Bytes of FlockBuffers per boid of capacity (the RAM budget in the README).
inline constexpr std::size_t kBytesPerBoid = 8 * sizeof(fix) + 3 * sizeof(std::uint16_t);

struct Predator {
  fix x, y, vx, vy;
};
inline constexpr std::uint32_t kMaxPredators = 16;

struct FlockMetrics {
  float diameter, centroid_x, centroid_y, polarisation, mean_speed;
};

// ---- BoardFlock
class BoardFlock {
 public:
  explicit BoardFlock(const FlockBuffers& buffers);

  // Re-derives the coefficients from the active parameters (live changes).
  void configure(const ParamStore& params);
  // Spawns n boids and the predators from seed, exactly as core's Flock spawns them
  // (the same PCG32 draws), quantised to Q16.16.
  void reset(const ParamStore& params, std::uint64_t seed, std::uint32_t n);
  // Grows (new boids continue the spawn sequence) or shrinks (highest ids go) the flock.
  void set_count(std::uint32_t n);

  void begin_step();
  void update(std::uint32_t begin, std::uint32_t end);  // slots of the sorted previous frame
  void end_step();
  void step() {
    begin_step();
    update(0, n_);
    end_step();
  }

  std::uint32_t size() const { return n_; }
  std::uint32_t capacity() const { return buf_.capacity; }
  std::uint32_t frame() const { return frame_; }
  bool predators_on() const { return predators_on_; }
  void set_predators_on(bool on) { predators_on_ = on; }
  std::uint32_t predator_count() const { return predators_on_ ? n_pred_ : 0; }
  const Predator& predator(std::uint32_t i) const { return pred_[i]; }
  void set_predator(std::uint32_t i, const Predator& p) { pred_[i] = p; }

  // State after the last step, in storage order (id(k) is slot k's boid).
  fix x(std::uint32_t k) const { return buf_.x[k]; }
  fix y(std::uint32_t k) const { return buf_.y[k]; }
  fix vx(std::uint32_t k) const { return buf_.vx[k]; }
  fix vy(std::uint32_t k) const { return buf_.vy[k]; }
  std::uint16_t id(std::uint32_t k) const { return buf_.id[k]; }
  // Scout group of slot k: 0 none, 1 right, 2 left (ids as in core::scout_group).
  std::uint8_t group(std::uint32_t k) const;
  // Places boid `id` (tests: start from a float engine's state). Slots follow ids.
  void set_boid(std::uint32_t id, fix x, fix y, fix vx, fix vy);
  void set_size(std::uint32_t n) { n_ = n <= buf_.capacity ? n : buf_.capacity; }

  // Centroid over all boids; diameter, polarisation and mean speed over an even sample of
  // at most `sample` boids (a full pass costs a square root per boid).
  FlockMetrics metrics(std::uint32_t sample = 128) const;

 private:
  std::uint32_t cell_x(fix x) const;
  std::uint32_t cell_y(fix y) const;
  std::uint32_t cell_of(fix x, fix y) const;
  void spawn_one(std::uint32_t slot, std::uint32_t id);

  FlockBuffers buf_;
  std::uint32_t n_ = 0;
  std::uint32_t frame_ = 0;
  Pcg32 rng_{1};
  // World, spawn spans and grid.
  double width_ = 640, height_ = 480;
  double spawn_x0_ = 0, spawn_x1_ = 640, spawn_y0_ = 0, spawn_y1_ = 480;
  double minspeed_ = 3, maxspeed_ = 6;
  std::int32_t cell_px_ = 40;
  std::uint32_t inv_cell_ = 65536 / 40;  // floor(2^16 / cell_px_)
  std::int32_t pad_px_ = 0;              // the grid starts this far left of / above the screen
  std::uint32_t cols_ = 1, rows_ = 1;
  // Scouts and bias.
  std::uint32_t scouts1_ = 0, scouts2_ = 0;
  fix biasval_{};
  // Rules.
  rules::CornellCoeffs<fix> c_{};
  rules::CornellCoeffs<fix8> near_{};  // the neighbour test's ranges
  Predator pred_[kMaxPredators] = {};
  std::uint32_t n_pred_ = 0;
  bool predators_on_ = true;
};

}  // namespace flockscope::board
