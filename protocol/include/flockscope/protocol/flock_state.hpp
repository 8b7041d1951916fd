// Flock state straight from the simulation's arrays to wire frames: quantise,
// chunk, frame, stuff, in one pass per chunk with no intermediate Message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "flockscope/protocol/codec.hpp"
#include "flockscope/protocol/le.hpp"
#include "flockscope/protocol/messages.hpp"

namespace flockscope::protocol {

// value * 2^shift, rounded half away from zero, saturated to int16; NaN -> 0.
// Exact: the scaling is by a power of two and the rounding looks at the exact
// fractional part, so every implementation gets the same integer.
inline std::int16_t quantise(float v, std::uint8_t shift) {
  // Branch-free (selects only), so loops over whole arrays vectorise.
  float s = v * static_cast<float>(1u << shift);
  s = (s == s) ? s : 0.0f;
  s = s < -32768.0f ? -32768.0f : s;
  s = s > 32767.0f ? 32767.0f : s;
  const auto t = static_cast<std::int32_t>(s);  // truncates toward zero
  const float frac = s - static_cast<float>(t);
  const std::int32_t q = t + (frac >= 0.5f ? 1 : 0) - (frac <= -0.5f ? 1 : 0);
  return static_cast<std::int16_t>(q);
}

inline float dequantise(std::int16_t q, std::uint8_t shift) {
  return static_cast<float>(q) / static_cast<float>(1u << shift);
}

// Structure-of-arrays view of a flock. groups may be empty (no scout groups:
// the chunks then carry no group bits); otherwise its values are masked to 2 bits.
struct BoidArrays {
  std::span<const float> x, y, vx, vy;  // px, px/frame
  std::span<const std::uint8_t> groups;
};

struct StateEncoding {
  std::uint32_t frame = 0;
  std::uint8_t pos_shift = 4;  // 1/16 px: +-2048 px
  std::uint8_t vel_shift = 8;  // 1/256 px/frame: +-128 px/frame
  std::size_t boids_per_chunk = kMaxBoidsPerChunk;
};

// The flock_state payload (PROTOCOL.md), written at p by both senders of state chunks
// (encode_flock_state_chunk from float arrays, the board from its fixed-point state):
// the fields, `count` boids from boid(i) (a BoidQ, i in [0, count)) and, with groups, their
// scout groups group(i) at 2 bits each. The caller checks the fields' rules.
inline std::size_t flock_state_payload_size(std::size_t count, bool groups) {
  return fixed_payload_size(MsgType::kFlockState) + count * 8 + (groups ? (count + 3) / 4 : 0);
}
template <class BoidAt, class GroupAt>
void write_flock_state_payload(std::uint8_t* p, std::uint32_t frame, std::uint32_t total, std::uint32_t offset,
                               std::uint16_t count, std::uint8_t pos_shift, std::uint8_t vel_shift, bool groups,
                               BoidAt&& boid, GroupAt&& group) {
  le::put_u32(p, 0, frame);
  le::put_u32(p, 4, total);
  le::put_u32(p, 8, offset);
  le::put_u16(p, 12, count);
  le::put_u8(p, 14, pos_shift);
  le::put_u8(p, 15, vel_shift);
  le::put_u8(p, 16, groups ? kStateFlagGroups : 0);
  std::uint8_t* b = p + fixed_payload_size(MsgType::kFlockState);
  for (std::size_t i = 0; i < count; ++i, b += 8) {
    const BoidQ q = boid(i);
    le::put_i16(b, 0, q.x);
    le::put_i16(b, 2, q.y);
    le::put_i16(b, 4, q.vx);
    le::put_i16(b, 6, q.vy);
  }
  if (!groups) return;
  for (std::size_t i = 0; i < count; i += 4) {
    unsigned packed = 0;
    for (std::size_t k = 0; k < 4 && i + k < count; ++k) packed |= (group(i + k) & 3u) << (2 * k);
    *b++ = static_cast<std::uint8_t>(packed);
  }
}

// Wire bytes that encode_flock_state needs at most for n boids.
std::size_t flock_state_wire_bound(std::size_t n, bool groups,
                                   std::size_t boids_per_chunk = kMaxBoidsPerChunk);

// Encodes the chunk that starts at boid `offset` (for senders that fill the link
// one chunk at a time). Returns the wire bytes written, or 0 (nothing written, no
// sequence number used) if the arrays are inconsistent, the encoding options are
// out of range, offset is past the end, or out is too small.
std::size_t encode_flock_state_chunk(const BoidArrays& flock, const StateEncoding& enc,
                                     std::size_t offset, Encoder& encoder,
                                     std::span<std::uint8_t> out);

// Encodes the whole frame, all chunks back to back in ascending offset. Returns the
// total wire bytes, or 0 (nothing written) on the errors above or if out is
// smaller than flock_state_wire_bound().
std::size_t encode_flock_state(const BoidArrays& flock, const StateEncoding& enc, Encoder& encoder,
                               std::span<std::uint8_t> out);

}  // namespace flockscope::protocol
