// Flock: the float engine. Data-oriented (structure of arrays), one step() entry, knows
// nothing of drawing or I/O.
//
// The update is synchronous: every boid reads the previous frame only, so a step does not
// depend on the order of the boids or on the number of threads, and a seed gives the same
// state bit for bit on any thread count. (The seeds' pseudocode updates boids in place,
// which makes its results depend on loop order.)
//
// Boids are stored in neighbour-grid order, which changes every step; ids() maps storage
// slots to stable boid ids (spawn order), and snapshot() returns the state in id order.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "flockscope/core/grid.hpp"
#include "flockscope/core/params.hpp"

namespace flockscope {

struct Predator {
  float x, y, vx, vy;
};

// Where a predator steered last step (predator_mode centroid or chase), for drawing and tests:
// the centre of the boids it saw, or the boid it chases (`target`, an id; -1 for none).
struct PredatorAim {
  bool active = false;  // false: random mode, or no boid in predator_vision
  float x = 0, y = 0;
  std::int64_t target = -1;
};

// A moving food source (params.food of them): it wanders at food_speed and bounces off the
// walls; boids within food_range steer toward the nearest one.
struct FoodSource {
  float x, y, vx, vy;
};

// Boids in id order: the format of state files (--init, final_state.csv).
struct FlockSnapshot {
  std::vector<float> x, y, vx, vy;
  std::size_t size() const { return x.size(); }
};

// Whether this CPU runs the grid step's neighbour kernel of that name: "portable" always,
// "avx2" (with FMA) and "avx512" (F, VL, BW and DQ) where the CPU has them. The step takes
// the best one, or the one FLOCKSCOPE_KERNEL names if the CPU has it.
bool grid_kernel_supported(std::string_view name);

// Scout group of a boid id: 0 none, 1 biased right (ids [0, scouts1)), 2 biased left (next scouts2).
int scout_group(const Params& p, std::uint32_t id);

class Flock {
 public:
  // Spawns params.boids boids from params.seed.
  explicit Flock(const Params& params);
  // Starts from a given state (its size overrides params.boids).
  Flock(const Params& params, const FlockSnapshot& initial);

  // Live parameters act from the next step; reset-only ones wait for reset().
  void set_params(const Params& params);
  // Parameters in force now (reset-only ones as of the last reset).
  const Params& params() const { return active_; }
  // Parameters as last set, including reset-only changes not applied yet.
  const Params& pending_params() const { return pending_; }
  // Re-spawns from the pending parameters (and their seed).
  void reset();

  void step();
  void set_threads(int threads) { threads_ = threads < 1 ? 1 : threads; }
  int threads() const { return threads_; }

  std::size_t size() const { return x_.size(); }
  std::uint64_t steps() const { return steps_; }
  double time() const { return time_; }

  // Storage order (changes every step).
  const std::vector<float>& x() const { return x_; }
  const std::vector<float>& y() const { return y_; }
  const std::vector<float>& vx() const { return vx_; }
  const std::vector<float>& vy() const { return vy_; }
  const std::vector<std::uint32_t>& ids() const { return id_; }
  const std::vector<Predator>& predators() const { return predators_; }
  // Places the predators (tests, replays, a board's mirrored state).
  void set_predators(std::vector<Predator> predators) { predators_ = std::move(predators); }
  // Current bias of the scouts, indexed by id (scouts1 + scouts2 entries).
  const std::vector<float>& scout_bias() const { return bias_; }
  // What each predator aims at (one entry a predator).
  const std::vector<PredatorAim>& predator_aims() const { return aims_; }
  const std::vector<FoodSource>& food() const { return food_; }
  // Places the food sources (tests, replays).
  void set_food(std::vector<FoodSource> food) { food_ = std::move(food); }
  // Perching state by id (empty while perch_frames is 0): > 0 frames left to rest on the
  // ledge, < 0 frames left before the boid may land again, 0 flying free.
  const std::vector<std::int32_t>& perch_timers() const { return perch_; }

  FlockSnapshot snapshot() const;
  // FNV-1a over the id-ordered state, predators and step count: equal hashes, equal flocks.
  std::uint64_t state_hash() const;
  // Bytes held by the engine (state, scratch and grid), for the memory-per-boid budget.
  std::size_t memory_bytes() const;

  // The straightforward O(N^2) step over the same rules, for tests and the speed-up ratio.
  void step_all_pairs();

  // Wall time spent in the step's phases since construction (seconds), for `bench`: the grid
  // build (bounding box, counting sort, reorder of the previous frame) and the boids' pass
  // (neighbour sums and the rule update, fused).
  struct PhaseTimes {
    double grid = 0, boids = 0;
  };
  const PhaseTimes& phase_times() const { return phase_times_; }

 private:
  void spawn(std::uint64_t seed);
  void start_from(FlockSnapshot s);
  void spawn_predators(std::uint64_t seed);
  void spawn_food(std::uint64_t seed);
  void step_food();
  // Perching timers sized to the flock while perch_frames is on, dropped when it is off.
  void prepare_perching();
  // Where predator q aims this step (centroid or chase; inactive when it sees no boid).
  PredatorAim find_aim(const Predator& pr, const PredatorAim& last) const;
  // The rules' view of this step's predators and food, and one boid's scout bias and
  // perching timer (flock.cpp).
  auto surroundings() const;
  auto extras_of(std::uint32_t id, float biasval);
  void step_boids(bool all_pairs);
  // The seeds' in-place loop (update in_place), kept out of line: it is cold for the
  // default synchronous update.
  [[gnu::noinline]] void step_boids_in_place();
  void step_predators();
  void sort_into_grid(float radius, bool have_box);
  template <class F>
  void parallel_for(std::size_t n, std::size_t min_parallel, F&& f) const;
  template <class F>
  void for_each_candidate_range(std::size_t i, bool all_pairs, F&& f) const;

  Params active_, pending_;
  int threads_ = 1;
  std::uint64_t steps_ = 0;
  double time_ = 0;
  // time_ is steps x dt counted from the last change of dt, not a running sum of dt (whose
  // error grows with the steps: 35.000000000000149 after 700 steps of 0.05).
  double time_base_ = 0, time_dt_ = 0;
  std::uint64_t time_base_step_ = 0;
  void advance_time();

  std::vector<float> x_, y_, vx_, vy_;   // state, storage order
  std::vector<std::uint32_t> id_;
  std::vector<float> sx_, sy_, svx_, svy_;  // the previous frame, sorted by grid cell
  std::vector<std::uint32_t> sid_;
  std::vector<float> bias_;
  std::vector<Predator> predators_;
  std::vector<PredatorAim> aims_;
  std::vector<FoodSource> food_;
  std::vector<std::int32_t> perch_;
  UniformGrid grid_;
  PhaseTimes phase_times_;
  // Bounding box of x_, y_ (x min, x max, y min, y max) as the last grid step left them,
  // computed in its update pass; valid only right after such a step.
  float box_[4] = {0, 0, 0, 0};
  bool box_valid_ = false;
};

}  // namespace flockscope
