#include "serial_source.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "link/wire_params.hpp"

namespace flockscope::gui {

namespace {
link::LinkOptions with_port(link::LinkOptions o, const std::string& port) {
  o.port = port;
  return o;
}
}  // namespace

SerialSource::SerialSource(const std::string& port, const Params& shown, link::LinkOptions options)
    : port_(port), link_(with_port(std::move(options), port)), board_(shown), requested_(shown) {}

std::vector<BoidSource::Note> SerialSource::take_notes() {
  std::vector<Note> out;
  out.swap(notes_);
  return out;
}

std::optional<std::string> SerialSource::board_allows(std::uint16_t id) const {
  const auto it = allows_.find(id);
  if (it == allows_.end()) return std::nullopt;
  return it->second;
}

std::optional<double> SerialSource::outside_value(std::uint16_t id) const {
  const auto it = outside_.find(id);
  if (it == outside_.end()) return std::nullopt;
  return it->second;
}

// The board's value of a parameter: in force unless it lies outside this app's range, then
// the nearest valid one, with the true value kept for the window to show.
void SerialSource::board_value(const ParamDef& def, double v) {
  if (!set_param(board_, def, v)) {
    outside_.erase(def.id);
  } else {
    (void)set_param(board_, def, std::clamp(v, def.min, def.max));
    outside_[def.id] = v;
  }
}

void SerialSource::set_params(const Params& p) {
  if (!connected()) return;
  for (const ParamDef& d : param_table()) {
    const double v = get_param(p, d);
    if (v == get_param(requested_, d)) continue;
    if (!on_board_.count(d.id)) continue;  // not on this board: never sent
    if (set_param(requested_, d, v)) continue;  // the table refuses it: never sent
    outside_.erase(d.id);  // an in-range value asked for; the ack brings the board's answer
    const std::uint32_t r = link_.change_param(d.id, link::to_wire(d, v));
    pending_[r] = {d.id, {}};
    ++pending_ids_[d.id];
  }
}

void SerialSource::reset() {
  if (!connected()) return;
  const auto r = link_.command(protocol::CommandId::kReset, std::uint32_t(requested_.seed));
  pending_[r] = {0, protocol::CommandId::kReset};
}

void SerialSource::set_paused(bool paused) {
  const auto id = paused ? protocol::CommandId::kPause : protocol::CommandId::kResume;
  pending_[link_.command(id)] = {0, id};
}

void SerialSource::set_boid_count(std::uint32_t n) {
  pending_[link_.command(protocol::CommandId::kSetBoidCount, n)] = {0, protocol::CommandId::kSetBoidCount};
}

void SerialSource::set_predators(bool on) {
  pending_[link_.command(protocol::CommandId::kPredators, on ? 1 : 0)] = {0, protocol::CommandId::kPredators};
}

bool SerialSource::advance(int, const EachStep& each) {
  std::vector<link::LinkEvent> events = link_.take_events();
  std::size_t newest = events.size();
  for (std::size_t i = 0; i < events.size(); ++i)
    if (std::holds_alternative<link::MirroredFrame>(events[i])) newest = i;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (auto* f = std::get_if<link::MirroredFrame>(&events[i])) {
      show_frame(std::move(*f), i == newest);  // the drawn frame also gets the neighbour metrics
      if (each) each();
    } else {
      on_event(events[i]);
    }
  }
  return newest < events.size();
}

void SerialSource::show_frame(link::MirroredFrame&& f, bool neighbours) {
  frame_ = std::move(f);
  // No group bits from this board: every boid plain (board order is not id order, so the
  // window must not colour scouts by slot).
  if (frame_.groups.size() != frame_.size()) frame_.groups.assign(frame_.size(), 0);
  // The board's boid count as its stats give it (it may spawn or drop boids by itself): the
  // boids slider shows the count the stats show.
  if (frame_.has_stats && have_params_ && std::int64_t(frame_.stats.boid_count) != board_.boids) {
    board_.boids = requested_.boids = std::int64_t(frame_.stats.boid_count);
    ++revision_;
  }
  const MetricsOptions o = window_metrics_options(frame_.size(), neighbours);
  metrics_ = link::metrics_of(frame_, cluster_radius(board_), o);
  neighbours_ = o.nearest_neighbour;
}

