// Sections: text helpers | grid axes | the plan | one run's summary | runs.csv rows and
// tables | statistics | per-combination summaries | spec as JSON | running a sweep |
// merging shards
#include "flockscope/core/sweep.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/core/metrics.hpp"
#include "flockscope/core/run.hpp"

namespace flockscope {
namespace fs = std::filesystem;
using nlohmann::json;

// ---------------------------------------------------------------- text helpers
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (std::size_t b = 0;;) {
    const std::size_t e = s.find(sep, b);
    out.push_back(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) return out;
    b = e + 1;
  }
}

bool parse_double(std::string_view t, double& v) {
  t = trim(t);
  if (t == "inf" || t == "infinity") return v = INFINITY, true;
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && ptr == t.data() + t.size() && !t.empty();
}

bool parse_u64(std::string_view t, std::uint64_t& v) {
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && ptr == t.data() + t.size() && !t.empty();
}

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

std::string label_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

bool is_share_key(std::string_view key) { return key == kInformedKey || key == kRightShareKey; }

// Appends cells to a CSV line. (Also sidesteps GCC 12's false -Wrestrict on "," + string.)
struct Line {
  std::string text;
  Line& operator<<(std::string_view cell) {
    if (!text.empty()) text += ',';
    text += cell;
    return *this;
  }
  Line& operator<<(std::uint64_t v) { return *this << std::string_view(std::to_string(v)); }
  Line& operator<<(std::int64_t v) { return *this << std::string_view(std::to_string(v)); }
  Line& operator<<(int v) { return *this << std::int64_t(v); }
};

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
    throw InputError(where + ": unknown parameter '" + axis.key + "' (or informed, right_share)");

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

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::vector<std::size_t> value_index_of(const SweepSpec& s, std::uint64_t combination) {
  std::vector<std::size_t> idx(s.axes.size());
  for (std::size_t a = s.axes.size(); a-- > 0;) {
    const std::uint64_t n = s.axes[a].values.size();
    idx[a] = std::size_t(combination % n);
    combination /= n;
  }
  return idx;
}
}  // namespace

