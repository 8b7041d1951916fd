// The Presets section: the bundled presets, each with its description (read once), and a
// file the parameters are loaded from or saved to (in the export folder until edited).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "flockscope/core/params.hpp"
#include "panel_support.hpp"

namespace flockscope::gui {

class PresetsPanel {
 public:
  // `current`: the name the flock goes by; `folder`: the export folder; `edit`: what the
  // sliders show, which Save writes (the outcome goes to `messages`). Returns the preset
  // name or file the user asked to load.
  std::optional<std::string> draw(const std::string& current, const std::string& folder, const Params& edit,
                                  WidgetRects& rects, Messages& messages);
  // The export folder changed: the file field starts in the new one.
  void follow_folder() { path_.clear(); }

 private:
  std::string path_;
  std::vector<std::pair<std::string, std::string>> descriptions_;  // name, description
};

}  // namespace flockscope::gui
