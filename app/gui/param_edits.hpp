// ParamEdits: the parameters the sliders show and the user's history of changes to them.
// The panels edit a copy (edit()); update() hands it to the source when it changed. Each
// change of the user's (a whole drag, a typed value, a preset loaded) is one undo step, the
// last 100 kept; a right-click on a slider restores the reference (the last preset loaded).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "boid_source.hpp"

namespace flockscope::gui {

class ParamEdits {
 public:
  // What the sliders show: the source's pending parameters with the user's changes.
  Params& edit() { return edit_; }
  const Params& edit() const { return edit_; }
  // The values a right-click restores: the last preset loaded (the defaults else).
  Params& reference() { return reference_; }
  const Params& reference() const { return reference_; }

  // A new source: the sliders show its parameters; the undo history (another source's) goes.
  void adopt(const BoidSource& s);
  // The sliders show the source's pending parameters again (a reset, boids added).
  void reload(const BoidSource& s) { edit_ = s.pending_params(); }
  // The source changed its parameters by itself (a board's set read back, a change
  // rejected): reloads edit() and returns true, once per such change.
  bool follow(const BoidSource& s);

  // edit() changed: the next apply() hands it to the source.
  void mark_changed() { changed_ = true; }
  struct Applied {
    bool applied = false;     // the source took edit()
    bool new_marker = false;  // a live parameter changed, and not on the frame after the last
                              // live change: a drag's run of changes makes one plot marker
  };
  // Hands a change to the source if it takes changes (else the change waits); `frame`
  // counts the window's frames.
  Applied apply(BoidSource& s, std::uint64_t frame);

  // After the panels drew, `before` being edit() before them: a change opens an undo step
  // unless one is open (a drag changes the value on every frame it lasts).
  void note_change(const Params& before);
  // No widget is held any more: the next change is a new undo step. A change that came back
  // to where it started (a value typed, then Esc) leaves no step.
  void end_change();

  bool can_undo() const { return !undo_.empty(); }
  std::size_t undo_steps() const { return undo_.size(); }
  // Back to edit() before the last change (marked changed); returns the names of the
  // parameters that differ, comma-separated (empty: none). Only when can_undo().
  std::string undo();

 private:
  Params edit_;
  Params reference_;
  std::vector<Params> undo_;  // edit_ before each of the user's last changes, newest last
  bool editing_ = false;      // a change is under way (a drag): it makes one undo step
  bool changed_ = false;
  std::uint64_t revision_ = 0;           // the source's params_revision() last seen
  std::uint64_t last_change_frame_ = 0;  // the frame of the last live change
};

}  // namespace flockscope::gui
