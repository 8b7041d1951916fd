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
//
// Sections: transport | config | Board
#pragma once

#include <cstddef>
#include <cstdint>

#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/board_params.hpp"
#include "flockscope/board/pacing.hpp"
#include "flockscope/protocol/protocol.hpp"
#include "flockscope/protocol/refusal.hpp"

namespace flockscope::board {

// ---- transport: the byte stream (USB CDC, a pseudo-terminal); never blocks
class Transport {
 public:
  virtual ~Transport() = default;
  virtual std::size_t read(std::uint8_t* buf, std::size_t cap) = 0;          // 0: nothing now
  virtual std::size_t write(const std::uint8_t* buf, std::size_t n) = 0;     // bytes taken
  virtual bool connected() = 0;  // DTR high / someone has the port open
};

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
struct BoardLinkCounters {
  std::uint32_t tx_dropped = 0;      // protocol frames not sent (link busy)
  std::uint32_t state_frames = 0;    // frames whose state went out completely
  std::uint32_t state_cut = 0;       // frames whose state was cut
  std::uint32_t requests = 0, acks = 0;
};

// ---- Board
class Board {
 public:
  Board(const BoardConfig& config, const FlockBuffers& buffers);

  std::uint64_t frame_start(Transport& io, std::uint64_t now_us);
  void frame_end(std::uint64_t now_us, std::uint32_t compute_us);
  void pump(Transport& io);

  BoardFlock& flock() { return flock_; }
  const BoardFlock& flock() const { return flock_; }
  const ParamStore& params() const { return params_; }
  const FramePacer& pacer() const { return pacer_; }
  bool running() const { return !paused_; }
  bool session() const { return session_; }
  std::uint32_t elapsed_ms() const { return std::uint32_t(elapsed_us_ / 1000); }
  const BoardLinkCounters& counters() const { return counters_; }
  const protocol::DecoderStats& rx_stats() const { return decoder_.stats(); }
  std::uint32_t streams() const { return streams_; }

  // Local changes (the virtual board's --preset): validated like a request.
  protocol::Status set_param(std::uint16_t id, const protocol::ParamValue& v);
  // Respawns from the pending parameters with this seed (the reset command).
  void reset(std::uint64_t seed);
  // A line for the app's log (the log stream), e.g. the board's cycle counts.
  void log(protocol::LogLevel level, const char* text);

  // After frame_end: whether this frame's output has a metrics message still to write (a
  // session with the metrics stream on, the frame's tail not yet sent); `sample` is then
  // BoardFlock::metrics()'s argument for it (kMetricsSample with the state stream on, 0:
  // every boid).
  bool metrics_to_come(std::uint32_t& sample) const { return tail_pending_ && metrics_wanted(sample); }
  // Where that message's numbers come from: by default BoardFlock::metrics(), computed when
  // the message is written; the two-core firmware has core 1 compute them after frame_end
  // while core 0 sends the state, and hands them over here. The state is the one the
  // frame's output sends (it does not change before the next step).
  using MetricsSource = FlockMetrics (*)(const BoardFlock& flock, std::uint32_t sample);
  void set_metrics_source(MetricsSource source) { metrics_source_ = source; }

  // Handles one message as if it had arrived (tests; frame_start calls it).
  void handle(const protocol::Message& m);
  // Runs one whole frame on the calling thread (the host and single-core builds).
  std::uint64_t run_frame(Transport& io, std::uint64_t (*now_us)());

 private:
  void reset_flock(std::uint64_t seed);
  void send(protocol::Message& m);  // encode into the ring (counted as dropped if no room)
  void send_hello();
  void send_param_set();
  void ack(const protocol::Message& req, protocol::Status st, std::uint16_t subject, protocol::ParamValue v);
  void handle_command(const protocol::Message& m);
  void close_frame_output();
  void send_tail();
  bool metrics_wanted(std::uint32_t& sample) const;  // the metrics message and its sample
  bool encode_next_chunk();
  std::size_t ring_free() const { return kTxRing - ring_used_; }
  void ring_push(const std::uint8_t* p, std::size_t n);

  BoardConfig cfg_;
  ParamStore params_;
  BoardFlock flock_;
  FramePacer pacer_;
  AutoSpawn spawn_;
  protocol::StaticDecoder<> decoder_;
  protocol::Encoder encoder_;
  protocol::Message msg_{};    // scratch for outgoing messages
  protocol::Message rx_msg_{}; // scratch for incoming ones
  std::uint8_t wire_[protocol::kMaxWireSize] = {};
  alignas(4) std::uint8_t raw_[protocol::kMaxFrameSize] = {};  // a state chunk before stuffing
  std::uint8_t ring_[kTxRing] = {};
  std::size_t ring_head_ = 0, ring_used_ = 0;

  bool connected_ = false, session_ = false, paused_ = false;
  std::uint32_t streams_ = 0;
  std::uint32_t params_version_ = 0;
  std::uint64_t last_start_ = 0, elapsed_us_ = 0;
  protocol::ReasonRateLimit reasons_;  // clocked by frame starts (last_start_)
  std::uint32_t compute_us_ = 0;
  // The frame whose output is being sent.
  bool out_pending_ = false, tail_pending_ = false;
  std::uint32_t out_frame_ = 0, out_total_ = 0, out_next_ = 0, resume_at_ = 0;
  bool out_groups_ = false;
  MetricsSource metrics_source_ = nullptr;
  BoardLinkCounters counters_;
};

}  // namespace flockscope::board
