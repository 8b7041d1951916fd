// The board's half of the session (PROTOCOL.md sections 10-12), one implementation for every
// board side flockscope has: our firmware's Board (firmware_pico/logic) and flockscope_link,
// the C library for firmware written by others (protocol/pico). It says hello when a host
// opens the port and answers the app's hello, checks parameter changes and sets (all or
// nothing) and acknowledges every request, keeps the streams the app chose, and moves each
// frame's output (the state in chunks, then the frame's tail) through a transmit ring that
// never blocks the frame: a frame's state that does not get out before the next frame is
// cut and counted. What the next frame's state does then is the board's choice
// (set_resume_after_cut): resume where the cut one stopped, so that over a link too slow
// for a whole frame every boid is still shown in turn (our firmware, whose own metrics
// message measures every frame), or start at its first boid, so that every frame the app
// receives whole holds one step and a cut costs one frame, not two (flockscope_link: a
// student's board sends no metrics, and the app measures what arrives).
//
// What differs from board to board is asked of its BoardSide: the parameters it has and how
// it checks and stores them, the commands beyond the session's own, how a state chunk is
// written, and what follows the state.
//
// Like the rest of the protocol: no heap, no exceptions, no C library beyond the string
// functions (the objects are checked for the Cortex-M0+ by tests/protocol). The memory is
// the owner's: the session and its ring live where the board keeps them (static memory on
// the RP2040), and a Message is never a temporary on the stack (the RP2040's is small).
//
// Sections: transport | identity, counters | BoardSide | BoardSession
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "flockscope/protocol/codec.hpp"
#include "flockscope/protocol/decoder.hpp"
#include "flockscope/protocol/messages.hpp"
#include "flockscope/protocol/refusal.hpp"

namespace flockscope::protocol {

// ---- transport: the byte stream (USB CDC, a pseudo-terminal); never blocks
class Transport {
 public:
  virtual std::size_t read(std::uint8_t* buf, std::size_t cap) = 0;       // 0: nothing now
  virtual std::size_t write(const std::uint8_t* buf, std::size_t n) = 0;  // bytes taken
  virtual bool connected() = 0;  // DTR high / someone has the port open

 protected:
  // Not virtual: a transport is never deleted through this interface, and a virtual
  // destructor would link operator delete, and with it the C library's heap, into firmware.
  ~Transport() = default;
};

// ---- identity, counters
// What the board's hello says.
struct BoardIdentity {
  Role role = Role::kBoard;
  std::uint8_t sw_major = 0, sw_minor = 1;
  std::uint16_t sw_patch = 0;
  std::uint32_t max_boids = 0;
  std::uint32_t capabilities = 0;  // cap:: bits
  const char* name = "";           // the first kMaxNameLen bytes are sent
};

// What a board counts of its side of the link (the app's link::LinkCounters counts the app's).
struct SessionCounters {
  std::uint32_t tx_dropped = 0;    // protocol frames not sent (link busy)
  std::uint32_t state_frames = 0;  // frames whose state went out completely, from boid 0
  std::uint32_t state_cut = 0;     // frames whose state was cut
  std::uint32_t requests = 0;      // requests received (parameter changes, sets, commands, unknown types)
  std::uint32_t accepted = 0;      // acks that accepted
  std::uint32_t rejected = 0;      // acks that refused
};

// ---- BoardSide: what the session asks of the board
class BoardSide {
 public:
  // The board's parameters, in ascending id: its param_set.
  virtual std::size_t param_count() const = 0;
  virtual Param param_entry(std::size_t index) const = 0;
  // Whether the board has parameter `id`; if so `value` is its value now (an ack's value).
  virtual bool param_value(std::uint16_t id, ParamValue& value) const = 0;
  // Everything a requested value must pass, nothing changed yet: the ack's status (ok,
  // ok_at_reset or the refusal) and, when accepted, the value to store. A refusal may say
  // first what the board allows (BoardSession::say_allowed_range).
  virtual Status check_param(const Param& p, double& value) = 0;
  // Stores a value check_param accepted; the ack's status (ok, ok_at_reset).
  virtual Status store_param(std::uint16_t id, double value) = 0;

  // The commands the session leaves to the board (reset, set_boid_count, predators): the
  // ack's status and value (`value` starts as int 0). unknown_id: not on this board.
  virtual Status command(CommandId /*id*/, std::uint32_t /*arg*/, ParamValue& /*value*/) {
    return Status::kUnknownId;
  }
  // After a pause or resume command (the session keeps the flag: BoardSession::paused()).
  virtual void pause_changed(bool /*paused*/) {}

  // Writes the state chunk [offset, offset + count) of frame `frame` (`total` boids) into the
  // ring (BoardSession::queue or push_frame); false when it does not fit now.
  virtual bool write_state_chunk(std::uint32_t frame, std::uint32_t total, std::uint32_t offset,
                                 std::uint16_t count) = 0;
  // What follows a frame's state (predators, metrics, stats, as the streams ask): once per
  // frame output, in a session.
  virtual void write_frame_tail() = 0;

 protected:
  ~BoardSide() = default;
};

// ---- BoardSession
class BoardSession {
 public:
  // `ring`: the transmit ring's memory (the owner's); state chunks are queued only while
  // `reserve` bytes beyond a whole chunk stay free in it, for acks, logs and the tail.
  BoardSession(BoardSide& side, std::span<std::uint8_t> ring, std::size_t reserve);
  void set_identity(const BoardIdentity& identity) { identity_ = identity; }

