// The control panel down the window's left side. Fixed at its top (never scrolled, never
// pushed down): the source, the toolbar (run, step, reset, new seed, undo; record, export,
// largest flock) and one status line for the last message. Below it scroll steps per frame,
// the timeline, the presets, parameter and board panels, stats, the Explore controls,
// record and replay, and the export panel.
// Each control asks the source what it can do (BoidSource's capabilities), never its class.
#include <imgui.h>

#include <algorithm>
#include <cinttypes>

#include "gui_app.hpp"

namespace flockscope::gui {

namespace fs = std::filesystem;

void GuiApp::controls_panel() {
  toolbar();
  message_line(messages_, rects_);
  ImGui::Separator();
  ImGui::BeginChild("##controls");
  scrolled_controls();
  ImGui::EndChild();
}

void GuiApp::toolbar() {
  ImGui::Text("Source: %s", source_->title());
  ImGui::SameLine();
  ImGui::TextDisabled("%s", source_->simulated_here() ? preset_name_.c_str() : source_->origin().c_str());
  if (source_->live()) {
    // The source runs by itself: Pause and Resume are commands to it.
    ImGui::BeginDisabled(!source_->accepts_commands());
    if (ImGui::Button(source_->paused() ? "Resume" : "Pause", ImVec2(70, 0))) source_->set_paused(!source_->paused());
    rects_.remember("button:Run");
    ImGui::EndDisabled();
  } else {
    if (ImGui::Button(running_ ? "Pause" : "Run", ImVec2(70, 0))) running_ = !running_;
    rects_.remember("button:Run");
    ImGui::SameLine();
    if (ImGui::Button("Step")) asked_.step = true;
    rects_.remember("button:Step");
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset")) asked_.reset = true;
  rects_.remember("button:Reset");
  if (!source_->timeline()) {  // a replay plays one run back; the others start a new one
    ImGui::SameLine();
    if (ImGui::Button("New seed")) {
      edits_.edit().seed = (edits_.edit().seed + 1) % 4294967296LL;
      edits_.mark_changed();
      asked_.reset = true;
    }
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!edits_.can_undo() || !source_->editable());
  if (ImGui::Button("Undo")) undo();
  rects_.remember("button:Undo");
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Undo the last parameter change (Ctrl+Z); %zu kept", edits_.undo_steps());

  // What leaves a file or changes the flock's size, always in reach.
  if (source_->recordable()) {
    if (!recorder_.active()) {
      if (ImGui::Button("Record")) start_recording(fs::path(export_.folder()) / ("recording-" + timestamp() + ".flkrec"));
    } else {
      ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.7f, 0.15f, 0.15f, 1));
      if (ImGui::Button("Stop recording")) stop_recording();
      ImGui::PopStyleColor();
    }
    rects_.remember("button:Record");
    ImGui::SameLine();
  }
  if (ImGui::Button("Export plots")) export_all(export_.folder());
  rects_.remember("button:Export");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("CSV, SVG and PNG of the plots and the parameters as a preset into %s (which rows and plots: Export, below)",
                      export_.folder().c_str());
  if (source_->simulated_here()) {
    ImGui::SameLine();
    ImGui::Checkbox("Largest flock", &largest_.enabled);
    rects_.remember("largest");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The lab's challenge: keep adding boids while the frame rate stays at or above %.0f fps (Stats)",
                        largest_.target_fps);
  }
}

void GuiApp::undo() {
  if (!edits_.can_undo() || !source_->editable()) return;
  const std::string names = edits_.undo();
  note("undone: " + (names.empty() ? std::string("no change") : names));
}

