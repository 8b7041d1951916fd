// Writes the seed corpora of the file readers' fuzz targets (tests/fuzz/corpus/{preset,
// state_csv,recording,sweep_rows,explore_setup}/) with the app's own writers: the bundled presets and
// presets the app saves, state files as `run` writes them, recordings as the window and
// `mirror` record them, a sweep's runs file; each also damaged in the ways files are
// (cut short, bytes flipped, hand edits). Deterministic: rerunning it changes nothing. Files
// named regress_* (the fuzzer's findings kept as tests) are left alone.
//
//   build/tests/fuzz/make_file_corpora tests/fuzz/corpus
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "flockscope/core/io.hpp"
#include "flockscope/core/metrics.hpp"
#include "flockscope/core/recording.hpp"
#include "flockscope/experiments/sweep.hpp"
#include "explore_setup.hpp"
#include "fuzz_checks.hpp"

namespace fs = std::filesystem;
using namespace flockscope;

namespace {

void put(const fs::path& dir, const std::string& name, const std::string& bytes) {
  std::ofstream(dir / name, std::ios::binary) << bytes;
}

std::string slurp(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Damaged copies: cut at a few places, a few bytes flipped.
void damaged(const fs::path& dir, const std::string& stem, const std::string& bytes, std::mt19937& rng, int flips) {
  for (const double at : {0.1, 0.5, 0.9})
    put(dir, stem + "_cut" + std::to_string(int(at * 100)), bytes.substr(0, std::size_t(double(bytes.size()) * at)));
  for (int k = 0; k < flips; ++k) {
    std::string b = bytes;
    for (int j = 0; j <= k; ++j) b[rng() % b.size()] ^= char(1u << (rng() % 8));
    put(dir, stem + "_flipped" + std::to_string(k), b);
  }
}

void presets(const fs::path& dir, std::mt19937& rng) {
  for (const auto& name : preset_names()) {
    const std::string text = slurp(resolve_preset(name));
    if (text.size() <= 8192) put(dir, "bundled_" + name, text);
  }
  Params p;
  p.boids = 300;
  put(dir, "saved_by_app", nlohmann::json{{"description", "saved"}, {"params", params_to_json(p)}}.dump(2));
  damaged(dir, "saved_by_app", nlohmann::json{{"params", params_to_json(p)}}.dump(2), rng, 3);
  const char* hand[][2] = {
      {"empty", ""},
      {"not_object", "[1, 2]"},
      {"null", "null"},
      {"empty_object", "{}"},
      {"description_only", R"({"description": "x"})"},
      {"params_not_object", R"({"params": 3})"},
      {"unknown_key", R"({"params": {"visualrange": 40}})"},
      {"unknown_top", R"({"parameters": {}})"},
      {"out_of_range", R"({"params": {"visualRange": -5}})"},
      {"huge", R"({"params": {"visualRange": 1e999}})"},
      {"nan_text", R"({"params": {"maxspeed": "nan"}})"},
      {"inf_text", R"({"params": {"D_vis": "inf", "maxspeed": "inf"}})"},
      {"bool_for_real", R"({"params": {"maxspeed": true}})"},
      {"text_for_int", R"({"params": {"boids": "many"}})"},
      {"fraction_for_int", R"({"params": {"boids": 10.5}})"},
      {"choice_names", R"({"params": {"rules": "report", "predator_mode": "chase"}})"},
      {"choice_bad", R"({"params": {"rules": "reynolds"}})"},
      {"nested", R"({"params": {"visualRange": {"a": [1]}}})"},
      {"duplicate_key", R"({"params": {"boids": 10, "boids": 20}})"},
      {"unterminated", R"({"params": {"boids": 10)"},
      {"bom", "\xEF\xBB\xBF{\"params\": {\"boids\": 10}}"},
  };
  for (const auto& [name, text] : hand) put(dir, std::string("hand_") + name, text);
}

void state_files(const fs::path& dir, std::mt19937& rng) {
  Params p;
  p.boids = 12;
  p.scouts1 = 2;
  Flock f(p);
  for (int i = 0; i < 5; ++i) f.step();
  const std::string written = state_csv_text(f.snapshot(), p);
  put(dir, "final_state", written);
  damaged(dir, "final_state", written, rng, 3);
  const char* hand[][2] = {
      {"empty", ""},
      {"header_only", "x,y,vx,vy\n"},
      {"reordered", "vy,vx,y,x\n1,2,3,4\n"},
      {"spreadsheet", "\"id\",\"x\",\"y\",\"vx\",\"vy\"\r\n0,\"10.5\",\"20\",\"1\",\"-1\"\r\n\r\n1, 3, 4, 0, 0\r\n"},
      {"blank_lines", "\n\n x , y , vx , vy \n\n1,2,3,4\n\n"},
      {"missing_column", "x,y,vx\n1,2,3\n"},
      {"short_row", "x,y,vx,vy\n1,2,3,4\n1,2\n"},
      {"nan", "x,y,vx,vy\nnan,2,3,4\n"},
      {"inf", "x,y,vx,vy\n1,inf,3,4\n"},
      {"overflow", "x,y,vx,vy\n1e39,2,3,4\n"},
      {"hex", "x,y,vx,vy\n0x10,2,3,4\n"},
      {"trailing", "x,y,vx,vy\n1,2,3,4abc\n"},
      {"no_newline", "x,y,vx,vy\n1,2,3,4"},
      {"empty_cell", "x,y,vx,vy\n1,,3,4\n"},
      {"extra_columns", "group,x,id,y,vx,vy,extra\n1,2,3,4,5,6,7\n"},
      {"denormal", "x,y,vx,vy\n1e-45,-0,3,4\n"},
  };
  for (const auto& [name, text] : hand) put(dir, std::string("hand_") + name, text);
}

std::string record(const Params& p, int frames, bool change_params) {
  const fs::path file = fs::temp_directory_path() / "flockscope_make_file_corpora.flkrec";
  {
    Flock f(p);
    RecordingWriter w(file, p);
    for (int i = 0; i < frames; ++i) {
      if (change_params && i == frames / 2) {
        Params q = p;
        q.maxspeed = p.maxspeed * 0.5;
        w.write_params(q);
      }
      w.write_frame(f, compute_metrics(f));
      f.step();
    }
    w.close();
  }
  std::string bytes = slurp(file);
  fs::remove(file);
  return bytes;
}

// The same recording in format version 1, which has no checksums: a fuzzer's changed byte
// then reaches the frame decoder instead of failing a checksum.
std::string without_checksums(const std::string& v2) {
  auto u32_at = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int k = 3; k >= 0; --k) v = v << 8 | std::uint8_t(v2[at + std::size_t(k)]);
    return v;
  };
  std::string out = v2.substr(0, 16);
  out[8] = 1, out[9] = out[10] = out[11] = 0;
  const std::size_t hlen = u32_at(12);
  out += v2.substr(16, hlen);
  for (std::size_t at = 16 + hlen + 4; at + 5 <= v2.size();) {
    const std::size_t len = u32_at(at + 1);
    out += v2.substr(at, 5 + len);
    at += 5 + len + 4;
  }
  return out;
}

