// The window's local source (app/gui/boid_source.hpp): growing the flock for the
// largest-flock challenge.
#include <gtest/gtest.h>

#include "boid_source.hpp"
#include "largest_flock.hpp"

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

// Below the target from the start: no "largest flock of 0 boids", but what happened, as an
// error.
TEST(LocalSource, LargestFlockBelowTheTargetFromTheStartSaysSo) {
  Params p;
  p.boids = 200;
  flockscope::gui::LocalSource s(p);
  flockscope::gui::LargestFlock lf;
  lf.enabled = true;
  lf.target_fps = 30;
  // Two judged stretches of 10 frames a second each: below 30 fps twice.
  flockscope::gui::LargestFlock::Outcome out;
  double now = 0;
  for (int i = 0; i < 40 && !out.finished; ++i, now += 0.1) out = lf.update(s, now);
  ASSERT_TRUE(out.finished.has_value());
  EXPECT_TRUE(out.short_of_target);
  EXPECT_EQ(out.finished->find(": 0 boids"), std::string::npos) << *out.finished;
  EXPECT_NE(out.finished->find("below 30 fps already at 200 boids"), std::string::npos) << *out.finished;
  EXPECT_EQ(s.boids().n, 200u);
}
