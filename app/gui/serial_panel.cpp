#include "serial_panel.hpp"

#include <imgui.h>

#include <algorithm>

#include "link/ports.hpp"
#include "serial_source.hpp"

namespace flockscope::gui {

// Port picker, connect/disconnect, the link's state and counters, the board's own stats,
// and the commands that are not parameters.
SerialPanel::Action SerialPanel::draw(BoidSource& s, double now, WidgetRects& rects) {
  BoardControls* board = s.board();
  if (now - listed_at_ > 2) {  // re-listed every 2 s: a board plugged in shows up
    listed_at_ = now;
    ports_.clear();
    for (const auto& p : link::list_ports()) ports_.emplace_back(p.path, p.label);
    if (port_.empty() && !ports_.empty()) port_ = ports_.front().first;
  }
  if (!board) {
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##ports", ports_.empty() ? "no board found (type a path below)" : port_.c_str())) {
      for (const auto& [path, label] : ports_)
        if (ImGui::Selectable((label + "  " + path).c_str(), path == port_)) port_ = path;
      ImGui::EndCombo();
    }
    ImGui::SetNextItemWidth(220);
    input_text("##portpath", port_);
    rects.remember("serial:port");
    ImGui::SameLine();
    const bool connect = ImGui::Button("Connect") && !port_.empty();
    rects.remember("button:Connect");
    ImGui::TextDisabled("a Pico: /dev/ttyACM0; the virtual board: flockscope board --link PATH");
    return connect ? Action::Connect : Action::None;
  }
  const link::LinkStatus st = board->link_status();
  const auto& c = st.counters;
  const bool ok = st.state == link::LinkState::kConnected;
  const bool bad = st.state == link::LinkState::kVersionMismatch;
  ImGui::TextColored(ok ? ImVec4(0.5f, 0.9f, 0.5f, 1) : bad ? ImVec4(1, 0.45f, 0.4f, 1) : ImVec4(1, 0.8f, 0.4f, 1), "%s",
                     link::to_string(st.state));
  rects.remember("serial:state");
  ImGui::SameLine();
  if (ImGui::SmallButton("Disconnect")) return Action::Disconnect;
  rects.remember("button:Disconnect");
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", st.detail.c_str());
  ImGui::PopTextWrapPos();
  if (st.board) {
    const auto& h = *st.board;
    ImGui::Text("%s  firmware %u.%u.%u  protocol %u  up to %u boids", st.board_name.c_str(), h.sw_major, h.sw_minor,
                unsigned(h.sw_patch), h.protocol_version, h.max_boids);
  }
  const auto& f = board->frame();
  if (f.has_stats) {
    const auto& bs = f.stats;
    ImGui::Text("board: %.1f fps  compute %.1f ms  spare %.1f ms%s", double(bs.fps), bs.compute_us / 1000.0,
                bs.spare_us / 1000.0, (bs.flags & protocol::kStatsFlagGeneralRules) ? "  (general rules path)" : "");
    ImGui::Text("boids %u  elapsed %.1f s  frame %u%s", bs.boid_count, bs.elapsed_ms / 1000.0, bs.frame,
                s.paused() ? "  (paused)" : "");
  }
  if (ImGui::BeginTable("link", 2, ImGuiTableFlags_SizingStretchSame)) {
    auto row = [](const char* k, const char* fmt, auto v) {
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", k);
      ImGui::SameLine();
      ImGui::Text(fmt, v);
    };
    row("frames/s", "%.1f", c.frames_per_s);
    row("KB/s", "%.0f", c.bytes_per_s / 1000);
    row("bad checksums", "%u", c.rx.bad_crc);
    row("framing errors", "%u", c.rx.bad_framing + c.rx.oversize + c.rx.malformed);
    row("sequence gaps", "%u", c.rx.seq_gaps);
    row("frames missed", "%u", c.frames.missed);
    row("partial frames", "%u", c.frames.partial);
    row("reconnects", "%u", c.reconnects);
    ImGui::TableNextColumn();
    ImGui::TextDisabled("last change");
    ImGui::SameLine();
    if (c.last_rtt_ms >= 0)
      ImGui::Text("%.1f ms", c.last_rtt_ms);
    else
      ImGui::TextUnformatted("-");
    row("unanswered", "%u", c.unanswered);
    ImGui::EndTable();
  }
  rects.remember("serial:counters");
  ImGui::BeginDisabled(!s.accepts_commands());
  // The field shows the board's count (as the stats and the boids slider do) from when the
  // user's own number was sent until they type another.
  if (!boid_count_typed_ && f.has_stats) boid_count_request_ = int(std::min<std::uint32_t>(f.stats.boid_count, 65535));
  ImGui::SetNextItemWidth(110);
  if (ImGui::InputInt("##boidcount", &boid_count_request_, 100, 1000)) boid_count_typed_ = true;
  rects.remember("serial:boidcount");
  boid_count_request_ = std::clamp(boid_count_request_, 0, 65535);
  ImGui::SameLine();
  if (ImGui::Button("Set boid count")) {
    board->set_boid_count(std::uint32_t(boid_count_request_));
    boid_count_typed_ = false;
  }
  bool predators = board->board_predators();
  if (ImGui::Checkbox("Predators", &predators)) board->set_predators(predators);
  ImGui::EndDisabled();
  return Action::None;
}

}  // namespace flockscope::gui
