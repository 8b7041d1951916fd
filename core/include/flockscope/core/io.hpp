// Files core reads and writes: presets (JSON), state files (CSV), run records. Every reader
// validates everything before it returns, so a bad file changes nothing; errors are
// InputError with a one-line message naming the file, the key or line, and what is allowed.
#pragma once

#include <cstdint>
#include <cstdio>
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

// A file or folder that could not be written while running (a full disk, a folder that
// cannot be made): not the user's arguments' fault, so the command line exits with its own
// status (3) for it. An InputError too, so code that reports both keeps working.
struct OutputError : InputError {
  using InputError::InputError;
};

// The size limits of the files flockscope reads whole. A preset is a few KB; a state file
// of the largest flock (10,000,000 boids) about 600 MB.
inline constexpr std::uintmax_t kMaxPresetBytes = std::uintmax_t(16) << 20;      // 16 MiB
inline constexpr std::uintmax_t kMaxTableBytes = std::uintmax_t(1) << 30;        // 1 GiB: state and CSV files
inline constexpr std::uintmax_t kMaxRecordingBytes = std::uintmax_t(16) << 30;   // 16 GiB

// Reads a whole input file. Refuses, with the file named and why, anything that is not a
// regular file (a device such as /dev/zero, a FIFO, a folder: they may never end) and a file
// over `limit` bytes. Throws InputError.
std::string read_input_file(const std::filesystem::path& file, std::uintmax_t limit);

// Where the assets (presets/, flockscope.desktop) are: $FLOCKSCOPE_ASSETS when set; else
// beside the executable, installed (PREFIX/bin/flockscope reads
// PREFIX/share/flockscope/assets) or as a folder `assets` next to it; else the source tree
// it was built from (a build run in place).
std::filesystem::path assets_dir();
// assets_dir()/presets.
std::filesystem::path preset_dir();
// A preset name ("report-baseline") or a path to a .json file.
std::filesystem::path resolve_preset(std::string_view name_or_file);
// Names of the bundled presets, sorted.
std::vector<std::string> preset_names();

// {"description": "...", "params": {"visualRange": 40, "D_vis": "inf", "rules": "cornell", ...}}
// Keys not given keep their defaults. Throws InputError.
Params load_preset(const std::filesystem::path& file);
// The same from a preset's text; `origin` names it in messages.
Params parse_preset(std::string_view text, std::string_view origin);
// The preset's "description", or empty when it has none or cannot be read (never throws: a
// list of presets shows what it can).
std::string preset_description(const std::filesystem::path& file);
Params params_from_json(const nlohmann::json& j, std::string_view origin);
nlohmann::json params_to_json(const Params& p);
void save_preset(const Params& p, const std::filesystem::path& file, std::string_view description = {});

// CSV with a header naming at least x,y,vx,vy (any order, other columns ignored).
FlockSnapshot read_state_csv(const std::filesystem::path& file);
FlockSnapshot parse_state_csv(std::string_view text, std::string_view origin);
void write_state_csv(const std::filesystem::path& file, const FlockSnapshot& s, const Params& p);
// What write_state_csv writes: id,x,y,vx,vy,group, floats to nine digits (they read back
// bit for bit).
std::string state_csv_text(const FlockSnapshot& s, const Params& p);

// A file written piece by piece into FILE.tmp and renamed to FILE by commit(), so a failed
// or abandoned write leaves no half file (the destructor removes the temp file). Throws
// OutputError with the OS's reason.
class OutputFile {
 public:
  explicit OutputFile(const std::filesystem::path& file);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  void write(std::string_view text);
  void commit();

 private:
  std::filesystem::path file_, tmp_;
  std::FILE* out_ = nullptr;
};

// Writes text to a file atomically (an OutputFile), so a failed write leaves no half file.
void write_text_file(const std::filesystem::path& file, std::string_view text);

}  // namespace flockscope
