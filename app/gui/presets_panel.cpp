#include "presets_panel.hpp"

#include <imgui.h>

#include <filesystem>

#include "flockscope/core/io.hpp"

namespace flockscope::gui {

namespace fs = std::filesystem;

std::optional<std::string> PresetsPanel::draw(const std::string& current, const std::string& folder, const Params& edit,
                                              WidgetRects& rects, Messages& messages) {
  std::optional<std::string> load;
  ImGui::SetNextItemWidth(200);
  if (descriptions_.empty())  // the bundled presets, read once
    for (const auto& name : preset_names()) descriptions_.emplace_back(name, preset_description(resolve_preset(name)));
  if (ImGui::BeginCombo("preset", current.c_str(), ImGuiComboFlags_HeightLarge)) {
    for (const auto& [name, description] : descriptions_) {
      if (ImGui::Selectable(name.c_str(), name == current)) load = name;
      rects.remember("preset:" + name);
      if (!description.empty()) {
        if (ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
          ImGui::TextUnformatted(description.c_str());
          ImGui::PopTextWrapPos();
          ImGui::EndTooltip();
        }
        // The description's first words beside the name, dimmed.
        ImGui::SameLine(190);
        const std::string first = description.size() > 60 ? description.substr(0, 57) + "..." : description;
        ImGui::TextDisabled("%s", first.c_str());
      }
    }
    ImGui::EndCombo();
  } else {
    rects.remember("preset:list");
  }
  if (ImGui::IsItemHovered()) {
    for (const auto& [name, description] : descriptions_)
      if (name == current && !description.empty()) ImGui::SetTooltip("%s", description.c_str());
  }
  if (path_.empty()) path_ = (fs::path(folder) / "my-preset.json").string();
  ImGui::SetNextItemWidth(200);
  input_text("##presetfile", path_);
  ImGui::SameLine();
  if (ImGui::Button("Load")) load = path_;
  ImGui::SameLine();
  if (ImGui::Button("Save")) {
    try {
      fs::create_directories(fs::path(path_).parent_path());
      save_preset(edit, path_, "saved from the flockscope window");
      messages.note("preset saved: " + path_);
    } catch (const std::exception& e) {
      messages.note(std::string("cannot save the preset: ") + e.what(), true);
    }
  }
  return load;
}

}  // namespace flockscope::gui
