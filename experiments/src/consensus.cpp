#include "flockscope/experiments/consensus.hpp"

#include <algorithm>
#include <utility>

#include "flockscope/core/io.hpp"
#include "text.hpp"

namespace flockscope::experiments {
using namespace detail;
namespace {

// "static,dynamic" -> "false,true" (true/false accepted as well).
std::string bias_values(const std::string& text) {
  std::string out;
  for (std::string_view v : split(text, ',')) {
    if (v == "static") v = "false";
    else if (v == "dynamic") v = "true";
    else if (v != "true" && v != "false") throw InputError("--bias " + text + ": expected static, dynamic or both (static,dynamic)");
    if (!out.empty()) out += ',';
    out += v;
  }
  return out;
}

}  // namespace

std::vector<GridAxis> consensus_axes(const ConsensusGrid& g) {
  if ((!g.informed.empty() || !g.right_share.empty()) && (!g.scouts1.empty() || !g.scouts2.empty()))
    throw InputError("--informed/--right-share set the scout groups from shares; give them or --scouts1/--scouts2, not both");
  std::vector<GridAxis> axes, other;
  const std::pair<std::string, std::string> scout_keys[] = {
      {std::string(kInformedKey), g.informed}, {std::string(kRightShareKey), g.right_share},
      {"scouts1", g.scouts1}, {"scouts2", g.scouts2}};
  for (const auto& [key, text] : scout_keys)
    if (!text.empty()) axes.push_back(parse_grid_axis(key + "=" + text));
  std::stable_partition(axes.begin(), axes.end(), [](const GridAxis& a) { return a.values.size() > 1; });
  if (!g.boids.empty()) other.push_back(parse_grid_axis("boids=" + g.boids));
  if (!g.bias.empty()) other.push_back(parse_grid_axis("dynamicbias=" + bias_values(g.bias)));
  for (const auto& spec : g.other) other.push_back(parse_grid_axis(spec));
  axes.insert(axes.end(), other.begin(), other.end());
  return axes;
}

void parse_heading_window(std::string_view w, SummaryOptions& o) {
  o.heading_from = o.heading_to = 0;
  const auto parts = split(w, ':');
  if (parts.size() != 2 || !parse_u64(parts[0], o.heading_from) || !parse_u64(parts[1], o.heading_to))
    throw InputError("--heading-window " + std::string(w) + ": expected FROM:TO in steps");
}

}  // namespace flockscope::experiments
