// The oracles of the files a user hands flockscope (fuzz_checks.hpp): presets, state files,
// recordings and a resumed sweep's runs file, each read from bytes as its file reader reads
// them. A reader either refuses the bytes with an InputError or returns something that holds
// up: within the parameter table's ranges, finite, and the same when written and read back.
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "flockscope/core/io.hpp"
#include "flockscope/core/params.hpp"
#include "flockscope/core/recording.hpp"
#include "flockscope/experiments/sweep.hpp"
#include "fuzz_checks.hpp"
#include "fuzz_input.hpp"

namespace fuzztest {
namespace {

using namespace flockscope;

std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return size == 0 ? std::string_view() : std::string_view(reinterpret_cast<const char*>(data), size);
}

// Every parameter a number within its table range (inf only where the range reaches it).
bool params_in_range(const Params& p, std::string* why, const std::string& what) {
  for (const auto& def : param_table()) {
    const double v = get_param(p, def);
    if (std::isnan(v) || v < def.min || v > def.max)
      return fail(why, what + ": " + std::string(def.name) + " = " + std::to_string(v) + " is outside " + range_text(def));
  }
  return true;
}

bool all_finite(const std::vector<float>& v) {
  for (float f : v)
    if (!std::isfinite(f)) return false;
  return true;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

}  // namespace

bool check_preset(const std::uint8_t* data, std::size_t size, std::string* why) {
  Params p;
  try {
    p = parse_preset(text_of(data, size), "fuzz.json");
  } catch (const InputError&) {
    return true;  // refused whole: the caller's parameters are untouched (it returns a new set)
  }
  if (!params_in_range(p, why, "an accepted preset")) return false;
  // What the app saves (save_preset) reads back as the same set.
  const nlohmann::json saved{{"params", params_to_json(p)}};
  Params back;
  try {
    back = parse_preset(saved.dump(2), "saved.json");
  } catch (const InputError& e) {
    return fail(why, std::string("an accepted preset, saved, is refused: ") + e.what());
  }
  if (!(back == p)) return fail(why, "an accepted preset, saved and read back, differs: " + saved.dump());
  return true;
}

bool check_state_csv(const std::uint8_t* data, std::size_t size, std::string* why) {
  FlockSnapshot s;
  try {
    s = parse_state_csv(text_of(data, size), "fuzz.csv");
  } catch (const InputError&) {
    return true;
  }
  if (s.y.size() != s.size() || s.vx.size() != s.size() || s.vy.size() != s.size())
    return fail(why, "a state's columns differ in length");
  if (!all_finite(s.x) || !all_finite(s.y) || !all_finite(s.vx) || !all_finite(s.vy))
    return fail(why, "an accepted state holds a value that is not finite");
  // final_state.csv of this state reads back bit for bit.
  FlockSnapshot back;
  try {
    back = parse_state_csv(state_csv_text(s, Params{}), "final_state.csv");
  } catch (const InputError& e) {
    return fail(why, std::string("an accepted state, written, is refused: ") + e.what());
  }
  if (!same_bits(back.x, s.x) || !same_bits(back.y, s.y) || !same_bits(back.vx, s.vx) || !same_bits(back.vy, s.vy))
    return fail(why, "an accepted state, written and read back, differs");
  return true;
}

// Input: a recording's bytes. Its last byte also picks where a copy is cut short: a
// recording cut anywhere keeps the frames before the cut exactly as the whole file has them.
bool check_recording(const std::uint8_t* data, std::size_t size, std::string* why) {
  const std::string bytes(text_of(data, size));
  std::optional<Recording> whole;
  try {
    whole.emplace(Recording::parse(bytes, "fuzz.flkrec"));
  } catch (const InputError&) {
    return true;
  }
  const Recording& r = *whole;
  if (!r.damage().empty() && r.damage().rfind("byte ", 0) != 0)
    return fail(why, "damage() does not say where: " + r.damage());
  if (!params_in_range(r.params(), why, "a recording's parameters")) return false;
  for (std::size_t i = 0; i < r.frames(); ++i) {
    if (!params_in_range(r.params_at(i), why, "frame " + std::to_string(i) + "'s parameters")) return false;
    const RecordedFrame f = r.frame(i);
    if (f.step != r.step(i) || !(f.time == r.time(i) || (std::isnan(f.time) && std::isnan(r.time(i)))))
      return fail(why, "frame " + std::to_string(i) + ": its step or time differs from the index");
    if (!std::isfinite(f.time)) return fail(why, "frame " + std::to_string(i) + ": time is not finite");
    const auto& b = f.boids;
    if (!all_finite(b.x) || !all_finite(b.y) || !all_finite(b.vx) || !all_finite(b.vy))
      return fail(why, "frame " + std::to_string(i) + ": a boid is not finite");
    for (const auto& p : f.predators)
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.vx) || !std::isfinite(p.vy))
        return fail(why, "frame " + std::to_string(i) + ": a predator is not finite");
    for (const auto& s : f.food)
      if (!std::isfinite(s.x) || !std::isfinite(s.y) || !std::isfinite(s.vx) || !std::isfinite(s.vy))
        return fail(why, "frame " + std::to_string(i) + ": a food source is not finite");
  }
  if (size == 0) return true;
  const std::size_t cut = size * data[size - 1] / 256;
  std::optional<Recording> part;
  try {
    part.emplace(Recording::parse(bytes.substr(0, cut), "cut.flkrec"));
  } catch (const InputError&) {
    return true;  // cut inside the header
  }
  if (part->frames() > r.frames()) return fail(why, "a recording cut short has more frames than the whole");
  for (std::size_t i = 0; i < part->frames(); ++i) {
    const RecordedFrame a = part->frame(i), b = r.frame(i);
    if (a.step != b.step || !same_bits(a.boids.x, b.boids.x) || !same_bits(a.boids.y, b.boids.y) ||
        !same_bits(a.boids.vx, b.boids.vx) || !same_bits(a.boids.vy, b.boids.vy) || !(part->params_at(i) == r.params_at(i)))
      return fail(why, "frame " + std::to_string(i) + " differs when the recording is cut short after it");
  }
  return true;
}

