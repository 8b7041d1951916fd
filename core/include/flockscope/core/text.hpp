// Text helpers shared by the parsers of user input (parameters, grids, CSV tables).
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

namespace flockscope {

// Without leading blanks and tabs, and without trailing blanks, tabs and carriage returns (a
// CSV file or a preset written on Windows ends its lines in "\r\n").
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The pieces between the separators, as they are (no trimming): "a,,b" gives "a", "", "b";
// an empty text gives one empty piece.
inline std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (std::size_t b = 0;;) {
    const std::size_t e = s.find(sep, b);
    out.push_back(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) return out;
    b = e + 1;
  }
}

// A number (after trim): a decimal or exponent form, or "inf" / "infinity". The
// parameters' values and the sweeps' grid values and CSV cells are all read this way.
inline bool parse_double(std::string_view t, double& v) {
  t = trim(t);
  if (t == "inf" || t == "infinity") return v = INFINITY, true;
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && ptr == t.data() + t.size() && !t.empty();
}

// The candidate nearest to `name` within two edits (a wrong case costs nothing), or an empty
// view when none is that close: the "did you mean" of an unknown name.
template <class Names>
std::string_view nearest_name(std::string_view name, const Names& candidates) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
  auto distance = [&](std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diag = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1)});
        diag = up;
      }
    }
    return row[b.size()];
  };
  std::string_view best;
  std::size_t best_d = 3;
  for (const auto& c : candidates)
    if (const std::size_t k = distance(name, c); k < best_d) best = c, best_d = k;
  return best;
}

}  // namespace flockscope
