// The reason a board logs just before it refuses an out-of-range change, so the app shows it
// with the refusal (PROTOCOL.md 12): "visualRange: this board allows 0 to 10000". The board
// session uses it (board_session.hpp: our firmware's and the C library's, protocol/pico).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace flockscope::protocol {

// A flood of refusals logs at most 4 reasons a second; the rest get bare acks.
class ReasonRateLimit {
 public:
  // Whether a reason may be logged at `now_us` (any microsecond clock); if so, it counts.
  bool allow(std::uint64_t now_us) {
    if (last_us_ != 0 && now_us - last_us_ < kGapUs) return false;
    last_us_ = now_us == 0 ? 1 : now_us;  // 0 stands for "none logged yet"
    return true;
  }

 private:
  static constexpr std::uint64_t kGapUs = 250000;
  std::uint64_t last_us_ = 0;
};

inline constexpr std::size_t kReasonLineSize = 96;

inline void format_allowed_range(char (&line)[kReasonLineSize], const char* name, double lo, double hi) {
  std::snprintf(line, sizeof line, "%s: this board allows %g to %g", name, lo, hi);
}

}  // namespace flockscope::protocol
