// Compiled (and linked against newlib's nosys stubs) for the Cortex-M0+ by
// m0plus_check.cmake: the headers' templates and inline code, used the way the
// firmware will use them, must build for the RP2040 too.
#include "flockscope/protocol/protocol.hpp"

namespace fsp = flockscope::protocol;

namespace {
fsp::StaticDecoder<> g_decoder;
fsp::Message g_rx;
fsp::Message g_tx;
fsp::Encoder g_encoder;
std::uint8_t g_wire[fsp::kMaxWireSize];
float g_x[4], g_y[4], g_vx[4], g_vy[4];
std::uint8_t g_state[4 * 64];
volatile std::uint32_t g_sink;
}  // namespace

int main() {
  g_tx = fsp::make_param_change(7, fsp::ParamValue::of_real(40.0));
  const std::size_t n = g_encoder.encode(g_tx, g_wire);
  g_decoder.feed(std::span<const std::uint8_t>(g_wire, n), g_rx, [](const fsp::Message& m) {
    if (m.type == fsp::MsgType::kParamChange) g_sink = m.param_change.param.id;
  });
  fsp::StateEncoding enc;
  const std::size_t s = fsp::encode_flock_state({g_x, g_y, g_vx, g_vy, {}}, enc, g_encoder, g_state);
  g_sink = static_cast<std::uint32_t>(s + g_decoder.stats().frames_ok + fsp::crc32(g_wire, n));
  return 0;
}
