// Sections: the grid | to JSON | from JSON | files
#include "explore_setup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "figures.hpp"
#include "flockscope/core/io.hpp"

namespace flockscope::cli {
using nlohmann::json;
using namespace experiments;

// ---------------------------------------------------------------- the grid
namespace {
std::string number_text(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
}  // namespace

std::string axis_grid(const ExploreAxis& a) {
  const ParamDef* d = find_param(a.key);
  std::string s = a.key + "=";
  if (!a.list.empty()) {
    for (std::size_t k = 0; k < a.list.size(); ++k) s += (k ? "," : "") + a.list[k];
    return s;
  }
  const bool log = a.log && a.from > 0 && a.to > 0;
  for (int k = 0; k < a.values; ++k) {
    const double t = a.values > 1 ? double(k) / double(a.values - 1) : 0.0;
    double v = log ? a.from * std::pow(a.to / a.from, t) : a.from + (a.to - a.from) * t;
    if (d && d->kind == ParamKind::Int) v = std::round(v);
    if (k > 0) s += ',';
    s += number_text(v);
  }
  return s;
}

SweepSpec setup_spec(const ExploreSetup& st) {
  SweepSpec s;
  s.preset = st.preset;
  s.base = st.params;
  for (const auto& a : st.axes) s.axes.push_back(parse_grid_axis(axis_grid(a)));
  s.reps = st.repeats;
  s.steps = st.steps;
  s.seed = std::uint64_t(st.params.seed);
  validate(s);
  return s;
}

ExploreSetup setup_of_spec(const SweepSpec& s, const std::string& measure, int workers) {
  ExploreSetup st;
  st.preset = s.preset;
  st.params = s.base;
  st.params.seed = std::int64_t(s.seed);
  for (const auto& a : s.axes) {
    ExploreAxis ax;
    ax.key = a.key;
    ax.list = a.labels;
    ax.values = int(a.labels.size());
    st.axes.push_back(std::move(ax));
  }
  st.repeats = s.reps, st.steps = s.steps, st.measure = measure, st.workers = workers;
  return st;
}

// ---------------------------------------------------------------- to JSON
namespace {
// A value of a list as JSON: a number where the number prints back as the same text, so
// that reading it gives the very label sweep wrote; otherwise the text.
json list_value(const std::string& label) {
  const json v = json::parse(label, nullptr, false);
  if (v.is_number() && v.dump() == label) return v;
  return label;
}
}  // namespace

json setup_to_json(const ExploreSetup& s) {
  json j;
  j["flockscope_explore_setup"] = kSetupVersion;
  j["preset"] = s.preset;
  j["seed"] = s.params.seed;
  json axes = json::array();
  for (const auto& a : s.axes) {
    if (a.list.empty()) {
      axes.push_back({{"key", a.key}, {"from", a.from}, {"to", a.to}, {"values", a.values}, {"log", a.log}});
      continue;
    }
    json list = json::array();
    for (const auto& v : a.list) list.push_back(list_value(v));
    axes.push_back({{"key", a.key}, {"values", list}});
  }
  j["axes"] = axes;
  j["repeats"] = s.repeats;
  j["steps"] = s.steps;
  j["measure"] = s.measure;
  j["workers"] = s.workers;
  j["params"] = params_to_json(s.params);
  return j;
}

// ---------------------------------------------------------------- from JSON
namespace {

std::string shown(const json& v) {
  std::string t = v.dump();
  if (t.size() > 40) t = t.substr(0, 37) + "...";
  return t;
}

struct Reader {
  const std::string& origin;
  [[noreturn]] void fail(const std::string& field, const std::string& expected, const json* got) const {
    throw InputError(origin + ": " + field + ": expected " + expected + (got ? ", got " + shown(*got) : std::string(", missing")));
  }
  const json& need(const json& obj, const std::string& key, const std::string& field, const std::string& expected) const {
    if (!obj.contains(key)) fail(field, expected, nullptr);
    return obj.at(key);
  }
  double number(const json& v, const std::string& field) const {
    if (!v.is_number() || !std::isfinite(v.get<double>())) fail(field, "a finite number", &v);
    return v.get<double>();
  }
  std::int64_t whole(const json& v, const std::string& field, std::int64_t lo, std::int64_t hi) const {
    const std::string what = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
    if (!v.is_number_integer()) {
      // 2.0 is a whole number too, as JSON writers may print it
      if (!v.is_number_float() || v.get<double>() != std::floor(v.get<double>())) fail(field, what, &v);
    }
    const double d = v.get<double>();
    if (d < double(lo) || d > double(hi)) fail(field, what, &v);
    return std::int64_t(d);
  }
  std::string text(const json& v, const std::string& field) const {
    if (!v.is_string()) fail(field, "a string", &v);
    return v.get<std::string>();
  }
  bool boolean(const json& v, const std::string& field) const {
    if (!v.is_boolean()) fail(field, "true or false", &v);
    return v.get<bool>();
  }
};

}  // namespace

ExploreSetup setup_from_json(const json& j, const std::string& origin) {
  const Reader r{origin};
  if (!j.is_object()) r.fail("the file", "a JSON object (an Explore setup)", &j);
  static const char* kKeys[] = {"flockscope_explore_setup", "preset", "seed", "axes", "repeats", "steps",
                                "measure", "workers", "params", "description"};
  for (const auto& [key, value] : j.items())
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys))
      throw InputError(origin + ": " + key +
                       ": not a field of an Explore setup (expected flockscope_explore_setup, preset, seed, axes, "
                       "repeats, steps, measure, workers, params, description)");
  if (j.contains("flockscope_explore_setup") &&
      r.whole(j.at("flockscope_explore_setup"), "flockscope_explore_setup", 1, 1 << 30) > kSetupVersion)
    throw InputError(origin + ": flockscope_explore_setup: version " + j.at("flockscope_explore_setup").dump() +
                     " is newer than this flockscope reads (" + std::to_string(kSetupVersion) + ")");

