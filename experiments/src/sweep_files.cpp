// What a sweep writes: runs.csv's rows, summary.csv's per-combination statistics, and the
// spec as sweep.json.
//
// Sections: runs.csv rows | per-combination summaries | spec as JSON
#include <algorithm>
#include <cmath>
#include <map>

#include "flockscope/core/io.hpp"
#include "flockscope/core/run.hpp"
#include "flockscope/experiments/sweep.hpp"
#include "text.hpp"

namespace flockscope::experiments {
using nlohmann::json;
using namespace detail;

// ---------------------------------------------------------------- runs.csv rows
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
  // Last, so scripts that read the other columns by position find them where they expect.
  c.push_back("final_share_right"), c.push_back("mean_share_right");
  return c;
}

bool has_scouts(const SweepSpec& s) {
  return s.base.scouts1 > 0 || s.base.scouts2 > 0 || axes_have(s, "scouts1") || axes_have(s, "scouts2") ||
         axes_have(s, kInformedKey);
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
  row << number_cell(r.final_share_right) << number_cell(r.mean_share_right);
  return row.text;
}

// ---------------------------------------------------------------- per-combination summaries
const std::vector<std::string>& summary_metrics(SweepKind kind) {
  static const std::vector<std::string> flock = {"final_diameter", "mean_diameter", "final_polarisation",
                                                 "mean_polarisation", "final_clusters", "formed", "formed_time",
                                                 "final_share_right", "mean_share_right"};
  // The share going right last here too, as in runs.csv.
  static const std::vector<std::string> consensus = [] {
    auto m = flock;
    m.insert(m.end() - 2, "decision_time");
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

}  // namespace flockscope::experiments
