#include "panel_support.hpp"

#include <imgui.h>

#include <cstdio>
#include <ctime>

namespace flockscope::gui {

void WidgetRects::remember(const std::string& name) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  rects_[name] = {a.x, a.y, b.x, b.y};
}

std::optional<WidgetRect> WidgetRects::find(const std::string& name) const {
  const auto it = rects_.find(name);
  if (it == rects_.end()) return std::nullopt;
  return it->second;
}

void Messages::note(std::string text, bool error) {
  text_ = std::move(text);
  error_ = error;
  std::fprintf(error ? stderr : stdout, "flockscope: %s\n", text_.c_str());
}

bool input_text(const char* label, std::string& s) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, "%s", s.c_str());
  if (ImGui::InputText(label, buf, sizeof buf)) {
    s = buf;
    return true;
  }
  return false;
}

std::string timestamp() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char s[32];
  std::strftime(s, sizeof s, "%Y%m%d-%H%M%S", &tm);
  return s;
}

}  // namespace flockscope::gui
