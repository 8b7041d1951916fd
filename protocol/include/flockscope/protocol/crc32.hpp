// CRC-32/ISO-HDLC (the CRC of zlib, PNG, Ethernet; "CRC-32" in the Rocksoft/
// reveng catalogue): poly 0x04C11DB7 reflected (0xEDB88320), init 0xFFFFFFFF,
// refin = refout = true, xorout 0xFFFFFFFF, check("123456789") = 0xCBF43926.
//
// Why this one and not CRC-16/CCITT-FALSE: a 1 KiB frame is close to where a
// 16-bit CRC stops guaranteeing HD=4, random garbage after a resync is accepted
// with p = 2^-16 instead of 2^-32, every language ships it (zlib.crc32,
// binascii.crc32, java.util.zip.CRC32) so a third party can check frames in one
// line, and the RP2040's DMA sniffer computes it in hardware.
#pragma once

#include <cstddef>
#include <cstdint>

namespace flockscope::protocol {

inline constexpr std::uint32_t kCrc32Check = 0xCBF43926u;  // crc32("123456789")

// Running form: state starts at crc32_init(), ends with crc32_final().
inline constexpr std::uint32_t crc32_init() { return 0xFFFFFFFFu; }
std::uint32_t crc32_update(std::uint32_t state, const std::uint8_t* data, std::size_t n);
inline constexpr std::uint32_t crc32_final(std::uint32_t state) { return state ^ 0xFFFFFFFFu; }

// One-shot CRC of a buffer.
inline std::uint32_t crc32(const std::uint8_t* data, std::size_t n) {
  return crc32_final(crc32_update(crc32_init(), data, n));
}

}  // namespace flockscope::protocol
