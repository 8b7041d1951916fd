#include "plot_data.hpp"

namespace flockscope::gui {

void PlotData::clear() {
  for (Series* s : {&diameter, &cx, &cy, &polarisation, &speed}) s->clear();
  steps.clear();
  nn.clear();
  clusters.clear();
  from_state.clear();
  board_spans.clear();
  resets.clear();
  param_changes.clear();
  time_offset = 0;
}

void PlotData::mark_source(double t, bool state) {
  const bool after_board = !from_state.empty() && !from_state.back();
  from_state.push_back(state ? 1 : 0);
  if (state) return;
  if (after_board && !board_spans.empty())
    board_spans.back().t1 = t;
  else
    board_spans.push_back({t, t});
}

}  // namespace flockscope::gui
