// ScreenshotQueue: the screenshots asked for during a frame, written as PNG from the
// finished frame before it is presented: all of it, or only the flock view's canvas.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "panel_support.hpp"

struct SDL_Renderer;

namespace flockscope::gui {

class ScreenshotQueue {
 public:
  void request(const std::filesystem::path& file, bool view_only) { shots_.push_back({file, view_only}); }
  // Reads the frame drawn into `r` back and writes every file asked for (its folder
  // created); `view`: the flock view's canvas. Each outcome goes to `messages`.
  void save(SDL_Renderer* r, const WidgetRect& view, Messages& messages);

 private:
  struct Shot {
    std::filesystem::path file;
    bool view_only;
  };
  std::vector<Shot> shots_;
};

// Writes RGBA pixels as PNG. Returns an error text or empty.
std::string write_png(const std::filesystem::path& file, int w, int h, const std::uint8_t* rgba);

}  // namespace flockscope::gui
