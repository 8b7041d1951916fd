// The plan of a sweep: grid axes from their text, shards, run ids and seeds.
//
// Sections: grid axes | the plan
#include <algorithm>
#include <cmath>

#include "flockscope/core/fnv1a.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/experiments/sweep.hpp"
#include "text.hpp"

namespace flockscope::experiments {
using namespace detail;

namespace {

// Decimal places a number was written with ("0.05" -> 2, "1e-3" -> 3, "20" -> 0), so a range
// 0:1:0.1 yields 0.3 and not 0.30000000000000004.
int decimals_of(std::string_view t) {
  t = trim(t);
  int exp = 0;
  if (const auto e = t.find_first_of("eE"); e != std::string_view::npos) {
    std::from_chars(t.data() + e + 1 + (t[e + 1] == '+'), t.data() + t.size(), exp);
    t = t.substr(0, e);
  }
  int frac = 0;
  if (const auto dot = t.find('.'); dot != std::string_view::npos) frac = int(t.size() - dot - 1);
  return std::max(0, frac - exp);
}

bool is_share_key(std::string_view key) { return key == kInformedKey || key == kRightShareKey; }

}  // namespace

// ---------------------------------------------------------------- grid axes
GridAxis parse_grid_axis(std::string_view spec) {
  const std::string where = "--grid " + std::string(spec);
  const auto eq = spec.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw InputError(where + ": expected key=a:b:step or key=v1,v2,...");
  GridAxis axis;
  axis.key = std::string(trim(spec.substr(0, eq)));
  const std::string_view rest = trim(spec.substr(eq + 1));
  if (axis.key == "seed") throw InputError(where + ": seeds come from --seed and --reps, not from the grid");
  const bool share = is_share_key(axis.key);
  const ParamDef* def = share ? nullptr : find_param(axis.key);
  if (!share && !def)
    throw InputError(where + ": " + unknown_param(axis.key) + " (or informed, right_share)");

  std::vector<std::string> texts;
  std::vector<double> numbers;
  if (rest.find(':') != std::string_view::npos) {
    const auto parts = split(rest, ':');
    double a = 0, b = 0, step = 0;
    if (parts.size() != 3 || !parse_double(parts[0], a) || !parse_double(parts[1], b) || !parse_double(parts[2], step) ||
        !std::isfinite(a) || !std::isfinite(b) || !std::isfinite(step))
      throw InputError(where + ": a range is first:last:step with three finite numbers");
    if (def && (def->kind == ParamKind::Bool || def->kind == ParamKind::Choice))
      throw InputError(where + ": " + axis.key + " takes a list of values, not a range");
    if (!(step > 0)) throw InputError(where + ": the step must be positive");
    if (b < a) throw InputError(where + ": the last value is smaller than the first");
    const double count = std::floor((b - a) / step + 1e-9) + 1;
    if (count > 100000) throw InputError(where + ": more than 100000 values");
    const int d = std::max({decimals_of(parts[0]), decimals_of(parts[1]), decimals_of(parts[2])});
    const double scale = std::pow(10.0, std::min(d, 15));
    for (std::size_t k = 0; k < std::size_t(count); ++k) {
      double v = a + double(k) * step;
      if (d <= 15) v = std::round(v * scale) / scale;
      numbers.push_back(v);
      texts.push_back(label_number(v));
    }
  } else {
    for (auto t : split(rest, ',')) {
      t = trim(t);
      if (t.empty()) throw InputError(where + ": empty value in the list");
      texts.emplace_back(t);
      numbers.push_back(NAN);
    }
  }

  for (std::size_t k = 0; k < texts.size(); ++k) {
    if (share) {
      double v = numbers[k];
      if (std::isnan(v) && !parse_double(texts[k], v)) throw InputError(where + ": '" + texts[k] + "' is not a number");
      if (!(v >= 0 && v <= 1)) throw InputError(where + ": " + axis.key + "=" + texts[k] + " is out of range; allowed [0, 1]");
      axis.values.push_back(v);
      axis.labels.push_back(label_number(v));
      continue;
    }
    Params scratch;
    const auto err = std::isnan(numbers[k]) ? set_param_text(scratch, axis.key, texts[k]) : set_param(scratch, *def, numbers[k]);
    if (err) throw InputError("--grid " + *err);
    axis.values.push_back(get_param(scratch, *def));
    axis.labels.push_back(format_param(scratch, *def));
  }
  for (std::size_t i = 0; i < axis.labels.size(); ++i)
    for (std::size_t j = i + 1; j < axis.labels.size(); ++j)
      if (axis.labels[i] == axis.labels[j])
        throw InputError(where + ": value " + axis.labels[i] + " is listed twice");
  return axis;
}

Shard parse_shard(std::string_view text) {
  const auto parts = split(trim(text), '/');
  Shard s;
  if (parts.size() != 2 || !parse_u64(parts[0], s.index) || !parse_u64(parts[1], s.count) || s.count == 0 ||
      s.index >= s.count)
    throw InputError("--shard " + std::string(text) + ": expected i/n with 0 <= i < n (e.g. 0/4)");
  return s;
}

// ---------------------------------------------------------------- the plan
std::uint64_t combination_count(const SweepSpec& s) {
  std::uint64_t c = 1;
  for (const auto& a : s.axes) c *= a.values.size();
  return c;
}

std::uint64_t run_count(const SweepSpec& s) { return combination_count(s) * s.reps; }

void validate(const SweepSpec& s) {
  if (s.reps < 1) throw InputError("--reps must be at least 1");
  long double runs = s.reps;
  for (std::size_t i = 0; i < s.axes.size(); ++i) {
    if (s.axes[i].values.empty()) throw InputError("--grid " + s.axes[i].key + ": no values");
    runs *= static_cast<long double>(s.axes[i].values.size());
    for (std::size_t j = 0; j < i; ++j)
      if (s.axes[i].key == s.axes[j].key) throw InputError("--grid " + s.axes[i].key + " is given twice");
  }
  if (runs > 1e8L) throw InputError("the sweep has more than 100000000 runs");
  if (s.shard.count == 0 || s.shard.index >= s.shard.count) throw InputError("--shard: expected i/n with 0 <= i < n");
  if (s.summary.check_every < 1) throw InputError("--check-every must be at least 1");
  if (!(s.summary.form_radius > 0)) throw InputError("--form-radius must be positive");
  if (!(s.summary.decide_fraction > 0 && s.summary.decide_fraction < 0.5))
    throw InputError("--decide-fraction must lie in (0, 0.5)");
  if (s.summary.heading_from > s.summary.heading_to) throw InputError("--heading-window: expected FROM:TO with FROM <= TO");
}

namespace {
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

std::vector<std::size_t> value_index_of(const SweepSpec& s, std::uint64_t combination) {
  std::vector<std::size_t> idx(s.axes.size());
  for (std::size_t a = s.axes.size(); a-- > 0;) {
    const std::uint64_t n = s.axes[a].values.size();
    idx[a] = std::size_t(combination % n);
    combination /= n;
  }
  return idx;
}

std::uint32_t derive_seed(std::uint64_t base, std::string_view key, std::uint64_t rep, SeedMode mode) {
  Fnv1a key_hash;
  key_hash.add_text(key);
  const std::uint64_t h = mode == SeedMode::PerRun ? key_hash.h : 0;
  return std::uint32_t(splitmix64(splitmix64(splitmix64(base) ^ h) + rep) >> 32);
}

std::string combination_key(const SweepSpec& s, const std::vector<std::size_t>& value_index) {
  std::vector<std::string> parts;
  for (std::size_t a = 0; a < s.axes.size(); ++a) parts.push_back(s.axes[a].key + "=" + s.axes[a].labels[value_index[a]]);
  std::sort(parts.begin(), parts.end());
  std::string key;
  for (const auto& p : parts) {
    if (!key.empty()) key += ';';
    key += p;
  }
  return key;
}

RunPoint run_point(const SweepSpec& s, std::uint64_t id) {
  RunPoint pt;
  pt.id = id;
  pt.combination = id / s.reps;
  pt.rep = id % s.reps;
  pt.value_index = value_index_of(s, pt.combination);
  pt.params = s.base;
  double informed = NAN, right_share = NAN;
  for (std::size_t a = 0; a < s.axes.size(); ++a) {
    const GridAxis& ax = s.axes[a];
    const double v = ax.values[pt.value_index[a]];
    if (ax.key == kInformedKey) informed = v;
    else if (ax.key == kRightShareKey) right_share = v;
    else if (auto err = set_param(pt.params, *find_param(ax.key), v)) throw InputError("--grid " + *err);
  }
  if (!std::isnan(informed) || !std::isnan(right_share)) {
    const std::int64_t base_scouts = pt.params.scouts1 + pt.params.scouts2;
    const std::int64_t scouts = std::isnan(informed) ? base_scouts : std::llround(informed * double(pt.params.boids));
    if (std::isnan(right_share)) right_share = base_scouts > 0 ? double(pt.params.scouts1) / double(base_scouts) : 1.0;
    pt.params.scouts1 = std::llround(right_share * double(scouts));
    pt.params.scouts2 = scouts - pt.params.scouts1;
  }
  pt.seed = derive_seed(s.seed, combination_key(s, pt.value_index), pt.rep, s.seed_mode);
  pt.params.seed = pt.seed;
  return pt;
}

}  // namespace flockscope::experiments
