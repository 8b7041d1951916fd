// The oracle of an Explore setup file (fuzz_checks.hpp): what the window's Load setup and
// `flockscope sweep --setup FILE` read.
#include <cmath>
#include <string>

#include "explore_setup.hpp"
#include "flockscope/core/io.hpp"
#include "fuzz_checks.hpp"
#include "fuzz_input.hpp"

namespace fuzztest {

using namespace flockscope;

bool check_explore_setup(const std::uint8_t* data, std::size_t size, std::string* why) {
  const std::string text = size == 0 ? std::string() : std::string(reinterpret_cast<const char*>(data), size);
  cli::ExploreSetup s;
  try {
    s = cli::parse_setup(text, "setup.json");
  } catch (const InputError&) {
    return true;  // refused whole: the window's panel and sliders keep what they had
  }
  if (s.axes.empty() || s.axes.size() > 2) return fail(why, "an accepted setup has " + std::to_string(s.axes.size()) + " axes");
  if (s.repeats < 1) return fail(why, "an accepted setup has no repeats");
  for (const auto& def : param_table()) {
    const double v = get_param(s.params, def);
    if (std::isnan(v) || v < def.min || v > def.max)
      return fail(why, "an accepted setup's " + std::string(def.name) + " is outside " + range_text(def));
  }
  // What the window saves reads back as the same setup, and both make the same sweep.
  const nlohmann::json saved = cli::setup_to_json(s);
  cli::ExploreSetup back;
  try {
    back = cli::parse_setup(saved.dump(2), "saved.json");
  } catch (const InputError& e) {
    return fail(why, std::string("an accepted setup, saved, is refused: ") + e.what());
  }
  if (cli::setup_to_json(back) != saved) return fail(why, "an accepted setup, saved and read back, differs: " + saved.dump());
  std::string header, header_back;
  try {
    header = experiments::runs_header(cli::setup_spec(s));
  } catch (const InputError&) {
    header = "refused";
  }
  try {
    header_back = experiments::runs_header(cli::setup_spec(back));
  } catch (const InputError&) {
    header_back = "refused";
  }
  if (header != header_back) return fail(why, "a setup and its saved copy make different sweeps");
  return true;
}

}  // namespace fuzztest
