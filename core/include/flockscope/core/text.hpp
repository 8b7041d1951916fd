// Text helpers shared by the parsers of user input (parameters, grids, CSV tables).
#pragma once

#include <string_view>

namespace flockscope {

// Without leading blanks and tabs, and without trailing blanks, tabs and carriage returns (a
// CSV file or a preset written on Windows ends its lines in "\r\n").
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace flockscope
