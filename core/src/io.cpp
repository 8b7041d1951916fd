#include "flockscope/core/io.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "flockscope/core/text.hpp"

#ifndef FLOCKSCOPE_SOURCE_ASSETS
#define FLOCKSCOPE_SOURCE_ASSETS "assets"
#endif

namespace flockscope {
namespace fs = std::filesystem;
using nlohmann::json;

std::string read_input_file(const fs::path& file, std::uintmax_t limit) {
  const std::string name = file.string();
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (ec || !fs::exists(st)) throw InputError(name + ": cannot open (" + (ec ? ec.message() : "no such file") + ")");
  if (!fs::is_regular_file(st)) {
    const char* kind = fs::is_directory(st) ? "a folder" : fs::is_character_file(st) ? "a character device"
                     : fs::is_block_file(st) ? "a block device" : fs::is_fifo(st) ? "a pipe" : fs::is_socket(st) ? "a socket"
                     : "not a file";
    throw InputError(name + ": not a regular file (" + kind + "); give a file");
  }
  auto too_big = [&](std::uintmax_t size) {
    return InputError(name + ": " + std::to_string(size) + " bytes, over the limit of " + std::to_string(limit) +
                      " bytes for this kind of file");
  };
  const std::uintmax_t size = fs::file_size(file, ec);
  if (!ec && size > limit) throw too_big(size);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(name + ": cannot open (" + std::strerror(errno) + ")");
  // Read up to the limit and one byte more, so a file that grows while read stops too.
  std::string text;
  text.resize(std::size_t(std::min<std::uintmax_t>(ec ? 0 : size, limit)));
  in.read(text.data(), std::streamsize(text.size()));
  text.resize(std::size_t(in.gcount()));
  char buf[65536];
  while (in) {
    in.read(buf, sizeof buf);
    text.append(buf, std::size_t(in.gcount()));
    if (text.size() > limit) throw too_big(text.size());
  }
  if (in.bad()) throw InputError(name + ": read failed (" + std::strerror(errno) + ")");
  return text;
}

fs::path assets_dir() {
  if (const char* env = std::getenv("FLOCKSCOPE_ASSETS"); env && *env) return env;
  // Looked up once: the executable does not move while it runs.
  static const fs::path found = [] {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
      for (const fs::path& dir : {exe.parent_path() / ".." / "share" / "flockscope" / "assets", exe.parent_path() / "assets"})
        if (fs::is_directory(dir / "presets", ec)) return dir.lexically_normal();
    return fs::path(FLOCKSCOPE_SOURCE_ASSETS);
  }();
  return found;
}

fs::path preset_dir() { return assets_dir() / "presets"; }

fs::path resolve_preset(std::string_view name_or_file) {
  const fs::path direct(name_or_file);
  // Without an error code, exists() throws on a name the system refuses (too long, say): a
  // preset name is the user's text, so that is an unknown preset like any other.
  std::error_code ec;
  if (direct.extension() == ".json" || name_or_file.find('/') != std::string_view::npos) {
    if (!fs::exists(direct, ec))
      throw InputError(direct.string() + ": no such preset file" + (ec ? " (" + ec.message() + ")" : ""));
    return direct;
  }
  const fs::path bundled = preset_dir() / (std::string(name_or_file) + ".json");
  if (!fs::exists(bundled, ec)) {
    const auto names = preset_names();
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    const auto best = nearest_name(name_or_file, names);
    throw InputError("unknown preset '" + std::string(name_or_file) + "' (" +
                     (best.empty() ? "" : "did you mean " + std::string(best) + "? ") + "known: " + known + ")");
  }
  return bundled;
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(preset_dir(), ec))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

Params params_from_json(const json& j, std::string_view origin) {
  const std::string where(origin);
  if (!j.is_object()) throw InputError(where + ": a preset must be a JSON object");
  for (const auto& [key, value] : j.items())
    if (key != "description" && key != "params" && key != "source")
      throw InputError(where + ": unknown top-level key '" + key + "' (expected description, source, params)");
  Params p;  // defaults; filled into a copy so a failure half way changes nothing
  if (!j.contains("params")) return p;
  const json& params = j.at("params");
  if (!params.is_object()) throw InputError(where + ": 'params' must be an object of parameter values");
  for (const auto& [key, value] : params.items()) {
    const ParamDef* def = find_param(key);
    if (!def) throw InputError(where + ": " + unknown_param(key));
    std::optional<std::string> err;
    if (value.is_boolean()) {
      if (def->kind != ParamKind::Bool) err = key + ": true/false given, allowed " + describe_range(*def);
      else err = set_param(p, *def, value.get<bool>() ? 1.0 : 0.0);
    } else if (value.is_number()) {
      err = set_param(p, *def, value.get<double>());
    } else if (value.is_string()) {
      err = set_param_text(p, key, value.get<std::string>());
    } else {
      err = key + ": expected a number, boolean or string; allowed " + describe_range(*def);
    }
    if (err) throw InputError(where + ": " + *err);
  }
  return p;
}

Params load_preset(const fs::path& file) { return parse_preset(read_input_file(file, kMaxPresetBytes), file.string()); }

Params parse_preset(std::string_view text, std::string_view origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // a syntax error, or a number out of range (1e999)
    throw InputError(std::string(origin) + ": not valid JSON (" + e.what() + ")");
  }
  return params_from_json(j, origin);
}

std::string preset_description(const fs::path& file) {
  try {
    const json j = json::parse(read_input_file(file, kMaxPresetBytes));
    if (j.is_object() && j.contains("description") && j.at("description").is_string()) return j.at("description").get<std::string>();
  } catch (const std::exception&) {
  }
  return {};
}

