// One run of a sweep, measured (run_summary.hpp): the flock's diameter, polarisation and
// formation, the share going right, and for the consensus study the decision and the naive
// boids' heading.
#include "flockscope/experiments/run_summary.hpp"

#include <algorithm>
#include <cmath>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/metrics.hpp"

namespace flockscope::experiments {

double formation_radius(const Params& p, const SummaryOptions& o) { return std::min(cluster_radius(p), o.form_radius); }

RunSummary summarise_run(const Params& p, std::uint64_t steps, SweepKind kind, const SummaryOptions& o,
                         const std::atomic<bool>* cancel) {
  Flock flock(p);
  flock.set_threads(1);
  RunSummary r;
  r.scouts1 = p.scouts1;
  r.scouts2 = p.scouts2;
  const std::size_t n = flock.size();
  r.boid_steps = std::uint64_t(n) * steps;
  const double radius = formation_radius(p, o);
  const std::uint64_t every = std::max<std::uint64_t>(1, o.check_every);
  const bool consensus = kind == SweepKind::Consensus;
  const auto scouts = std::uint64_t(std::max<std::int64_t>(0, p.scouts1) + std::max<std::int64_t>(0, p.scouts2));
  // The decision band: the interior between the margins (the whole width if they leave none).
  double lo = p.leftmargin, hi = p.width - p.rightmargin;
  if (!(hi > lo)) lo = 0, hi = p.width;
  const double centre = 0.5 * (lo + hi), reach = o.decide_fraction * (hi - lo);
  MetricsOptions cluster_only;
  cluster_only.nearest_neighbour = false;

  double sum_d = 0, sum_pol = 0, sum_heading = 0, sum_right = 0;
  std::uint64_t heading_samples = 0;
  // The diameter and polarisation as compute_metrics defines them, summed here (with sqrt,
  // not hypot) in the same pass as the naive boids' centroid and heading: runs.csv's bytes
  // depend on this order, so it is not compute_metrics' loop (metrics.cpp says why).
  auto sample = [&](std::uint64_t step) {
    if (n == 0) return;
    const float *x = flock.x().data(), *y = flock.y().data(), *vx = flock.vx().data(), *vy = flock.vy().data();
    const std::uint32_t* ids = flock.ids().data();
    double sx = 0, sy = 0, hx = 0, hy = 0, nx = 0, nhx = 0;
    std::size_t moving = 0, naive = 0, right = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sx += x[i], sy += y[i];
      right += vx[i] > 0;
      const double s = std::sqrt(double(vx[i]) * vx[i] + double(vy[i]) * vy[i]);
      if (s > 0) hx += vx[i] / s, hy += vy[i] / s, ++moving;
      if (consensus && ids[i] >= scouts) {
        nx += x[i], ++naive;
        if (s > 0) nhx += vx[i] / s;
      }
    }
    // Up to the decision: after it the margins turn the group back, and a heading averaged
    // over the bounces would say more about the box than about the choice.
    if (consensus && naive && r.decision == 0 && step >= o.heading_from && step <= o.heading_to)
      sum_heading += nhx / double(naive), ++heading_samples;
    const double cx = sx / double(n), cy = sy / double(n);
    double d = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double dx = x[i] - cx, dy = y[i] - cy;
      d += std::sqrt(dx * dx + dy * dy);
    }
    sum_d += d / double(n);
    sum_pol += moving ? std::sqrt(hx * hx + hy * hy) / double(moving) : 0.0;
    sum_right += double(right) / double(n);
    if (!r.formed && (step % every == 0 || step == steps)) {
      // Only the clusters: the diameter and polarisation were summed above.
      Metrics m;
      add_neighbour_metrics(m, view_of(flock), radius, cluster_only);
      if (m.clusters == 1) {
        r.formed = true;
        r.formed_step = step;
        r.formed_time = double(step) * p.dt;
      }
    }
    if (consensus && r.decision == 0) {
      // The naive boids follow the group; the scouts would move the centroid by themselves.
      const double gx = naive ? nx / double(naive) : cx;
      r.decision = gx >= centre + reach ? 1 : (gx <= centre - reach ? -1 : 0);
      if (r.decision != 0) r.decision_step = step, r.decision_time = double(step) * p.dt;
    }
  };

  sample(0);
  for (std::uint64_t step = 1; step <= steps; ++step) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      r.cancelled = true;
      return r;
    }
    flock.step();
    sample(step);
  }
  const Metrics last = compute_metrics(view_of(flock), radius, cluster_only);
  r.final_diameter = last.diameter;
  r.final_polarisation = last.polarisation;
  r.final_clusters = last.clusters;
  r.mean_diameter = sum_d / double(steps + 1);
  r.mean_polarisation = sum_pol / double(steps + 1);
  r.final_share_right = last.share_right;
  r.mean_share_right = sum_right / double(steps + 1);
  r.naive_heading = heading_samples ? sum_heading / double(heading_samples) : NAN;
  return r;
}

}  // namespace flockscope::experiments
