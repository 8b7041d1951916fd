// crc32_update of each table layout (built by CMake with FLOCKSCOPE_CRC32_SLICES = 1, 4
// and 8: the M0+ takes 4, hosts 8) against a bit-by-bit CRC-32, at every start alignment
// and length up to 64 bytes and for a state frame's size, whole and split.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "flockscope/protocol/crc32.hpp"

namespace {
std::uint32_t crc_bitwise(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
  }
  return c ^ 0xFFFFFFFFu;
}
}  // namespace

TEST(ProtocolCrcSlices, EveryAlignmentAndLengthMatchesTheBitwiseCrc) {
  alignas(8) std::uint8_t buf[1100];
  std::uint32_t s = 12345;
  for (auto& b : buf) s = s * 1103515245u + 12345u, b = std::uint8_t(s >> 16);
  for (std::size_t start = 0; start < 8; ++start)
    for (std::size_t n = 0; n <= 64; ++n)
      ASSERT_EQ(flockscope::protocol::crc32(buf + start, n), crc_bitwise(buf + start, n)) << start << " " << n;
  for (std::size_t start = 0; start < 4; ++start) {
    const std::size_t n = 1015;  // a 120-boid state chunk
    EXPECT_EQ(flockscope::protocol::crc32(buf + start, n), crc_bitwise(buf + start, n));
    for (std::size_t cut : {1u, 2u, 3u, 5u, 500u}) {
      const std::uint32_t st = flockscope::protocol::crc32_update(flockscope::protocol::crc32_init(), buf + start, cut);
      EXPECT_EQ(flockscope::protocol::crc32_final(flockscope::protocol::crc32_update(st, buf + start + cut, n - cut)),
                crc_bitwise(buf + start, n));
    }
  }
  const std::uint8_t check[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(flockscope::protocol::crc32(check, 9), flockscope::protocol::kCrc32Check);
}
