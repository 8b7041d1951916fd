// Text helpers of the experiments' parsers (grid axes, shards, CSV cells) and the CSV line
// writer; internal to experiments/.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "flockscope/core/text.hpp"

namespace flockscope::experiments::detail {

inline bool parse_u64(std::string_view t, std::uint64_t& v) {
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && ptr == t.data() + t.size() && !t.empty();
}

// Nine significant digits: the labels of grid values and the fallback of number_cell.
inline std::string label_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// Appends cells to a CSV line. (Also sidesteps GCC 12's false -Wrestrict on "," + string.)
struct Line {
  std::string text;
  Line& operator<<(std::string_view cell) {
    if (!text.empty()) text += ',';
    text += cell;
    return *this;
  }
  Line& operator<<(std::uint64_t v) { return *this << std::string_view(std::to_string(v)); }
  Line& operator<<(std::int64_t v) { return *this << std::string_view(std::to_string(v)); }
  Line& operator<<(int v) { return *this << std::int64_t(v); }
};

}  // namespace flockscope::experiments::detail
