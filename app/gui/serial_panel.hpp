// The board panel: the port picker and Connect while no board is mirrored; the link's state
// and counters, the board's own stats, and the commands that are not parameters while one is.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "boid_source.hpp"
#include "panel_support.hpp"

namespace flockscope::gui {

class SerialPanel {
 public:
  enum class Action { None, Connect, Disconnect };
  // `now`: seconds since the window opened (the ports are listed again every 2 s). Returns
  // what the user asked for; the window switches sources (port() names the one to connect).
  Action draw(BoidSource& s, double now, WidgetRects& rects);

  // The port to connect to (remembered in the settings between runs).
  const std::string& port() const { return port_; }
  void set_port(std::string p) { port_ = std::move(p); }

 private:
  std::string port_;
  std::vector<std::pair<std::string, std::string>> ports_;  // path, label
  double listed_at_ = -1e9;
  int boid_count_request_ = 2000;
  bool boid_count_typed_ = false;  // the Set-boid-count field holds the user's number
};

}  // namespace flockscope::gui
