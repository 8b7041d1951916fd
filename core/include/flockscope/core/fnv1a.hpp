// FNV-1a, 64-bit: the state hashes of the float engine and of the board's fixed-point engine
// (pinned in the tests), and the sweeps' run seeds. Header only, no heap: the firmware uses it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace flockscope {

struct Fnv1a {
  static constexpr std::uint64_t kBasis = 1469598103934665603ULL, kPrime = 1099511628211ULL;
  std::uint64_t h = kBasis;

  constexpr void add_byte(unsigned char b) { h = (h ^ b) * kPrime; }
  // The bytes as they lie in memory (a float's hash is then the host's byte order).
  void add_bytes(const void* data, std::size_t len) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < len; ++i) add_byte(b[i]);
  }
  // Little-endian, on any host.
  constexpr void add_u32(std::uint32_t v) {
    for (int b = 0; b < 4; ++b) add_byte(static_cast<unsigned char>(v >> (8 * b)));
  }
  constexpr void add_text(std::string_view s) {
    for (char c : s) add_byte(static_cast<unsigned char>(c));
  }
};

}  // namespace flockscope