void recordings(const fs::path& dir, std::mt19937& rng) {
  Params p;
  p.boids = 16;
  const std::string plain = record(p, 4, false);
  put(dir, "plain", plain);
  damaged(dir, "plain", plain, rng, 4);
  put(dir, "params_changed", record(p, 4, true));
  put(dir, "v1_plain", without_checksums(plain));
  put(dir, "v1_params_changed", without_checksums(record(p, 4, true)));
  damaged(dir, "v1_plain", without_checksums(plain), rng, 4);
  Params q = load_preset(resolve_preset("cornell-final-project"));
  q.boids = 12;
  q.food = 2;
  q.predators = 2;
  const std::string extensions = record(q, 3, false);
  put(dir, "extensions", extensions);
  put(dir, "v1_extensions", without_checksums(extensions));
  damaged(dir, "extensions", extensions, rng, 2);
  put(dir, "hand_empty", "");
  put(dir, "hand_magic_only", plain.substr(0, 8));
  put(dir, "hand_header_only", plain.substr(0, std::min<std::size_t>(plain.size(), 16)));
}

void sweep_rows(const fs::path& dir) {
  using namespace flockscope::experiments;
  const SweepSpec s = fuzztest::sweep_rows_spec();
  std::string rows;
  for (std::uint64_t id = 0; id < run_count(s); ++id) {
    RunSummary r;
    r.final_diameter = 50 + double(id);
    r.mean_diameter = 40 + double(id) / 4;
    rows += runs_row(s, run_point(s, id), r) + "\n";
  }
  const std::string header = runs_header(s) + "\n";
  // byte 0: bit 0 prepends the header; bits 1-2 the shard count - 1; bits 3-4 the shard.
  put(dir, "whole", std::string(1, '\0') + header + rows);
  put(dir, "rows_only", std::string(1, '\1') + rows);
  put(dir, "shard_1_of_2", std::string(1, char(1 | 1 << 1 | 1 << 3)) + rows);
  put(dir, "shard_2_of_3", std::string(1, char(1 | 2 << 1 | 2 << 3)) + rows);
  put(dir, "cut_mid_row", std::string(1, '\1') + rows.substr(0, rows.size() - 7));
  std::string garbled = rows;
  garbled[garbled.find('\n') + 3] = 'x';
  put(dir, "garbled_row", std::string(1, '\1') + garbled);
  put(dir, "duplicate_rows", std::string(1, '\1') + rows + rows.substr(0, rows.find('\n') + 1));
  put(dir, "crlf", std::string(1, '\0') + header.substr(0, header.size() - 1) + "\r\n" + rows);
  put(dir, "other_header", std::string(1, '\0') + "id,combination,rep,seed\n" + rows);
  put(dir, "na_and_inf", std::string(1, '\1') + "0,0,0,1,10,0.04,NA,-inf,inf,nan\n");
  put(dir, "empty", std::string(1, '\1'));
  put(dir, "id_out_of_range", std::string(1, '\1') + "99" + rows.substr(rows.find(',')));
}

