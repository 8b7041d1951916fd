#include "cli_common.hpp"

#include "flockscope/core/io.hpp"

namespace flockscope::cli {

Params resolve_params(const std::string& preset, const std::vector<std::string>& sets) {
  Params p = preset.empty() ? Params{} : load_preset(resolve_preset(preset));
  for (const auto& s : sets)
    if (auto err = apply_assignment(p, s)) throw InputError("--set " + s + ": " + *err);
  return p;
}

}  // namespace flockscope::cli
