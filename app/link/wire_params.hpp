// Parameters between core's table (Params, doubles) and the wire (protocol::ParamValue:
// a type tag and 8 bytes). The tag follows the table's kind, so a value the board reports
// with the wrong tag is refused rather than reinterpreted.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "flockscope/core/params.hpp"
#include "flockscope/protocol/messages.hpp"

namespace flockscope::link {

protocol::ParamValue to_wire(const ParamDef& def, double value);
// The value as a double, or nothing when the tag does not match the table's kind.
std::optional<double> from_wire(const ParamDef& def, const protocol::ParamValue& v);
// "12.5", "3", "true" for messages.
std::string describe_wire(const protocol::ParamValue& v);
const char* describe_status(protocol::Status s);  // "out of range", ...
// A board's refusal of `asked` ("visualRange=190"): "the board rejected visualRange=190: out
// of range (it keeps 40)", then ": REASON" when the board's log named this parameter just
// before its ack (`reason`: "visualRange: at most 180 px on this board").
std::string describe_refusal(const ParamDef& def, std::string_view asked, protocol::Status status,
                             const protocol::ParamValue& kept, std::string_view reason);

// A value a board reports (in its parameter set or an ack) that this app's table does not
// allow: PROTOCOL.md section 12 says it is shown as sent and flagged, never silently fixed.
struct FlaggedParam {
  const ParamDef* def;
  protocol::ParamValue value;  // as the board sent it
  std::string why;             // "above this app's maximum 10000", "not a number", ...
  bool usable;                 // a number of the right kind (only out of range): Params hold it clamped
};
// Why this value is not one the table allows, or nothing when it is.
std::optional<FlaggedParam> flag_reported(const ParamDef& def, const protocol::ParamValue& v);
// "width=1e+308 (above this app's maximum 1e+06), visualRange=nan (not a number)".
std::string describe(const std::vector<FlaggedParam>& flagged);

// A board's parameter set as core Params: starts from `base` and takes every parameter the
// table knows. Params can only hold valid values, so a value outside the table's range is
// held as the nearest valid one and a value that is not a number of the parameter's kind is
// not taken; both are listed in `flagged` with the value as the board sent it, and
// `outside` (id -> the board's value) keeps the true value of each number held clamped.
Params params_from_wire(std::span<const protocol::Param> wire, const Params& base,
                        std::vector<FlaggedParam>* flagged = nullptr,
                        std::map<std::uint16_t, double>* outside = nullptr);

// The lab's extensions with state of their own (predator_mode, predator_vision,
// predator_steer, perch_*, food*): a board takes them only when its hello carries
// cap::kSurroundings.
bool needs_surroundings(std::uint16_t id);
// The parameters of a board's set that it takes: without cap::kSurroundings in
// `capabilities` the extensions' are left out (a board that lists them holds them at off),
// so the window shows them greyed as not on the board and nothing sends them.
std::vector<protocol::Param> params_it_takes(std::span<const protocol::Param> wire, std::uint32_t capabilities);

}  // namespace flockscope::link
