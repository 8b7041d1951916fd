// BoidSource: where the window's boids come from. The window only ever talks to this seam,
// so a local simulation, a replayed recording and a Pico over USB serial are
// interchangeable: each exposes the current boids, predators, world, parameters and metrics,
// and accepts parameter changes and commands (step, reset). What a source can do beyond that
// it says itself (capability queries, and the Timeline and BoardControls interfaces), so the
// window offers the matching controls without asking which class it is.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/metrics.hpp"
#include "flockscope/core/recording.hpp"
#include "link/frame_assembler.hpp"

namespace flockscope::gui {

class Timeline;
class BoardControls;

class BoidSource {
 public:
  virtual ~BoidSource() = default;
  // "local", "replay", "serial": the source named in a recording's header.
  virtual const char* kind() const = 0;
  // What the window calls it ("local flock", "replay", "board") and where it comes from (a
  // file, a port; empty for a flock simulated here, which the window names by its preset).
  virtual const char* title() const = 0;
  virtual std::string origin() const { return {}; }

  // The boids in storage order; ids() maps slots to boid ids (nullptr: slot == id).
  virtual PointsView boids() const = 0;
  virtual const std::uint32_t* ids() const = 0;
  virtual std::span<const Predator> predators() const = 0;
  // The food sources and what each predator aims at (one entry a predator), for drawing;
  // none where the source does not know them (a board without the lab's extensions; a
  // replay has no aims).
  virtual std::span<const FoodSource> food() const { return {}; }
  virtual std::span<const PredatorAim> predator_aims() const { return {}; }
  // Parameters in force (the world size, the margins and the scout groups come from here)
  // and as last set (reset-only changes wait in pending_params until reset()).
  virtual const Params& params() const = 0;
  virtual const Params& pending_params() const = 0;
  // Metrics of the current state (computed in advance(), never while drawing).
  virtual const Metrics& metrics() const = 0;
  // Whether metrics() has this state's nearest-neighbour distance and clusters (they cost
  // more and are computed at most once per drawn frame); false: those fields mean nothing.
  virtual bool has_neighbour_metrics() const { return true; }
  // Where metrics() came from (link::MetricsSource): every boid of this state, a board's own
  // metrics message standing in (a partial frame, a board that sends no state), or the boids
  // that arrived of a partial frame.
  virtual link::MetricsSource metrics_source() const { return link::MetricsSource::kState; }
  virtual std::uint64_t step() const = 0;
  virtual double time() const = 0;

  // Whether the user may change parameters (a replay plays back what was recorded).
  virtual bool editable() const { return true; }
  // A live source runs by itself (a board): the window takes what came every frame, and
  // its Run/Pause asks the source to pause rather than stopping the steps.
  virtual bool live() const { return false; }
  // True once nothing more will come (the end of a replay).
  virtual bool ended() const { return false; }

  // The flock is simulated in this process: presets load into it and it can grow (the
  // largest-flock challenge: add_boids adds n boids without disturbing the others).
  virtual bool simulated_here() const { return false; }
  virtual void add_boids(std::size_t /*n*/, std::uint64_t /*seed*/) {}
  // Whether the window may record it (a replay is a recording already).
  virtual bool recordable() const { return true; }
  // A live source pauses and resumes itself on command (the window's Run/Pause and space
  // send it); accepts_commands() is false while it cannot take any (a board not connected).
  virtual bool paused() const { return false; }
  virtual void set_paused(bool /*paused*/) {}
  virtual bool accepts_commands() const { return true; }
  // A timeline to scrub (a replay), nullptr when there is none.
  virtual Timeline* timeline() { return nullptr; }
  // A board's link, stats and commands (a mirrored board), nullptr for the others.
  virtual BoardControls* board() { return nullptr; }
  // Scout group per boid in storage order (0 none, 1 right, 2 left) when the source knows
  // groups rather than ids (a board sends them); nullptr otherwise.
  virtual const std::uint8_t* groups() const { return nullptr; }
  // Whether the source has this parameter: a board may expose only some of the table (its
  // parameter set lists them); the window greys the others and never sends them.
  virtual bool has_param(std::uint16_t /*id*/) const { return true; }
  // The source's true value of a parameter when it lies outside this app's range (a board
  // that reports one): params() holds the nearest valid value, the window shows this one.
  virtual std::optional<double> outside_value(std::uint16_t /*id*/) const { return std::nullopt; }
  // What a board said it allows for a parameter ("0 to 127", from its refusal of a value);
  // nothing while it has not said (a board's range is its own, not this app's).
  virtual std::optional<std::string> board_allows(std::uint16_t /*id*/) const { return std::nullopt; }
  // A parameter change sent but not yet confirmed (a board's acknowledgement pending).
  virtual bool param_pending(std::uint16_t /*id*/) const { return false; }
  // Bumps whenever the parameters changed from the source's side (a board's parameter set
  // read back, a rejected change reverted): the sliders then show the source's values.
  virtual std::uint64_t params_revision() const { return 0; }
  // Messages for the window (a rejection and its reason, a link that dropped).
  struct Note {
    std::string text;
    bool error;
  };
  virtual std::vector<Note> take_notes() { return {}; }
  virtual void set_params(const Params& p) = 0;
  virtual void reset() = 0;
  // Moves the source on by `steps` (a simulation step, a replay frame; a live source takes
  // every frame that arrived). `each` runs after every one of them, while the source shows
  // that step (its boids, metrics, step and time), so the window plots and records every
  // step, not only the one it draws. Returns whether anything moved.
  using EachStep = std::function<void()>;
  virtual bool advance(int steps, const EachStep& each) = 0;
  bool advance(int steps) { return advance(steps, {}); }
};

// Frames in order that the user may scrub: a replay's timeline.
class Timeline {
 public:
  virtual std::size_t frames() const = 0;
  virtual std::size_t index() const = 0;
  virtual void seek(std::size_t i) = 0;
  // The parameters at the start (a local flock continues from them).
  virtual const Params& start_params() const = 0;
  // Frame i's metrics, time and step without moving there (the plots show the whole run).
  virtual const Metrics& metrics_at(std::size_t i) const = 0;
  virtual double time_at(std::size_t i) const = 0;
  virtual std::uint64_t step_at(std::size_t i) const = 0;

