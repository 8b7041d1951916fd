#include "parameter_panel.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // TempInputIsActive: typing, not dragging

#include <algorithm>
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
constexpr Section kSections[] = {
    {ParamSection::World, "World (reset)", true},    {ParamSection::Rules, "Rules", true},
    {ParamSection::Cornell, "Cornell rules", true},  {ParamSection::Report, "Report rules", true},
    {ParamSection::Edges, "Edges", false},           {ParamSection::Predators, "Predators", false},
    {ParamSection::Scouts, "Scout groups", false},   {ParamSection::Perching, "Perching", false},
    {ParamSection::Food, "Food", false}};

// A slider's position as a share of its track, and back (linear, or logarithmic as drawn).
struct Track {
  double lo, hi;
  bool log;
  // A log track from 0 (a count) is drawn as log(v + 1).
  double off() const { return lo > 0 ? 0 : 1; }
  double to_t(double v) const {
    if (!(hi > lo)) return 0;
    if (log) return std::log((v + off()) / (lo + off())) / std::log((hi + off()) / (lo + off()));
    return (v - lo) / (hi - lo);
  }
  double from_t(double t) const {
    t = std::clamp(t, 0.0, 1.0);
    if (log) return (lo + off()) * std::exp(t * std::log((hi + off()) / (lo + off()))) - off();
    return lo + t * (hi - lo);
  }
};
}  // namespace

bool ParameterPanel::draw(const BoidSource& s, Params& edit, const Params& reference, WidgetRects& rects, Messages& messages) {
  bool any_change = false;
  const RuleSet rules = edit.rule_set();
  const std::string_view rule_name = rule_names()[std::size_t(rules)];
  // A source that takes no changes (a replay, a board not connected) shows its parameters
  // read-only, and looks it: dimmer than ImGui's disabled default, with a line saying why.
  const bool read_only = !s.editable();
  if (read_only) {
    ImGui::TextDisabled(s.live() ? "read-only until the board is connected" : "a replay's parameters, as recorded: read-only");
    rects.remember("params:read-only");
    ImGui::PushStyleVar(ImGuiStyleVar_DisabledAlpha, 0.3f);
  }
  ImGui::BeginDisabled(read_only);
  for (const Section& sec : kSections) {
    int used = 0;
    for (const ParamDef& d : param_table()) used += d.section == sec.section && d.used_by_rules(rules);
    if (used == 0) continue;  // the section belongs to another rule set
    char title[64];
    std::snprintf(title, sizeof title, "%s###%d", sec.section == ParamSection::Cornell && rules == RuleSet::Blog ? "Blog rules" : sec.title,
                  int(sec.section));
    const bool open = ImGui::TreeNodeEx(title, sec.open ? ImGuiTreeNodeFlags_DefaultOpen : 0);
    rects.remember(std::string("section:") + std::string(sec.title).substr(0, std::string(sec.title).find(" (")));
    if (!open) continue;
    // Switches side by side (cohesion, separation, alignment share a line).
    bool after_switch = false;
    for (const ParamDef& d : param_table()) {
      if (d.section != sec.section || !d.used_by_rules(rules)) continue;
      const bool is_switch = d.kind == ParamKind::Bool;
      if (is_switch && after_switch) ImGui::SameLine();
      any_change = row(d, s, edit, reference, rects, messages) || any_change;
      after_switch = is_switch;
    }
    ImGui::TreePop();
  }
  // The other rule sets' parameters: out of the way, greyed, still settable for later.
  char others[96];
  std::snprintf(others, sizeof others, "Not used by the %.*s rules###unused", int(rule_name.size()), rule_name.data());
  if (ImGui::TreeNodeEx(others, 0)) {
    ImGui::PushStyleVar(ImGuiStyleVar_Alpha, ImGui::GetStyle().Alpha * 0.55f);
    for (const ParamDef& d : param_table())
      if (!d.used_by_rules(rules)) any_change = row(d, s, edit, reference, rects, messages) || any_change;
    ImGui::PopStyleVar();
    ImGui::TreePop();
  }
  ImGui::EndDisabled();
  if (read_only) ImGui::PopStyleVar();
  ImGui::TextColored(kReset, "yellow: reset-only (* = waiting for Reset)");
  if (s.live()) ImGui::TextColored(ImVec4(0.5f, 0.75f, 1, 1), "blue: sent to the board, waiting for its ack");
  return any_change;
}

void ParameterPanel::keep_uncommitted(Params& edit) const {
  if (!uncommitted_) return;
  if (const ParamDef* d = find_param(uncommitted_->first)) (void)set_param(edit, *d, uncommitted_->second);
}

