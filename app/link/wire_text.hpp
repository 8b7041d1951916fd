// Text from the wire (a board's hello name, its log lines) made safe to print, once, where
// it enters the app. A board is not trusted: its bytes may be invalid UTF-8 (which a JSON
// writer refuses) or carry terminal controls (ESC[2J clears the screen, OSC 0 retitles the
// terminal, U+202E reverses what follows). The result is valid UTF-8 with every control
// written out as an escape, so it prints the same on a terminal, in the window and in JSON.
#pragma once

#include <string>
#include <string_view>

namespace flockscope::link {

// Printable characters (valid UTF-8, not a control) are kept; a byte that is not part of a
// valid UTF-8 sequence and a C0 control or DEL become \xHH; a C1 control, a bidirectional
// override or isolate, and the line and paragraph separators become \u{HHHH}; a backslash
// becomes \\ so an escape in the result always means the board sent that byte or character.
std::string printable(std::string_view wire);

}  // namespace flockscope::link
