// BoardLink: the app's end of a board link (PROTOCOL.md sections 11 and 12).
//
// A worker thread owns the serial port (standalone asio's serial_port: the real device
// path, a /dev/serial/by-id link, or a pseudo-terminal) and does everything timing-bound:
// opening and re-opening the port, the hello handshake and its repeats, reading and
// decoding, putting chunked frames back together, and re-sending requests that were not
// acknowledged. The UI thread (or the headless mirror) only posts requests and takes whole
// events from a queue, so a slow window never stalls the link and a dead board never
// freezes the window.
//
// Port settings: raw 8N1 without flow control at 115200 baud (a CDC board ignores the rate;
// 1200 baud is never set, because that reboots a Pico into its USB bootloader), DTR and RTS
// asserted (a board treats DTR low as nobody listening).
//
// States: closed -> waiting (no port yet) -> handshake -> connected; after a lost port or a
// silent board (2 s without a valid frame): reconnecting, which re-opens every 200 ms; a
// board of another protocol version: version mismatch, with the side to update named.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "link/frame_assembler.hpp"
#include "flockscope/protocol/protocol.hpp"

namespace flockscope::link {

enum class LinkState { kClosed, kWaiting, kHandshake, kConnected, kReconnecting, kVersionMismatch };
const char* to_string(LinkState s);  // "closed", "waiting for the board", ...

struct LinkOptions {
  std::string port;                 // device path; empty: stay closed until open()
  std::string app_name = "flockscope";
  int first_hello_ms = 500;         // no board hello after this: say hello again ...
  int hello_every_ms = 1000;        // ... and then every second
  int silence_ms = 2000;            // no valid frame for this long (or three of the board's
                                    // frame times, if longer): the link is lost
  int reopen_every_ms = 200;        // how often a missing port is tried again
  int request_timeout_ms = 250;     // no ack after this plus two of the board's frame times
                                    // (a board answers between its steps): sent again ...
  int request_retries = 3;          // ... this many times, then reported unanswered
  std::size_t max_queued_frames = 90;  // frames the consumer has not taken (3 s at 30 fps) ...
  std::size_t max_queued_boids = std::size_t(1) << 20;  // ... and their boids (17 bytes each)
  std::size_t max_queued_logs = 256;   // board log lines the consumer has not taken; more are dropped
};

// Never 1200: a Pico's USB stack reboots into its bootloader at that rate.
inline constexpr unsigned kLinkBaud = 115200;
constexpr bool is_safe_baud(unsigned baud) { return baud != 1200; }

struct LinkCounters {
  protocol::DecoderStats rx;         // summed over every session of this link
  std::uint64_t bytes_tx = 0;
  AssemblerCounters frames;          // board frames: complete, partial, missed
  std::uint32_t frames_dropped = 0;  // frames the consumer did not take in time
  std::uint32_t logs_dropped = 0;    // board log lines beyond max_queued_logs (a flooding board)
  std::uint32_t sessions = 0;        // handshakes completed
  std::uint32_t reconnects = 0;      // sessions after the first
  std::uint32_t board_restarts = 0;  // board hellos in mid-session (it rebooted)
  std::uint32_t port_errors = 0;     // the port failed (unplugged, board process gone)
  std::uint32_t requests = 0, accepted = 0, rejected = 0, unanswered = 0, resent = 0;
  std::uint32_t late_acks = 0;       // acks of requests already reported unanswered
  double board_frame_ms = 0;         // the board's frame time as this app sees it (the longer
                                     // of the stats' arrival interval and their compute time)
  double last_rtt_ms = -1;           // request to ack, last parameter change
  double frames_per_s = 0, bytes_per_s = 0;  // over the last second
};

struct LinkStatus {
  LinkState state = LinkState::kClosed;
  std::string port;
  std::string detail;                // why (the OS's error, "board speaks protocol 2 ...")
  std::optional<protocol::Hello> board;  // the last board hello (its name as the bytes came)
  std::string board_name;                // that name made printable (wire_text.hpp): show this one
  LinkCounters counters;
};

// ---- events handed to the consumer, in arrival order
// A new state, or the same state with a new reason (a port that went missing, a port that
// cannot be opened: said once, not at every retry).
struct StateChanged {
  LinkState state;
  std::string detail;
  bool trouble = false;  // the link is lost, refused, or its port cannot be opened
};
struct BoardHello {
  protocol::Hello hello;
  std::string name;  // printable (wire_text.hpp)
};
struct BoardParams {  // the board's whole parameter set (after every handshake)
  std::vector<protocol::Param> params;
};
enum class Outcome { kAccepted, kRejected, kUnanswered, kNotConnected };
struct RequestDone {
  std::uint32_t request = 0;       // what change_param / command returned
  protocol::MsgType type{};        // param_change or command
  std::uint16_t subject = 0;       // parameter id or command id
  protocol::ParamValue sent{};     // the value or argument asked for
  Outcome outcome = Outcome::kNotConnected;
  protocol::Status status = protocol::Status::kOther;  // the board's answer
  protocol::ParamValue value{};    // the value in force now (rejected: the unchanged one)
  double rtt_ms = 0;               // first send to ack
  std::string reason;              // a refusal's reason: the board's log line just before the
                                   // ack ("visualRange: at most 180 px"), printable; or empty
  bool late = false;               // an ack of a request already reported unanswered (the
                                   // board applied or refused it after all): its second answer
};
struct BoardLog {
  protocol::LogLevel level;
  std::string text;  // printable (wire_text.hpp)
};
using LinkEvent = std::variant<StateChanged, BoardHello, BoardParams, RequestDone, MirroredFrame, BoardLog>;

class BoardLink {
 public:
  // Starts the worker; opens options.port when it is not empty.
  explicit BoardLink(LinkOptions options);
  ~BoardLink();
  BoardLink(const BoardLink&) = delete;
  BoardLink& operator=(const BoardLink&) = delete;

  // Switches to this port (closing any other) and keeps trying it until closed.
  void open(const std::string& port);
  void close();

  // Requests; each ends in one RequestDone with the returned number, and a request reported
  // unanswered gets a second, marked late, if the board's answer comes after all.
  std::uint32_t change_param(std::uint16_t id, protocol::ParamValue value);
  std::uint32_t command(protocol::CommandId id, std::uint32_t arg = 0);

  // Takes every queued event (never blocks).
  std::vector<LinkEvent> take_events();
  // Waits until an event is queued or the time is up; true if one is.
  bool wait_for_event(std::chrono::milliseconds timeout);
  LinkStatus status() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace flockscope::link
