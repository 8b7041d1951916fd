#include "flockscope/board/board_params.hpp"

#include "flockscope/board/board_flock.hpp"

namespace flockscope::board {

using protocol::ParamType;
using protocol::ParamValue;
using protocol::Status;

const ParamInfo* find_param(std::uint16_t id) {
  for (const auto& p : detail::kTable)
    if (p.id == id) return &p;
  return nullptr;
}

const ParamInfo* find_param(std::string_view name) {
  for (const auto& p : detail::kTable)
    if (name == p.name) return &p;
  return nullptr;
}

ParamType wire_type(Kind k) {
  switch (k) {
    case Kind::Int: return ParamType::kInt;
    case Kind::Bool: return ParamType::kBool;
    case Kind::Choice: return ParamType::kChoice;
    case Kind::Real: break;
  }
  return ParamType::kReal;
}

ParamValue to_wire(Kind k, double v) {
  switch (k) {
    case Kind::Int: return ParamValue::of_int(std::int64_t(v));
    case Kind::Bool: return ParamValue::of_bool(v != 0);
    case Kind::Choice: return ParamValue::of_choice(std::uint64_t(v));
    case Kind::Real: break;
  }
  return ParamValue::of_real(v);
}

ParamStore::ParamStore(const BoardLimits& limits) : limits_(limits) {
  for (const auto& p : detail::kTable) active_[p.id] = pending_[p.id] = p.def;
  // The board's own defaults: the Pico lab (seed 004) has one predator; boids 0 means
  // "spawn until the frame budget is used" (README); the screen is the display's.
  force(pid::predators, 1);
  force(pid::boids, 0);
  force(pid::width, limits.width);
  force(pid::height, limits.height);
}

void ParamStore::board_range(const ParamInfo& p, double& lo, double& hi, bool& read_only) const {
  lo = p.min;
  hi = p.max;
  read_only = false;
  auto tighten = [&](double a, double b) {
    if (a > lo) lo = a;
    if (b < hi) hi = b;
  };
  switch (p.id) {
    case pid::width:
    case pid::height:
    case pid::rules:
    case pid::report_divisor:
    case pid::update:
    case pid::bias_target: read_only = true; break;
    // The lab's extensions: a perching timer is 16 bits a boid; food's range keeps its square
    // within Q16.16 (181^2 < 2^15); positions within Q16.16.
    case pid::perch_frames: tighten(0, 32767); break;
    case pid::perch_y:
    case pid::perch_x0:
    case pid::perch_x1:
    case pid::perch_range: tighten(-16384, 16384); break;
    case pid::food: tighten(0, double(kMaxFood)); break;
    case pid::food_range: tighten(0, 181); break;
    case pid::food_speed: tighten(0, 64); break;
    case pid::predator_vision: tighten(0, 16384); break;
    case pid::visualRange:
    case pid::protectedRange:
    case pid::predatorRange: tighten(0, 127); break;
    case pid::maxspeed:
    case pid::minspeed:
    case pid::turnfactor:
    case pid::predatorturnfactor:
    case pid::V_max: tighten(0, 64); break;
    case pid::leftmargin:
    case pid::rightmargin:
    case pid::topmargin:
    case pid::bottommargin: tighten(0, 16384); break;
    case pid::dt: tighten(1.0 / 1024, 64); break;
    case pid::gravity: tighten(-64, 64); break;
    case pid::boids: tighten(0, limits_.max_boids); break;
    case pid::predators: tighten(0, double(protocol::kMaxPredators)); break;
    case pid::scouts1:
    case pid::scouts2: tighten(0, kMaxScouts); break;
    default: break;
  }
}

void ParamStore::range(std::uint16_t id, double& lo, double& hi) const {
  lo = hi = 0;
  bool read_only = false;
  if (const ParamInfo* p = id <= kMaxParamId ? find_param(id) : nullptr) board_range(*p, lo, hi, read_only);
}

Status ParamStore::check(std::uint16_t id, const ParamValue& v, double& value) const {
  const ParamInfo* p = id <= kMaxParamId ? find_param(id) : nullptr;
  if (!p) return Status::kUnknownId;
  if (v.type != wire_type(p->kind)) return Status::kWrongType;
  switch (p->kind) {
    case Kind::Real: value = v.as_real(); break;
    case Kind::Int: value = double(v.as_int()); break;
    case Kind::Bool:
      if (v.bits > 1) return Status::kOutOfRange;
      value = double(v.bits);
      break;
    case Kind::Choice:
      if (v.bits > 1000) return Status::kOutOfRange;
      value = double(v.bits);
      break;
  }
  if (value != value) return Status::kOutOfRange;  // NaN
  double lo, hi;
  bool read_only;
  board_range(*p, lo, hi, read_only);
  // A read-only parameter may be "set" to the value it has (a preset carrying 640).
  if (read_only) return value == pending_[id] ? (p->reset ? Status::kOkAtReset : Status::kOk) : Status::kReadOnly;
  if (!(value >= lo && value <= hi)) return Status::kOutOfRange;
  if (p->kind == Kind::Int && value != double(std::int64_t(value))) return Status::kOutOfRange;
  return p->reset ? Status::kOkAtReset : Status::kOk;
}

Status ParamStore::store(std::uint16_t id, double value) {
  const ParamInfo* p = find_param(id);
  if (!p) return Status::kUnknownId;
  pending_[id] = value;
  if (p->reset) return Status::kOkAtReset;
  if (active_[id] != value) ++version_;
  active_[id] = value;
  return Status::kOk;
}

void ParamStore::apply_pending() {
  for (const auto& p : detail::kTable) active_[p.id] = pending_[p.id];
  ++version_;
}

ParamValue ParamStore::reported(std::uint16_t id) const {
  const ParamInfo* p = find_param(id);
  if (!p) return ParamValue::of_int(0);
  return to_wire(p->kind, pending_[id]);
}

}  // namespace flockscope::board