void explore_setups(const fs::path& dir, std::mt19937& rng) {
  using namespace flockscope::cli;
  const std::string saved = setup_to_json(setup_of_spec(fuzztest::sweep_rows_spec(), "mean_diameter", 0)).dump(2);
  put(dir, "saved_lists", saved);
  damaged(dir, "saved_lists", saved, rng, 3);
  ExploreSetup range;
  range.preset = "report-baseline";
  range.axes.push_back({"visualRange", 10, 80, 8, false, {}});
  range.axes.push_back({"centeringfactor", 0.0001, 0.01, 5, true, {}});
  put(dir, "saved_ranges", setup_to_json(range).dump(2));
  const char* hand[][2] = {
      {"empty", ""},
      {"not_object", "[]"},
      {"preset_only", R"({"preset": "report-baseline", "axes": [{"key": "D_vis", "from": 10, "to": 40, "values": 4}], "repeats": 1, "steps": 10})"},
      {"no_axes", R"({"preset": "report-baseline", "axes": [], "repeats": 1, "steps": 10})"},
      {"three_axes", R"({"params": {}, "axes": [{"key": "D_vis", "values": [1]}, {"key": "S_coh", "values": [1]}, {"key": "S_sep", "values": [1]}], "repeats": 1, "steps": 1})"},
      {"same_axis_twice", R"({"params": {}, "axes": [{"key": "D_vis", "values": [10]}, {"key": "D_vis", "values": [20]}], "repeats": 1, "steps": 1})"},
      {"reversed", R"({"params": {}, "axes": [{"key": "visualRange", "from": 50, "to": 10, "values": 3}], "repeats": 1, "steps": 1})"},
      {"out_of_range", R"({"params": {}, "axes": [{"key": "visualRange", "from": -5, "to": 10, "values": 3}], "repeats": 1, "steps": 1})"},
      {"text_values", R"({"params": {}, "axes": [{"key": "D_vis", "values": ["10", "inf", "x"]}], "repeats": 2, "steps": 5})"},
      {"log_axis", R"({"params": {}, "axes": [{"key": "centeringfactor", "from": 0.0001, "to": 0.01, "values": 5, "log": true}], "repeats": 1, "steps": 1})"},
      {"seed_and_measure", R"({"params": {}, "seed": 4294967295, "axes": [{"key": "maxspeed", "values": [3, 6]}], "repeats": 1, "steps": 1, "measure": "final_clusters", "workers": 3})"},
      {"bad_measure", R"({"params": {}, "axes": [{"key": "maxspeed", "values": [3]}], "repeats": 1, "steps": 1, "measure": "fun"})"},
      {"newer_version", R"({"flockscope_explore_setup": 99, "params": {}, "axes": [{"key": "maxspeed", "values": [3]}], "repeats": 1, "steps": 1})"},
      {"unknown_field", R"({"params": {}, "axes": [{"key": "maxspeed", "values": [3], "colour": 1}], "repeats": 1, "steps": 1})"},
      {"choice_axis", R"({"params": {}, "axes": [{"key": "rules", "values": [0, 1]}], "repeats": 1, "steps": 1})"},
  };
  for (const auto& [name, text] : hand) put(dir, std::string("hand_") + name, text);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR (tests/fuzz/corpus)\n", argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  setenv("SOURCE_DATE_EPOCH", "1796083200", 1);  // recordings' "created": 2026-12-01
  std::mt19937 rng(20261129);
  for (const char* t : {"preset", "state_csv", "recording", "sweep_rows", "explore_setup"}) {
    fs::create_directories(root / t);
    for (const auto& e : fs::directory_iterator(root / t))
      if (e.path().filename().string().rfind("regress_", 0) != 0) fs::remove(e.path());
  }
  presets(root / "preset", rng);
  state_files(root / "state_csv", rng);
  recordings(root / "recording", rng);
  sweep_rows(root / "sweep_rows");
  explore_setups(root / "explore_setup", rng);
  return 0;
}
