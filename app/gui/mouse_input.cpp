#include "mouse_input.hpp"

#include <SDL.h>
#include <imgui.h>

namespace flockscope::gui {

void MouseInput::handle(const SDL_Event& e) {
  switch (e.type) {
    case SDL_WINDOWEVENT:
      if (e.window.event == SDL_WINDOWEVENT_LEAVE) x_ = y_ = -1e30f;
      break;
    case SDL_MOUSEMOTION: x_ = float(e.motion.x), y_ = float(e.motion.y); break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: {
      const int b = e.button.button == SDL_BUTTON_LEFT ? 0 : e.button.button == SDL_BUTTON_RIGHT ? 1 : e.button.button == SDL_BUTTON_MIDDLE ? 2 : -1;
      x_ = float(e.button.x), y_ = float(e.button.y);
      if (b >= 0) {
        down_[b] = e.type == SDL_MOUSEBUTTONDOWN;
        if (down_[b]) clicked_[b] = true;  // a click shorter than a frame still counts
      }
      break;
    }
    default: break;
  }
}

void MouseInput::feed(ImGuiIO& io) {
  io.MousePos = ImVec2(x_, y_);
  for (int b = 0; b < 3; ++b) io.MouseDown[b] = down_[b] || clicked_[b], clicked_[b] = false;
}

}  // namespace flockscope::gui
