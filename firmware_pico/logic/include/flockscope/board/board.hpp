// The board: flock + link + pacing, the same on the RP2040 and in the virtual board.
//
// A frame, as both platforms run it:
//   deadline = board.frame_start(io, now)     requests read, validated, applied, acknowledged;
//                                             the previous frame's output closed
//   board.flock().begin_step(); update(...)   on one or two cores (skipped while paused:
//   board.flock().end_step();                 board.running())
//   board.frame_end(now, compute_us)          metrics, stats, predators and state queued
//   while (now < deadline) board.pump(io)     output drains; state chunks are encoded as
//                                             the transmit ring frees up
//
// Link policy (PROTOCOL.md sections 10/11): all boids every frame while the link keeps up.
// When it does not, a frame's state is cut at the next frame boundary (the chunks not sent
// count in stats.tx_dropped) and the next frame's state resumes at the cut, runs to the end,
// and the one after starts again at 0: every boid still reaches the app every few frames,
// each chunk ascending within its frame, and metrics + stats still go out every frame.
// The session itself (handshake, requests and acks, streams, the transmit ring and the cut)
// is protocol::BoardSession, shared with flockscope_link (protocol/pico); the Board is its
// BoardSide: the parameters, the commands, the state chunks and the frame's tail.
//
// Sections: transport | config | Board
#pragma once

#include <cstddef>
#include <cstdint>

#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/board_params.hpp"
#include "flockscope/board/pacing.hpp"
#include "flockscope/protocol/board_session.hpp"
#include "flockscope/protocol/protocol.hpp"

namespace flockscope::board {

// ---- transport: the byte stream (USB CDC, a pseudo-terminal); never blocks
using Transport = protocol::Transport;

// ---- config
struct BoardConfig {
  protocol::Role role = protocol::Role::kBoard;
  const char* name = "pico-vga";
  BoardLimits limits{};
  std::uint32_t period_us = 33333;  // 30 fps
  std::uint64_t seed = 1;
  // 0: spawn until the frame budget is used (the lab); otherwise this many boids.
  std::uint32_t boids = 0;
  AutoSpawn::Config spawn{};
};

inline constexpr std::uint8_t kSwMajor = 0, kSwMinor = 1;
inline constexpr std::uint16_t kSwPatch = 0;
inline constexpr std::size_t kTxRing = 8192;
// The boids the metrics message covers while the state stream is on (then the app has every
// boid); with it off the message covers all of them.
inline constexpr std::uint32_t kMetricsSample = 128;

// What the board counts of its side of the link (the app's link::LinkCounters counts the
// app's).
using BoardLinkCounters = protocol::SessionCounters;

// ---- Board
class Board final : private protocol::BoardSide {
 public:
  Board(const BoardConfig& config, const FlockBuffers& buffers);

  std::uint64_t frame_start(Transport& io, std::uint64_t now_us);
  void frame_end(std::uint64_t now_us, std::uint32_t compute_us);
  void pump(Transport& io);

  BoardFlock& flock() { return flock_; }
  const BoardFlock& flock() const { return flock_; }
  const ParamStore& params() const { return params_; }
  const FramePacer& pacer() const { return pacer_; }
  bool running() const { return !link_.paused(); }
  bool session() const { return link_.in_session(); }
  std::uint32_t elapsed_ms() const { return std::uint32_t(elapsed_us_ / 1000); }
  const BoardLinkCounters& counters() const { return link_.counters(); }
  const protocol::DecoderStats& rx_stats() const { return link_.rx_stats(); }
  std::uint32_t streams() const { return link_.streams(); }
  bool output_waiting() const { return link_.output_waiting(); }  // pump has bytes to move

  // Local changes (the virtual board's --preset): validated like a request.
  protocol::Status set_param(std::uint16_t id, const protocol::ParamValue& v);
  // Respawns from the pending parameters with this seed (the reset command).
  void reset(std::uint64_t seed);
  // A line for the app's log (the log stream), e.g. the board's cycle counts.
  void log(protocol::LogLevel level, const char* text) { link_.log(level, text); }

  // After frame_end: whether this frame's output has a metrics message still to write (a
  // session with the metrics stream on, the frame's tail not yet sent); `sample` is then
  // BoardFlock::metrics()'s argument for it (kMetricsSample with the state stream on, 0:
  // every boid).
  bool metrics_to_come(std::uint32_t& sample) const { return link_.tail_pending() && metrics_wanted(sample); }
  // Where that message's numbers come from: by default BoardFlock::metrics(), computed when
  // the message is written; the two-core firmware has core 1 compute them after frame_end
  // while core 0 sends the state, and hands them over here. The state is the one the
  // frame's output sends (it does not change before the next step).
  using MetricsSource = FlockMetrics (*)(const BoardFlock& flock, std::uint32_t sample);
  void set_metrics_source(MetricsSource source) { metrics_source_ = source; }

  // Handles one message as if it had arrived (tests, the firmware's measurement).
  void handle(const protocol::Message& m) { link_.handle(m); }
  // Runs one whole frame on the calling thread (the host and single-core builds).
  std::uint64_t run_frame(Transport& io, std::uint64_t (*now_us)());

 private:
  // protocol::BoardSide
  std::size_t param_count() const override { return kParamCount; }
  protocol::Param param_entry(std::size_t index) const override;
  bool param_value(std::uint16_t id, protocol::ParamValue& value) const override;
  protocol::Status check_param(const protocol::Param& p, double& value) override;
  protocol::Status store_param(std::uint16_t id, double value) override { return params_.store(id, value); }
  protocol::Status command(protocol::CommandId id, std::uint32_t arg, protocol::ParamValue& value) override;
  bool write_state_chunk(std::uint32_t frame, std::uint32_t total, std::uint32_t offset, std::uint16_t count) override;
  void write_frame_tail() override;

  void reset_flock(std::uint64_t seed);
  bool metrics_wanted(std::uint32_t& sample) const;  // the metrics message and its sample

  BoardConfig cfg_;
  ParamStore params_;
  BoardFlock flock_;
  FramePacer pacer_;
  AutoSpawn spawn_;
  alignas(4) std::uint8_t raw_[protocol::kMaxFrameSize] = {};  // a state chunk before stuffing
  std::uint8_t ring_[kTxRing] = {};
  protocol::BoardSession link_{*this, ring_, 512};  // 512: room for acks and the frame's tail

  std::uint32_t params_version_ = 0;
  std::uint64_t last_start_ = 0, elapsed_us_ = 0;
  std::uint32_t compute_us_ = 0;
  bool out_groups_ = false;  // the state being sent carries scout groups
  MetricsSource metrics_source_ = nullptr;
};

}  // namespace flockscope::board
