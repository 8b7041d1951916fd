// The test side of a board link on a serial device (a pseudo-terminal): raw mode, the
// protocol decoder, helpers that wait for messages. Shared by the virtual board and the
// emulator tests.
#pragma once

#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <poll.h>
#include <string>
#include <termios.h>
#include <unistd.h>
#include <vector>

#include "flockscope/protocol/protocol.hpp"

namespace vbtest {

namespace proto = flockscope::protocol;

class Client {
 public:
  explicit Client(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (fd_ >= 0) {
      termios t{};
      if (tcgetattr(fd_, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(fd_, TCSANOW, &t);
      }
      const std::uint8_t z = 0;  // close whatever partial frame the board holds
      (void)::write(fd_, &z, 1);
    }
  }
  ~Client() { close_port(); }
  bool ok() const { return fd_ >= 0; }
  void close_port() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  std::uint16_t send(proto::Message m) {
    std::uint8_t wire[proto::kMaxWireSize];
    const std::uint16_t seq = enc_.next_seq();
    const std::size_t n = enc_.encode(m, wire);
    write_raw(std::vector<std::uint8_t>(wire, wire + n));
    return seq;
  }
  void write_raw(const std::vector<std::uint8_t>& b) {
    std::size_t off = 0;
    for (int tries = 0; off < b.size() && tries < 1000; ++tries) {
      const ssize_t w = ::write(fd_, b.data() + off, b.size() - off);
      if (w > 0) off += std::size_t(w);
      else {
        pollfd p{fd_, POLLOUT, 0};
        ::poll(&p, 1, 5);
      }
    }
  }

  // Reads for up to ms milliseconds, or until pred() holds.
  template <class Pred>
  bool pump_until(int ms, Pred pred) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < end) {
      if (pred()) return true;
      pollfd p{fd_, POLLIN, 0};
      ::poll(&p, 1, 10);
      std::uint8_t buf[4096];
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n <= 0) continue;
      bytes_ += std::size_t(n);
      std::span<const std::uint8_t> in(buf, std::size_t(n));
      while (dec_.next(in, *scratch_)) on_message(*scratch_);
    }
    return pred();
  }
  void pump_for(int ms) {
    pump_until(ms, [] { return false; });
  }
  bool wait_for(proto::MsgType t, int ms) {
    return pump_until(ms, [&] { return seen(t); });
  }
  const proto::Message* wait_ack(std::uint16_t seq, int ms) {
    const proto::Message* found = nullptr;
    pump_until(ms, [&] {
      for (const auto& m : got_)
        if (m->type == proto::MsgType::kAck && m->ack.ref_seq == seq) found = m.get();
      return found != nullptr;
    });
    return found;
  }
  bool wait_complete_frames(std::size_t n, int ms) {
    return pump_until(ms, [&] { return complete_ >= n; });
  }

  bool seen(proto::MsgType t) const {
    for (const auto& m : got_)
      if (m->type == t) return true;
    return false;
  }
  const proto::Message& last(proto::MsgType t) const {
    for (auto it = got_.rbegin(); it != got_.rend(); ++it)
      if ((*it)->type == t) return **it;
    static proto::Message none{};
    return none;
  }
  void clear() {
    got_.clear();
    complete_ = 0;
    bytes_ = 0;
  }
  std::size_t complete_frames() const { return complete_; }
  std::size_t bytes() const { return bytes_; }
  const proto::DecoderStats& stats() const { return dec_.stats(); }

 private:
  void on_message(const proto::Message& m) {
    if (m.type == proto::MsgType::kFlockState) {
      const auto& s = m.flock_state;
      // A frame is complete when its chunks arrived contiguously from 0 to total.
      if (s.offset == 0) {
        cur_frame_ = s.frame, next_off_ = 0;
      }
      if (s.frame == cur_frame_ && s.offset == next_off_) {
        next_off_ += s.count;
        if (next_off_ == s.total) ++complete_;
      }
      return;  // not kept: thousands of them
    }
    if (got_.size() > 4000) got_.erase(got_.begin(), got_.begin() + 2000);
    got_.push_back(std::make_unique<proto::Message>(m));
  }

  int fd_ = -1;
  proto::Encoder enc_;
  proto::StaticDecoder<> dec_;
  std::unique_ptr<proto::Message> scratch_ = std::make_unique<proto::Message>();
  std::vector<std::unique_ptr<proto::Message>> got_;
  std::size_t complete_ = 0, bytes_ = 0;
  std::uint32_t cur_frame_ = 0xFFFFFFFF, next_off_ = 0;
};

}  // namespace vbtest
