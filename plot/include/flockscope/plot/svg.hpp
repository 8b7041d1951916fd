// The SVG back end: a scene as a standalone SVG 1.1 document.
#pragma once

#include <string>

#include "flockscope/plot/scene.hpp"

namespace flockscope::plot {

std::string to_svg(const Scene& scene);

}  // namespace flockscope::plot
