// What the headless window drew, as pixels: a PNG (a screenshot, an exported figure) read
// back with stb_image, for tests that check colours.
#pragma once

#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "gui_app.hpp"

// A fresh folder for the running test's files: <tmp>/flockscope_test_gui/<suite>.<test>.
inline std::filesystem::path test_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path d = std::filesystem::temp_directory_path() / "flockscope_test_gui" /
                                  (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

struct Image {
  int w = 0, h = 0;
  std::vector<std::uint8_t> px;
  const std::uint8_t* at(int x, int y) const { return px.data() + 4 * (std::size_t(y) * std::size_t(w) + std::size_t(x)); }
};

// RGBA; empty (w = h = 0) when the file is not a readable image.
inline Image read_png(const std::filesystem::path& f) {
  Image img;
  int n = 0;
  unsigned char* data = stbi_load(f.c_str(), &img.w, &img.h, &n, 4);
  if (!data) return img;
  img.px.assign(data, data + std::size_t(img.w) * std::size_t(img.h) * 4);
  stbi_image_free(data);
  return img;
}

// The next frame, saved to `file` and read back.
inline Image screenshot(flockscope::gui::GuiApp& app, const std::filesystem::path& file) {
  app.request_screenshot(file);
  app.frame();
  return read_png(file);
}
