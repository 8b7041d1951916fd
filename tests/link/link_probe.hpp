// A BoardLink (the app's real link code, on the real serial path) with its events kept for
// the tests to look at: state changes, the board's parameters, frames, request results.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "link/board_link.hpp"

namespace linktest {

using namespace flockscope;
using Clock = std::chrono::steady_clock;

struct Probe {
  link::BoardLink link;
  std::vector<link::StateChanged> states;
  std::optional<std::vector<protocol::Param>> params;
  std::vector<link::MirroredFrame> frames;  // every frame, in arrival order
  std::map<std::uint32_t, link::RequestDone> done;
  std::size_t keep_frames = 100000;

  explicit Probe(link::LinkOptions o) : link(std::move(o)) {}

  void pump(int ms) {
    link.wait_for_event(std::chrono::milliseconds(ms));
    for (auto& e : link.take_events()) {
      if (auto* s = std::get_if<link::StateChanged>(&e)) states.push_back(*s);
      if (auto* p = std::get_if<link::BoardParams>(&e)) params = p->params;
      if (auto* f = std::get_if<link::MirroredFrame>(&e)) {
        if (frames.size() >= keep_frames) frames.erase(frames.begin());
        frames.push_back(std::move(*f));
      }
      if (auto* d = std::get_if<link::RequestDone>(&e)) done[d->request] = *d;
    }
  }
  bool pump_until(int ms, const std::function<bool()>& pred) {
    const auto end = Clock::now() + std::chrono::milliseconds(ms);
    while (Clock::now() < end) {
      if (pred()) return true;
      pump(10);
    }
    return pred();
  }
  link::LinkState state() const { return link.status().state; }
  bool connected_with_params(int ms) {
    return pump_until(ms, [&] { return state() == link::LinkState::kConnected && params.has_value(); });
  }
  std::optional<link::RequestDone> wait_done(std::uint32_t req, int ms) {
    pump_until(ms, [&] { return done.count(req) > 0; });
    if (!done.count(req)) return std::nullopt;
    return done[req];
  }
  std::optional<double> param(std::uint16_t id) const {
    if (!params) return std::nullopt;
    for (const auto& p : *params)
      if (p.id == id) return p.value.type == protocol::ParamType::kReal ? p.value.as_real() : double(p.value.as_int());
    return std::nullopt;
  }
};

}  // namespace linktest
