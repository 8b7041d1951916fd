#include "link/wire_params.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace flockscope::link {

protocol::ParamValue to_wire(const ParamDef& def, double value) {
  using protocol::ParamValue;
  switch (def.kind) {
    case ParamKind::Int: return ParamValue::of_int(static_cast<std::int64_t>(value));
    case ParamKind::Bool: return ParamValue::of_bool(value != 0);
    case ParamKind::Choice: return ParamValue::of_choice(static_cast<std::uint64_t>(value));
    case ParamKind::Real: break;
  }
  return ParamValue::of_real(value);
}

std::optional<double> from_wire(const ParamDef& def, const protocol::ParamValue& v) {
  using protocol::ParamType;
  switch (def.kind) {
    case ParamKind::Int:
      if (v.type != ParamType::kInt) return std::nullopt;
      return static_cast<double>(v.as_int());
    case ParamKind::Bool:
      if (v.type != ParamType::kBool || v.bits > 1) return std::nullopt;
      return v.as_bool() ? 1.0 : 0.0;
    case ParamKind::Choice:
      if (v.type != ParamType::kChoice) return std::nullopt;
      return static_cast<double>(v.as_choice());
    case ParamKind::Real:
      if (v.type != ParamType::kReal || std::isnan(v.as_real())) return std::nullopt;
      return v.as_real();
  }
  return std::nullopt;
}

std::string describe_wire(const protocol::ParamValue& v) {
  char buf[64];
  switch (v.type) {
    case protocol::ParamType::kInt: std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v.as_int())); break;
    case protocol::ParamType::kReal: std::snprintf(buf, sizeof buf, "%.6g", v.as_real()); break;
    case protocol::ParamType::kBool:
      if (v.bits <= 1) return v.as_bool() ? "true" : "false";
      std::snprintf(buf, sizeof buf, "bool %llu", static_cast<unsigned long long>(v.bits));
      break;
    case protocol::ParamType::kChoice: std::snprintf(buf, sizeof buf, "choice %llu", static_cast<unsigned long long>(v.bits)); break;
    default: std::snprintf(buf, sizeof buf, "type %u", unsigned(v.type)); break;
  }
  return buf;
}

const char* describe_status(protocol::Status s) {
  using protocol::Status;
  switch (s) {
    case Status::kOk: return "ok";
    case Status::kOkAtReset: return "ok, takes effect at the next reset";
    case Status::kOutOfRange: return "out of range";
    case Status::kUnknownId: return "unknown id";
    case Status::kReadOnly: return "read-only on this board";
    case Status::kWrongType: return "wrong type";
    case Status::kBusy: return "board busy";
    case Status::kUnknownType: return "message type not supported";
    case Status::kInvalid: return "invalid";
    case Status::kOther: return "refused";
  }
  return "unknown status";
}

std::optional<FlaggedParam> flag_reported(const ParamDef& def, const protocol::ParamValue& v) {
  const auto num = [](double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", x);
    return std::string(b);
  };
  const auto value = from_wire(def, v);
  if (!value) {
    std::string why;
    if (def.kind == ParamKind::Real && v.type == protocol::ParamType::kReal)
      why = "not a number";
    else if (def.kind == ParamKind::Bool && v.type == protocol::ParamType::kBool)
      why = "a bool is 0 or 1";
    else
      why = "wrong type for this app's table";
    return FlaggedParam{&def, v, why, false};
  }
  Params scratch;
  if (!set_param(scratch, def, *value)) return std::nullopt;
  std::string why;
  if (def.kind == ParamKind::Choice)
    why = "not one of this app's choices " + num(def.min) + " to " + num(def.max);
  else if (*value < def.min)
    why = "below this app's minimum " + num(def.min);
  else if (*value > def.max)
    why = "above this app's maximum " + num(def.max);
  else
    why = "not allowed by this app's table";
  return FlaggedParam{&def, v, why, true};
}

std::string describe(const std::vector<FlaggedParam>& flagged) {
  std::string out;
  for (const FlaggedParam& f : flagged)
    out += (out.empty() ? "" : ", ") + std::string(f.def->name) + "=" + describe_wire(f.value) + " (" + f.why + ")";
  return out;
}

Params params_from_wire(std::span<const protocol::Param> wire, const Params& base, std::vector<FlaggedParam>* flagged,
                        std::map<std::uint16_t, double>* outside) {
  Params p = base;
  for (const protocol::Param& w : wire) {
    const ParamDef* def = find_param(w.id);
    if (!def) continue;  // a newer board's parameter: the table does not know it
    if (auto f = flag_reported(*def, w.value)) {
      if (f->usable) {
        const double v = *from_wire(*def, w.value);
        (void)set_param(p, *def, std::clamp(v, def->min, def->max));
        if (outside) (*outside)[w.id] = v;
      }
      if (flagged) flagged->push_back(std::move(*f));
      continue;
    }
    (void)set_param(p, *def, *from_wire(*def, w.value));
  }
  return p;
}

std::string describe_refusal(const ParamDef& def, std::string_view asked, protocol::Status status,
                             const protocol::ParamValue& kept, std::string_view reason) {
  std::string out = "the board rejected " + std::string(asked) + ": " + describe_status(status) + " (it keeps " +
                    describe_wire(kept) + ")";
  const std::string prefix = std::string(def.name) + ": ";
  if (reason.starts_with(prefix)) out += ": " + std::string(reason.substr(prefix.size()));
  return out;
}

bool needs_surroundings(std::uint16_t id) {
  static constexpr std::string_view kNames[] = {"predator_mode", "predator_vision", "predator_steer", "perch_frames",
                                                "perch_y",       "perch_x0",        "perch_x1",       "perch_range",
                                                "food",          "food_range",      "food_factor",    "food_speed"};
  const ParamDef* def = find_param(id);
  if (def == nullptr) return false;
  for (const std::string_view n : kNames)
    if (def->name == n) return true;
  return false;
}

std::vector<protocol::Param> params_it_takes(std::span<const protocol::Param> wire, std::uint32_t capabilities) {
  std::vector<protocol::Param> out;
  const bool extensions = (capabilities & protocol::cap::kSurroundings) != 0;
  for (const protocol::Param& p : wire)
    if (extensions || !needs_surroundings(p.id)) out.push_back(p);
  return out;
}

}  // namespace flockscope::link
