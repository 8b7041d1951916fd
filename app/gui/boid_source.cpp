#include "boid_source.hpp"

#include <algorithm>
#include <thread>

#include "flockscope/core/rng.hpp"

namespace flockscope::gui {

MetricsOptions window_metrics_options(std::size_t boids, bool neighbours) {
  MetricsOptions o;
  o.nearest_neighbour = neighbours && boids <= 20000;
  o.clusters = neighbours && boids <= 20000;
  return o;
}

// ---------------------------------------------------------------- local
// All cores: the engine gives the same state on any thread count.
LocalSource::LocalSource(const Params& p) : flock_(p) {
  flock_.set_threads(int(std::max(1u, std::thread::hardware_concurrency())));
  update_metrics();
}
LocalSource::LocalSource(const Params& p, const FlockSnapshot& initial) : flock_(p, initial) {
  flock_.set_threads(int(std::max(1u, std::thread::hardware_concurrency())));
  update_metrics();
}

// Every step: the plotted metrics on the engine's threads; the neighbour metrics only when
// asked (the drawn step) and while they stay cheap.
void LocalSource::update_metrics(bool neighbours) {
  const MetricsOptions o = window_metrics_options(flock_.size(), neighbours);
  metrics_ = compute_step_metrics(view_of(flock_), flock_.threads());
  neighbours_ = o.nearest_neighbour;
  if (neighbours_) add_neighbour_metrics(metrics_, view_of(flock_), cluster_radius(flock_.params()), o);
}

void LocalSource::reset() {
  flock_.reset();
  update_metrics();
}

bool LocalSource::advance(int steps, const EachStep& each) {
  for (int i = 0; i < steps; ++i) {
    flock_.step();
    update_metrics(i + 1 == steps);  // the drawn step also gets the neighbour metrics
    if (each) each();
  }
  return true;
}

void LocalSource::add_boids(std::size_t n, std::uint64_t seed) {
  FlockSnapshot s = flock_.snapshot();
  const Params& p = flock_.params();
  Pcg32 rng(seed, 7);
  for (std::size_t i = 0; i < n; ++i) {
    s.x.push_back(float(rng.uniform(p.leftmargin, std::max(p.leftmargin + 1, p.width - p.rightmargin))));
    s.y.push_back(float(rng.uniform(p.topmargin, std::max(p.topmargin + 1, p.height - p.bottommargin))));
    const double a = rng.uniform(-1, 1), b = rng.uniform(-1, 1);
    s.vx.push_back(float(a * p.minspeed + 0.1));
    s.vy.push_back(float(b * p.minspeed));
  }
  const int threads = flock_.threads();
  const auto predators = flock_.predators();
  const auto food = flock_.food();
  Params q = flock_.pending_params();
  copy_params(q, p, Apply::Reset);  // keep the running world; pending changes stay pending
  flock_ = Flock(q, s);
  flock_.set_predators(std::vector<Predator>(predators.begin(), predators.end()));
  flock_.set_food(std::vector<FoodSource>(food.begin(), food.end()));
  flock_.set_threads(threads);
  update_metrics();
}

// ---------------------------------------------------------------- replay
ReplaySource::ReplaySource(Recording rec, std::string file) : rec_(std::move(rec)), file_(std::move(file)) {
  if (rec_.frames() > 0) frame_ = rec_.frame(0);
}

PointsView ReplaySource::boids() const {
  const auto& b = frame_.boids;
  return {b.x.data(), b.y.data(), b.vx.data(), b.vy.data(), b.size(), frame_.food, frame_.predators};
}

void ReplaySource::seek(std::size_t i) {
  if (rec_.frames() == 0) return;
  index_ = std::min(i, rec_.frames() - 1);
  frame_ = rec_.frame(index_);
}

bool ReplaySource::advance(int steps, const EachStep& each) {
  if (rec_.frames() == 0 || index_ + 1 >= rec_.frames()) return false;
  for (int i = 0; i < std::max(steps, 1) && index_ + 1 < rec_.frames(); ++i) {
    seek(index_ + 1);
    if (each) each();
  }
  return true;
}

}  // namespace flockscope::gui
