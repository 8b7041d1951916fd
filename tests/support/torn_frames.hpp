// Whether a mirrored board's recorded frames each hold one step of its flock: for every two
// consecutive whole frames (frame numbers n and n + 1, same boid count, both with every
// boid's state: `source` state in the mirror's metrics.csv), each boid's position step
// equals its new velocity (the lab's update moves each boid by its velocity after steering),
// within what the wire and the recording resolve. A frame whose state mixed two steps (read
// from the board's arrays while its next step ran) shows boids that moved zero or two steps.
// (A partial frame is recorded with its missing boids at older positions, so it is left out.)
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>

#include "flockscope/core/recording.hpp"
#include "shell.hpp"

namespace testsupport {

struct TornCount {
  std::size_t pairs = 0;         // consecutive frame pairs compared
  std::size_t boids = 0;         // boid steps compared
  std::size_t torn = 0;          // ... whose position step is not its velocity
  double worst = 0;              // the largest mismatch, px
};

// Wire: positions in 1/16 px and velocities in 1/256 px/frame, rounded (PROTOCOL.md 10);
// the recording resolves about 0.01 px more.
inline constexpr double kStepTolerancePx = 2.0 / 32 + 1.0 / 512 + 0.03;

// The steps whose rows in a mirror's metrics.csv say `source` state.
inline std::set<std::uint64_t> whole_steps(const std::filesystem::path& metrics_csv) {
  const auto rows = lines(metrics_csv);
  std::set<std::uint64_t> out;
  if (rows.empty()) return out;
  const auto& head = rows[0];
  const auto col = std::count(head.begin(), head.begin() + long(head.find("source")), ',');
  for (std::size_t i = 1; i < rows.size(); ++i) {
    std::size_t at = 0;
    for (long k = 0; k < col && at != std::string::npos; ++k) at = rows[i].find(',', at) + 1;
    if (at != std::string::npos && rows[i].compare(at, 6, "state,") == 0)
      out.insert(std::stoull(rows[i].substr(0, rows[i].find(','))));
  }
  return out;
}

inline TornCount count_torn_boids(const flockscope::Recording& rec, const std::set<std::uint64_t>& whole) {
  TornCount c;
  for (std::size_t i = 1; i < rec.frames(); ++i) {
    const auto a = rec.frame(i - 1), b = rec.frame(i);
    if (b.step != a.step + 1 || a.boids.size() != b.boids.size()) continue;
    if (!whole.count(a.step) || !whole.count(b.step)) continue;
    ++c.pairs;
    for (std::size_t k = 0; k < b.boids.size(); ++k, ++c.boids) {
      const double e = std::max(std::fabs(double(b.boids.x[k]) - double(a.boids.x[k]) - double(b.boids.vx[k])),
                                std::fabs(double(b.boids.y[k]) - double(a.boids.y[k]) - double(b.boids.vy[k])));
      c.worst = std::max(c.worst, e);
      if (e > kStepTolerancePx) ++c.torn;
    }
  }
  return c;
}

}  // namespace testsupport
