// check_decoder (fuzz_checks.hpp): the protocol decoder, every reader of the wire's first step.
#include <vector>

#include "flockscope/protocol/protocol.hpp"
#include "fuzz_checks.hpp"

namespace fuzztest {

using namespace flockscope::protocol;

namespace {

struct Run {
  std::vector<Message> msgs;
  DecoderStats stats;
};

// chunk_seed == 0: the whole input at once; otherwise pseudo-random chunks of
// 1..64 bytes. buffer_size bounds the frame buffer.
Run run(const std::uint8_t* data, std::size_t size, std::uint32_t chunk_seed, std::size_t buffer_size) {
  Run r;
  std::vector<std::uint8_t> buffer(buffer_size);
  Decoder dec(buffer);
  Message m{};
  std::uint32_t lcg = chunk_seed;
  std::size_t pos = 0;
  while (pos < size) {
    std::size_t n = size - pos;
    if (chunk_seed != 0) {
      lcg = lcg * 1664525u + 1013904223u;
      n = std::min<std::size_t>(n, 1 + (lcg >> 26));
    }
    std::span<const std::uint8_t> in(data + pos, n);
    while (dec.next(in, m)) r.msgs.push_back(m);
    if (!in.empty()) return {};  // next() must always use up its input
    pos += n;
  }
  r.stats = dec.stats();
  return r;
}

bool fail(std::string* why, const char* what) {
  if (why) *why = what;
  return false;
}

}  // namespace

bool check_decoder(const std::uint8_t* data, std::size_t size, std::string* why) {
  if (size == 0) return true;
  const std::uint32_t mode = data[0];
  ++data;
  --size;

  const Run whole = run(data, size, 0, kMaxFrameSize);
  const Run chunked = run(data, size, 1 + mode, kMaxFrameSize);
  const Run small = run(data, size, 0, 8 + mode % 120);

  if (whole.stats.bytes != size) return fail(why, "bytes counter");
  if (!(chunked.stats == whole.stats)) return fail(why, "chunked stats differ");
  if (chunked.msgs.size() != whole.msgs.size()) return fail(why, "chunked message count differs");
  for (std::size_t i = 0; i < whole.msgs.size(); ++i)
    if (!(whole.msgs[i] == chunked.msgs[i])) return fail(why, "chunked message differs");
  // The buffer size decides between oversize and the rest, never whether a frame
  // counts; except that oversize is counted as soon as it is noticed, so an
  // unterminated last frame may already count with the small buffer.
  const bool open_tail = size > 0 && data[size - 1] != 0;
  if (small.stats.frames() < whole.stats.frames() ||
      small.stats.frames() > whole.stats.frames() + (open_tail ? 1u : 0u))
    return fail(why, "small buffer frame count");
  if (small.stats.frames_ok > whole.stats.frames_ok) return fail(why, "small buffer accepted more");

  std::size_t ok = 0, unknown = 0, foreign = 0;
  std::vector<std::uint8_t> wire(kMaxWireSize);
  std::vector<std::uint8_t> frame(kMaxFrameSize);
  for (const Message& m : whole.msgs) {
    if (!is_known(m.type)) {
      ++unknown;
      if (m.version != kProtocolVersion) return fail(why, "unknown type of a foreign version delivered");
      continue;
    }
    if (m.version != kProtocolVersion) {
      ++foreign;
      if (m.type != MsgType::kHello) return fail(why, "foreign non-hello delivered");
    } else {
      ++ok;
    }
    // Whatever was accepted is valid and survives another trip unchanged.
    if (!is_valid(m)) return fail(why, "delivered an invalid message");
    const std::size_t n = encode(m, wire);
    if (n == 0) return fail(why, "delivered message does not re-encode");
    const Run again = run(wire.data(), n, 0, kMaxFrameSize);
    if (again.msgs.size() != 1 || !(again.msgs[0] == m)) return fail(why, "re-encoded message differs");
    const std::size_t f = write_frame(m, frame.data(), frame.size());
    Message p{};
    const FrameResult res = parse_frame(frame.data(), f, p);
    if (res != (m.version == kProtocolVersion ? FrameResult::kOk : FrameResult::kForeignHello) || !(p == m))
      return fail(why, "parse_frame disagrees");
  }
  if (ok != whole.stats.frames_ok || unknown != whole.stats.unknown_type ||
      foreign > whole.stats.version_mismatch)
    return fail(why, "delivered messages do not match the counters");
  return true;
}

}  // namespace fuzztest
