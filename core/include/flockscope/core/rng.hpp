// PCG32 (O'Neill, pcg-random.org, "pcg32_random_r"): a small generator whose output is
// defined bit for bit, unlike std::uniform_*_distribution, so a seed gives the same flock on
// every compiler and on the RP2040.
#pragma once

#include <cstdint>

namespace flockscope {

class Pcg32 {
 public:
  explicit Pcg32(std::uint64_t seed, std::uint64_t stream = 54u) : inc_((stream << 1u) | 1u) {
    next();
    state_ += seed;
    next();
  }
  std::uint32_t next() {
    const std::uint64_t old = state_;
    state_ = old * 6364136223846793005ULL + inc_;
    const auto xorshifted = static_cast<std::uint32_t>(((old >> 18u) ^ old) >> 27u);
    const auto rot = static_cast<std::uint32_t>(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
  }
  // Uniform in [0, 1) with 24 random bits (exact in float).
  double uniform() { return double(next() >> 8) * (1.0 / 16777216.0); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

 private:
  std::uint64_t state_ = 0;
  std::uint64_t inc_;
};

}  // namespace flockscope
