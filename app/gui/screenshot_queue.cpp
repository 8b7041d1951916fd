#include "screenshot_queue.hpp"

#include <SDL.h>
#include <stb/stb_image_write.h>

#include <system_error>

namespace flockscope::gui {

namespace fs = std::filesystem;

std::string write_png(const fs::path& file, int w, int h, const std::uint8_t* rgba) {
  if (!stbi_write_png(file.c_str(), w, h, 4, rgba, w * 4)) return file.string() + ": cannot write the PNG";
  return {};
}

void ScreenshotQueue::save(SDL_Renderer* renderer, const WidgetRect& view, Messages& messages) {
  for (const Shot& s : shots_) {
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(renderer, &w, &h);
    SDL_Rect r{0, 0, w, h};
    if (s.view_only) r = {int(view.x0), int(view.y0), int(view.x1 - view.x0), int(view.y1 - view.y0)};
    std::vector<std::uint8_t> px(std::size_t(r.w) * std::size_t(r.h) * 4);
    std::string err;
    std::error_code ec;
    if (!s.file.parent_path().empty()) fs::create_directories(s.file.parent_path(), ec);
    if (SDL_RenderReadPixels(renderer, &r, SDL_PIXELFORMAT_ABGR8888, px.data(), r.w * 4) != 0)
      err = std::string("cannot read the frame back: ") + SDL_GetError();
    else
      err = write_png(s.file, r.w, r.h, px.data());
    if (err.empty())
      messages.note("screenshot saved: " + s.file.string());
    else
      messages.note("screenshot failed: " + err + (ec ? " (" + ec.message() + ")" : ""), true);
  }
  shots_.clear();
}

}  // namespace flockscope::gui