  ExploreSetup s;
  if (j.contains("preset")) s.preset = r.text(j.at("preset"), "preset");
  if (j.contains("params")) {
    const json& p = j.at("params");
    if (!p.is_object()) r.fail("params", "an object of parameter values, as a preset's \"params\"", &p);
    s.params = params_from_json(json{{"params", p}}, origin + ": params");
  } else if (!s.preset.empty()) {
    s.params = load_preset(resolve_preset(s.preset));
  } else {
    throw InputError(origin + ": params: expected the base parameters (or a \"preset\" to take them from), missing");
  }
  if (j.contains("seed"))
    s.params.seed = r.whole(j.at("seed"), "seed", 0, 4294967295LL);

  const json& axes = r.need(j, "axes", "axes", "a list of one or two axes");
  if (!axes.is_array() || axes.empty() || axes.size() > 2) r.fail("axes", "a list of one or two axes", &axes);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::string f = "axes[" + std::to_string(i) + "]";
    const json& a = axes[i];
    if (!a.is_object()) r.fail(f, "an object {\"key\", \"from\", \"to\", \"values\", \"log\"}", &a);
    for (const auto& [key, value] : a.items())
      if (key != "key" && key != "from" && key != "to" && key != "values" && key != "log")
        throw InputError(origin + ": " + f + "." + key + ": not a field of an axis (expected key, from, to, values, log)");
    ExploreAxis ax;
    ax.key = r.text(r.need(a, "key", f + ".key", "a parameter name"), f + ".key");
    const ParamDef* d = find_param(ax.key);
    if (!d) throw InputError(origin + ": " + f + ".key: " + unknown_param(ax.key));
    if ((d->kind != ParamKind::Real && d->kind != ParamKind::Int) || d->name == "seed")
      throw InputError(origin + ": " + f + ".key: expected a number parameter other than seed, got \"" + ax.key + "\"");
    const json& values = r.need(a, "values", f + ".values", "a whole number from 1 to 100, or a list of values");
    if (values.is_array()) {
      if (values.empty() || values.size() > 100000) r.fail(f + ".values", "a list of 1 to 100000 values", &values);
      for (std::size_t k = 0; k < values.size(); ++k) {
        const json& v = values[k];
        const std::string fk = f + ".values[" + std::to_string(k) + "]";
        if (v.is_number()) ax.list.push_back(v.dump());
        else if (v.is_string() && !v.get<std::string>().empty() && v.get<std::string>().find(',') == std::string::npos)
          ax.list.push_back(v.get<std::string>());
        else r.fail(fk, "a number (or a value as text)", &v);
      }
      ax.values = int(ax.list.size());
      try {
        (void)parse_grid_axis(axis_grid(ax));
      } catch (const InputError& e) {
        throw InputError(origin + ": " + f + ".values: " + e.what());
      }
      s.axes.push_back(ax);
      continue;
    }
    ax.from = r.number(r.need(a, "from", f + ".from", "a finite number"), f + ".from");
    ax.to = r.number(r.need(a, "to", f + ".to", "a finite number"), f + ".to");
    ax.values = int(r.whole(values, f + ".values", 1, 100));
    if (a.contains("log")) ax.log = r.boolean(a.at("log"), f + ".log");
    if (ax.to < ax.from) throw InputError(origin + ": " + f + ".to: expected at least from (" + number_text(ax.from) + "), got " + number_text(ax.to));
    for (int k : {0, 1}) {  // each end within the parameter's range
      const double v = k ? ax.to : ax.from;
      if (v < d->min || v > d->max)
        throw InputError(origin + ": " + f + (k ? ".to" : ".from") + ": expected a value of " + ax.key + " in " +
                         describe_range(*d) + ", got " + number_text(v));
    }
    s.axes.push_back(ax);
  }
  if (s.axes.size() == 2 && s.axes[0].key == s.axes[1].key)
    throw InputError(origin + ": axes[1].key: expected another parameter than axes[0]'s, got \"" + s.axes[1].key + "\" twice");
  s.repeats = std::uint64_t(r.whole(r.need(j, "repeats", "repeats", "a whole number from 1 to 1000000"), "repeats", 1, 1000000));
  s.steps = std::uint64_t(r.whole(r.need(j, "steps", "steps", "a whole number from 0 to 100000000"), "steps", 0, 100000000));
  if (j.contains("measure")) {
    s.measure = r.text(j.at("measure"), "measure");
    std::string known;
    bool found = false;
    for (const auto& v : sweep_views(SweepKind::Flock, true)) {
      known += (known.empty() ? "" : ", ") + v.key;
      found = found || v.key == s.measure;
    }
    if (!found) r.fail("measure", "one of " + known, &j.at("measure"));
  }
  if (j.contains("workers")) s.workers = int(r.whole(j.at("workers"), "workers", 0, 1024));
  try {
    (void)setup_spec(s);  // what the sweep itself refuses (too many runs, ...)
  } catch (const InputError& e) {
    throw InputError(origin + ": " + e.what());
  }
  return s;
}

// ---------------------------------------------------------------- files
void save_setup(const ExploreSetup& s, const std::filesystem::path& file) { write_text_file(file, setup_to_json(s).dump(2) + "\n"); }

ExploreSetup load_setup(const std::filesystem::path& file) {
  return parse_setup(read_input_file(file, kMaxPresetBytes), file.string());
}

ExploreSetup parse_setup(std::string_view text, const std::string& origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    std::string why = e.what();
    if (const auto at = why.find("] "); at != std::string::npos) why = why.substr(at + 2);
    throw InputError(origin + ": not valid JSON (" + why + ")");
  }
  return setup_from_json(j, origin);
}

}  // namespace flockscope::cli