std::uint32_t derive_seed(std::uint64_t base, std::string_view key, std::uint64_t rep, SeedMode mode) {
  const std::uint64_t h = mode == SeedMode::PerRun ? fnv1a(key) : 0;
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

// ---------------------------------------------------------------- one run's summary
double formation_radius(const Params& p, const SummaryOptions& o) { return std::min(cluster_radius(p), o.form_radius); }

RunSummary summarise_run(const Params& p, std::uint64_t steps, SweepKind kind, const SummaryOptions& o) {
  Flock flock(p);
  flock.set_threads(1);
  RunSummary r;
  r.scouts1 = p.scouts1;
  r.scouts2 = p.scouts2;
  const std::size_t n = flock.size();
  r.boid_steps = std::uint64_t(n) * steps;
  const double radius = formation_radius(p, o);
  const std::uint64_t every = std::max<std::uint64_t>(1, o.check_every);
  const bool consensus = kind == SweepKind::Consensus;
  const auto scouts = std::uint64_t(std::max<std::int64_t>(0, p.scouts1) + std::max<std::int64_t>(0, p.scouts2));
  // The decision band: the interior between the margins (the whole width if they leave none).
  double lo = p.leftmargin, hi = p.width - p.rightmargin;
  if (!(hi > lo)) lo = 0, hi = p.width;
  const double centre = 0.5 * (lo + hi), reach = o.decide_fraction * (hi - lo);
  MetricsOptions cluster_only;
  cluster_only.nearest_neighbour = false;

  double sum_d = 0, sum_pol = 0, sum_heading = 0;
  std::uint64_t heading_samples = 0;
  auto sample = [&](std::uint64_t step) {
    if (n == 0) return;
    const float *x = flock.x().data(), *y = flock.y().data(), *vx = flock.vx().data(), *vy = flock.vy().data();
    const std::uint32_t* ids = flock.ids().data();
    double sx = 0, sy = 0, hx = 0, hy = 0, nx = 0, nhx = 0;
    std::size_t moving = 0, naive = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sx += x[i], sy += y[i];
      const double s = std::sqrt(double(vx[i]) * vx[i] + double(vy[i]) * vy[i]);
      if (s > 0) hx += vx[i] / s, hy += vy[i] / s, ++moving;
      if (consensus && ids[i] >= scouts) {
        nx += x[i], ++naive;
        if (s > 0) nhx += vx[i] / s;
      }
    }
    // Up to the decision: after it the margins turn the group back, and a heading averaged
    // over the bounces would say more about the box than about the choice.
    if (consensus && naive && r.decision == 0 && step >= o.heading_from && step <= o.heading_to)
      sum_heading += nhx / double(naive), ++heading_samples;
    const double cx = sx / double(n), cy = sy / double(n);
    double d = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double dx = x[i] - cx, dy = y[i] - cy;
      d += std::sqrt(dx * dx + dy * dy);
    }
    sum_d += d / double(n);
    sum_pol += moving ? std::sqrt(hx * hx + hy * hy) / double(moving) : 0.0;
    if (!r.formed && (step % every == 0 || step == steps) &&
        compute_metrics(view_of(flock), radius, cluster_only).clusters == 1) {
      r.formed = true;
      r.formed_step = step;
      r.formed_time = double(step) * p.dt;
    }
    if (consensus && r.decision == 0) {
      // The naive boids follow the group; the scouts would move the centroid by themselves.
      const double gx = naive ? nx / double(naive) : cx;
      r.decision = gx >= centre + reach ? 1 : (gx <= centre - reach ? -1 : 0);
      if (r.decision != 0) r.decision_step = step, r.decision_time = double(step) * p.dt;
    }
  };

  sample(0);
  for (std::uint64_t step = 1; step <= steps; ++step) {
    flock.step();
    sample(step);
  }
  const Metrics last = compute_metrics(view_of(flock), radius, cluster_only);
  r.final_diameter = last.diameter;
  r.final_polarisation = last.polarisation;
  r.final_clusters = last.clusters;
  r.mean_diameter = sum_d / double(steps + 1);
  r.mean_polarisation = sum_pol / double(steps + 1);
  r.naive_heading = heading_samples ? sum_heading / double(heading_samples) : NAN;
  return r;
}

// ---------------------------------------------------------------- runs.csv rows and tables
std::string number_cell(double v) {
  if (std::isnan(v)) return "NA";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) v = 0;  // no "-0"
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, ptr) : label_number(v);
}

namespace {
bool axes_have(const SweepSpec& s, std::string_view key) {
  return std::any_of(s.axes.begin(), s.axes.end(), [&](const GridAxis& a) { return a.key == key; });
}
}  // namespace

std::vector<std::string> runs_columns(const SweepSpec& s) {
  std::vector<std::string> c = {"run", "combination", "rep", "seed"};
  for (const auto& a : s.axes) c.push_back(a.key);
  const bool consensus = s.kind == SweepKind::Consensus;
  if (consensus && !axes_have(s, "scouts1")) c.push_back("scouts1");
  if (consensus && !axes_have(s, "scouts2")) c.push_back("scouts2");
  for (const char* m : {"final_diameter", "mean_diameter", "final_polarisation", "mean_polarisation", "final_clusters",
                        "formed", "formed_time"})
    c.push_back(m);
  if (consensus) c.push_back("decision"), c.push_back("decision_time"), c.push_back("naive_heading");
  return c;
}

std::string runs_header(const SweepSpec& s) {
  Line h;
  for (const auto& c : runs_columns(s)) h << c;
  return h.text;
}

