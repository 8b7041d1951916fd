// One run of a sweep, measured: a small seeded flock run single-threaded, summarised in the
// numbers runs.csv holds (diameter, polarisation, formation, the share of boids going right;
// for the consensus study of seed 000 the group decision and the naive boids' heading). One grid point of a sweep is
// summarise_run(run_point(spec, id).params, ...).
#pragma once

#include <atomic>
#include <cstdint>

#include "flockscope/core/params.hpp"

namespace flockscope::experiments {

// Flock: diameter, polarisation, formation. Consensus adds the scouts' decision.
enum class SweepKind { Flock, Consensus };

struct SummaryOptions {
  // Flock formation is tested every `check_every` steps (and at the last step): the test
  // links boids into clusters, which costs about as much as a step of a 100-boid flock.
  std::uint64_t check_every = 5;
  // Largest linking radius of the "formed" test (see formation_radius).
  double form_radius = 10;
  // Consensus: the naive boids' centroid must move this share of the interior width
  // (between the margins) from its centre to count as a decision.
  double decide_fraction = 0.25;
  // Consensus, Couzin et al. 2005's accuracy: the naive boids' mean heading (the mean over
  // naive boids of vx / speed) averaged over steps [heading_from, heading_to] of the run,
  // ending early at the decision step (after it the margins turn the group back), written
  // as runs.csv's naive_heading.
  std::uint64_t heading_from = 0, heading_to = 1000000000;
};

struct RunSummary {
  double final_diameter = 0, mean_diameter = 0;
  double final_polarisation = 0, mean_polarisation = 0;
  int final_clusters = 0;  // under formation_radius()
  bool formed = false;
  std::uint64_t formed_step = 0;
  double formed_time = 0;
  // Consensus: +1 right, -1 left, 0 undecided within the run.
  int decision = 0;
  // Consensus: the naive boids' mean x-heading over the heading window, in [-1, 1] (NaN
  // without naive boids).
  double naive_heading = 0;
  std::uint64_t decision_step = 0;
  double decision_time = 0;
  // The share of boids going right (vx > 0, core's Metrics::share_right) after the last
  // step, and its mean over the samples of steps 0..steps: seed 000's scout groups pull it
  // up (group 1, biased right) or down (group 2, biased left) from the half of an unbiased
  // flock.
  double final_share_right = 0, mean_share_right = 0;
  std::int64_t scouts1 = 0, scouts2 = 0;
  std::uint64_t boid_steps = 0;
  bool cancelled = false;  // `cancel` became true before the last step: the rest is not set
};

// The flock counts as formed when every boid is linked to every other through boids closer
// than this: the rules' vision, but at most o.form_radius. The vision alone says nothing
// when it is infinite (every boid sees every other), and little when it is long: 100 boids
// spawned at random in the report's 200 x 200 box are one group under a 35 px link before
// they have moved at all.
double formation_radius(const Params& p, const SummaryOptions& o);

// Runs one flock single-threaded and measures it. Deterministic. When `cancel` becomes true
// the run ends before its next step, marked cancelled.
RunSummary summarise_run(const Params& p, std::uint64_t steps, SweepKind kind, const SummaryOptions& o,
                         const std::atomic<bool>* cancel = nullptr);

}  // namespace flockscope::experiments