// One parameter's widget, its colours and tooltip, and its name.
bool ParameterPanel::row(const ParamDef& d, const BoidSource& s, Params& edit, const Params& reference, WidgetRects& rects,
                         Messages& messages) {
  bool edited = false;
  const ImGuiIO& io = ImGui::GetIO();
  const double before = get_param(edit, d);
  std::optional<Track> track;  // a slider's (not a checkbox's, a combo's, the seed's field)
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
  // The name and unit beside the slider, whole: the slider gives up width to a long label
  // (down to a third of the row), and a label longer still wraps rather than being cut.
  const std::string unit = unit_shown(d, edit);
  const std::string label = (unit.empty() || unit == name ? name : name + " (" + unit + ")") +
                            (absent      ? " (not on the board)"
                             : in_flight ? " (sent)"
                             : outside   ? " (outside this app's range)"
                             : pending   ? " *"
                                         : "");
  {
    const float avail = ImGui::GetContentRegionAvail().x, spacing = ImGui::GetStyle().ItemSpacing.x;
    const float label_w = ImGui::CalcTextSize(label.c_str()).x;
    ImGui::SetNextItemWidth(std::clamp(avail - label_w - spacing - 2, avail * 0.34f, avail * 0.46f));
  }
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
        track = Track{double(lo), double(hi), f != 0};
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
      track = Track{lo, hi, f != 0};
      break;
    }
  }
  // Ctrl+click typing applies the value typed once it is committed (Enter, a click away),
  // on any source: typing 400 is never 4 and 40 on the way, and Esc changes nothing. A board
  // gets a dragged value once let go, too; a local flock follows a drag live.
  const bool numeric = d.kind == ParamKind::Int || d.kind == ParamKind::Real;
  if (numeric && ImGui::TempInputIsActive(ImGui::GetItemID())) typing_id_ = d.id;
  const bool commit_only = numeric && (s.live() || typing_id_ == d.id);
  const bool let_go = commit_only && ImGui::IsItemDeactivated();
  ImGui::PopStyleColor(styled);
  rects.remember("param:" + name);
  // Fine drag: with Shift (or Alt) held the slider follows the mouse's movement at a tenth of
  // its speed from where it was, rather than jumping to the pointer.
  const bool fine = track && ImGui::IsItemActive() && !ImGui::TempInputIsActive(ImGui::GetItemID()) && (io.KeyShift || io.KeyAlt);
  if (fine) {
    // ImGui's track: the frame less 2 px of grab padding each side and the grab.
    const float track_px = std::max(1.0f, ImGui::GetItemRectSize().x - 4 - ImGui::GetStyle().GrabMinSize);
    if (fine_id_ != d.id) fine_id_ = d.id, fine_t_ = track->to_t(std::isinf(before) ? track->hi : before);
    fine_t_ += double(io.MouseDelta.x) / double(track_px) / 10;
    v = track->from_t(fine_t_);
    if (d.kind == ParamKind::Int) v = std::round(v);
    changed = v != before;
  } else if (!ImGui::IsItemActive() && fine_id_ == d.id) {
    fine_id_ = 0;
  }
  // Right-click: back to the preset's value.
  const double ref = get_param(reference, d);
  const bool restored = ImGui::IsItemClicked(ImGuiMouseButton_Right) && ref != before;  // a click: committed at once
  if (restored) v = ref, changed = true;
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
    ImGui::TextUnformatted(d.help.data(), d.help.data() + d.help.size());
    if (outside)
      ImGui::TextColored(ImVec4(1, 0.55f, 0.35f, 1), "the board's value %.6g is outside this app's range %s; moving the slider sends a value within it",
                         board_v, describe_range(d).c_str());
    if (s.live()) {
      // A board's range is its own: what it said it allows, else that it has not said.
      if (const auto allows = s.board_allows(d.id))
        ImGui::Text("the board allows %s", allows->c_str());
      else
        ImGui::TextDisabled("the board's range: not reported yet (a board refuses a value outside it and says what it allows)");
      ImGui::TextDisabled("this app's range %s%s", describe_range(d).c_str(), reset_only ? "; applied on Reset" : "");
    } else {
      ImGui::TextDisabled("range %s%s%s", describe_range(d).c_str(), d.log_scale() ? ", logarithmic slider" : "",
                          reset_only ? "; applied on Reset" : "; acts in this frame");
    }
    if (track)
      ImGui::TextDisabled("Ctrl+click to type a value; Shift+drag moves it 10x finer; right-click: the preset's %s", format_param(reference, d).c_str());
    else
      ImGui::TextDisabled("right-click: the preset's %s", format_param(reference, d).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0.0f);
  if (absent)
    ImGui::TextDisabled("%s", label.c_str());
  else if (in_flight)
    ImGui::TextColored(ImVec4(0.5f, 0.75f, 1, 1), "%s", label.c_str());
  else if (outside)
    ImGui::TextColored(ImVec4(1, 0.55f, 0.35f, 1), "%s", label.c_str());
  else if (reset_only)
    ImGui::TextColored(kReset, "%s", label.c_str());
  else
    ImGui::TextUnformatted(label.c_str());
  ImGui::PopTextWrapPos();
  rects.remember("label:" + name);
  if (changed) {
    if (auto err = set_param(edit, d, v))
      messages.note(*err, true);
    else if (commit_only && !restored)
      uncommitted_ = {d.id, get_param(edit, d)};
    else
      edited = true;
  }
  if (let_go && typing_id_ == d.id) typing_id_ = 0;
  if (let_go && uncommitted_ && uncommitted_->first == d.id) {
    // Committed: a change only if it differs from what the source has (Esc restores it).
    edited = get_param(edit, d) != get_param(s.pending_params(), d);
    uncommitted_.reset();
  }
  ImGui::EndDisabled();
  ImGui::PopID();
  return edited;
}

std::string unit_shown(const ParamDef& d, const Params& p) {
  const std::string_view u = d.unit;
  if (p.dt == 1) return std::string(u);
  if (u == "px/frame") return "px/time";
  if (u == "px/frame^2") return "px/time per step";
  if (u == "1/frame") return "1/step";
  return std::string(u);
}

const char* speed_unit(const Params& p) { return p.dt == 1 ? "px/frame" : "px/time"; }

}  // namespace flockscope::gui