json params_to_json(const Params& p) {
  json out = json::object();
  for (const auto& def : param_table()) {
    const double v = get_param(p, def);
    const std::string key(def.name);
    switch (def.kind) {
      case ParamKind::Bool: out[key] = v != 0; break;
      case ParamKind::Choice: out[key] = format_param(p, def); break;
      case ParamKind::Int: out[key] = static_cast<long long>(v); break;
      case ParamKind::Real:
        if (std::isinf(v)) out[key] = "inf";
        else out[key] = v;
        break;
    }
  }
  return out;
}

OutputFile::OutputFile(const fs::path& file) : file_(file), tmp_(file.string() + ".tmp") {
  out_ = std::fopen(tmp_.c_str(), "wb");
  if (!out_) throw OutputError(file_.string() + ": cannot write (" + std::strerror(errno) + ")");
}

OutputFile::~OutputFile() {
  if (out_) {
    std::fclose(out_);
    std::error_code ec;
    fs::remove(tmp_, ec);
  }
}

void OutputFile::write(std::string_view text) {
  if (!out_) throw OutputError(file_.string() + ": write after commit");
  if (std::fwrite(text.data(), 1, text.size(), out_) != text.size())
    throw OutputError(file_.string() + ": write failed (" + std::strerror(errno) + ")");
}

void OutputFile::commit() {
  std::FILE* f = out_;
  out_ = nullptr;
  const bool flushed = std::fflush(f) == 0;
  const int err = errno;
  const bool closed = std::fclose(f) == 0;
  std::error_code ec;
  if (!flushed || !closed) {
    fs::remove(tmp_, ec);
    throw OutputError(file_.string() + ": write failed (" + std::strerror(flushed ? errno : err) + ")");
  }
  fs::rename(tmp_, file_, ec);
  if (ec) {
    fs::remove(tmp_, ec);
    throw OutputError(file_.string() + ": cannot write (" + ec.message() + ")");
  }
}

void write_text_file(const fs::path& file, std::string_view text) {
  OutputFile out(file);
  out.write(text);
  out.commit();
}

void save_preset(const Params& p, const fs::path& file, std::string_view description) {
  json j;
  if (!description.empty()) j["description"] = std::string(description);
  j["params"] = params_to_json(p);
  write_text_file(file, j.dump(2) + "\n");
}

namespace {
// A state file's cells, with blanks and the quotes some spreadsheet exports put around cells
// stripped (the experiments' own tables have no quotes: csv_table.cpp trims blanks alone).
std::vector<std::string_view> split_csv(std::string_view line) {
  std::vector<std::string_view> cells = split(line, ',');
  for (std::string_view& c : cells) {
    while (!c.empty() && (c.front() == ' ' || c.front() == '"')) c.remove_prefix(1);
    while (!c.empty() && (c.back() == ' ' || c.back() == '"' || c.back() == '\r')) c.remove_suffix(1);
  }
  return cells;
}
}  // namespace

FlockSnapshot read_state_csv(const fs::path& file) {
  return parse_state_csv(read_input_file(file, kMaxTableBytes), file.string());
}

FlockSnapshot parse_state_csv(std::string_view text, std::string_view origin) {
  const std::string where(origin);
  std::istringstream in{std::string(text)};
  std::string line;
  std::size_t line_no = 0;
  int col[4] = {-1, -1, -1, -1};
  const char* names[4] = {"x", "y", "vx", "vy"};
  while (std::getline(in, line)) {  // header: first non-empty line
    ++line_no;
    if (line.find_first_not_of(" \r\t") == std::string::npos) continue;
    const auto cells = split_csv(line);
    for (std::size_t c = 0; c < cells.size(); ++c)
      for (int k = 0; k < 4; ++k)
        if (cells[c] == names[k]) col[k] = int(c);
    break;
  }
  for (int k = 0; k < 4; ++k)
    if (col[k] < 0) throw InputError(where + ": header has no column '" + names[k] + "' (need x,y,vx,vy)");
  FlockSnapshot s;
  std::vector<float>* dst[4] = {&s.x, &s.y, &s.vx, &s.vy};
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \r\t") == std::string::npos) continue;
    const auto cells = split_csv(line);
    for (int k = 0; k < 4; ++k) {
      if (std::size_t(col[k]) >= cells.size())
        throw InputError(where + ":" + std::to_string(line_no) + ": missing column '" + names[k] + "'");
      const std::string_view c = cells[std::size_t(col[k])];
      float v = 0;
      auto [ptr, ec] = std::from_chars(c.data(), c.data() + c.size(), v);
      if (ec != std::errc() || ptr != c.data() + c.size() || c.empty() || !std::isfinite(v))
        throw InputError(where + ":" + std::to_string(line_no) + ": '" + std::string(c) + "' in column '" +
                         names[k] + "' is not a finite number");
      dst[k]->push_back(v);
    }
  }
  if (s.size() > 10000000) throw InputError(where + ": more than 10000000 boids");
  return s;
}

void write_state_csv(const fs::path& file, const FlockSnapshot& s, const Params& p) {
  write_text_file(file, state_csv_text(s, p));
}

std::string state_csv_text(const FlockSnapshot& s, const Params& p) {
  std::string out = "id,x,y,vx,vy,group\n";
  out.reserve(s.size() * 48 + 32);
  char buf[160];
  for (std::size_t i = 0; i < s.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%zu,%.9g,%.9g,%.9g,%.9g,%d\n", i, double(s.x[i]), double(s.y[i]), double(s.vx[i]),
                  double(s.vy[i]), scout_group(p, std::uint32_t(i)));
    out += buf;
  }
  return out;
}

}  // namespace flockscope
