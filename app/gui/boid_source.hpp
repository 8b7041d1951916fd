// BoidSource: where the window's boids come from. The window only ever talks to this seam,
// so a local simulation, a replayed recording and (next) a Pico over USB serial are
// interchangeable: each exposes the current boids, predators, world, parameters and metrics,
// and accepts parameter changes and commands (step, reset).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/metrics.hpp"
#include "flockscope/core/recording.hpp"

namespace flockscope::gui {

class BoidSource {
 public:
  virtual ~BoidSource() = default;
  virtual const char* kind() const = 0;  // "local", "replay", later "serial"

  // The boids in storage order; ids() maps slots to boid ids (nullptr: slot == id).
  virtual PointsView boids() const = 0;
  virtual const std::uint32_t* ids() const = 0;
  virtual std::span<const Predator> predators() const = 0;
  // Parameters in force (the world size, the margins and the scout groups come from here)
  // and as last set (reset-only changes wait in pending_params until reset()).
  virtual const Params& params() const = 0;
  virtual const Params& pending_params() const = 0;
  // Metrics of the current state (computed in advance(), never while drawing).
  virtual const Metrics& metrics() const = 0;
  virtual std::uint64_t step() const = 0;
  virtual double time() const = 0;

  // Whether the user may change parameters (a replay plays back what was recorded).
  virtual bool editable() const { return true; }
  virtual void set_params(const Params& p) = 0;
  virtual void reset() = 0;
  // Moves the source on by `steps` (a simulation step, a replay frame). Returns false when
  // nothing more will come (end of a replay).
  virtual bool advance(int steps) = 0;
};

// The flock simulated here, on the UI thread.
class LocalSource final : public BoidSource {
 public:
  explicit LocalSource(const Params& p);
  LocalSource(const Params& p, const FlockSnapshot& initial);
  const char* kind() const override { return "local"; }
  PointsView boids() const override { return view_of(flock_); }
  const std::uint32_t* ids() const override { return flock_.ids().data(); }
  std::span<const Predator> predators() const override { return flock_.predators(); }
  const Params& params() const override { return flock_.params(); }
  const Params& pending_params() const override { return flock_.pending_params(); }
  const Metrics& metrics() const override { return metrics_; }
  std::uint64_t step() const override { return flock_.steps(); }
  double time() const override { return flock_.time(); }
  void set_params(const Params& p) override { flock_.set_params(p); }
  void reset() override;
  bool advance(int steps) override;

  // Largest-flock mode: adds n boids at random places without disturbing the others.
  void add_boids(std::size_t n, std::uint64_t seed);
  const Flock& flock() const { return flock_; }
  void set_threads(int t) { flock_.set_threads(t); }

 private:
  void update_metrics();
  Flock flock_;
  Metrics metrics_;
};

// A recording played back with a timeline.
class ReplaySource final : public BoidSource {
 public:
  explicit ReplaySource(Recording rec);
  const char* kind() const override { return "replay"; }
  PointsView boids() const override;
  const std::uint32_t* ids() const override { return nullptr; }
  std::span<const Predator> predators() const override { return frame_.predators; }
  const Params& params() const override { return rec_.params_at(index_); }
  const Params& pending_params() const override { return params(); }
  const Metrics& metrics() const override { return frame_.metrics; }
  std::uint64_t step() const override { return frame_.step; }
  double time() const override { return frame_.time; }
  bool editable() const override { return false; }
  void set_params(const Params&) override {}
  void reset() override { seek(0); }
  bool advance(int steps) override;

  std::size_t frames() const { return rec_.frames(); }
  std::size_t index() const { return index_; }
  void seek(std::size_t i);
  const Recording& recording() const { return rec_; }

 private:
  Recording rec_;
  std::size_t index_ = 0;
  RecordedFrame frame_;
};

// Metrics the window computes each frame: everything the plots need; the costlier
// nearest-neighbour and cluster metrics only while they stay cheap.
MetricsOptions window_metrics_options(std::size_t boids);

}  // namespace flockscope::gui
