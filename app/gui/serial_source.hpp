// SerialSource: a board mirrored over its serial port (app/link's BoardLink), behind the
// same seam as a local flock, so the flock view, the plots, the recorder and the sliders
// work on it unchanged.
//
// Parameters: params() is the board's truth (its parameter set, read back at every
// handshake, and every acknowledged change); pending_params() is what the user asked for.
// A slider change becomes a param_change; it shows as pending until the board
// acknowledges it, and a rejection puts the board's value back with its reason.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "link/board_link.hpp"
#include "boid_source.hpp"

namespace flockscope::gui {

// What the window's board panel shows and sends beyond parameters: the link's state and
// counters, the board's own stats, and the commands that are not parameters.
class BoardControls {
 public:
  virtual const std::string& port() const = 0;
  virtual link::LinkStatus link_status() const = 0;
  virtual const link::MirroredFrame& frame() const = 0;
  virtual bool board_predators() const = 0;
  virtual void set_boid_count(std::uint32_t n) = 0;
  virtual void set_predators(bool on) = 0;

 protected:
  ~BoardControls() = default;
};

class SerialSource final : public BoidSource, public BoardControls {
 public:
  // Starts connecting to `port` at once (and keeps trying: the board may come later).
  // `shown` are the parameters shown until the board's own arrive.
  SerialSource(const std::string& port, const Params& shown, link::LinkOptions options = {});

  const char* kind() const override { return "serial"; }
  const char* title() const override { return "board"; }
  std::string origin() const override { return port_; }
  PointsView boids() const override { return link::view_of(frame_); }
  const std::uint32_t* ids() const override { return nullptr; }
  const std::uint8_t* groups() const override { return frame_.size() ? frame_.groups.data() : nullptr; }
  std::span<const Predator> predators() const override { return frame_.predators; }
  std::span<const FoodSource> food() const override { return frame_.food; }
  std::span<const PredatorAim> predator_aims() const override { return frame_.aims; }
  const Params& params() const override { return board_; }
  const Params& pending_params() const override { return requested_; }
  const Metrics& metrics() const override { return metrics_; }
  bool has_neighbour_metrics() const override { return neighbours_; }
  link::MetricsSource metrics_source() const override { return link::metrics_source(frame_); }
  std::uint64_t step() const override { return frame_.frame; }
  double time() const override { return double(frame_.frame) * board_.dt; }

  bool editable() const override { return connected(); }
  bool live() const override { return true; }
  bool paused() const override { return board_paused(); }
  bool accepts_commands() const override { return connected(); }
  BoardControls* board() override { return this; }
  bool param_pending(std::uint16_t id) const override { return pending_ids_.count(id) > 0; }
  bool has_param(std::uint16_t id) const override { return !have_params_ || on_board_.count(id) > 0; }
  std::optional<double> outside_value(std::uint16_t id) const override;
  std::optional<std::string> board_allows(std::uint16_t id) const override;
  std::uint64_t params_revision() const override { return revision_; }
  std::vector<Note> take_notes() override;

  // Sends a param_change for every parameter that differs from what was last asked for.
  void set_params(const Params& p) override;
  // The reset command with the asked-for seed (reset-only changes take effect then).
  void reset() override;
  // Takes every event queued since the last call, in order; each board frame becomes the
  // shown one in turn (`each` runs for it), so the newest is shown at the end.
  using BoidSource::advance;
  bool advance(int steps, const EachStep& each) override;

  // Commands.
  void set_paused(bool paused) override;
  void set_boid_count(std::uint32_t n) override;
  void set_predators(bool on) override;

  bool connected() const { return state_ == link::LinkState::kConnected && have_params_; }
  bool board_paused() const { return frame_.has_stats && (frame_.stats.flags & protocol::kStatsFlagPaused); }
  bool board_predators() const override { return frame_.has_stats && (frame_.stats.flags & protocol::kStatsFlagPredators); }
  const link::MirroredFrame& frame() const override { return frame_; }
  link::LinkStatus link_status() const override { return link_.status(); }
  const std::string& port() const override { return port_; }

 private:
  void on_event(link::LinkEvent& e);
  void show_frame(link::MirroredFrame&& f, bool neighbours);
  void on_done(const link::RequestDone& d);
  void on_late(const link::RequestDone& d);
  void note(std::string text, bool error) { notes_.push_back({std::move(text), error}); }
  void board_value(const ParamDef& def, double v);

  std::string port_;
  link::BoardLink link_;
  link::LinkState state_ = link::LinkState::kClosed;
  bool have_params_ = false;
  Params board_, requested_;
  link::MirroredFrame frame_;
  Metrics metrics_;
  bool neighbours_ = false;
  struct Sent {
    std::uint16_t id;        // parameter id, or 0 for a command
    protocol::CommandId command{};
  };
  std::map<std::uint32_t, Sent> pending_;    // request number -> what it was
  std::set<std::uint16_t> on_board_;         // the ids of the board's parameter set
  std::map<std::uint16_t, int> pending_ids_; // parameter id -> requests in flight
  std::map<std::uint16_t, double> outside_;  // parameter id -> the board's value outside our range
  std::map<std::uint16_t, std::string> allows_;  // parameter id -> what the board said it allows
  std::uint64_t revision_ = 0;
  std::vector<Note> notes_;
};

}  // namespace flockscope::gui
