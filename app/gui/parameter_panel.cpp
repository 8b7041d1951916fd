#include "parameter_panel.hpp"

#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace flockscope::gui {

namespace {
const ImVec4 kReset(1.0f, 0.78f, 0.35f, 1.0f);
const ImVec4 kOutsideRange(0.55f, 0.16f, 0.10f, 1.0f);  // a board value beyond this app's range

// The panel's groups of the table's section column, in the order shown.
struct Section {
  ParamSection section;
  const char* title;
  bool open;  // open at start
};
constexpr Section kSections[] = {{ParamSection::World, "World (reset)", true},   {ParamSection::Rules, "Rules", true},
                                 {ParamSection::Cornell, "Cornell rules", true}, {ParamSection::Predators, "Predators", false},
                                 {ParamSection::Scouts, "Scout groups", false},  {ParamSection::Report, "Report rules", false}};
}  // namespace

bool ParameterPanel::draw(const BoidSource& s, Params& edit, WidgetRects& rects, Messages& messages) {
  bool any_change = false;
  ImGui::BeginDisabled(!s.editable());
  for (const Section& sec : kSections) {
    if (!ImGui::TreeNodeEx(sec.title, sec.open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) continue;
    for (const ParamDef& d : param_table())
      if (d.section == sec.section) any_change = row(d, s, edit, rects, messages) || any_change;
    ImGui::TreePop();
  }
  ImGui::EndDisabled();
  ImGui::TextColored(kReset, "yellow: reset-only (* = waiting for Reset)");
  if (s.live()) ImGui::TextColored(ImVec4(0.5f, 0.75f, 1, 1), "blue: sent to the board, waiting for its ack");
  return any_change;
}

void ParameterPanel::keep_uncommitted(Params& edit) const {
  if (!uncommitted_) return;
  if (const ParamDef* d = find_param(uncommitted_->first)) (void)set_param(edit, *d, uncommitted_->second);
}

// One parameter's widget, its colours and tooltip, and its name.
bool ParameterPanel::row(const ParamDef& d, const BoidSource& s, Params& edit, WidgetRects& rects, Messages& messages) {
  bool edited = false;
  const Params& active = s.params();
  ImGui::PushID(int(d.id));
  const std::string name(d.name);
  const bool reset_only = d.apply == Apply::Reset;
  const bool pending = reset_only && get_param(edit, d) != get_param(active, d);
  const bool in_flight = s.param_pending(d.id);  // sent to a board, not acknowledged yet
  const bool absent = !s.has_param(d.id);      // a board without this parameter
  ImGui::BeginDisabled(absent);
  double v = get_param(edit, d);
  bool changed = false;
  // A board's value outside this app's range: shown as the board has it, in a warning
  // colour; the slider's position is the nearest valid value, and moving it sends one.
  const std::optional<double> outside = in_flight ? std::nullopt : s.outside_value(d.id);
  const double board_v = outside.value_or(0);
  char shown[64] = "%.5g";
  if (outside) {
    std::snprintf(shown, sizeof shown, "%.6g (!)", board_v);
    for (char* c = shown; *c; ++c)
      if (*c == '%') *c = ' ';  // the text is an ImGui format string
  }
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
  const int styled = in_flight || reset_only || outside ? 1 : 0;
  if (outside)
    ImGui::PushStyleColor(ImGuiCol_FrameBg, kOutsideRange);
  else if (in_flight)
    ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0.15f, 0.32f, 0.55f, 1));
  else if (reset_only)
    ImGui::PushStyleColor(ImGuiCol_FrameBg, pending ? ImVec4(0.45f, 0.33f, 0.08f, 1) : ImVec4(0.22f, 0.19f, 0.12f, 1));
  switch (d.kind) {
    case ParamKind::Bool: {
      bool b = v != 0;
      if (ImGui::Checkbox("##v", &b)) v = b, changed = true;
      break;
    }
    case ParamKind::Choice: {
      const auto names = choice_names(d);
      int c = int(v);
      if (ImGui::Combo("##v", &c, [](void* data, int i, const char** out) {
            *out = static_cast<const std::string_view*>(data)[i].data();
            return true;
          }, const_cast<std::string_view*>(names.data()), int(names.size())))
        v = c, changed = true;
      break;
    }
    case ParamKind::Int: {
      auto i = std::int64_t(v);
      if (name == "seed") {
        changed = ImGui::InputScalar("##v", ImGuiDataType_S64, &i);
      } else {
        const auto lo = std::int64_t(d.slider_min), hi = std::int64_t(d.slider_max);
        // Counts spanning decades (boids 0..100000) get a logarithmic slider too.
        const ImGuiSliderFlags f = hi >= 1000 ? ImGuiSliderFlags_Logarithmic : 0;
        changed = ImGui::SliderScalar("##v", ImGuiDataType_S64, &i, &lo, &hi, outside ? shown : "%lld", f);
      }
      if (changed) v = double(i);
      break;
    }
    case ParamKind::Real: {
      const double lo = d.slider_min, hi = d.slider_max;
      double x = std::isinf(v) ? hi : v;
      const ImGuiSliderFlags f = d.log_scale() ? ImGuiSliderFlags_Logarithmic : 0;
      if (ImGui::SliderScalar("##v", ImGuiDataType_Double, &x, &lo, &hi, outside ? shown : std::isinf(v) ? "inf" : "%.5g", f))
        v = x, changed = true;
      break;
    }
  }
  const bool commit_only = s.live() && (d.kind == ParamKind::Int || d.kind == ParamKind::Real);
  const bool let_go = commit_only && ImGui::IsItemDeactivated();
  ImGui::PopStyleColor(styled);
  rects.remember("param:" + name);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
    ImGui::TextUnformatted(d.help.data(), d.help.data() + d.help.size());
    if (outside)
      ImGui::TextColored(ImVec4(1, 0.55f, 0.35f, 1), "the board's value %.6g is outside this app's range %s; moving the slider sends a value within it",
                         board_v, describe_range(d).c_str());
    ImGui::TextDisabled("range %s%s%s", describe_range(d).c_str(), d.log_scale() ? ", logarithmic slider" : "",
                        reset_only ? "; applied on Reset" : "; acts in this frame");
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::SameLine();
  if (absent)
    ImGui::TextDisabled("%s (not on the board)", name.c_str());
  else if (in_flight)
    ImGui::TextColored(ImVec4(0.5f, 0.75f, 1, 1), "%s (sent)", name.c_str());
  else if (outside)
    ImGui::TextColored(ImVec4(1, 0.55f, 0.35f, 1), "%s (outside this app's range)", name.c_str());
  else if (reset_only)
    ImGui::TextColored(kReset, "%s%s", name.c_str(), pending ? " *" : "");
  else
    ImGui::TextUnformatted(name.c_str());
  if (changed) {
    if (auto err = set_param(edit, d, v))
      messages.note(*err, true);
    else if (commit_only)
      uncommitted_ = {d.id, get_param(edit, d)};
    else
      edited = true;
  }
  if (let_go && uncommitted_ && uncommitted_->first == d.id) {
    edited = true;
    uncommitted_.reset();
  }
  ImGui::EndDisabled();
  ImGui::PopID();
  return edited;
}

}  // namespace flockscope::gui
