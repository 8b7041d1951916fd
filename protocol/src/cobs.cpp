#include "flockscope/protocol/cobs.hpp"

#include <bit>
#include <cstring>

namespace flockscope::protocol::cobs {

namespace {
// Whether a word holds a zero byte (the classic test: exact, no false positives).
inline bool has_zero_byte(std::uint32_t v) { return ((v - 0x01010101u) & ~v & 0x80808080u) != 0; }
}  // namespace

std::size_t encode(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
  // One pass, a word at a time where src is aligned: a word without a zero byte that fits
  // the current block is copied as it is (most of a flock state frame's words); the others
  // go byte by byte. Writes stay at or below the byte being read (dst + n/254 + 1 <= src
  // when in place: every block's code byte was the zero, or the slack, below its data),
  // and a word is read before its bytes are written.
  std::uint8_t* code = dst;  // where the current block's code byte goes
  std::uint8_t* d = dst + 1;
  std::uint32_t run = 0;  // bytes in the current block
  const std::uint8_t* s = src;
  const std::uint8_t* const end = src + n;
  auto byte = [&](std::uint8_t b) {
    if (b == 0) {
      *code = static_cast<std::uint8_t>(run + 1);
      code = d++;
      run = 0;
      return;
    }
    *d++ = b;
    if (++run == 254) {  // a full block: FF, and the next one starts without a zero
      *code = 0xFF;
      code = d++;
      run = 0;
    }
  };
  while (s != end && (reinterpret_cast<std::uintptr_t>(s) & 3u) != 0) byte(*s++);
  if constexpr (std::endian::native == std::endian::little) {
    s = static_cast<const std::uint8_t*>(__builtin_assume_aligned(s, 4));
    for (; end - s >= 4; s += 4) {
      std::uint32_t w;
      std::memcpy(&w, s, 4);  // one aligned load
      if (run < 250 && !has_zero_byte(w)) {
        d[0] = static_cast<std::uint8_t>(w);
        d[1] = static_cast<std::uint8_t>(w >> 8);
        d[2] = static_cast<std::uint8_t>(w >> 16);
        d[3] = static_cast<std::uint8_t>(w >> 24);
        d += 4;
        run += 4;
        continue;
      }
      for (int k = 0; k < 4; ++k) byte(static_cast<std::uint8_t>(w >> (8 * k)));
    }
  }
  while (s != end) byte(*s++);
  *code = static_cast<std::uint8_t>(run + 1);  // the block that consumes the virtual zero
  return static_cast<std::size_t>(d - dst);
}

std::size_t decode(std::uint8_t* dst, std::size_t cap, const std::uint8_t* src, std::size_t n) {
  std::size_t out = 0;
  std::size_t i = 0;
  while (i < n) {
    const std::uint8_t code = src[i++];
    if (code == 0) return kError;
    const std::size_t run = static_cast<std::size_t>(code) - 1;
    if (run > n - i || run > cap - out) return kError;
    for (std::size_t k = 0; k < run; ++k) {
      if (src[i + k] == 0) return kError;
      dst[out + k] = src[i + k];
    }
    out += run;
    i += run;
    if (code != 0xFF && i < n) {  // the zero at the end of the last block is virtual
      if (out == cap) return kError;
      dst[out++] = 0;
    }
  }
  return out;
}

}  // namespace flockscope::protocol::cobs