std::string runs_row(const SweepSpec& s, const RunPoint& pt, const RunSummary& r) {
  Line row;
  row << pt.id << pt.combination << pt.rep << std::uint64_t(pt.seed);
  for (std::size_t a = 0; a < s.axes.size(); ++a) row << s.axes[a].labels[pt.value_index[a]];
  const bool consensus = s.kind == SweepKind::Consensus;
  if (consensus && !axes_have(s, "scouts1")) row << r.scouts1;
  if (consensus && !axes_have(s, "scouts2")) row << r.scouts2;
  for (double v : {r.final_diameter, r.mean_diameter, r.final_polarisation, r.mean_polarisation}) row << number_cell(v);
  row << r.final_clusters << (r.formed ? "1" : "0") << number_cell(r.formed ? r.formed_time : NAN);
  if (consensus) row << r.decision << number_cell(r.decision != 0 ? r.decision_time : NAN) << number_cell(r.naive_heading);
  return row.text;
}

int Table::column(std::string_view name) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return int(i);
  return -1;
}

double Table::number(std::size_t row, int col) const {
  if (col < 0 || row >= rows.size() || std::size_t(col) >= rows[row].size()) return NAN;
  double v = NAN;
  return parse_double(rows[row][std::size_t(col)], v) ? v : NAN;
}

Table parse_csv_table(std::string_view text) {
  Table t;
  bool header = true;
  for (auto line : split(text, '\n')) {
    line = trim(line);
    if (line.empty()) continue;
    std::vector<std::string> cells;
    for (auto c : split(line, ',')) cells.emplace_back(trim(c));
    if (header) t.columns = std::move(cells), header = false;
    else t.rows.push_back(std::move(cells));
  }
  return t;
}

Table read_csv_table(const fs::path& file) { return parse_csv_table(read_input_file(file, kMaxTableBytes)); }

// ---------------------------------------------------------------- statistics
Stats describe(std::span<const double> values) {
  std::vector<double> v;
  for (double x : values)
    if (std::isfinite(x)) v.push_back(x);
  Stats s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front(), s.max = v.back();
  // Summed in sorted order: the same mean whatever order the runs finished in.
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
  const std::size_t h = v.size() / 2;
  s.median = v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
  if (v.size() > 1) {
    double ss = 0;
    for (double x : v) ss += (x - s.mean) * (x - s.mean);
    s.sd = std::sqrt(ss / double(v.size() - 1));
  }
  return s;
}

Proportion proportion(std::size_t k, std::size_t n, double z) {
  Proportion p;
  p.k = k, p.n = n;
  if (n == 0) return p;
  const double nn = double(n), ph = double(k) / nn, z2 = z * z;
  const double centre = (ph + z2 / (2 * nn)) / (1 + z2 / nn);
  const double half = z / (1 + z2 / nn) * std::sqrt(ph * (1 - ph) / nn + z2 / (4 * nn * nn));
  p.p = ph;
  p.lo = std::max(0.0, centre - half);
  p.hi = std::min(1.0, centre + half);
  return p;
}

// ---------------------------------------------------------------- per-combination summaries
const std::vector<std::string>& summary_metrics(SweepKind kind) {
  static const std::vector<std::string> flock = {"final_diameter", "mean_diameter", "final_polarisation",
                                                 "mean_polarisation", "final_clusters", "formed", "formed_time"};
  static const std::vector<std::string> consensus = [] {
    auto m = flock;
    m.push_back("decision_time");
    return m;
  }();
  return kind == SweepKind::Consensus ? consensus : flock;
}

