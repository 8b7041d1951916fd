// The parameter sliders, generated from the parameter table and grouped by its section
// column: live vs reset-only, a board's pending and out-of-range values, and parameters a
// source does not have, each made visible.
#pragma once

#include "boid_source.hpp"
#include "panel_support.hpp"

namespace flockscope::gui {

class ParameterPanel {
 public:
  // Draws every parameter of `edit` (what the sliders show) against the source's parameters
  // in force. Returns true when the user changed `edit`; a value the table refuses leaves
  // `edit` unchanged and says why in `messages`.
  bool draw(const BoidSource& s, Params& edit, WidgetRects& rects, Messages& messages);

 private:
  bool row(const ParamDef& d, const BoidSource& s, Params& edit, WidgetRects& rects, Messages& messages);
};

}  // namespace flockscope::gui