 protected:
  ~Timeline() = default;
};

// The flock simulated here, on the UI thread.
class LocalSource final : public BoidSource {
 public:
  explicit LocalSource(const Params& p);
  LocalSource(const Params& p, const FlockSnapshot& initial);
  const char* kind() const override { return "local"; }
  const char* title() const override { return "local flock"; }
  PointsView boids() const override { return view_of(flock_); }
  const std::uint32_t* ids() const override { return flock_.ids().data(); }
  std::span<const Predator> predators() const override { return flock_.predators(); }
  std::span<const FoodSource> food() const override { return flock_.food(); }
  std::span<const PredatorAim> predator_aims() const override { return flock_.predator_aims(); }
  const Params& params() const override { return flock_.params(); }
  const Params& pending_params() const override { return flock_.pending_params(); }
  const Metrics& metrics() const override { return metrics_; }
  std::uint64_t step() const override { return flock_.steps(); }
  double time() const override { return flock_.time(); }
  bool has_neighbour_metrics() const override { return neighbours_; }
  void set_params(const Params& p) override { flock_.set_params(p); }
  void reset() override;
  using BoidSource::advance;
  bool advance(int steps, const EachStep& each) override;
  bool simulated_here() const override { return true; }
  // Adds n boids at random places without disturbing the others.
  void add_boids(std::size_t n, std::uint64_t seed) override;
  const Flock& flock() const { return flock_; }
  void set_threads(int t) { flock_.set_threads(t); }

 private:
  void update_metrics(bool neighbours = true);
  Flock flock_;
  Metrics metrics_;
  bool neighbours_ = false;
};

// A recording played back with a timeline.
class ReplaySource final : public BoidSource, public Timeline {
 public:
  // `file`: where it was read from (shown as the source's origin).
  explicit ReplaySource(Recording rec, std::string file = {});
  const char* kind() const override { return "replay"; }
  const char* title() const override { return "replay"; }
  std::string origin() const override { return file_; }
  PointsView boids() const override;
  const std::uint32_t* ids() const override { return nullptr; }
  std::span<const Predator> predators() const override { return frame_.predators; }
  std::span<const FoodSource> food() const override { return frame_.food; }
  const Params& params() const override { return rec_.params_at(index_); }
  const Params& pending_params() const override { return params(); }
  const Metrics& metrics() const override { return frame_.metrics; }
  std::uint64_t step() const override { return frame_.step; }
  double time() const override { return frame_.time; }
  bool editable() const override { return false; }
  bool ended() const override { return rec_.frames() == 0 || index_ + 1 >= rec_.frames(); }
  bool recordable() const override { return false; }
  Timeline* timeline() override { return this; }
  void set_params(const Params&) override {}
  void reset() override { seek(0); }
  using BoidSource::advance;
  bool advance(int steps, const EachStep& each) override;

  std::size_t frames() const override { return rec_.frames(); }
  std::size_t index() const override { return index_; }
  void seek(std::size_t i) override;
  const Params& start_params() const override { return rec_.params(); }
  const Metrics& metrics_at(std::size_t i) const override { return rec_.metrics(i); }
  double time_at(std::size_t i) const override { return rec_.time(i); }
  std::uint64_t step_at(std::size_t i) const override { return rec_.step(i); }
  const Recording& recording() const { return rec_; }

 private:
  Recording rec_;
  std::string file_;
  std::size_t index_ = 0;
  RecordedFrame frame_;
};

// Metrics the window computes for a step: everything the plots need every step; the
// costlier nearest-neighbour and cluster metrics (`neighbours`: the drawn step) only while
// they stay cheap.
MetricsOptions window_metrics_options(std::size_t boids, bool neighbours = true);

}  // namespace flockscope::gui
