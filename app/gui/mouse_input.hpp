// MouseInput: the mouse as SDL's events report it. ImGui 1.86's SDL backend polls SDL's
// global mouse state, which synthetic events (the tests') do not reach; events are the one
// path real and test input share, so the window hands ImGui the mouse from them.
#pragma once

#include <array>

union SDL_Event;
struct ImGuiIO;

namespace flockscope::gui {

class MouseInput {
 public:
  // Takes motion, button presses and releases, and the pointer leaving the window.
  void handle(const SDL_Event& e);
  // The mouse for the frame about to begin, into ImGui's IO: a click that came and went
  // between two frames still counts as held for one.
  void feed(ImGuiIO& io);

 private:
  float x_ = -1e30f, y_ = -1e30f;  // off every widget while the pointer is outside
  std::array<bool, 3> down_{}, clicked_{};  // left, right, middle
};

}  // namespace flockscope::gui
