// What the command-line modes share: resolving --preset/--set into parameters, and the
// one-line error exit.
#pragma once

#include <string>
#include <vector>

#include "flockscope/core/params.hpp"

namespace flockscope::cli {

// Loads the preset (name or file) and applies key=value overrides in order.
// Throws InputError with a one-line reason.
Params resolve_params(const std::string& preset, const std::vector<std::string>& sets);

}  // namespace flockscope::cli
