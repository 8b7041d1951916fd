// A user's mouse and keys for the headless window tests: SDL events pushed into the queue the
// app reads on its next frame, drags frame by frame, and waiting for the window to settle;
// and the files the tests read back.
#pragma once

#include <SDL.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gui_app.hpp"

// A window drawn headless: software renderer, no imgui.ini or settings, no vsync; paused
// unless `running`.
inline flockscope::gui::GuiOptions headless(int w = 1024, int h = 640, bool running = false) {
  flockscope::gui::GuiOptions o;
  o.width = w, o.height = h;
  o.software = true;
  o.use_ini = false;
  o.vsync = false;
  o.start_running = running;
  return o;
}

// A CSV file as rows of cells (the header first); a trailing comma is an empty last cell.
inline std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& file) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(std::move(cells));
  }
  return rows;
}

// A fresh, empty folder for a test's files: TMP/flockscope_test_gui/SUITE.NAME.
inline std::filesystem::path fresh_test_dir(const std::string& suite, const std::string& name) {
  const auto d = std::filesystem::temp_directory_path() / "flockscope_test_gui" / (suite + "." + name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

inline std::string read_text(const std::filesystem::path& f) {
  std::ifstream in(f);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A key as SDL delivers it, with the modifiers held (SDL's own state, which Dear ImGui's
// backend reads for Shift/Ctrl/Alt).
inline void push_key(Uint32 type, SDL_Keycode key, SDL_Keymod mods) {
  SDL_SetModState(mods);
  SDL_Event e{};
  e.type = type;
  e.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
  e.key.keysym.sym = key;
  e.key.keysym.scancode = SDL_GetScancodeFromKey(key);
  e.key.keysym.mod = Uint16(mods);
  ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError();
}

inline void push_mouse(Uint32 type, float x, float y, Uint8 button = SDL_BUTTON_LEFT) {
  SDL_Event e{};
  e.type = type;
  if (type == SDL_MOUSEMOTION) {
    e.motion.x = int(x), e.motion.y = int(y);
  } else {
    e.button.x = int(x), e.button.y = int(y), e.button.button = button;
    e.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.button.clicks = 1;
  }
  ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError();
}

// Frames (about 100 per second at most) until pred() holds or ms have passed.
inline bool frames_until(flockscope::gui::GuiApp& app, int ms, const std::function<bool()>& pred) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < end) {
    app.frame();
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

// At most `frames` frames until pred() holds: for waits that a frame itself advances (a
// local flock steps once a frame), so a slow or busy machine takes longer but never fails.
inline bool frames_at_most(flockscope::gui::GuiApp& app, int frames, const std::function<bool()>& pred) {
  for (int i = 0; i < frames && !pred(); ++i) app.frame();
  return pred();
}

// Move, press, release at (x, y), one frame each.
inline void click(flockscope::gui::GuiApp& app, float x, float y, Uint8 button = SDL_BUTTON_LEFT) {
  push_mouse(SDL_MOUSEMOTION, x, y);
  app.frame();
  push_mouse(SDL_MOUSEBUTTONDOWN, x, y, button);
  app.frame();
  push_mouse(SDL_MOUSEBUTTONUP, x, y, button);
  app.frame();
}

// Move, press, move, release along y, one frame each.
inline void drag(flockscope::gui::GuiApp& app, float x0, float y, float x1) {
  push_mouse(SDL_MOUSEMOTION, x0, y);
  app.frame();
  push_mouse(SDL_MOUSEBUTTONDOWN, x0, y);
  app.frame();
  push_mouse(SDL_MOUSEMOTION, x1, y);
  app.frame();
  push_mouse(SDL_MOUSEBUTTONUP, x1, y);
  app.frame();
}

// Wheel notches over a plot's middle, one a frame.
inline void wheel_over(flockscope::gui::GuiApp& app, const std::string& plot, int notches) {
  const auto r = app.item_rect("plot:" + plot);
  ASSERT_TRUE(r) << plot;
  push_mouse(SDL_MOUSEMOTION, r->cx(), r->cy());
  app.frame();
  for (int i = 0; i < notches; ++i) {
    SDL_Event wheel{};
    wheel.type = SDL_MOUSEWHEEL;
    wheel.wheel.y = 1;
    ASSERT_EQ(SDL_PushEvent(&wheel), 1);
    app.frame();
  }
  app.frame();
}

// Where a widget is once the panel's layout has settled (the same place two frames in a row:
// messages and the link's first stats change the panel's height); nothing if it did not
// settle within ms.
inline std::optional<flockscope::gui::GuiApp::Rect> settled_rect(flockscope::gui::GuiApp& app, const std::string& name,
                                                                  int ms = 3000) {
  std::optional<flockscope::gui::GuiApp::Rect> r;
  const bool settled = frames_until(app, ms, [&] {
    const auto q = app.item_rect(name);
    const bool same = q && r && q->y0 == r->y0;
    r = q;
    return same;
  });
  return settled ? r : std::nullopt;
}
