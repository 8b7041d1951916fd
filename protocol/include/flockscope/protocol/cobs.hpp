// Consistent Overhead Byte Stuffing (Cheshire & Baker, 1999), as the wire uses it:
// the encoded form contains no 0x00, so 0x00 can delimit frames. The incremental
// receiver lives in decoder.cpp; these one-shot helpers are what the encoder and
// the tests use.
#pragma once

#include <cstddef>
#include <cstdint>

namespace flockscope::protocol::cobs {

// Upper bound of cobs::encode's output for n input bytes (exact for data with no zeros).
inline constexpr std::size_t max_encoded_size(std::size_t n) { return n + n / 254 + 1; }

// Encodes n bytes from src into dst and returns the encoded length (no delimiter).
// Form: the paper's. The data plus one virtual trailing 0x00 are cut at every
// zero into runs; a run of k < 254 bytes becomes [k+1][run] and consumes its zero, a
// run reaching 254 bytes becomes [0xFF][254 bytes] and consumes nothing; the block
// that consumes the virtual zero ends the output. So data of 254 non-zero bytes
// encodes as FF <254 bytes> 01.
//
// dst may overlap src if dst + max_encoded_size(n) - n <= src, i.e. src starts at
// least n/254 + 1 bytes after dst (the encoder serialises a frame to the back of
// its output buffer and stuffs it forward in place).
std::size_t encode(std::uint8_t* dst, const std::uint8_t* src, std::size_t n);

// Decodes one complete encoded frame (without delimiter). Returns the decoded
// length, or kError if the input contains 0x00, a block runs past the end, or the
// output would exceed cap. Also accepts the short form that omits the final 01
// after a trailing FF block.
inline constexpr std::size_t kError = static_cast<std::size_t>(-1);
std::size_t decode(std::uint8_t* dst, std::size_t cap, const std::uint8_t* src, std::size_t n);

}  // namespace flockscope::protocol::cobs
