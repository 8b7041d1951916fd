#include "export_panel.hpp"

#include <imgui.h>

#include <cstdlib>
#include <cstring>
#include <tuple>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "export.hpp"
#include "flockscope/core/io.hpp"

namespace flockscope::gui {

namespace fs = std::filesystem;

namespace {
std::string default_export_dir() {
  const char* home = std::getenv("HOME");
  return (fs::path(home && *home ? home : "/tmp") / "flockscope").string();
}
}  // namespace

ExportPanel::ExportPanel() : dir_(default_export_dir()) {}

void ExportPanel::export_all(const fs::path& folder, const PlotData& plots, const PlotsPanel& panel, BoidSource& s,
                             const std::string& preset, Messages& messages) {
  try {
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) throw InputError(folder.string() + ": cannot create the folder (" + ec.message() + ")");
    ExportOptions o;
    o.shown = panel.shown();
    panel.export_choices(o);
    std::string range_note;
    if (rows_ == 1) {
      if (const auto range = panel.zoomed_range())
        std::tie(o.first, o.last) = rows_in(plots, range->first, range->second);
      else
        range_note = "no plot zoomed: every row";
    } else if (rows_ == 2) {
      std::tie(o.first, o.last) = rows_since_reset(plots);
    }
    if (plot_ > 0) o.only = kExportPlots[plot_ - 1];
    const Params& p = s.params();
    std::string who = s.simulated_here() ? preset : s.board() ? "board" : fs::path(s.origin()).stem().string();
    if (who.empty()) who = "custom";
    o.who = who + ", seed " + std::to_string(p.seed) + ", N = " + std::to_string(s.boids().n);
    o.params = p;
    o.extensions = extension_plots(p);
    o.description = "exported from the flockscope window (" + o.who + ", at step " + std::to_string(s.step()) + ")";
    // Two exports in one second do not overwrite each other: the second gets "-2".
    std::string stem = "flockscope-" + timestamp();
    for (int k = 2; fs::exists(folder / (stem + ".csv")); ++k) stem = "flockscope-" + timestamp() + "-" + std::to_string(k);
    const ExportResult r = export_plot_files(folder, stem, plots, o);
    last_export_ = r.files;
    exported_to_ = folder.string();
    saved_ = folder.string();
    if (!r.note.empty()) range_note += (range_note.empty() ? "" : "; ") + r.note;
    messages.note("exported " + std::to_string(r.files.size()) + " files to " + folder.string() +
                  (range_note.empty() ? "" : " (" + range_note + ")"));
  } catch (const std::exception& e) {
    messages.note(std::string("export failed: ") + e.what(), true);
  }
}

ExportPanel::Asked ExportPanel::draw(bool* show_previous, WidgetRects& rects, Messages& messages) {
  Asked asked;
  ImGui::SetNextItemWidth(-1);
  asked.folder_changed = input_text("##exportdir", dir_);
  rects.remember("export:folder");
  ImGui::RadioButton("everything", &rows_, 0);
  rects.remember("export:everything");
  ImGui::SameLine();
  ImGui::RadioButton("visible range", &rows_, 1);
  rects.remember("export:visible");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the time range of the plot last zoomed or panned; hidden lines are left out");
  ImGui::SameLine();
  ImGui::RadioButton("since Reset", &rows_, 2);
  rects.remember("export:since-reset");
  ImGui::SetNextItemWidth(150);
  const char* plot_names[] = {"all plots",     kExportPlots[0], kExportPlots[1], kExportPlots[2],
                              kExportPlots[3], kExportPlots[4], kExportPlots[5], kExportPlots[6]};
  if (ImGui::BeginCombo("##exportplot", plot_names[plot_])) {
    for (int i = 0; i < IM_ARRAYSIZE(plot_names); ++i) {
      if (ImGui::Selectable(plot_names[i], i == plot_)) plot_ = i;
      rects.remember(std::string("export:plot:") + plot_names[i]);
    }
    ImGui::EndCombo();
  } else {
    rects.remember("export:plot");
  }
  ImGui::SameLine();
  ImGui::TextDisabled("(the toolbar's Export)");
  asked.clear_plots = ImGui::Button("Clear plots");
  rects.remember("button:Clear plots");
  if (show_previous) {
    ImGui::SameLine();
    ImGui::Checkbox("previous run", show_previous);
    rects.remember("plots:previous");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the plots of the run before the last preset, in grey behind this one");
  }
  if (!exported_to_.empty()) {
    ImGui::SameLine();
    if (ImGui::Button("Open folder")) open_folder(exported_to_, messages);
    rects.remember("button:Open folder");
  }
  asked.screenshot = ImGui::Button("Screenshot of the flock view");
  return asked;
}

void ExportPanel::open_folder(const std::string& dir, Messages& messages) {
  const char* argv[] = {"xdg-open", dir.c_str(), nullptr};
  pid_t pid = 0;
  const int err = posix_spawnp(&pid, "xdg-open", nullptr, nullptr, const_cast<char* const*>(argv), environ);
  if (err != 0)
    messages.note("cannot open " + dir + ": xdg-open: " + std::strerror(err) + " (the files are there)", true);
  else
    children_.push_back(int(pid));
}

void ExportPanel::reap() {
  for (auto it = children_.begin(); it != children_.end();)
    it = waitpid(pid_t(*it), nullptr, WNOHANG) != 0 ? children_.erase(it) : it + 1;
}

}  // namespace flockscope::gui
