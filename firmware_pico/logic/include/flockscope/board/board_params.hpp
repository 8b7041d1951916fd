// The board's parameters: flockscope's one table (params/: param_list.hpp, plain preprocessor) expanded
// into a constexpr array, plus the board's own tighter limits and the validation every
// request goes through. Values are held as doubles (every table value, the 32-bit seed
// included, is exact in a double) and converted to fixed point once per change.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "flockscope/params/param_list.hpp"
#include "flockscope/protocol/messages.hpp"

namespace flockscope::board {

enum class Kind : std::uint8_t { Real, Int, Bool, Choice };

struct ParamInfo {
  std::uint16_t id;
  const char* name;
  Kind kind;
  double def, min, max;
  bool reset;  // takes effect at the next reset
};

namespace detail {
#define FLOCKSCOPE_BOARD_ROW(id, name, kind, def, min, max, smin, smax, unit, apply, ...) \
  ParamInfo{id, #name, Kind::kind, double(def), double(min), double(max), Apply_##apply},
inline constexpr bool Apply_Live = false;
inline constexpr bool Apply_Reset = true;
inline constexpr ParamInfo kTable[] = {FLOCKSCOPE_PARAM_LIST(FLOCKSCOPE_BOARD_ROW)};
#undef FLOCKSCOPE_BOARD_ROW
}  // namespace detail

inline constexpr std::size_t kParamCount = sizeof(detail::kTable) / sizeof(detail::kTable[0]);
inline constexpr std::uint16_t kMaxParamId = 64;  // ids are dense and small (PROTOCOL.md section 9)

// Ids, by the table's names (the board reads these often).
namespace pid {
#define FLOCKSCOPE_BOARD_ID(id, name, ...) inline constexpr std::uint16_t name = id;
FLOCKSCOPE_PARAM_LIST(FLOCKSCOPE_BOARD_ID)
#undef FLOCKSCOPE_BOARD_ID
}  // namespace pid

const ParamInfo* find_param(std::uint16_t id);
const ParamInfo* find_param(std::string_view name);  // the table's names (the app's)
inline const ParamInfo& param_at(std::size_t index) { return detail::kTable[index]; }

protocol::ParamType wire_type(Kind k);
protocol::ParamValue to_wire(Kind k, double v);

// The board's limits where they are tighter than the table's (documented in
// firmware_pico/README.md): ranges kept below 128 px (fixed-point neighbour test), speeds
// and turn factors below 64 px/frame, dt in [1/1024, 64], at most 16 predators, the boid
// count at most the board's capacity, scout groups at most kMaxScouts, rules = cornell with
// the synchronous update and the unit bias target (report_divisor stays at its default), and
// a screen size fixed by the display.
struct BoardLimits {
  std::uint32_t max_boids = 4000;
  double width = 640, height = 480;
};
inline constexpr std::uint32_t kMaxScouts = 1024;

class ParamStore {
 public:
  explicit ParamStore(const BoardLimits& limits);

  // The values in force (reset-only ones as of the last reset) and as last set.
  double active(std::uint16_t id) const { return active_[id]; }
  double pending(std::uint16_t id) const { return pending_[id]; }

  // Checks one value without changing anything. On rejection `current` names the
  // unchanged value to report.
  protocol::Status check(std::uint16_t id, const protocol::ParamValue& v, double& value) const;
  // Stores a checked value: live parameters at once, reset-only ones in pending.
  protocol::Status store(std::uint16_t id, double value);
  // Reset: pending becomes active.
  void apply_pending();
  // Sets a value in both (the board itself changing it, e.g. the boid count).
  void force(std::uint16_t id, double value) { active_[id] = pending_[id] = value; }
  // The value to report for a parameter (pending: what the app set last).
  protocol::ParamValue reported(std::uint16_t id) const;
  const BoardLimits& limits() const { return limits_; }
  // What this board allows for a parameter (the table's range tightened to the board's).
  void range(std::uint16_t id, double& lo, double& hi) const;
  // Bumped whenever an active value changes (the flock re-derives its coefficients).
  std::uint32_t version() const { return version_; }

 private:
  void board_range(const ParamInfo& p, double& lo, double& hi, bool& read_only) const;
  BoardLimits limits_;
  double active_[kMaxParamId + 1] = {};
  double pending_[kMaxParamId + 1] = {};
  std::uint32_t version_ = 0;
};

}  // namespace flockscope::board
