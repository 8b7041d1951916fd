#include "flockscope/protocol/cobs.hpp"

#include <cstring>

namespace flockscope::protocol::cobs {

std::size_t encode(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
  // One memchr + one memmove per block instead of a byte loop: blocks of a flock
  // state frame are tens of bytes long, so this runs at memcpy-like speed. Every
  // block's data is moved before its code byte is written and the code byte sits
  // below the read position, which is what makes the in-place form safe.
  std::uint8_t* d = dst;
  const std::uint8_t* s = src;
  const std::uint8_t* const end = src + n;
  for (;;) {
    const std::size_t avail = static_cast<std::size_t>(end - s);
    const std::size_t lim = avail < 254 ? avail : 254;
    const void* z = lim ? std::memchr(s, 0, lim) : nullptr;
    const std::size_t run = z ? static_cast<std::size_t>(static_cast<const std::uint8_t*>(z) - s) : lim;
    if (run) std::memmove(d + 1, s, run);  // (s may be null when n == 0)
    d[0] = static_cast<std::uint8_t>(run + 1);
    d += run + 1;
    s += run;
    if (z) {
      ++s;  // the zero this block stands for
      continue;
    }
    if (run == 254) continue;  // FF block: no zero consumed, another block follows
    break;                     // this block consumed the virtual trailing zero
  }
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
