// SdlWindow: the SDL window, its renderer and the Dear ImGui context drawn into it (the
// style, the font, ImGui's SDL2 and SDL_Renderer backends). It knows nothing of flocks: the
// window's content is GuiApp's.
#pragma once

#include <string>

struct SDL_Window;
struct SDL_Renderer;
union SDL_Event;

namespace flockscope::gui {

class SdlWindow {
 public:
  // Opens a resizable window of width x height and its renderer (`software`: SDL's software
  // renderer, which draws without a GPU or a display; `vsync` only for an accelerated
  // one) and sets up ImGui. `ini_file`: where ImGui keeps its window layout (empty: nowhere).
  // Throws std::runtime_error with SDL's reason (no display, ...); nothing stays set up then.
  SdlWindow(int width, int height, bool software, bool vsync, std::string ini_file);
  ~SdlWindow();
  SdlWindow(const SdlWindow&) = delete;
  SdlWindow& operator=(const SdlWindow&) = delete;

  SDL_Window* window() const { return window_; }
  SDL_Renderer* renderer() const { return renderer_; }
  // The event is ImGui's too (keys, text, wheel); true when it closes this window.
  bool process(const SDL_Event& e);
  // Both backends' half of a new frame (ImGui::NewFrame() is the caller's).
  void new_frame();
  // ImGui's draw data of the frame into the renderer.
  void render_ui();

 private:
  SDL_Window* window_ = nullptr;
  SDL_Renderer* renderer_ = nullptr;
  std::string ini_file_;  // ImGui keeps a pointer to it
};

}  // namespace flockscope::gui
