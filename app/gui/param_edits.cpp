#include "param_edits.hpp"

#include "flockscope/core/params.hpp"

namespace flockscope::gui {

namespace {
constexpr std::size_t kUndoSteps = 100;
}

void ParamEdits::adopt(const BoidSource& s) {
  edit_ = s.pending_params();
  undo_.clear();
  revision_ = s.params_revision();
}

bool ParamEdits::follow(const BoidSource& s) {
  if (s.params_revision() == revision_) return false;
  revision_ = s.params_revision();
  edit_ = s.pending_params();
  return true;
}

ParamEdits::Applied ParamEdits::apply(BoidSource& s, std::uint64_t frame) {
  if (!changed_ || !s.editable()) return {};
  bool live_change = false;
  for (const ParamDef& d : param_table())
    if (d.apply == Apply::Live && get_param(edit_, d) != get_param(s.pending_params(), d)) live_change = true;
  const Applied a{true, live_change && frame != last_change_frame_ + 1};
  if (live_change) last_change_frame_ = frame;
  s.set_params(edit_);  // live parameters act from this frame's steps on
  changed_ = false;
  return a;
}

void ParamEdits::note_change(const Params& before) {
  if (edit_ == before) return;
  if (!editing_) undo_.push_back(before);
  if (undo_.size() > kUndoSteps) undo_.erase(undo_.begin());
  editing_ = true;
}

void ParamEdits::end_change() {
  if (editing_ && !undo_.empty() && undo_.back() == edit_) undo_.pop_back();
  editing_ = false;
}

std::string ParamEdits::undo() {
  std::string names;
  for (const ParamDef& d : param_table())
    if (get_param(undo_.back(), d) != get_param(edit_, d)) names += (names.empty() ? "" : ", ") + std::string(d.name);
  edit_ = undo_.back();
  undo_.pop_back();
  changed_ = true;
  return names;
}

}  // namespace flockscope::gui
