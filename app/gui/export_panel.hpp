// The Export section and what the toolbar's Export writes: which rows (all, the zoomed
// plot's time range, the run since the last Reset) and which plots, into which folder; the
// folder opened afterwards (xdg-open); the last folder that took a file (settings.json keeps
// it). The section also holds the plots' own buttons: clear them, compare with the previous
// run, a screenshot of the flock view.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "boid_source.hpp"
#include "panel_support.hpp"
#include "plot_data.hpp"
#include "plots_panel.hpp"

namespace flockscope::gui {

class ExportPanel {
 public:
  ExportPanel();  // the folder: ~/flockscope

  // Where Export, Record and screenshots write (the section's folder field).
  const std::string& folder() const { return dir_; }
  void set_folder(std::string dir) { dir_ = std::move(dir); }
  // A folder read back from settings.json: shown, and kept until another takes a file.
  void restore_folder(const std::string& dir) { dir_ = saved_ = dir; }
  // The last folder that took a file (an export, a recording); empty until one did.
  const std::string& saved_folder() const { return saved_; }
  void took_file(const std::string& dir) { saved_ = dir; }

  // Writes the plots into `folder` with the section's choices (rows, plots), the lines
  // shown and the zoomed range from `panel`, named after the source (`preset`: the name of a
  // flock simulated here). The files go in last_export(), the outcome to `messages`.
  void export_all(const std::filesystem::path& folder, const PlotData& plots, const PlotsPanel& panel, BoidSource& s,
                  const std::string& preset, Messages& messages);
  const std::vector<std::filesystem::path>& last_export() const { return last_export_; }

  // What the user asked of the window in the section this frame.
  struct Asked {
    bool folder_changed = false, clear_plots = false, screenshot = false;
  };
  // The section's widgets. `show_previous`: the "previous run" checkbox's value (nullptr:
  // there is no previous run).
  Asked draw(bool* show_previous, WidgetRects& rects, Messages& messages);

  // Reaps the xdg-open processes that ended (once a frame).
  void reap();

 private:
  // xdg-open in its own process; a missing xdg-open is a message.
  void open_folder(const std::string& dir, Messages& messages);

  std::string dir_;
  int rows_ = 0;  // 0 everything, 1 the visible range, 2 since the last Reset
  int plot_ = 0;  // 0 all plots, else kExportPlots[plot_ - 1]
  std::vector<std::filesystem::path> last_export_;
  std::string exported_to_;    // the folder "Open folder" opens
  std::vector<int> children_;  // xdg-open processes not yet reaped
  std::string saved_;
};

}  // namespace flockscope::gui
