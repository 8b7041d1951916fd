#include "flockscope/core/io.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#ifndef FLOCKSCOPE_SOURCE_ASSETS
#define FLOCKSCOPE_SOURCE_ASSETS "assets"
#endif

namespace flockscope {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot open (" + std::strerror(errno) + ")");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

fs::path preset_dir() {
  if (const char* env = std::getenv("FLOCKSCOPE_ASSETS"); env && *env) return fs::path(env) / "presets";
  return fs::path(FLOCKSCOPE_SOURCE_ASSETS) / "presets";
}

fs::path resolve_preset(std::string_view name_or_file) {
  const fs::path direct(name_or_file);
  if (direct.extension() == ".json" || name_or_file.find('/') != std::string_view::npos) {
    if (!fs::exists(direct)) throw InputError(direct.string() + ": no such preset file");
    return direct;
  }
  const fs::path bundled = preset_dir() / (std::string(name_or_file) + ".json");
  if (!fs::exists(bundled)) {
    std::string known;
    for (const auto& n : preset_names()) known += (known.empty() ? "" : ", ") + n;
    throw InputError("unknown preset '" + std::string(name_or_file) + "' (known: " + known + ")");
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
    if (!def) throw InputError(where + ": unknown parameter '" + key + "'");
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

Params load_preset(const fs::path& file) {
  const std::string text = read_file(file);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(file.string() + ": not valid JSON (" + e.what() + ")");
  }
  return params_from_json(j, file.string());
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

void write_text_file(const fs::path& file, std::string_view text) {
  const fs::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(file.string() + ": cannot write (" + std::strerror(errno) + ")");
    out.write(text.data(), std::streamsize(text.size()));
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw InputError(file.string() + ": write failed");
    }
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) throw InputError(file.string() + ": cannot write (" + ec.message() + ")");
}

void save_preset(const Params& p, const fs::path& file, std::string_view description) {
  json j;
  if (!description.empty()) j["description"] = std::string(description);
  j["params"] = params_to_json(p);
  write_text_file(file, j.dump(2) + "\n");
}

namespace {
std::vector<std::string_view> split_csv(std::string_view line) {
  std::vector<std::string_view> cells;
  std::size_t b = 0;
  for (;;) {
    const std::size_t e = line.find(',', b);
    std::string_view c = line.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b);
    while (!c.empty() && (c.front() == ' ' || c.front() == '"')) c.remove_prefix(1);
    while (!c.empty() && (c.back() == ' ' || c.back() == '"' || c.back() == '\r')) c.remove_suffix(1);
    cells.push_back(c);
    if (e == std::string_view::npos) break;
    b = e + 1;
  }
  return cells;
}
}  // namespace

FlockSnapshot read_state_csv(const fs::path& file) {
  const std::string text = read_file(file);
  std::istringstream in(text);
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
    if (col[k] < 0) throw InputError(file.string() + ": header has no column '" + names[k] + "' (need x,y,vx,vy)");
  FlockSnapshot s;
  std::vector<float>* dst[4] = {&s.x, &s.y, &s.vx, &s.vy};
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \r\t") == std::string::npos) continue;
    const auto cells = split_csv(line);
    for (int k = 0; k < 4; ++k) {
      if (std::size_t(col[k]) >= cells.size())
        throw InputError(file.string() + ":" + std::to_string(line_no) + ": missing column '" + names[k] + "'");
      const std::string_view c = cells[std::size_t(col[k])];
      float v = 0;
      auto [ptr, ec] = std::from_chars(c.data(), c.data() + c.size(), v);
      if (ec != std::errc() || ptr != c.data() + c.size() || c.empty() || !std::isfinite(v))
        throw InputError(file.string() + ":" + std::to_string(line_no) + ": '" + std::string(c) + "' in column '" +
                         names[k] + "' is not a finite number");
      dst[k]->push_back(v);
    }
  }
  if (s.size() > 10000000) throw InputError(file.string() + ": more than 10000000 boids");
  return s;
}

void write_state_csv(const fs::path& file, const FlockSnapshot& s, const Params& p) {
  std::string out = "id,x,y,vx,vy,group\n";
  out.reserve(s.size() * 48 + 32);
  char buf[160];
  for (std::size_t i = 0; i < s.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%zu,%.9g,%.9g,%.9g,%.9g,%d\n", i, double(s.x[i]), double(s.y[i]), double(s.vx[i]),
                  double(s.vy[i]), scout_group(p, std::uint32_t(i)));
    out += buf;
  }
  write_text_file(file, out);
}

}  // namespace flockscope
