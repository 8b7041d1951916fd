// The board's frames put back together. A board frame arrives as flock_state chunks
// (ascending offsets), then predators, metrics and stats, all stamped with the frame
// number (PROTOCOL.md section 10). The assembler keeps one display copy of the flock: a
// chunk that never arrives leaves the previous positions of its boids in place (the frame
// is then "partial"), so a lost chunk never stalls or blanks the mirror. Boids whose state
// never arrived at all are left out of a partial frame (they have no position), so a
// partial frame is never larger than the complete one, and never costs more to measure.
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
  std::vector<Predator> predators;
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

// The frame's boids and predators (a board has no food sources).
inline PointsView view_of(const MirroredFrame& f) {
  return {f.x.data(), f.y.data(), f.vx.data(), f.vy.data(), f.size(), {}, f.predators};
}

// Whether a frame's metrics come from its state: every boid of the frame arrived, or the
// board sent no metrics of its own to stand in for a partial state.
inline bool metrics_from_state(const MirroredFrame& f) { return f.state_complete || !f.has_metrics; }

// How many boids a frame's diameter, polarisation and mean speed were computed over: all of
// the frame's when they come from its state, else the count the board's metrics message
// names (every boid when the board streams no state, a sample beside a state stream).
inline std::size_t metrics_boids(const MirroredFrame& f) {
  return metrics_from_state(f) ? f.size() : std::size_t(f.metrics.boids);
}

// The metrics table of a mirrored frame (the columns of `flockscope run`), computed from all
// of its boids when the frame is complete. Otherwise (the state stream off, a chunk lost)
// the board's own diameter, centroid, polarisation and mean speed stand in for them, and the
// others, which the board does not compute, come from the boids and predators the mirror
// holds (food_distance stays empty: a board has no food sources).
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
