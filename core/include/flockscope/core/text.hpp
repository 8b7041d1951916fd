// Text helpers shared by the parsers of user input (parameters, grids, CSV tables).
#pragma once

#include <charconv>
#include <cmath>
#include <string_view>

namespace flockscope {

// Without leading blanks and tabs, and without trailing blanks, tabs and carriage returns (a
// CSV file or a preset written on Windows ends its lines in "\r\n").
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A whole number (after trim): a decimal or exponent form, or "inf" / "infinity". The
// parameters' values and the sweeps' grid values and CSV cells are all read this way.
inline bool parse_double(std::string_view t, double& v) {
  t = trim(t);
  if (t == "inf" || t == "infinity") return v = INFINITY, true;
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && ptr == t.data() + t.size() && !t.empty();
}

}  // namespace flockscope