flockscope::experiments::SweepSpec sweep_rows_spec() {
  flockscope::experiments::SweepSpec s;
  s.base.boids = 30;
  s.preset = "report-baseline";
  s.axes.push_back(flockscope::experiments::parse_grid_axis("D_vis=10,inf"));
  s.axes.push_back(flockscope::experiments::parse_grid_axis("S_align=0.04:0.06:0.02"));
  s.reps = 3;
  s.steps = 40;
  return s;
}

// Input: byte 0 picks the shard (bits 1-2: 1 to 3 shards, bits 3-4: which) and whether the
// sweep's header comes first (bit 0), then the runs file's text.
bool check_sweep_rows(const std::uint8_t* data, std::size_t size, std::string* why) {
  using namespace flockscope::experiments;
  static const SweepSpec base = sweep_rows_spec();
  SweepSpec s = base;
  const std::uint8_t pick = size > 0 ? data[0] : 0;
  s.shard.count = 1 + (pick >> 1 & 3u) % 3;
  s.shard.index = (pick >> 3 & 3u) % s.shard.count;
  const std::string header = runs_header(s);
  std::string text = (pick & 1u) ? header + "\n" : std::string();
  text += text_of(size > 0 ? data + 1 : data, size > 0 ? size - 1 : 0);

  std::vector<std::string> warnings;
  std::map<std::uint64_t, std::string> rows;
  try {
    rows = resumable_rows(text, "runs.csv", s, warnings);
  } catch (const InputError&) {
    if (text.rfind(header + "\n", 0) == 0) return fail(why, "this sweep's own header was refused");
    return true;
  }
  std::size_t complete_lines = 0;
  for (std::size_t at = text.find('\n'); at != std::string::npos && at + 1 < text.size(); at = text.find('\n', at + 1))
    if (text.find('\n', at + 1) != std::string::npos) ++complete_lines;
  if (rows.size() + warnings.size() > complete_lines)
    return fail(why, "more rows kept and dropped than complete lines (" + std::to_string(complete_lines) + ")");
  for (const auto& [id, row] : rows) {
    if (id >= run_count(s) || !s.shard.owns(id)) return fail(why, "a kept row is not this shard's run: " + row);
    if (text.find("\n" + row + "\n") == std::string::npos) return fail(why, "a kept row is not a whole line of the file: " + row);
  }
  // What a resumed sweep writes back (header and kept rows) keeps every row, warning-free.
  std::string written = header + "\n";
  for (const auto& [id, row] : rows) written += row + "\n";
  std::vector<std::string> again_warnings;
  const auto again = resumable_rows(written, "runs.partial.csv", s, again_warnings);
  if (again != rows || !again_warnings.empty()) return fail(why, "the kept rows, written back, do not read back the same");
  return true;
}

}  // namespace fuzztest
