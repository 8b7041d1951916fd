#include "flockscope/core/params.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <vector>

#include "flockscope/core/text.hpp"

namespace flockscope {
namespace {

// The used_by column's words.
namespace used_by_words {
constexpr std::uint8_t Cornell = rule_bit(RuleSet::Cornell), Report = rule_bit(RuleSet::Report), Blog = rule_bit(RuleSet::Blog);
constexpr std::uint8_t All = Cornell | Report | Blog;
}  // namespace used_by_words
using namespace used_by_words;

constexpr ParamDef kTable[] = {
#define FLOCKSCOPE_ROW(id, name, kind, def, min, max, smin, smax, unit, apply, section, used_by, help)            \
  {id, #name, ParamKind::kind, double(def), double(min), double(max), double(smin), double(smax), unit, Apply::apply,     \
   ParamSection::section, std::uint8_t(used_by), help},
    FLOCKSCOPE_PARAM_LIST(FLOCKSCOPE_ROW)
#undef FLOCKSCOPE_ROW
};

constexpr std::array<std::string_view, 3> kRuleNames = {"cornell", "report", "blog"};
constexpr std::array<std::string_view, 2> kDivisorNames = {"seen", "all"};
constexpr std::array<std::string_view, 2> kUpdateNames = {"synchronous", "in_place"};
constexpr std::array<std::string_view, 2> kBiasTargetNames = {"unit", "maxspeed"};
constexpr std::array<std::string_view, 3> kPredatorModeNames = {"random", "centroid", "chase"};

// Compile-time guard: ids are unique (the wire relies on it).
constexpr bool ids_unique() {
  for (std::size_t i = 0; i < std::size(kTable); ++i)
    for (std::size_t j = i + 1; j < std::size(kTable); ++j)
      if (kTable[i].id == kTable[j].id) return false;
  return true;
}
static_assert(ids_unique(), "parameter ids must be unique");

std::string number_text(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

std::span<const ParamDef> param_table() { return kTable; }
std::span<const std::string_view> rule_names() { return kRuleNames; }

std::span<const std::string_view> choice_names(const ParamDef& def) {
  if (def.kind != ParamKind::Choice) return {};
  if (def.name == "report_divisor") return kDivisorNames;
  if (def.name == "update") return kUpdateNames;
  if (def.name == "bias_target") return kBiasTargetNames;
  if (def.name == "predator_mode") return kPredatorModeNames;
  return kRuleNames;
}

namespace {
// Every Choice row's [min, max] is exactly its names' indices.
constexpr bool choices_named() {
  for (const auto& d : kTable)
    if (d.kind == ParamKind::Choice) {
      const std::size_t count = d.name == "report_divisor" ? kDivisorNames.size()
                                : d.name == "update"       ? kUpdateNames.size()
                                : d.name == "bias_target"  ? kBiasTargetNames.size()
                                : d.name == "predator_mode" ? kPredatorModeNames.size()
                                : d.name == "rules"        ? kRuleNames.size()
                                                           : 0;
      if (d.min != 0 || d.max + 1 != double(count)) return false;
    }
  return true;
}
static_assert(choices_named(), "a Choice parameter needs names for every value in [min, max]");
}  // namespace

const ParamDef* find_param(std::string_view name) {
  for (const auto& d : kTable)
    if (d.name == name) return &d;
  return nullptr;
}

std::string unknown_param(std::string_view name) {
  std::vector<std::string_view> names;
  for (const auto& d : kTable) names.push_back(d.name);
  std::string msg = "unknown parameter '" + std::string(name) + "'";
  if (const auto best = nearest_name(name, names); !best.empty()) msg += " (did you mean " + std::string(best) + "?)";
  return msg;
}

const ParamDef* find_param(std::uint16_t id) {
  for (const auto& d : kTable)
    if (d.id == id) return &d;
  return nullptr;
}

double get_param(const Params& p, const ParamDef& def) {
  switch (def.id) {
#define FLOCKSCOPE_GET(id, name, ...) \
  case id: return static_cast<double>(p.name);
    FLOCKSCOPE_PARAM_LIST(FLOCKSCOPE_GET)
#undef FLOCKSCOPE_GET
  }
  return 0.0;
}

std::string range_text(const ParamDef& def) {
  if (def.kind == ParamKind::Bool) return "true or false";
  if (def.kind == ParamKind::Choice) {
    std::string s;
    for (auto n : choice_names(def)) s += (s.empty() ? "" : " | ") + std::string(n);
    return s;
  }
  // Whole-number parameters' bounds as whole numbers, as format_param writes their values
  // (the seed's 4294967295, not %.9g's 4.2949673e+09).
  auto bound = [&](double v) {
    return def.kind == ParamKind::Int ? std::to_string(static_cast<long long>(v)) : number_text(v);
  };
  return "[" + bound(def.min) + ", " + bound(def.max) + "]";
}

std::string describe_range(const ParamDef& def) {
  std::string s = range_text(def);
  if (def.kind != ParamKind::Bool && def.kind != ParamKind::Choice && !def.unit.empty()) s.append(" ").append(def.unit);
  return s;
}

std::optional<std::string> set_param(Params& p, const ParamDef& def, double value) {
  const std::string key(def.name);
  if (std::isnan(value)) return key + ": value is not a number; allowed " + describe_range(def);
  if (value < def.min || value > def.max)
    return key + "=" + number_text(value) + " is out of range; allowed " + describe_range(def);
  if (def.kind != ParamKind::Real && value != std::floor(value))
    return key + "=" + number_text(value) + " must be a whole number; allowed " + describe_range(def);
  switch (def.id) {
#define FLOCKSCOPE_SET(id, name, kind, ...) \
  case id: p.name = static_cast<detail::kind##_t>(value); break;
    FLOCKSCOPE_PARAM_LIST(FLOCKSCOPE_SET)
#undef FLOCKSCOPE_SET
  }
  return std::nullopt;
}

std::optional<std::string> set_param_text(Params& p, std::string_view key, std::string_view text_in) {
  const ParamDef* def = find_param(key);
  if (!def) return unknown_param(key);
  const std::string text(trim(text_in));
  double value = 0;
  if (def->kind == ParamKind::Bool) {
    if (text == "true" || text == "on" || text == "1") value = 1;
    else if (text == "false" || text == "off" || text == "0") value = 0;
    else return std::string(key) + "='" + text + "' is not a boolean; allowed true or false";
  } else if (def->kind == ParamKind::Choice) {
    bool found = false;
    const auto names = choice_names(*def);
    for (std::size_t i = 0; i < names.size(); ++i)
      if (text == names[i] || text == std::to_string(i)) { value = double(i); found = true; }
    if (!found) return std::string(key) + "='" + text + "' is not one of " + describe_range(*def);
  } else if (!parse_double(text, value)) {
    return std::string(key) + "='" + text + "' is not a number; allowed " + describe_range(*def);
  }
  return set_param(p, *def, value);
}

std::optional<std::string> apply_assignment(Params& p, std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    return std::string("'").append(assignment).append("' is not of the form key=value");
  return set_param_text(p, trim(assignment.substr(0, eq)), assignment.substr(eq + 1));
}

void copy_params(Params& dst, const Params& src, Apply which) {
#define FLOCKSCOPE_COPY(id, name, kind, def, min, max, smin, smax, unit, apply, ...) \
  if (Apply::apply == which) dst.name = src.name;
  FLOCKSCOPE_PARAM_LIST(FLOCKSCOPE_COPY)
#undef FLOCKSCOPE_COPY
}

std::string format_param(const Params& p, const ParamDef& def) {
  const double v = get_param(p, def);
  switch (def.kind) {
    case ParamKind::Bool: return v != 0 ? "true" : "false";
    case ParamKind::Choice: {
      const auto names = choice_names(def);
      const auto i = static_cast<std::size_t>(v);
      return i < names.size() ? std::string(names[i]) : number_text(v);
    }
    case ParamKind::Int: return std::to_string(static_cast<long long>(v));
    case ParamKind::Real: return number_text(v);
  }
  return number_text(v);
}

std::optional<std::string> check_scouts(const Params& p, std::int64_t boids) {
  const std::int64_t scouts = p.scouts1 + p.scouts2;
  if (scouts <= boids) return std::nullopt;
  return "scouts1 + scouts2 = " + std::to_string(p.scouts1) + " + " + std::to_string(p.scouts2) + " = " +
         std::to_string(scouts) + " scouts, more than the " + std::to_string(boids) +
         " boids (scouts are boids: lower scouts1/scouts2 or raise boids)";
}

}  // namespace flockscope
