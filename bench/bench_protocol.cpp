// Protocol benchmarks: the decoder must take at least 200 MB/s of
// valid frames, and encoding one 2000-boid simulation frame (all its flock_state
// chunks) must take under 50 us.
//
//   ./bench/bench_protocol --benchmark_filter='Decode|EncodeFlock'
//
// Sections: stream builders | CRC | decoder | encoder
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "flockscope/protocol/protocol.hpp"

namespace {

namespace fsp = flockscope::protocol;

// ---- stream builders -----------------------------------------------------------------

struct Flock {
  std::vector<float> x, y, vx, vy;
  std::vector<std::uint8_t> groups;
  fsp::BoidArrays view() const { return {x, y, vx, vy, groups}; }
};

// A flock as the Pico lab draws it: 640x480 screen, speeds 3..6 px/frame, 10 %
// scouts in each group.
Flock make_flock(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> px(0.f, 640.f), py(0.f, 480.f), ang(0.f, 6.2831853f), sp(3.f, 6.f);
  Flock f;
  for (std::size_t i = 0; i < n; ++i) {
    const float a = ang(rng), s = sp(rng);
    f.x.push_back(px(rng));
    f.y.push_back(py(rng));
    f.vx.push_back(s * std::cos(a));
    f.vy.push_back(s * std::sin(a));
    f.groups.push_back(static_cast<std::uint8_t>(i % 10 == 0 ? 1 : (i % 10 == 1 ? 2 : 0)));
  }
  return f;
}

// What a board sends: per simulation frame all flock_state chunks, predators,
// metrics and stats.
std::vector<std::uint8_t> board_stream(std::size_t boids, int frames) {
  std::vector<std::uint8_t> out;
  fsp::Encoder enc;
  std::vector<std::uint8_t> buf(fsp::flock_state_wire_bound(boids, true) + 4 * fsp::kMaxWireSize);
  for (int f = 0; f < frames; ++f) {
    const Flock flock = make_flock(boids, static_cast<std::uint32_t>(f));
    fsp::StateEncoding se;
    se.frame = static_cast<std::uint32_t>(f);
    std::size_t n = fsp::encode_flock_state(flock.view(), se, enc, buf);
    fsp::Message m{};
    m.version = fsp::kProtocolVersion;
    m.type = fsp::MsgType::kPredators;
    m.predators = {se.frame, 1, 4, 8, {}};
    m.predators.predators[0] = {5000, 3000, 700, -300};
    n += enc.encode(m, std::span<std::uint8_t>(buf).subspan(n));
    m.type = fsp::MsgType::kMetrics;
    m.metrics = {se.frame, 150.f, 320.f, 240.f, 0.3f, 4.5f, 0};
    n += enc.encode(m, std::span<std::uint8_t>(buf).subspan(n));
    m.type = fsp::MsgType::kStats;
    m.stats = {se.frame, 30.f, 20000, 13333, static_cast<std::uint32_t>(boids), 1000u * se.frame / 30u, 0, 0};
    n += enc.encode(m, std::span<std::uint8_t>(buf).subspan(n));
    out.insert(out.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
  }
  return out;
}

// ---- CRC ----------------------------------------------------------------------------------

void BM_Crc32(benchmark::State& state) {
  std::vector<std::uint8_t> d(static_cast<std::size_t>(state.range(0)));
  std::mt19937 rng(1);
  for (auto& b : d) b = static_cast<std::uint8_t>(rng());
  for (auto _ : state) benchmark::DoNotOptimize(fsp::crc32(d.data(), d.size()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_Crc32)->Arg(1024)->Arg(64 * 1024);

// ---- decoder ------------------------------------------------------------------------------

// 30 simulation frames of 2000 boids (one second of the board's output, ~0.5 MB),
// fed in chunks of range(0) bytes (0: all at once); bytes/s is the target metric.
void BM_DecodeBoardStream(benchmark::State& state) {
  static const std::vector<std::uint8_t> stream = board_stream(2000, 30);
  const std::size_t chunk = state.range(0) ? static_cast<std::size_t>(state.range(0)) : stream.size();
  fsp::StaticDecoder<> dec;
  fsp::Message msg{};
  std::size_t messages = 0;
  for (auto _ : state) {
    for (std::size_t pos = 0; pos < stream.size(); pos += chunk) {
      std::span<const std::uint8_t> in(stream.data() + pos, std::min(chunk, stream.size() - pos));
      while (dec.next(in, msg)) {
        ++messages;
        benchmark::DoNotOptimize(msg.seq);
      }
    }
  }
  if (dec.stats().errors() != 0) state.SkipWithError("decode errors");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * stream.size()));
  state.counters["frames/s"] = benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DecodeBoardStream)->Arg(0)->Arg(4096)->Arg(64);

// Small control messages only (param changes, acks, commands): per-frame overhead.
void BM_DecodeSmallFrames(benchmark::State& state) {
  std::vector<std::uint8_t> stream;
  fsp::Encoder enc;
  std::vector<std::uint8_t> buf(fsp::kMaxWireSize);
  for (int i = 0; i < 2000; ++i) {
    fsp::Message m = (i % 3 == 0)   ? fsp::make_param_change(static_cast<std::uint16_t>(1 + i % 36),
                                                             fsp::ParamValue::of_real(i * 0.25))
                     : (i % 3 == 1) ? fsp::make_command(fsp::CommandId::kSetBoidCount, static_cast<std::uint32_t>(i))
                                    : fsp::make_ack(m, fsp::Status::kOk, 7, fsp::ParamValue::of_int(i));
    const std::size_t n = enc.encode(m, buf);
    stream.insert(stream.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
  }
  fsp::StaticDecoder<> dec;
  fsp::Message msg{};
  for (auto _ : state) {
    std::span<const std::uint8_t> in(stream);
    while (dec.next(in, msg)) benchmark::DoNotOptimize(msg.seq);
  }
  if (dec.stats().errors() != 0) state.SkipWithError("decode errors");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * stream.size()));
  state.counters["frames/s"] = benchmark::Counter(static_cast<double>(state.iterations() * 2000),
                                                  benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DecodeSmallFrames);

// ---- encoder ------------------------------------------------------------------------------

// One simulation frame of 2000 boids from the float arrays to wire bytes: 17
// chunks quantised, framed, CRC'd, stuffed. Target: < 50 us per iteration.
void BM_EncodeFlockState2000(benchmark::State& state) {
  const Flock flock = make_flock(2000, 42);
  std::vector<std::uint8_t> out(fsp::flock_state_wire_bound(2000, true));
  fsp::Encoder enc;
  fsp::StateEncoding se;
  std::size_t n = 0;
  for (auto _ : state) {
    n = fsp::encode_flock_state(flock.view(), se, enc, out);
    benchmark::DoNotOptimize(out.data());
    ++se.frame;
  }
  if (n == 0) state.SkipWithError("encode failed");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.counters["wire_bytes"] = static_cast<double>(n);
}
BENCHMARK(BM_EncodeFlockState2000)->Unit(benchmark::kMicrosecond);

// The generic path for comparison: already-quantised FlockState messages -> encode().
void BM_EncodeFlockState2000ViaMessages(benchmark::State& state) {
  const Flock flock = make_flock(2000, 42);
  std::vector<fsp::Message> chunks;
  for (std::size_t off = 0; off < 2000; off += fsp::kMaxBoidsPerChunk) {
    fsp::Message m{};
    m.version = fsp::kProtocolVersion;
    m.type = fsp::MsgType::kFlockState;
    fsp::FlockState& s = m.flock_state;
    const std::size_t count = std::min<std::size_t>(fsp::kMaxBoidsPerChunk, 2000 - off);
    s = {0, 2000, static_cast<std::uint32_t>(off), static_cast<std::uint16_t>(count), 4, 8,
         fsp::kStateFlagGroups, {}, {}};
    for (std::size_t i = 0; i < count; ++i) {
      s.boids[i] = {fsp::quantise(flock.x[off + i], 4), fsp::quantise(flock.y[off + i], 4),
                    fsp::quantise(flock.vx[off + i], 8), fsp::quantise(flock.vy[off + i], 8)};
      s.groups[i] = flock.groups[off + i];
    }
    chunks.push_back(m);
  }
  std::vector<std::uint8_t> out(chunks.size() * fsp::kMaxWireSize);
  fsp::Encoder enc;
  std::size_t n = 0;
  for (auto _ : state) {
    n = 0;
    for (fsp::Message& m : chunks) n += enc.encode(m, std::span<std::uint8_t>(out).subspan(n));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_EncodeFlockState2000ViaMessages)->Unit(benchmark::kMicrosecond);

}  // namespace
