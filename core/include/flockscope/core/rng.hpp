// PCG32 (O'Neill, pcg-random.org, "pcg32_random_r"): a small generator whose output is
// defined bit for bit, unlike std::uniform_*_distribution, so a seed gives the same flock on
// every compiler and on the RP2040.
#pragma once

#include <cmath>
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

// A velocity with a uniform direction and a speed uniform in [lo, hi] (lo lowered to hi when
// they cross). The direction comes by rejection from the unit disc: only IEEE-exact
// operations and a correctly rounded sqrt, no libm trigonometry, so a seed spawns the same
// flock on every machine, and the float engine and the board draw the same numbers.
inline void random_velocity(Pcg32& rng, double lo, double hi, double& vx, double& vy) {
  if (hi < lo) lo = hi;
  double u, v, r2;
  do {
    u = rng.uniform(-1, 1);
    v = rng.uniform(-1, 1);
    r2 = u * u + v * v;
  } while (r2 > 1 || r2 < 1e-6);
  const double speed = rng.uniform(lo, hi) / std::sqrt(r2);
  vx = u * speed;
  vy = v * speed;
}

}  // namespace flockscope
