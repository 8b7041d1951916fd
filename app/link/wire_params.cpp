#include "wire_params.hpp"

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
    case protocol::ParamType::kBool: return v.as_bool() ? "true" : "false";
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

Params params_from_wire(std::span<const protocol::Param> wire, const Params& base, std::string* flagged,
                        std::map<std::uint16_t, double>* outside) {
  Params p = base;
  for (const protocol::Param& w : wire) {
    const ParamDef* def = find_param(w.id);
    if (!def) continue;  // a newer board's parameter: the table does not know it
    const auto v = from_wire(*def, w.value);
    if (!v) continue;
    if (set_param(p, *def, *v)) {
      // Outside core's range: PROTOCOL.md says show it as it is and flag it. Params can only
      // hold valid values, so the nearest valid one is shown and the name is flagged.
      (void)set_param(p, *def, std::clamp(*v, def->min, def->max));
      if (flagged) *flagged += (flagged->empty() ? "" : ", ") + std::string(def->name) + "=" + describe_wire(w.value);
      if (outside) (*outside)[w.id] = *v;
    }
  }
  return p;
}

}  // namespace flockscope::link
