// Files core reads and writes: presets (JSON), state files (CSV), run records. Every reader
// validates everything before it returns, so a bad file changes nothing; errors are
// InputError with a one-line message naming the file, the key or line, and what is allowed.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/params.hpp"

namespace flockscope {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Where presets live: $FLOCKSCOPE_ASSETS/presets, else the source tree's assets/presets.
std::filesystem::path preset_dir();
// A preset name ("report-baseline") or a path to a .json file.
std::filesystem::path resolve_preset(std::string_view name_or_file);
// Names of the bundled presets, sorted.
std::vector<std::string> preset_names();

// {"description": "...", "params": {"visualRange": 40, "D_vis": "inf", "rules": "cornell", ...}}
// Keys not given keep their defaults. Throws InputError.
Params load_preset(const std::filesystem::path& file);
Params params_from_json(const nlohmann::json& j, std::string_view origin);
nlohmann::json params_to_json(const Params& p);
void save_preset(const Params& p, const std::filesystem::path& file, std::string_view description = {});

// CSV with a header naming at least x,y,vx,vy (any order, other columns ignored).
FlockSnapshot read_state_csv(const std::filesystem::path& file);
void write_state_csv(const std::filesystem::path& file, const FlockSnapshot& s, const Params& p);

// Writes text to a file atomically (temp file + rename), so a failed write leaves no half file.
void write_text_file(const std::filesystem::path& file, std::string_view text);

}  // namespace flockscope
