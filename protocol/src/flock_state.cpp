#include "flockscope/protocol/flock_state.hpp"

#include <cstring>

#include "flockscope/protocol/le.hpp"
#include "frame_writer.hpp"

namespace flockscope::protocol {
namespace {

std::size_t chunk_frame_size(std::size_t count, bool groups) {
  return kHeaderSize + flock_state_payload_size(count, groups) + kCrcSize;
}

bool consistent(const BoidArrays& f, const StateEncoding& e) {
  const std::size_t n = f.x.size();
  return f.y.size() == n && f.vx.size() == n && f.vy.size() == n &&
         (f.groups.empty() || f.groups.size() == n) && n <= 0xFFFFFFFFu && e.pos_shift <= 15 &&
         e.vel_shift <= 15 && e.boids_per_chunk >= 1 && e.boids_per_chunk <= kMaxBoidsPerChunk;
}

std::size_t write_chunk(const BoidArrays& f, const StateEncoding& e, std::size_t offset,
                        std::uint16_t seq, std::uint8_t* out, std::size_t cap) {
  const std::size_t n_all = f.x.size();
  const std::size_t left = n_all - offset;
  const std::size_t count = left < e.boids_per_chunk ? left : e.boids_per_chunk;
  const bool groups = !f.groups.empty();
  const std::size_t n = chunk_frame_size(count, groups);
  if (cap < detail::wire_need(n)) return 0;

  std::uint8_t* raw = out + detail::raw_offset(n);
  detail::write_header(raw, kProtocolVersion, static_cast<std::uint8_t>(MsgType::kFlockState), seq);
  // Quantise field by field into contiguous int16 arrays (these loops vectorise), then
  // interleave them into the little-endian records.
  std::int16_t q[4][kMaxBoidsPerChunk];
  const float* const src[4] = {f.x.data() + offset, f.y.data() + offset, f.vx.data() + offset,
                               f.vy.data() + offset};
  for (std::size_t k = 0; k < 4; ++k) {
    const std::uint8_t shift = k < 2 ? e.pos_shift : e.vel_shift;
    const float* in = src[k];
    std::int16_t* o = q[k];
    for (std::size_t i = 0; i < count; ++i) o[i] = quantise(in[i], shift);
  }
  const std::uint8_t* g = groups ? f.groups.data() + offset : nullptr;
  write_flock_state_payload(
      raw + kHeaderSize, e.frame, static_cast<std::uint32_t>(n_all), static_cast<std::uint32_t>(offset),
      static_cast<std::uint16_t>(count), e.pos_shift, e.vel_shift, groups,
      [&q](std::size_t i) { return BoidQ{q[0][i], q[1][i], q[2][i], q[3][i]}; }, [g](std::size_t i) { return g[i]; });
  return detail::finish_wire_frame(out, n);
}

}  // namespace

std::size_t flock_state_wire_bound(std::size_t n, bool groups, std::size_t per_chunk) {
  if (per_chunk == 0 || per_chunk > kMaxBoidsPerChunk) return 0;
  const std::size_t full = n / per_chunk;
  const std::size_t rest = n % per_chunk;
  std::size_t total = full * detail::wire_need(chunk_frame_size(per_chunk, groups));
  if (rest != 0 || n == 0) total += detail::wire_need(chunk_frame_size(rest, groups));
  return total;
}

std::size_t encode_flock_state_chunk(const BoidArrays& flock, const StateEncoding& enc,
                                     std::size_t offset, Encoder& encoder,
                                     std::span<std::uint8_t> out) {
  if (!consistent(flock, enc)) return 0;
  // offset == size is allowed only for the single empty chunk of an empty flock.
  if (offset > flock.x.size() || (offset == flock.x.size() && offset != 0)) return 0;
  const std::size_t w = write_chunk(flock, enc, offset, encoder.next_seq(), out.data(), out.size());
  if (w) encoder.take_seq();
  return w;
}

std::size_t encode_flock_state(const BoidArrays& flock, const StateEncoding& enc, Encoder& encoder,
                               std::span<std::uint8_t> out) {
  if (!consistent(flock, enc)) return 0;
  const bool groups = !flock.groups.empty();
  if (out.size() < flock_state_wire_bound(flock.x.size(), groups, enc.boids_per_chunk)) return 0;
  std::size_t used = 0;
  std::size_t offset = 0;
  do {
    used += write_chunk(flock, enc, offset, encoder.take_seq(), out.data() + used, out.size() - used);
    offset += enc.boids_per_chunk;
  } while (offset < flock.x.size());
  return used;
}

}  // namespace flockscope::protocol
