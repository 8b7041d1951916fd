// check_link_receive (fuzz_checks.hpp): the drop-in link, protocol/pico, host build.
#include <cmath>
#include <cstring>

#include "flockscope/params/param_list.hpp"
#include "flockscope_link.h"
#include "fuzz_checks.hpp"
#include "fuzz_input.hpp"

namespace fuzztest {
namespace {

struct Range {
  const char* name;
  double min, max;
};
#define FUZZ_RANGE_ROW(id, name, kind, def, min, max, ...) {#name, double(min), double(max)},
constexpr Range kRanges[] = {FLOCKSCOPE_PARAM_LIST(FUZZ_RANGE_ROW)};
#undef FUZZ_RANGE_ROW

const Range& range_of(const char* name) {
  for (const Range& r : kRanges)
    if (std::strcmp(r.name, name) == 0) return r;
  return kRanges[0];
}

// The board's variables: one of each format, two with the lab's check.
std::int32_t visual_range = 40 << 15, turn_factor = 6554;  // fix15
float protected_range = 8;
std::int32_t max_speed = 6;  // whole px/frame
std::uint32_t boids = 8;
constexpr std::uint32_t kCapacity = 64;
std::int32_t xs[kCapacity], ys[kCapacity], vxs[kCapacity], vys[kCapacity];

fsl_status check_range(const char* name, double value) {
  if (value > 180) {
    fsl_reason("at most 180 px on this board");
    return FSL_OUT_OF_RANGE;
  }
  if (std::strcmp(name, "protectedRange") == 0 && value > double(visual_range) / 32768.0) return FSL_INVALID;
  return FSL_OK;
}
void on_reset(std::uint32_t) {
  for (std::uint32_t k = 0; k < kCapacity; ++k) xs[k] = ys[k] = std::int32_t(k) << 18, vxs[k] = vys[k] = 1 << 15;
}
std::uint32_t on_boid_count(std::uint32_t n) { return boids = n; }

struct Io {
  InputBytes in;
  OutputCheck out;
  std::uint64_t now = 1000000;
  Io(const std::uint8_t* data, std::size_t size) : in(data, size) {}
};
Io* io = nullptr;

std::size_t io_read(void*, std::uint8_t* buf, std::size_t cap) { return io->in.read(buf, cap); }
std::size_t io_write(void*, const std::uint8_t* buf, std::size_t n) { return io->out.take(buf, n); }
bool io_connected(void*) { return true; }
std::uint64_t io_now(void*) { return io->now += 7; }

bool in_range(const char* name, double v, std::string* why) {
  const Range& r = range_of(name);
  if (v >= r.min && v <= r.max) return true;
  return fail(why, std::string(name) + " = " + std::to_string(v) + " outside the table's [" + std::to_string(r.min) +
                       ", " + std::to_string(r.max) + "]");
}

}  // namespace

bool check_link_receive(const std::uint8_t* data, std::size_t size, std::string* why) {
  Io state(data, size);
  io = &state;
  visual_range = 40 << 15, turn_factor = 6554, protected_range = 8, max_speed = 6, boids = 8;
  on_reset(0);
  static const fsl_transport transport = {io_read, io_write, io_connected, io_now, nullptr, nullptr};
  const fsl_config cfg = {"fuzz", kCapacity, &transport, on_reset, on_boid_count, nullptr};
  if (!fsl_init(&cfg) || !fsl_param("visualRange", &visual_range, FSL_FIX15, check_range) ||
      !fsl_param("protectedRange", &protected_range, FSL_FLOAT, check_range) ||
      !fsl_param("maxspeed", &max_speed, FSL_INT, nullptr) || !fsl_param("turnfactor", &turn_factor, FSL_FIX15, nullptr))
    return fail(why, "the link refused its configuration");
  for (int frame = 0; frame < kMaxFrames && !(state.in.done() && frame > 2); ++frame) {
    state.in.next_frame();
    const fsl_state s = {xs, ys, vxs, vys, sizeof xs[0], FSL_FIX15, boids};
    fsl_send_state(&s, 1000, 33333);
    fsl_poll();
    fsl_background_service();
    fsl_poll();
    const double vr = double(visual_range) / 32768.0;
    if (!in_range("visualRange", vr, why) || !in_range("protectedRange", double(protected_range), why) ||
        !in_range("maxspeed", double(max_speed), why) || !in_range("turnfactor", double(turn_factor) / 32768.0, why))
      return false;
    if (vr > 180) return fail(why, "visualRange = " + std::to_string(vr) + " passed the check (at most 180)");
    if (boids > kCapacity) return fail(why, std::to_string(boids) + " boids, capacity " + std::to_string(kCapacity));
  }
  io = nullptr;
  if (!state.out.clean(why)) return false;
  const fsl_counters c = fsl_get_counters();
  if (state.out.acks() > c.requests)
    return fail(why, std::to_string(state.out.acks()) + " acks for " + std::to_string(c.requests) + " requests");
  return true;
}

}  // namespace fuzztest