void SerialSource::on_event(link::LinkEvent& e) {
  if (auto* s = std::get_if<link::StateChanged>(&e)) {
    state_ = s->state;
    if (s->state != link::LinkState::kConnected) have_params_ = false;
    note(std::string("board link: ") + link::to_string(s->state) + " (" + s->detail + ")", s->trouble);
  } else if (auto* p = std::get_if<link::BoardParams>(&e)) {
    std::vector<link::FlaggedParam> flagged;
    outside_.clear();
    board_ = link::params_from_wire(p->params, board_, &flagged, &outside_);
    on_board_.clear();
    for (const protocol::Param& w : p->params) on_board_.insert(w.id);
    requested_ = board_;
    pending_ids_.clear();
    have_params_ = true;
    ++revision_;
    if (!flagged.empty()) note("the board reports values outside this app's ranges: " + link::describe(flagged), true);
  } else if (auto* d = std::get_if<link::RequestDone>(&e)) {
    on_done(*d);
  } else if (auto* l = std::get_if<link::BoardLog>(&e)) {
    if (l->level >= protocol::LogLevel::kWarn) note("board: " + l->text, true);
  }
}

void SerialSource::on_done(const link::RequestDone& d) {
  const std::string& log = d.reason;  // the board's log line just before its ack
  const auto it = pending_.find(d.request);
  if (it == pending_.end()) {
    if (d.late) on_late(d);
    return;
  }
  const Sent sent = it->second;
  pending_.erase(it);
  if (sent.id != 0) {
    if (--pending_ids_[sent.id] <= 0) pending_ids_.erase(sent.id);
    const ParamDef* def = find_param(sent.id);
    if (!def) return;
    const std::string name(def->name);
    const auto in_force = link::from_wire(*def, d.value);
    switch (d.outcome) {
      case link::Outcome::kAccepted:
        if (auto f = link::flag_reported(*def, d.value)) {
          // Shown as the board sent it, never taken silently (a NaN is not an acknowledgement).
          note("the board acknowledged " + name + " with " + link::describe_wire(d.value) + " (" + f->why + ")", true);
          if (!f->usable) break;
        }
        if (in_force && d.status == protocol::Status::kOk) board_value(*def, *in_force);
        return;  // ok_at_reset: in force after the next reset; the slider already shows it
      case link::Outcome::kRejected: {
        // What the board allows: its own words when its log just named this parameter
        // ("visualRange: this board allows 0 to 127"), else what the status implies.
        std::string why = link::describe_status(d.status);
        if (log.starts_with(name + ": ")) {
          why += ": " + log.substr(name.size() + 2);
          constexpr std::string_view kAllows = "this board allows ";
          if (const auto at = log.find(kAllows); at != std::string::npos) allows_[sent.id] = log.substr(at + kAllows.size());
        }
        else if (d.status == protocol::Status::kOutOfRange)
          why += ": the board's limit is narrower than this app's " + describe_range(*def);
        note("the board refused " + name + " = " + link::describe_wire(d.sent) + " (" + why + "); it keeps " +
                 link::describe_wire(d.value),
             true);
        if (in_force) board_value(*def, *in_force);
        break;
      }
      case link::Outcome::kUnanswered: note("the board did not acknowledge " + name + "; back to its value", true); break;
      case link::Outcome::kNotConnected: note(name + " not sent: the board is not connected", true); break;
    }
    // Not taken: the slider shows the board's value again (unless a newer change is in flight).
    if (!pending_ids_.count(sent.id)) {
      (void)set_param(requested_, *def, get_param(board_, *def));
      ++revision_;
    }
    return;
  }
  if (d.outcome != link::Outcome::kAccepted) {
    note(std::string("board command failed: ") +
             (d.outcome == link::Outcome::kRejected ? link::describe_status(d.status) : "no answer"),
         true);
    return;
  }
  if (sent.command == protocol::CommandId::kReset) {
    // The board respawned from its pending parameters: reset-only changes are in force.
    copy_params(board_, requested_, Apply::Reset);
    board_.seed = requested_.seed;
  } else if (sent.command == protocol::CommandId::kSetBoidCount) {
    board_.boids = requested_.boids = d.value.as_int();
    ++revision_;
  }
}

// The board answered a change after the link had reported it unanswered (the slider went
// back): its value in force now is what the window shows.
void SerialSource::on_late(const link::RequestDone& d) {
  const ParamDef* def = d.type == protocol::MsgType::kParamChange ? find_param(d.subject) : nullptr;
  if (!def) return;
  const auto in_force = link::from_wire(*def, d.value);
  if (!in_force || link::flag_reported(*def, d.value)) return;
  board_value(*def, *in_force);
  if (!pending_ids_.count(def->id)) (void)set_param(requested_, *def, get_param(board_, *def));
  ++revision_;
  note("the board answered " + std::string(def->name) + " late: " + link::describe_wire(d.value) + " in force", false);
}

}  // namespace flockscope::gui
