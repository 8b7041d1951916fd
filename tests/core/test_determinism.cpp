#include <gtest/gtest.h>

#include "flockscope/core/io.hpp"
#include "flockscope/core/flock.hpp"

using namespace flockscope;

namespace {
std::uint64_t hash_after(const Params& p, int threads, int steps) {
  Flock f(p);
  f.set_threads(threads);
  for (int i = 0; i < steps; ++i) f.step();
  return f.state_hash();
}
Params preset(const char* name, std::int64_t boids) {
  Params p = load_preset(resolve_preset(name));
  p.boids = boids;
  return p;
}
}  // namespace

TEST(Determinism, SameStateOnOneAndTwoThreads) {
  for (const char* name : {"cornell-pico-predator", "cornell-consensus", "report-vis10", "blog-numpy"}) {
    // Enough boids that the parallel loops really split the work.
    const Params p = preset(name, 6000);
    EXPECT_EQ(hash_after(p, 1, 200), hash_after(p, 2, 200)) << name;
  }
}

TEST(Determinism, SameSeedSameStateDifferentSeedDifferentState) {
  Params p = preset("cornell-pico-predator", 500);
  EXPECT_EQ(hash_after(p, 2, 50), hash_after(p, 2, 50));
  Params q = p;
  q.seed = p.seed + 1;
  EXPECT_NE(hash_after(p, 2, 50), hash_after(q, 2, 50));
}

TEST(Determinism, ResetRestartsTheSameFlock) {
  Params p = preset("cornell-pic32-lab", 200);
  Flock f(p);
  const auto h0 = f.state_hash();
  for (int i = 0; i < 10; ++i) f.step();
  f.reset();
  EXPECT_EQ(f.state_hash(), h0);
}

TEST(Determinism, ResetOnlyParametersWaitForReset) {
  Params p = preset("cornell-pic32-lab", 200);
  Flock f(p);
  p.boids = 300;
  p.visualRange = 33;
  f.set_params(p);
  EXPECT_EQ(f.size(), 200u);
  EXPECT_EQ(f.params().visualRange, 33);
  EXPECT_EQ(f.params().boids, 200);
  f.reset();
  EXPECT_EQ(f.size(), 300u);
}
