// The board's frames put back together. A board frame arrives as flock_state chunks
// (ascending offsets), then predators, metrics and stats, all stamped with the frame
// number (PROTOCOL.md section 10). The assembler keeps one display copy of the flock: a
// chunk that never arrives leaves the previous positions of its boids in place (the frame
// is then "partial"), so a lost chunk never stalls or blanks the mirror. Boids whose state
// never arrived at all are left out of a partial frame (they have no position), so a
// partial frame is never larger than the complete one, and never costs more to measure.
// A partial frame is measured over the boids whose state came in that frame (or the board's
// own metrics stand in), never over the older positions it shows.
//
// The board's hello announces its capacity (`max_boids`); a chunk claiming a larger flock
// is a protocol error: it is counted and its whole frame dropped, so what a board can make
// the app hold is bounded by what it announced, and that by kMaxBoardBoids.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/metrics.hpp"
#include "flockscope/protocol/messages.hpp"

namespace flockscope::link {

struct MirroredFrame {
  std::uint32_t frame = 0;             // the board's frame number
  std::vector<float> x, y, vx, vy;     // px, px/frame, in the board's order
  std::vector<std::uint8_t> groups;    // scout group per boid; empty if the board sends none
  std::vector<std::uint8_t> fresh;     // a partial frame's: per boid, 1 if its state came in
                                       // this frame (older positions are 0); empty when complete
  std::vector<Predator> predators;
  // The lab's extensions (the board's surroundings message; empty from a board without them):
  // the food sources (positions; velocities 0) and each predator's aim.
  std::vector<FoodSource> food;
  std::vector<PredatorAim> aims;
  bool state_complete = false;         // every chunk of this frame arrived
  bool has_metrics = false, has_stats = false;
  protocol::BoardMetrics metrics{};
  protocol::Stats stats{};
  std::size_t size() const { return x.size(); }
};

// The most boids the app mirrors, whatever a board announces (the Pico's target is 4,000;
// the virtual board's limit is 65,535).
inline constexpr std::uint32_t kMaxBoardBoids = 65535;

struct AssemblerCounters {
  std::uint32_t frames = 0;           // frames handed on
  std::uint32_t complete = 0;         // ... with every boid's state
  std::uint32_t partial = 0;          // ... with some chunks missing (shown with older positions)
  std::uint32_t missed = 0;           // frame numbers never seen at all
  std::uint32_t discontinuities = 0;  // frame numbers going backwards (a board reset or restart)
  std::uint32_t bad_chunks = 0;       // chunks inconsistent with their frame, dropped
  std::uint32_t over_capacity = 0;    // frames dropped: a chunk claimed more boids than the capacity
  std::uint32_t repeated = 0;         // the same frame number again (a paused board)
};

// The frame's boids, food sources and predators.
inline PointsView view_of(const MirroredFrame& f) {
  return {f.x.data(), f.y.data(), f.vx.data(), f.vy.data(), f.size(), f.food, f.predators};
}

// Where a frame's metrics come from (metrics.csv's `source`):
//   state    every boid of the frame arrived: computed from all of them;
//   board    the state is partial or off, and the board's own metrics message stands in for
//            the diameter, centroid, polarisation and mean speed;
//   partial  the state is partial and the board sent no metrics (a student's firmware through
//            the drop-in link): computed from the boids whose state came in this frame.
enum class MetricsSource { kState, kBoard, kPartial };
const char* to_string(MetricsSource s);  // "state", "board", "partial"
inline MetricsSource metrics_source(const MirroredFrame& f) {
  if (f.state_complete) return MetricsSource::kState;
  return f.has_metrics ? MetricsSource::kBoard : MetricsSource::kPartial;
}
// Whether a frame's metrics come from its whole state (the plots shade the others).
inline bool metrics_from_state(const MirroredFrame& f) { return metrics_source(f) == MetricsSource::kState; }

// How many boids a frame's diameter, polarisation and mean speed were computed over: all of
// the frame's (state), the count the board's metrics message names (board: every boid when
// the board streams no state, a sample beside a state stream), or the boids that arrived
// in the frame (partial).
std::size_t metrics_boids(const MirroredFrame& f);

// The metrics table of a mirrored frame (the columns of `flockscope run`), by its source
// (above). With the board's metrics standing in, the columns the board does not compute come
// from the boids, predators and food sources the mirror holds (food_distance stays empty
// for a board that sends no food sources).
Metrics metrics_of(const MirroredFrame& f, double cluster_radius, const MetricsOptions& opt = {});

class FrameAssembler {
 public:
  using Emit = std::function<void(const MirroredFrame&)>;
  // Takes one message; calls emit for every frame it finishes (a frame is finished by its
  // stats, or by the first message of a later frame when its stats were lost). Messages
  // without a frame number are ignored.
  void add(const protocol::Message& m, const Emit& emit);
  // A new session: forget the partial frame and the frame numbering (the display copy stays).
  void restart();
  // The board's announced capacity (its hello's max_boids), at most kMaxBoardBoids.
  void set_capacity(std::uint32_t max_boids);
  std::uint32_t capacity() const { return capacity_; }
  const AssemblerCounters& counters() const { return counters_; }

 private:
  void begin(std::uint32_t frame, const Emit& emit);
  void finish(const Emit& emit);

  MirroredFrame cur_;
  MirroredFrame known_only_;           // a partial frame without the boids never received
  std::vector<std::uint8_t> known_;    // per slot of cur_: its state has arrived at least once
  std::vector<std::uint8_t> fresh_;    // per slot of cur_: its state arrived in this frame
  std::uint32_t capacity_ = kMaxBoardBoids;
  bool open_ = false;
  bool over_capacity_ = false;         // this frame is dropped
  std::uint32_t received_ = 0, next_offset_ = 0;
  bool contiguous_ = true;
  bool have_last_ = false;
  std::uint32_t last_emitted_ = 0;
  AssemblerCounters counters_;
};

}  // namespace flockscope::link
