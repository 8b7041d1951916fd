// What every panel of the window shares: where its named widgets were drawn (tests click and
// drag them like a user), the window's message line, and small ImGui helpers.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace flockscope::gui {

// A widget's screen rectangle.
struct WidgetRect {
  float x0, y0, x1, y1;
  float cx() const { return (x0 + x1) / 2; }
  float cy() const { return (y0 + y1) / 2; }
};

// Where named widgets ("param:visualRange", "button:Reset", ...) were drawn this frame.
class WidgetRects {
 public:
  // Names ImGui's last item.
  void remember(const std::string& name);
  // Names a rectangle drawn by hand (an overlay).
  void remember(const std::string& name, const WidgetRect& r) { rects_[name] = r; }
  std::optional<WidgetRect> find(const std::string& name) const;
  void clear() { rects_.clear(); }

 private:
  std::map<std::string, WidgetRect> rects_;
};

// The window's one message (errors in red), also printed on stdout or stderr.
class Messages {
 public:
  void note(std::string text, bool error = false);
  void clear() { text_.clear(); }
  const std::string& text() const { return text_; }
  bool is_error() const { return error_; }

 private:
  std::string text_;
  bool error_ = false;
};

// The message as one line of the current ImGui window, always there (empty when there is
// nothing to say) so a message never moves the widgets below; the whole text shows on hover,
// a box at its right end dismisses it. Named "status" (and "message" while it shows one).
void message_line(Messages& messages, WidgetRects& rects);

// An ImGui text field over a std::string; true when it changed.
bool input_text(const char* label, std::string& s);

// Local time as YYYYmmdd-HHMMSS, for file names.
std::string timestamp();

}  // namespace flockscope::gui