std::vector<ComboSummary> summarise_combinations(const SweepSpec& s, const Table& runs) {
  const int c_combo = runs.column("combination");
  if (c_combo < 0) throw InputError("runs table has no 'combination' column");
  const auto& metrics = summary_metrics(s.kind);
  std::vector<int> cols;
  for (const auto& m : metrics) cols.push_back(runs.column(m));
  const int c_decision = runs.column("decision"), c_s1 = runs.column("scouts1"), c_s2 = runs.column("scouts2");
  std::map<std::uint64_t, std::vector<std::size_t>> groups;
  const std::uint64_t combos = combination_count(s);
  for (std::size_t r = 0; r < runs.rows.size(); ++r) {
    const double c = runs.number(r, c_combo);
    if (!(c >= 0) || c >= double(combos)) throw InputError("runs table: combination out of range in row " + std::to_string(r + 1));
    groups[std::uint64_t(c)].push_back(r);
  }
  std::vector<ComboSummary> out;
  for (const auto& [combo, rows] : groups) {
    ComboSummary cs;
    cs.combination = combo;
    const auto idx = value_index_of(s, combo);
    for (std::size_t a = 0; a < s.axes.size(); ++a) {
      cs.labels.push_back(s.axes[a].labels[idx[a]]);
      cs.values.push_back(s.axes[a].values[idx[a]]);
    }
    cs.runs = rows.size();
    for (int col : cols) {
      std::vector<double> v;
      for (auto r : rows) v.push_back(runs.number(r, col));
      cs.metrics.push_back(describe(v));
    }
    if (s.kind == SweepKind::Consensus) {
      std::size_t right = 0, left = 0;
      for (auto r : rows) {
        const double d = runs.number(r, c_decision);
        right += d > 0, left += d < 0;
      }
      cs.right = proportion(right, rows.size());
      cs.left = proportion(left, rows.size());
      cs.scouts1 = std::llround(runs.number(rows.front(), c_s1));
      cs.scouts2 = std::llround(runs.number(rows.front(), c_s2));
    }
    out.push_back(std::move(cs));
  }
  return out;
}

std::string summary_csv(const SweepSpec& s, const std::vector<ComboSummary>& combos) {
  const bool consensus = s.kind == SweepKind::Consensus;
  Line head;
  head << "combination";
  for (const auto& a : s.axes) head << a.key;
  head << "runs";
  // Named apart from the scouts1/scouts2 parameters, which the grid may sweep as well.
  if (consensus) head << "scouts_right" << "scouts_left" << "p_right" << "p_right_lo" << "p_right_hi" << "p_left" << "p_undecided";
  for (const auto& m : summary_metrics(s.kind))
    for (const char* st : {"_mean", "_sd", "_min", "_max", "_median", "_n"}) head << std::string_view(m + st);
  std::string out = head.text + "\n";
  for (const auto& c : combos) {
    Line row;
    row << c.combination;
    for (const auto& l : c.labels) row << l;
    row << std::uint64_t(c.runs);
    if (consensus) {
      const double undecided = c.runs ? double(c.runs - c.right.k - c.left.k) / double(c.runs) : NAN;
      row << c.scouts1 << c.scouts2 << number_cell(c.right.p) << number_cell(c.right.lo) << number_cell(c.right.hi)
          << number_cell(c.left.p) << number_cell(undecided);
    }
    for (const auto& st : c.metrics)
      row << number_cell(st.mean) << number_cell(st.sd) << number_cell(st.min) << number_cell(st.max)
          << number_cell(st.median) << std::uint64_t(st.n);
    out += row.text + "\n";
  }
  return out;
}

// ---------------------------------------------------------------- spec as JSON
json spec_to_json(const SweepSpec& s) {
  json j;
  j["flockscope_version"] = version_string();
  j["kind"] = s.kind == SweepKind::Consensus ? "consensus" : "flock";
  j["preset"] = s.preset;
  j["params"] = params_to_json(s.base);
  json grid = json::array();
  for (const auto& a : s.axes) grid.push_back({{"key", a.key}, {"values", a.labels}});
  j["grid"] = grid;
  j["reps"] = s.reps;
  j["steps"] = s.steps;
  j["seed"] = s.seed;
  j["seed_mode"] = s.seed_mode == SeedMode::PerRep ? "per-rep" : "per-run";
  j["check_every"] = s.summary.check_every;
  j["form_radius"] = s.summary.form_radius;
  j["decide_fraction"] = s.summary.decide_fraction;
  j["heading_window"] = {s.summary.heading_from, s.summary.heading_to};
  j["shard"] = std::to_string(s.shard.index) + "/" + std::to_string(s.shard.count);
  j["runs"] = run_count(s);
  return j;
}

