// Internal: the last step every encoder shares (CRC, in-place COBS, delimiters).
#pragma once

#include <cstddef>
#include <cstdint>

namespace flockscope::protocol::detail {

// Where the unstuffed frame of length n must be written inside the output buffer
// so that it can be stuffed forward in place (see cobs::encode).
inline constexpr std::size_t raw_offset(std::size_t n) { return n / 254 + 3; }
// Wire bytes needed for an unstuffed frame of length n (two delimiters included).
inline constexpr std::size_t wire_need(std::size_t n) { return n + n / 254 + 3; }

// out[raw_offset(n) .. +n) holds header + payload with room for the CRC at the
// end (n includes it). Appends the CRC, stuffs, adds both delimiters; returns the
// wire length.
std::size_t finish_wire_frame(std::uint8_t* out, std::size_t n);

// Writes the 4-byte header at p.
void write_header(std::uint8_t* p, std::uint8_t version, std::uint8_t type, std::uint16_t seq);

}  // namespace flockscope::protocol::detail
