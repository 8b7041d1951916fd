// Little-endian put/get at explicit byte offsets.
//
// Every multi-byte field on the wire goes through these helpers, never through a
// memcpy of a struct: struct layout, padding and host byte order are not the wire's
// business (see PROTOCOL.md, "Byte order"). Compilers turn the shifts into single
// loads/stores on little-endian targets that allow unaligned access, and into byte
// accesses on the Cortex-M0+, which faults on unaligned word access.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace flockscope::protocol::le {

inline void put_u8(std::uint8_t* p, std::size_t off, std::uint8_t v) { p[off] = v; }

inline void put_u16(std::uint8_t* p, std::size_t off, std::uint16_t v) {
  p[off] = static_cast<std::uint8_t>(v);
  p[off + 1] = static_cast<std::uint8_t>(v >> 8);
}

inline void put_u32(std::uint8_t* p, std::size_t off, std::uint32_t v) {
  p[off] = static_cast<std::uint8_t>(v);
  p[off + 1] = static_cast<std::uint8_t>(v >> 8);
  p[off + 2] = static_cast<std::uint8_t>(v >> 16);
  p[off + 3] = static_cast<std::uint8_t>(v >> 24);
}

inline void put_u64(std::uint8_t* p, std::size_t off, std::uint64_t v) {
  put_u32(p, off, static_cast<std::uint32_t>(v));
  put_u32(p, off + 4, static_cast<std::uint32_t>(v >> 32));
}

inline void put_i16(std::uint8_t* p, std::size_t off, std::int16_t v) {
  put_u16(p, off, static_cast<std::uint16_t>(v));
}
inline void put_i32(std::uint8_t* p, std::size_t off, std::int32_t v) {
  put_u32(p, off, static_cast<std::uint32_t>(v));
}
// IEEE-754 binary32, sent as its bit pattern (NaN payloads survive unchanged).
inline void put_f32(std::uint8_t* p, std::size_t off, float v) {
  put_u32(p, off, std::bit_cast<std::uint32_t>(v));
}

inline std::uint8_t get_u8(const std::uint8_t* p, std::size_t off) { return p[off]; }

inline std::uint16_t get_u16(const std::uint8_t* p, std::size_t off) {
  return static_cast<std::uint16_t>(p[off] | (p[off + 1] << 8));
}

inline std::uint32_t get_u32(const std::uint8_t* p, std::size_t off) {
  return static_cast<std::uint32_t>(p[off]) | (static_cast<std::uint32_t>(p[off + 1]) << 8) |
         (static_cast<std::uint32_t>(p[off + 2]) << 16) |
         (static_cast<std::uint32_t>(p[off + 3]) << 24);
}

inline std::uint64_t get_u64(const std::uint8_t* p, std::size_t off) {
  return static_cast<std::uint64_t>(get_u32(p, off)) |
         (static_cast<std::uint64_t>(get_u32(p, off + 4)) << 32);
}

inline std::int16_t get_i16(const std::uint8_t* p, std::size_t off) {
  return static_cast<std::int16_t>(get_u16(p, off));
}
inline std::int32_t get_i32(const std::uint8_t* p, std::size_t off) {
  return static_cast<std::int32_t>(get_u32(p, off));
}
inline float get_f32(const std::uint8_t* p, std::size_t off) {
  return std::bit_cast<float>(get_u32(p, off));
}

}  // namespace flockscope::protocol::le