SweepSpec spec_from_json(const json& j, std::string_view origin) {
  const std::string where(origin);
  try {
    SweepSpec s;
    s.kind = j.at("kind").get<std::string>() == "consensus" ? SweepKind::Consensus : SweepKind::Flock;
    s.preset = j.at("preset").get<std::string>();
    s.base = params_from_json(json{{"params", j.at("params")}}, where);
    for (const auto& g : j.at("grid")) {
      Line values;
      for (const auto& v : g.at("values")) values << v.get<std::string>();
      s.axes.push_back(parse_grid_axis(g.at("key").get<std::string>() + "=" + values.text));
    }
    s.reps = j.at("reps").get<std::uint64_t>();
    s.steps = j.at("steps").get<std::uint64_t>();
    s.seed = j.at("seed").get<std::uint64_t>();
    s.seed_mode = j.at("seed_mode").get<std::string>() == "per-rep" ? SeedMode::PerRep : SeedMode::PerRun;
    s.summary.check_every = j.at("check_every").get<std::uint64_t>();
    s.summary.form_radius = j.at("form_radius").get<double>();
    s.summary.decide_fraction = j.at("decide_fraction").get<double>();
    if (j.contains("heading_window")) {  // absent in studies written before the column
      s.summary.heading_from = j.at("heading_window").at(0).get<std::uint64_t>();
      s.summary.heading_to = j.at("heading_window").at(1).get<std::uint64_t>();
    }
    s.shard = parse_shard(j.at("shard").get<std::string>());
    validate(s);
    return s;
  } catch (const json::exception& e) {
    throw InputError(where + ": not a sweep description (" + e.what() + ")");
  }
}

