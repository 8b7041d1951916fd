// An Explore setup: what the window's Explore panel maps (the base parameters, one or two
// axes, repeats, steps, the measure), kept in a JSON file as BehaviorSpace keeps its
// experiments, so that the same map can be made again in the window or headless
// (`flockscope sweep --setup FILE`). The window and the command line turn a setup into the
// same SweepSpec (setup_spec), so both write the same runs.csv byte for byte.
//
// The file:
//   {"flockscope_explore_setup": 1, "preset": "report-vis25", "seed": 1,
//    "axes": [{"key": "D_vis", "from": 5, "to": 100, "values": 10, "log": false}, ...],
//    "repeats": 2, "steps": 1000, "measure": "mean_diameter", "workers": 0,
//    "params": {... every parameter, as a preset's "params" ...}}
// An axis may give its values as a list instead ("values": [10, 20, 40]).
// "params" may be left out (the named preset's parameters), and so may "seed" (the params'),
// "measure" (mean_diameter), "workers" (0) and an axis's "log" (false).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "flockscope/core/params.hpp"
#include "flockscope/experiments/sweep.hpp"

namespace flockscope::cli {

struct ExploreAxis {
  std::string key;
  double from = 0, to = 1;
  int values = 10;  // 1..100, evenly spaced from..to (inclusive)
  bool log = false;  // evenly spaced logarithms (when from and to are positive)
  // The values themselves, as sweep's --grid key=v1,v2,... takes them: when not empty, these
  // and not from/to/values (a map made from a --grid keeps its exact values).
  std::vector<std::string> list;
};

struct ExploreSetup {
  std::string preset;  // the name shown and written to sweep.json; params are what runs
  Params params;       // the base of every run; params.seed is the sweep's base seed
  std::vector<ExploreAxis> axes;  // one or two
  std::uint64_t repeats = 2, steps = 1000;
  std::string measure = "mean_diameter";
  int workers = 0;  // the window's worker threads (0: all cores but one)
};

inline constexpr int kSetupVersion = 1;
inline constexpr const char* kSetupFileName = "setup.json";  // beside an exported map

// "key=v1,v2,...": the axis's values as sweep's --grid takes them.
std::string axis_grid(const ExploreAxis& a);
// The sweep the setup describes (sweep's defaults for everything it does not name).
// Throws InputError.
experiments::SweepSpec setup_spec(const ExploreSetup& s);
// The setup of a sweep made otherwise (its axes as lists of their values).
ExploreSetup setup_of_spec(const experiments::SweepSpec& s, const std::string& measure, int workers);

nlohmann::json setup_to_json(const ExploreSetup& s);
// Throws InputError "FILE: FIELD: expected ..., got ..." for anything malformed.
ExploreSetup setup_from_json(const nlohmann::json& j, const std::string& origin);
void save_setup(const ExploreSetup& s, const std::filesystem::path& file);
ExploreSetup load_setup(const std::filesystem::path& file);
// The same from a setup file's text; `origin` names it in messages.
ExploreSetup parse_setup(std::string_view text, const std::string& origin);

}  // namespace flockscope::cli
