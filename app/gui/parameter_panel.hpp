// The parameter sliders, generated from the parameter table and grouped by its section
// column: live vs reset-only, a board's pending and out-of-range values, and parameters a
// source does not have, each made visible.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "boid_source.hpp"
#include "panel_support.hpp"

namespace flockscope::gui {

class ParameterPanel {
 public:
  // Draws every parameter of `edit` (what the sliders show) against the source's parameters
  // in force. Returns true when the user changed `edit`; a value the table refuses leaves
  // `edit` unchanged and says why in `messages`.
  // `reference`: the values a right-click restores (the preset's). Only the active rule set's
  // parameters show in their sections; the others wait, greyed, under one closed node.
  // A live source (a board) gets a slider's value only once it is committed: the mouse let
  // go, or Enter after Ctrl+click typing (typing 400 sends 400, never 4 and 40 on the way).
  // A value typed after Ctrl+click reaches any source only once committed; Esc leaves it
  // as it was.
  bool draw(const BoidSource& s, Params& edit, const Params& reference, WidgetRects& rects, Messages& messages);

  // Puts the value of a slider held or being typed into back into `edit` (after the source's
  // parameters were read back into it): the user's value stays until it is let go.
  void keep_uncommitted(Params& edit) const;

 private:
  bool row(const ParamDef& d, const BoidSource& s, Params& edit, const Params& reference, WidgetRects& rects,
           Messages& messages);
  // The slider under a fine (Shift) drag and its position as a share of its track.
  std::uint16_t fine_id_ = 0;
  double fine_t_ = 0;
  // The slider being typed into (Ctrl+click), 0: none.
  std::uint16_t typing_id_ = 0;
  // A slider moved but not let go yet: (parameter id, value).
  std::optional<std::pair<std::uint16_t, double>> uncommitted_;
};

// A parameter's unit as it reads at the parameters' dt: the table's units count time in
// frames (dt 1); at another dt a speed is px per time unit (time = steps x dt) while the
// per-step factors stay per step.
std::string unit_shown(const ParamDef& d, const Params& p);
// The unit of the boids' speed (the speed plot): px/frame at dt 1, else px/time.
const char* speed_unit(const Params& p);

}  // namespace flockscope::gui