// ---------------------------------------------------------------- running a sweep
namespace {

std::string slurp(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The first top-level key in which two specs differ (the version is not compared: a newer
// build may finish an older sweep).
std::string spec_difference(json a, json b) {
  a.erase("flockscope_version");
  b.erase("flockscope_version");
  for (const auto& [k, v] : a.items())
    if (!b.contains(k) || b[k] != v) return k;
  for (const auto& [k, v] : b.items())
    if (!a.contains(k)) return k;
  return {};
}

// Whether a stored row is one this sweep could have written for its run: the run's own id,
// combination, rep, seed and swept values, then a number (or NA, inf) in every result cell.
bool row_parses(const SweepSpec& s, std::uint64_t id, std::string_view line) {
  const auto cells = split(line, ',');
  const std::string own = runs_row(s, run_point(s, id), RunSummary{});
  const auto expected = split(own, ',');
  const std::size_t fixed = 4 + s.axes.size();
  if (cells.size() != expected.size()) return false;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    double v = 0;
    if (c < fixed ? cells[c] != expected[c] : cells[c] != "NA" && cells[c] != "-inf" && !parse_double(cells[c], v))
      return false;
  }
  return true;
}

// Complete rows of a runs file that belong to this sweep and shard, by run id. A row is
// complete when it ends in a newline; an interrupted write is dropped. A complete row that
// does not parse as this sweep's row for its run (a garbled file) is dropped too, so its run
// is made again, and named in `warnings`.
std::map<std::uint64_t, std::string> read_rows(const fs::path& file, const SweepSpec& s, const std::string& header,
                                               std::vector<std::string>& warnings) {
  std::map<std::uint64_t, std::string> rows;
  const std::string text = slurp(file);
  if (text.empty()) return rows;
  const std::size_t first_nl = text.find('\n');
  if (first_nl == std::string::npos) return rows;
  if (text.substr(0, first_nl) != header)
    throw InputError(file.string() + ": its columns are not this sweep's (" + header + ")");
  const std::uint64_t total = run_count(s);
  std::size_t b = first_nl + 1, line_no = 1;
  while (b < text.size()) {
    const std::size_t e = text.find('\n', b);
    if (e == std::string::npos) break;  // truncated last line
    const std::string line = text.substr(b, e - b);
    b = e + 1;
    ++line_no;
    std::uint64_t id = 0;
    const bool ok = parse_u64(std::string_view(line).substr(0, line.find(',')), id) && id < total;
    if (ok && !s.shard.owns(id)) continue;  // another shard's run
    if (!ok || !row_parses(s, id, line)) {
      warnings.push_back(file.string() + ":" + std::to_string(line_no) + ": row does not parse as this sweep's (" +
                         (line.size() > 60 ? line.substr(0, 60) + "..." : line) + "); dropped, its run is made again");
      continue;
    }
    rows.emplace(id, line);
  }
  return rows;
}

std::uint64_t shard_total(const SweepSpec& s) {
  const std::uint64_t total = run_count(s);
  return s.shard.index < total ? (total - s.shard.index + s.shard.count - 1) / s.shard.count : 0;
}

std::string joined(const std::string& header, const std::map<std::uint64_t, std::string>& rows) {
  std::string out = header;
  out += '\n';
  for (const auto& [id, row] : rows) {
    out += row;
    out += '\n';
  }
  return out;
}

}  // namespace

SweepOutcome run_sweep(const SweepSpec& s, const fs::path& dir, const SweepOptions& o) {
  validate(s);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw OutputError(dir.string() + ": cannot create output folder (" + (ec ? ec.message() : "a file of that name is in the way") + ")");

  const json spec = spec_to_json(s);
  const fs::path spec_file = dir / "sweep.json", runs_file = dir / "runs.csv", partial_file = dir / "runs.partial.csv";
  if (fs::exists(spec_file)) {
    json old;
    try {
      old = json::parse(slurp(spec_file));
    } catch (const json::exception&) {
      throw InputError(spec_file.string() + ": not valid JSON; remove the folder or use another --out");
    }
    if (const auto diff = spec_difference(spec, old); !diff.empty())
      throw InputError(dir.string() + " holds a different sweep (its '" + diff +
                       "' differs); use another --out or remove the folder");
  } else {
    if (fs::exists(runs_file) || fs::exists(partial_file))
      throw InputError(dir.string() + " holds runs but no sweep.json; use another --out or remove the folder");
    write_text_file(spec_file, spec.dump(2) + "\n");
  }

  const std::string header = runs_header(s);
  std::map<std::uint64_t, std::string> done;
  std::vector<std::string> warnings;
  if (fs::exists(runs_file)) done = read_rows(runs_file, s, header, warnings);
  if (fs::exists(partial_file)) done.merge(read_rows(partial_file, s, header, warnings));
  for (const auto& w : warnings)
    if (o.warn) o.warn(w);
  // Rewritten with only the complete rows, so new rows never follow a half-written one.
  write_text_file(partial_file, joined(header, done));

  SweepOutcome out;
  out.total = shard_total(s);
  out.skipped = done.size();
  std::vector<std::uint64_t> pending;
  for (std::uint64_t id = s.shard.index, total = run_count(s); id < total; id += s.shard.count)
    if (!done.count(id)) pending.push_back(id);
  if (o.max_new_runs > 0 && pending.size() > o.max_new_runs) pending.resize(std::size_t(o.max_new_runs));

  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::FILE* partial = std::fopen(partial_file.c_str(), "ab");
  if (!partial) throw OutputError(partial_file.string() + ": cannot write (" + std::strerror(errno) + ")");

  std::mutex mu;
  std::condition_variable cv;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::atomic<bool> closed{false};  // SweepQueue::close(): no more rows
  std::uint64_t finished = 0, boid_steps = 0;
  std::size_t running = 0;
  std::exception_ptr error;
  std::map<std::uint64_t, std::string> fresh;
  auto stopped = [&] { return failed.load() || closed.load() || (o.stop && o.stop->load()); };
  auto take = [&]() -> std::optional<std::uint64_t> {
    if (stopped()) return std::nullopt;
    const std::size_t k = next.fetch_add(1);
    if (k >= pending.size()) return std::nullopt;
    return pending[k];
  };
  // One row per write, flushed: an interruption loses at most the rows in flight.
  auto keep = [&](std::uint64_t id, const std::string& row, std::uint64_t steps) {
    std::lock_guard lock(mu);
    if (closed) return;
    if (std::fputs((row + "\n").c_str(), partial) < 0 || std::fflush(partial) != 0)
      throw OutputError(partial_file.string() + ": write failed (" + std::strerror(errno) + ")");
    fresh.emplace(id, row);
    ++finished;
    boid_steps += steps;
    cv.notify_all();
  };

  auto worker = [&] {
    try {
      while (const auto id = take()) {
        const RunPoint pt = run_point(s, *id);
        const RunSummary r = summarise_run(pt.params, s.steps, s.kind, s.summary);
        keep(pt.id, runs_row(s, pt, r), r.boid_steps);
      }
    } catch (...) {
      std::lock_guard lock(mu);
      if (!error) error = std::current_exception();
      failed = true;
    }
    std::lock_guard lock(mu);
    --running;
    cv.notify_all();
  };

  using TakeFn = decltype(take);
  using KeepFn = decltype(keep);
  using StoppedFn = decltype(stopped);
  struct Queue final : SweepQueue {
    TakeFn& take_;
    KeepFn& keep_;
    StoppedFn& stopped_;
    std::mutex& mu_;
    const std::uint64_t& finished_;
    std::atomic<bool>& closed_;
    const std::atomic<std::size_t>& next_;
    const std::vector<std::uint64_t>& pending_;
    std::uint64_t skipped_, total_;
    Queue(TakeFn& t, KeepFn& k, StoppedFn& st, std::mutex& m, const std::uint64_t& f,
          std::atomic<bool>& c, const std::atomic<std::size_t>& n, const std::vector<std::uint64_t>& p, std::uint64_t skipped, std::uint64_t total)
        : take_(t), keep_(k), stopped_(st), mu_(m), finished_(f), closed_(c), next_(n), pending_(p), skipped_(skipped), total_(total) {}
    std::optional<std::uint64_t> take() override { return take_(); }
    void add(std::uint64_t id, const std::string& row, std::uint64_t steps) override { keep_(id, row, steps); }
    bool stopping() const override { return stopped_(); }
    bool drained() const override { return next_.load() >= pending_.size(); }
    std::uint64_t kept() const override {
      std::lock_guard lock(mu_);
      return skipped_ + finished_;
    }
    std::uint64_t total() const override { return total_; }
    std::uint64_t close() override {
      std::lock_guard lock(mu_);
      closed_ = true;
      return skipped_ + finished_;
    }
  } queue(take, keep, stopped, mu, finished, closed, next, pending, out.skipped, out.total);

  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t jobs = std::min<std::size_t>(o.jobs > 0 ? std::size_t(o.jobs) : hw, std::max<std::size_t>(1, pending.size()));
  std::vector<std::thread> threads;
  const std::size_t n_threads = pending.empty() ? 0 : jobs;
  running = n_threads;  // before any worker starts: they count it down as they finish
  for (std::size_t t = 0; t < n_threads; ++t) threads.emplace_back(worker);
  auto report = [&](std::uint64_t fin) {
    if (o.progress) o.progress({out.skipped + fin, out.total, out.skipped, elapsed()});
  };
  // The remote's runs are out while poll() says so; it is polled from here, between waits
  // short enough to keep the other processes fed.
  bool remote_busy = o.remote != nullptr;
  auto poll_remote = [&] {
    if (!remote_busy) return;
    try {
      remote_busy = o.remote->poll(queue);
    } catch (...) {
      std::lock_guard lock(mu);
      if (!error) error = std::current_exception();
      failed = true;
      remote_busy = false;
    }
  };
  {
    const double wait = o.remote ? 0.002 : std::max(0.01, o.progress_interval);
    double last_report = 0;
    std::unique_lock lock(mu);
    while (running > 0 || remote_busy) {
      cv.wait_for(lock, std::chrono::duration<double>(wait));
      const std::uint64_t fin = finished;
      lock.unlock();
      poll_remote();
      if (const double t = elapsed(); t - last_report >= o.progress_interval) {
        last_report = t;
        report(fin);
      }
      lock.lock();
    }
  }
  for (auto& t : threads) t.join();
  std::fclose(partial);
  if (error) std::rethrow_exception(error);

  out.ran = finished;
  out.boid_steps = boid_steps;
  out.seconds = elapsed();
  report(finished);
  done.merge(fresh);
  if (done.size() == out.total) {
    const std::string text = joined(header, done);
    write_text_file(runs_file, text);
    fs::remove(partial_file, ec);
    out.combos = summarise_combinations(s, parse_csv_table(text));
    write_text_file(dir / "summary.csv", summary_csv(s, out.combos));
    out.complete = true;
  }
  return out;
}

// ---------------------------------------------------------------- merging shards
SweepSpec merge_shards(const std::vector<fs::path>& shard_dirs, const fs::path& dir, std::vector<ComboSummary>* combos) {
  if (shard_dirs.empty()) throw InputError("no shard folders given");
  SweepSpec merged;
  json first;
  std::vector<bool> seen;
  std::map<std::uint64_t, std::string> rows;
  std::string header;
  for (const auto& d : shard_dirs) {
    const fs::path spec_file = d / "sweep.json";
    if (!fs::exists(spec_file)) throw InputError(d.string() + ": no sweep.json (not a sweep folder)");
    json j;
    try {
      j = json::parse(slurp(spec_file));
    } catch (const json::exception&) {
      throw InputError(spec_file.string() + ": not valid JSON");
    }
    const SweepSpec s = spec_from_json(j, spec_file.string());
    if (seen.empty()) {
      merged = s;
      first = j;
      header = runs_header(s);
      seen.assign(std::size_t(s.shard.count), false);
    } else {
      json a = first, b = j;
      a.erase("shard"), b.erase("shard");
      if (const auto diff = spec_difference(a, b); !diff.empty())
        throw InputError(d.string() + ": a different sweep from " + shard_dirs.front().string() + " (its '" + diff + "' differs)");
      if (s.shard.count != seen.size()) throw InputError(d.string() + ": shard count differs from the other folders");
    }
    if (seen[std::size_t(s.shard.index)]) throw InputError(d.string() + ": shard " + std::to_string(s.shard.index) + " given twice");
    seen[std::size_t(s.shard.index)] = true;
    if (!fs::exists(d / "runs.csv"))
      throw InputError(d.string() + ": shard not finished (no runs.csv); run its command again to resume it");
    std::vector<std::string> bad;
    auto part = read_rows(d / "runs.csv", s, header, bad);
    if (part.size() != shard_total(s))
      throw InputError(d.string() + ": runs.csv is incomplete" + (bad.empty() ? "" : " (" + bad.front() + ")"));
    rows.merge(part);
  }
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (!seen[i]) throw InputError("shard " + std::to_string(i) + "/" + std::to_string(seen.size()) + " is missing");
  merged.shard = Shard{};
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw OutputError(dir.string() + ": cannot create output folder (" + (ec ? ec.message() : "a file of that name is in the way") + ")");
  const std::string text = joined(header, rows);
  write_text_file(dir / "sweep.json", spec_to_json(merged).dump(2) + "\n");
  write_text_file(dir / "runs.csv", text);
  auto summary = summarise_combinations(merged, parse_csv_table(text));
  write_text_file(dir / "summary.csv", summary_csv(merged, summary));
  if (combos) *combos = std::move(summary);
  return merged;
}

}  // namespace flockscope
