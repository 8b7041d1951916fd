// Parameters between core's table (Params, doubles) and the wire (protocol::ParamValue:
// a type tag and 8 bytes). The tag follows the table's kind, so a value the board reports
// with the wrong tag is refused rather than reinterpreted.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>

#include "flockscope/core/params.hpp"
#include "flockscope/protocol/messages.hpp"

namespace flockscope::link {

protocol::ParamValue to_wire(const ParamDef& def, double value);
// The value as a double, or nothing when the tag does not match the table's kind.
std::optional<double> from_wire(const ParamDef& def, const protocol::ParamValue& v);
// "12.5", "3", "true" for messages.
std::string describe_wire(const protocol::ParamValue& v);
const char* describe_status(protocol::Status s);  // "out of range", ...

// A board's parameter set as core Params: starts from `base` and takes every parameter the
// table knows. Values outside core's range are kept as the board reports them (PROTOCOL.md
// section 12: shown as they are, never clamped): Params holds the nearest valid value,
// `flagged` lists them and `outside` (id -> the board's value) keeps their true values.
Params params_from_wire(std::span<const protocol::Param> wire, const Params& base, std::string* flagged = nullptr,
                        std::map<std::uint16_t, double>* outside = nullptr);

}  // namespace flockscope::link
