// Shared helpers of the protocol tests: hex vector files, a JSON rendering of
// messages (the "decoded:" comment line of the test vectors, also read by
// protocol/tools/wire_ref.py), random messages, and stream decoding.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "flockscope/protocol/protocol.hpp"

namespace fsp = flockscope::protocol;

namespace ptest {

struct HexFile {
  std::vector<std::string> comments;  // without the leading "# "
  std::vector<std::uint8_t> bytes;
  bool ok = false;
};
HexFile read_hex_file(const std::string& path);
std::string to_hex(std::span<const std::uint8_t> bytes, std::size_t per_line = 32);

std::string to_json(const fsp::Message& m);

fsp::Message random_message(std::mt19937& rng);
fsp::Message random_message(std::mt19937& rng, fsp::MsgType type);

std::vector<std::uint8_t> encode_one(const fsp::Message& m);
// Encodes with consecutive sequence numbers starting at first_seq (stamped into msgs).
std::vector<std::uint8_t> encode_stream(std::vector<fsp::Message>& msgs, std::uint16_t first_seq = 0);

struct Decoded {
  std::vector<fsp::Message> msgs;
  fsp::DecoderStats stats;
};
// chunk == 0: whole buffer at once; otherwise fixed chunk size; chunk == SIZE_MAX:
// random chunk sizes from rng_seed.
Decoded decode_all(std::span<const std::uint8_t> bytes, std::size_t chunk = 0,
                   std::uint32_t rng_seed = 1, std::size_t buffer_size = fsp::kMaxFrameSize);

// Byte positions of the stuffed frames in an encoded stream: [begin, end) of each
// frame including its two delimiters.
struct Span {
  std::size_t begin, end;
};
std::vector<Span> frame_spans(std::span<const std::uint8_t> stream);

}  // namespace ptest
