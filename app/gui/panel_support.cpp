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

void message_line(Messages& messages, WidgetRects& rects) {
  const float h = ImGui::GetFrameHeight();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::Dummy(ImVec2(w, h));
  rects.remember("status");
  if (messages.text().empty()) return;
  rects.remember("message");
  const bool hovered = ImGui::IsItemHovered();
  const float close_w = h;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + w, p0.y + h), messages.is_error() ? IM_COL32(70, 20, 20, 255) : IM_COL32(20, 50, 30, 255), 3);
  const ImU32 col = messages.is_error() ? IM_COL32(255, 115, 100, 255) : IM_COL32(150, 230, 150, 255);
  const ImVec2 text_pos(p0.x + 4, p0.y + (h - ImGui::GetFontSize()) / 2);
  dl->PushClipRect(p0, ImVec2(p0.x + w - close_w - 2, p0.y + h), true);
  dl->AddText(text_pos, col, messages.text().c_str());
  dl->PopClipRect();
  if (hovered) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::TextUnformatted(messages.text().c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  // The dismiss box sits on the line's right end, over the reserved space.
  const ImVec2 after = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(p0.x + w - close_w, p0.y));
  if (ImGui::Button("x##dismiss", ImVec2(close_w, h))) messages.clear();
  ImGui::SetCursorScreenPos(after);
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