  // -- input
  // Notices a host opening the port (a 0x00 closes whatever it holds, then hello) or closing
  // it (silent until the next hello), then reads what the host sent, at most about `budget`
  // bytes so that a flood cannot stall the frame, and handles it. `now_us` clocks the
  // refusals' reasons. Returns the bytes read.
  std::size_t read_requests(Transport& io, std::uint64_t now_us, std::size_t budget);
  // Handles one message as if it had arrived.
  void handle(const Message& m);

  // -- a frame's output
  // Cuts what is left of the previous frame's state (counted in tx_dropped; the next frame's
  // state resumes there) and sends its tail if it has not gone yet. Call before the next
  // frame's output begins.
  void close_frame_output();
  // The frame's output: its state (with_state: `total` boids in chunks, as pump finds room;
  // no boids is one chunk of count 0), then its tail. Call in a session only.
  void begin_frame_output(std::uint32_t frame, std::uint32_t total, bool with_state);
  // Drains the ring into the link and refills it with state chunks while a whole chunk fits.
  // true when it did something.
  bool pump(Transport& io);
  // A new flock: the next frame's state starts at boid 0, not where a cut left the last one.
  void restart_state() { resume_at_ = 0; }
  // Whether a frame's state after a cut resumes where the cut stopped (the default) or
  // starts at its first boid.
  void set_resume_after_cut(bool resume) { resume_after_cut_ = resume; }

  // -- sending (for the board's own messages)
  // The outgoing message, built in place: type and version set, the rest left as it was.
  Message& begin_message(MsgType type);
  // Encodes m into the ring; when it does not fit, counted as dropped. false: not sent.
  bool send(Message& m);
  // Encodes m into the ring if it fits (a state chunk: its frame's cut counts what is lost).
  bool queue(Message& m);
  // A frame the board wrote itself (write_frame_header, ...): raw[0, n) is header and
  // payload plus 4 bytes for the CRC. Stuffed straight into the ring where its free space
  // does not wrap. false when it does not fit.
  bool push_frame(std::uint8_t* raw, std::size_t n);
  std::uint16_t take_seq() { return encoder_.take_seq(); }
  std::size_t ring_free() const { return ring_.size() - ring_used_; }
  // A line for the app's log (dropped when nobody listens).
  void log(LogLevel level, const char* text);
  // Before a refusal's ack (from BoardSide::check_param): what the board allows, on the log
  // (PROTOCOL.md 12), at most 4 lines a second. Inline so that its snprintf is compiled with
  // the board's code, not into the protocol's objects.
  void say_allowed_range(const char* name, double lo, double hi) {
    if (!reasons_.allow(now_us_)) return;
    char line[kReasonLineSize];
    format_allowed_range(line, name, lo, hi);
    log(LogLevel::kWarn, line);
  }

  // -- state
  bool connected() const { return connected_; }  // a host has the port
  bool in_session() const { return in_session_; }  // ... and said hello
  std::uint32_t streams() const { return streams_; }
  bool paused() const { return paused_; }
  bool tail_pending() const { return tail_pending_; }  // the frame output's tail not yet sent
  // Bytes wait in the ring, or state chunks to be written into it: pump has work when the
  // link takes bytes.
  bool output_waiting() const { return ring_used_ > 0 || out_pending_; }
  std::uint32_t output_frame() const { return out_frame_; }  // the frame whose output is being sent
  const SessionCounters& counters() const { return counters_; }
  const DecoderStats& rx_stats() const { return decoder_.stats(); }

 private:
  void check_connection(Transport& io);
  void send_hello();
  void send_param_set();
  void ack(const Message& req, Status st, std::uint16_t subject, ParamValue v);
  ParamValue value_of(std::uint16_t id) const;
  void change_param(const Message& m);
  void set_params(const Message& m);
  void run_command(const Message& m);
  void finish_frame_output();
  bool drain(Transport& io);
  std::size_t ring_tail() const;
  void ring_push(const std::uint8_t* p, std::size_t n);

  BoardSide& side_;
  BoardIdentity identity_{};
  std::span<std::uint8_t> ring_;
  std::size_t reserve_;
  std::size_t ring_head_ = 0, ring_used_ = 0;
  StaticDecoder<> decoder_;
  Encoder encoder_;
  Message rx_{};
  Message tx_{};
  std::uint8_t wire_[kMaxWireSize] = {};
  double staged_[kMaxParamsPerFrame] = {};  // a param_set's checked values, stored once all pass

  bool connected_ = false, in_session_ = false, paused_ = false;
  std::uint32_t streams_ = 0;
  std::uint64_t now_us_ = 0;
  ReasonRateLimit reasons_;
  // The frame whose output is being sent.
  bool out_pending_ = false, tail_pending_ = false;
  std::uint32_t out_frame_ = 0, out_total_ = 0, out_next_ = 0, resume_at_ = 0;
  bool resume_after_cut_ = true;
  bool out_from_start_ = false;  // this frame's state began at boid 0 (a whole frame if it all goes)
  SessionCounters counters_;
};

}  // namespace flockscope::protocol
