// Params: the resolved value of every tunable, generated from the table (params/: param_list.hpp), plus the
// table's metadata and the one validating setter that every input path goes through
// (presets, --set, the app's sliders, parameter packets from a board).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "flockscope/params/param_list.hpp"

namespace flockscope {

enum class ParamKind : std::uint8_t { Real, Int, Bool, Choice };
enum class Apply : std::uint8_t { Live, Reset };
enum class RuleSet : int { Cornell = 0, Report = 1, Blog = 2 };
// The group a parameter is shown in: the world, what every rule set uses, the edges, the
// Cornell (and blog) neighbour rules and speeds, the report's own, the predators, the scouts,
// perching on a ledge, the food sources.
enum class ParamSection : std::uint8_t { World, Rules, Edges, Cornell, Report, Predators, Scouts, Perching, Food };
// Bits of ParamDef::used_by: the rule sets whose step reads a parameter.
inline constexpr std::uint8_t rule_bit(RuleSet r) { return std::uint8_t(1u << unsigned(r)); }
// The other choices, indexed as their names in choice_names().
enum class ReportDivisor : int { Seen = 0, All = 1 };
enum class UpdateOrder : int { Synchronous = 0, InPlace = 1 };
enum class BiasTarget : int { Unit = 0, MaxSpeed = 1 };
enum class PredatorMode : int { Random = 0, Centroid = 1, Chase = 2 };

namespace detail {
using Real_t = double;
using Int_t = std::int64_t;
using Bool_t = bool;
using Choice_t = int;
}  // namespace detail

struct Params {
#define FLOCKSCOPE_FIELD(id, name, kind, def, ...) detail::kind##_t name = static_cast<detail::kind##_t>(def);
  FLOCKSCOPE_PARAM_LIST(FLOCKSCOPE_FIELD)
#undef FLOCKSCOPE_FIELD

  RuleSet rule_set() const { return static_cast<RuleSet>(rules); }
  // D_vis of 0 or infinity means every boid sees every other (seed 002's baseline).
  bool vision_infinite() const { return !(D_vis > 0) || std::isinf(D_vis); }
  ReportDivisor divisor() const { return static_cast<ReportDivisor>(report_divisor); }
  UpdateOrder update_order() const { return static_cast<UpdateOrder>(update); }
  BiasTarget bias_pull() const { return static_cast<BiasTarget>(bias_target); }
  PredatorMode hunt() const { return static_cast<PredatorMode>(predator_mode); }
  bool operator==(const Params&) const = default;
};

struct ParamDef {
  std::uint16_t id;
  std::string_view name;
  ParamKind kind;
  double def, min, max;
  double slider_min, slider_max;
  std::string_view unit;
  Apply apply;
  ParamSection section;
  std::uint8_t used_by;  // rule_bit()s
  std::string_view help;

  bool used_by_rules(RuleSet r) const { return (used_by & rule_bit(r)) != 0; }

  // A slider whose range spans two or more decades reads better on a log scale.
  bool log_scale() const { return kind == ParamKind::Real && slider_min > 0 && slider_max / slider_min >= 100; }
};

std::span<const ParamDef> param_table();
const ParamDef* find_param(std::string_view name);
const ParamDef* find_param(std::uint16_t id);
// "unknown parameter 'NAME'", with the nearest name of the table when one is close (a wrong
// case, a typo of up to two letters): "(did you mean visualRange?)".
std::string unknown_param(std::string_view name);

// Names of the `rules` choice, indexed by RuleSet.
std::span<const std::string_view> rule_names();
// Names of a Choice parameter's values, indexed by value (empty for other kinds).
std::span<const std::string_view> choice_names(const ParamDef& def);

double get_param(const Params& p, const ParamDef& def);

// Validates and stores one value. On error returns a one-line reason naming the key and the
// allowed range, and leaves `p` unchanged.
std::optional<std::string> set_param(Params& p, const ParamDef& def, double value);
// Same from text ("40", "0.05", "inf", "true", "cornell"), as typed on a command line.
std::optional<std::string> set_param_text(Params& p, std::string_view key, std::string_view text);
// Parses "key=value" (the --set syntax).
std::optional<std::string> apply_assignment(Params& p, std::string_view assignment);
// Why the scout groups do not fit a flock of `boids` (scouts1 + scouts2 above it: the groups
// take ids from 0 up, so the excess would silently not exist), or nothing when they fit.
std::optional<std::string> check_scouts(const Params& p, std::int64_t boids);

// Copies the parameters of one kind (live or reset-only) from src into dst.
void copy_params(Params& dst, const Params& src, Apply which);

// The value as a user would type it back ("inf", "true", "report", "0.05").
std::string format_param(const Params& p, const ParamDef& def);
// The allowed values without the unit: "[0, 200]", "[0, 4294967295]" (whole-number
// parameters' bounds as whole numbers), "true or false", "cornell | report | blog".
std::string range_text(const ParamDef& def);
// range_text() with the unit, "[0, 200] px", for messages and tooltips.
std::string describe_range(const ParamDef& def);

}  // namespace flockscope