void GuiApp::scrolled_controls() {
  if (!source_->live()) {
    ImGui::SetNextItemWidth(150);
    ImGui::SliderInt("steps per frame", &steps_per_frame_, 1, 50, "%d", ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic);
  }

  if (Timeline* tl = source_->timeline()) {
    int idx = int(tl->index());
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderInt("##timeline", &idx, 0, int(std::max<std::size_t>(tl->frames(), 1) - 1), "frame %d")) {
      tl->seek(std::size_t(idx));
      source_moved_ = false;
    }
    rects_.remember("replay:timeline");
    const bool back = ImGui::Button("Back to a local flock");
    rects_.remember("button:Back to a local flock");
    if (back) {
      const Params p = tl->start_params();
      set_source(std::make_unique<LocalSource>(p));
      preset_name_ = "(the recording's parameters)";
      edits_.reference() = p;
      note("a local flock with the recording's parameters");
      return;
    }
  }

  if (source_->simulated_here() && ImGui::CollapsingHeader("Presets", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (const auto load = presets_.draw(preset_name_, export_.folder(), edits_.edit(), rects_, messages_))
      load_preset_file(*load);
  }

  if (ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen) && parameter_panel_.draw(*source_, edits_.edit(), edits_.reference(), rects_, messages_))
    edits_.mark_changed();

  // The board panel may switch sources (connect, disconnect): this frame's panel ends there.
  if (ImGui::CollapsingHeader("Board (serial port)", source_->board() ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
    switch (serial_panel_.draw(*source_, clock_.seconds(), rects_)) {
      case SerialPanel::Action::None: break;
      case SerialPanel::Action::Connect: connect_serial(serial_panel_.port()); return;
      case SerialPanel::Action::Disconnect: disconnect_serial(); return;
    }
  }

  if (ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) {
    const auto b = source_->boids();
    ImGui::Text("boids %zu   predators %zu", b.n, source_->predators().size());
    ImGui::Text("frame rate %.1f fps   elapsed %.0f s", clock_.fps(), clock_.seconds());
    ImGui::Text("step %" PRIu64 "   sim time %.1f", source_->step(), source_->time());
    const FrameTimes& t = clock_.times();
    const double per_step = t.steps > 0 ? t.simulate / t.steps : 0;
    ImGui::Text("simulate + metrics %.2f ms (%.2f ms/step)  rest %.2f ms", t.simulate, per_step, t.update_rest);
    if (view_.density_counted())
      ImGui::Text("density %.2f ms (picture: %.0f%% density, %.2f boids/pixel)", t.density, view_.density_weight() * 100,
                  view_.density().crowding());
    ImGui::Text("geometry %.2f ms (%.1f ns/boid)  render %.2f ms", t.geometry, b.n ? t.geometry * 1e6 / double(b.n) : 0.0,
                t.render);
    if (source_->simulated_here()) {
      ImGui::TextUnformatted("Largest flock (toolbar):");
      ImGui::SameLine();
      ImGui::SetNextItemWidth(90);
      ImGui::InputFloat("target fps", &largest_.target_fps, 0, 0, "%.0f");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The lab's challenge: keep adding boids while the frame rate stays at or above the target");
      if (largest_.best() > 0) ImGui::Text("largest flock at %.0f fps: %zu boids", largest_.target_fps, largest_.best());
    }
  }

  explore_.follow_rules(edits_.edit().rule_set());  // its default axes, also while folded
  const bool explore_open = ImGui::CollapsingHeader("Explore (parameter map)", explore_.has_map() ? ImGuiTreeNodeFlags_DefaultOpen : 0);
  rects_.remember("header:Explore");
  if (explore_open)
    if (const auto loaded = explore_.controls(edits_.edit(), preset_name_, export_.folder(), rects_, messages_))
      take_setup_params(*loaded);

  if (ImGui::CollapsingHeader("Record and replay")) {
    if (recorder_.active())
      ImGui::Text("recording: %" PRIu64 " frames, %.1f MB to %s", recorder_.frames(), double(recorder_.bytes()) / 1e6,
                  recorder_.file().filename().c_str());
    else if (source_->recordable())
      ImGui::TextDisabled("Record (toolbar) writes into the export folder");
    ImGui::SetNextItemWidth(220);
    input_text("##replayfile", replay_path_);
    ImGui::SameLine();
    if (ImGui::Button("Open replay")) open_replay(replay_path_);
  }

  if (ImGui::CollapsingHeader("Export", ImGuiTreeNodeFlags_DefaultOpen)) {
    const ExportPanel::Asked asked =
        export_.draw(previous_plots_.diameter.size() > 0 ? &show_previous_ : nullptr, rects_, messages_);
    if (asked.folder_changed) presets_.follow_folder();
    if (asked.clear_plots) clear_plots();
    if (asked.screenshot) request_screenshot(fs::path(export_.folder()) / ("flock-" + timestamp() + ".png"), true);
  }
}

}  // namespace flockscope::gui
