// The window's local source (app/gui/boid_source.hpp): growing the flock for the
// largest-flock challenge.
#include <gtest/gtest.h>

#include "boid_source.hpp"

using namespace flockscope;

// Largest-flock mode grows the flock without disturbing the boids already flying.
TEST(LocalSource, AddBoidsKeepsTheFlockAndGrowsIt) {
  Params p;
  p.boids = 100;
  p.predators = 1;
  flockscope::gui::LocalSource s(p);
  s.advance(3);
  const FlockSnapshot before = s.flock().snapshot();
  const auto predators = s.flock().predators();
  s.add_boids(50, 9);
  const FlockSnapshot after = s.flock().snapshot();
  ASSERT_EQ(after.size(), 150u);
  EXPECT_EQ(s.params().boids, 150);
  for (std::size_t i = 0; i < 100; ++i) EXPECT_EQ(after.x[i], before.x[i]) << i;
  ASSERT_EQ(s.flock().predators().size(), 1u);
  EXPECT_EQ(s.flock().predators()[0].x, predators[0].x);
  EXPECT_TRUE(s.advance(1));
}
