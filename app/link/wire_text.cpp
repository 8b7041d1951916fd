#include "link/wire_text.hpp"

#include <cstdint>
#include <cstdio>

namespace flockscope::link {

namespace {

// Length of the valid UTF-8 sequence at s[i] and its code point; 0 if it is not one
// (a stray continuation byte, a truncated sequence, an overlong form, a surrogate, or a
// code point above U+10FFFF).
std::size_t utf8_at(std::string_view s, std::size_t i, char32_t& cp) {
  const auto b = [&](std::size_t k) { return std::uint8_t(s[i + k]); };
  const std::uint8_t c = b(0);
  std::size_t n;
  char32_t min;
  if (c < 0x80) {
    cp = c;
    return 1;
  } else if ((c & 0xE0) == 0xC0) {
    n = 2, cp = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3, cp = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

bool escaped_code_point(char32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F)                      // C1 controls (U+009B is a CSI)
         || cp == 0x061C || cp == 0x200E || cp == 0x200F  // bidi marks
         || (cp >= 0x202A && cp <= 0x202E)                // bidi embeddings and overrides
         || (cp >= 0x2066 && cp <= 0x2069)                // bidi isolates
         || cp == 0x2028 || cp == 0x2029;                 // line and paragraph separators
}

}  // namespace

std::string printable(std::string_view wire) {
  std::string out;
  out.reserve(wire.size());
  char buf[16];
  for (std::size_t i = 0; i < wire.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_at(wire, i, cp);
    if (n == 0 || (n == 1 && (cp < 0x20 || cp == 0x7F))) {
      std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(std::uint8_t(wire[i])));
      out += buf;
      ++i;
    } else if (escaped_code_point(cp)) {
      std::snprintf(buf, sizeof buf, "\\u{%04x}", unsigned(cp));
      out += buf;
      i += n;
    } else if (cp == '\\') {
      out += "\\\\";
      ++i;
    } else {
      out.append(wire.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace flockscope::link
