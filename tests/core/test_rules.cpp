// Each rule against values computed by hand from the seeds' formulas, on 1-3 boids.
#include <gtest/gtest.h>

#include <cmath>

#include "flockscope/core/rules.hpp"
#include "test_support.hpp"

using namespace flockscope;
using test::B;
using test::quiet_params;
using test::step_once;

constexpr float kTol = 1e-5f;

TEST(CornellRules, SeparationOnly) {
  Params p = quiet_params();
  p.separation = true;
  // A and B are 5 px apart (< protectedRange 8): close_dx = 100 - 103 = -3, close_dy = -4.
  const auto s = step_once(p, {{100, 100, 1, 0}, {103, 104, 0, 1}});
  EXPECT_NEAR(s.vx[0], 1 + -3 * 0.05f, kTol);
  EXPECT_NEAR(s.vy[0], 0 + -4 * 0.05f, kTol);
  EXPECT_NEAR(s.vx[1], 0 + 3 * 0.05f, kTol);
  EXPECT_NEAR(s.vy[1], 1 + 4 * 0.05f, kTol);
  // position += velocity (dt = 1)
  EXPECT_NEAR(s.x[0], 100 + 0.85f, kTol);
  EXPECT_NEAR(s.y[0], 100 - 0.2f, kTol);
}

TEST(CornellRules, AlignmentOnly) {
  Params p = quiet_params();
  p.alignment = true;
  // 20 px apart: inside visualRange 40, outside protectedRange 8.
  const auto s = step_once(p, {{100, 100, 1, 0}, {120, 100, 0, 2}});
  EXPECT_NEAR(s.vx[0], 1 + (0 - 1) * 0.05f, kTol);
  EXPECT_NEAR(s.vy[0], 0 + (2 - 0) * 0.05f, kTol);
  EXPECT_NEAR(s.vx[1], 0 + (1 - 0) * 0.05f, kTol);
  EXPECT_NEAR(s.vy[1], 2 + (0 - 2) * 0.05f, kTol);
}

TEST(CornellRules, CohesionOnly) {
  Params p = quiet_params();
  p.cohesion = true;
  // A sees B (20 px) and C (30 px): their centre is (110, 115).
  const auto s = step_once(p, {{100, 100, 1, 1}, {120, 100, 1, 1}, {100, 130, 1, 1}});
  EXPECT_NEAR(s.vx[0], 1 + (110 - 100) * 0.0005f, kTol);
  EXPECT_NEAR(s.vy[0], 1 + (115 - 100) * 0.0005f, kTol);
}

TEST(CornellRules, ProtectedNeighbourCountsOnlyForSeparation) {
  Params p = quiet_params();
  p.alignment = p.cohesion = true;
  // B is 5 px from A (protected), C 30 px (visible): only C enters A's averages.
  const auto s = step_once(p, {{100, 100, 0, 0}, {105, 100, 4, 4}, {130, 100, 2, 0}});
  EXPECT_NEAR(s.vx[0], (130 - 100) * 0.0005f + (2 - 0) * 0.05f, kTol);
  EXPECT_NEAR(s.vy[0], 0, kTol);
}

TEST(CornellRules, RangesAreStrict) {
  Params p = quiet_params();
  p.alignment = true;
  p.separation = true;
  // Exactly visualRange (40) apart: not a neighbour. Exactly protectedRange (8): not
  // protected, but visible.
  auto s = step_once(p, {{100, 100, 1, 0}, {140, 100, 0, 0}});
  EXPECT_FLOAT_EQ(s.vx[0], 1);
  s = step_once(p, {{100, 100, 1, 0}, {108, 100, 0, 0}});
  EXPECT_NEAR(s.vx[0], 1 + (0 - 1) * 0.05f, kTol);  // aligned, not separated
}

// The float engine's neighbour test (rules::cornell_classify for float and v8f): t = d^2 -
// protected^2 as fma(dx, dx, fma(dy, dy, -protected^2)); separate when t < 0, visible when
// 0 <= t < visual^2 - protected^2. Cases by hand, with protectedRange 8, visualRange 40.
TEST(CornellRules, FusedNeighbourTest) {
  rules::CornellCoeffs<float> c{};
  c.range = 40, c.protected2 = 64, c.visual2 = 1600;
  struct Case {
    float dx, dy;
    bool separate, visible;
  };
  const Case cases[] = {
      {3, 4, true, false},     // d = 5: t = 25 - 64 < 0
      {8, 0, false, true},     // d = 8, the protected range: t = 0, visible
      {-30, 10, false, true},  // t = 1000 - 64 = 936 < 1536
      {40, 0, false, false},   // d = 40, the visual range: t = 1536, not below it
      {24, -32, false, false}, // d = 40 again: 576 + (1024 - 64) = 1536
      {0, 0, true, false},     // the boid's own offset: t = -64 (callers skip self)
      {45, 0, false, false},   // outside the box |dx| < range
      // d^2 = 64 - 3.99e-7 exactly (5.2103748 and 6.0705843 px): inside the protected range.
      // The plain float d^2, dx * dx + dy * dy, rounds to 64 exactly and would not separate;
      // the fused t is -5.5e-7 and does.
      {0x1.4d76c8p+2f, 0x1.848474p+2f, true, false},
  };
  // The eight-lane form must give the same in every lane.
  rules::CornellCoeffs<rules::v8f> c8{};
  c8.range = rules::broadcast(c.range), c8.protected2 = rules::broadcast(c.protected2);
  c8.visual2 = rules::broadcast(c.visual2);
  for (const Case& k : cases) {
    bool separate, visible;
    rules::cornell_classify(k.dx, k.dy, c, separate, visible);
    EXPECT_EQ(separate, k.separate) << k.dx << ", " << k.dy;
    EXPECT_EQ(visible, k.visible) << k.dx << ", " << k.dy;
    rules::v8i separate8, visible8;
    rules::cornell_classify(rules::broadcast(k.dx), rules::broadcast(k.dy), c8, separate8, visible8);
    for (std::uint32_t l = 0; l < rules::kLanes; ++l) {
      EXPECT_EQ(separate8[l], k.separate ? -1 : 0) << k.dx << ", " << k.dy;
      EXPECT_EQ(visible8[l], k.visible ? -1 : 0) << k.dx << ", " << k.dy;
    }
  }
  const float dx = 0x1.4d76c8p+2f, dy = 0x1.848474p+2f;
  const float plain = dx * dx + dy * dy;  // two roundings: this file builds with -ffp-contract=off
  EXPECT_EQ(plain, 64.0f);
  EXPECT_LT((long double)dx * dx + (long double)dy * dy, 64.0L);
  // visualRange at or below protectedRange: nothing is visible, the protected still separate.
  c.visual2 = 25;
  bool separate, visible;
  rules::cornell_classify(6.0f, 0.0f, c, separate, visible);
  EXPECT_TRUE(separate);
  EXPECT_FALSE(visible);
  rules::cornell_classify(9.0f, 0.0f, c, separate, visible);
  EXPECT_FALSE(separate);
  EXPECT_FALSE(visible);
}

TEST(CornellRules, EdgeTurnInsideMarginsOnly) {
  Params p = quiet_params();
  p.width = 640, p.height = 480;
  p.leftmargin = p.rightmargin = p.topmargin = p.bottommargin = 100;
  // Left margin: x < 100; right: x > 540; top: y < 100; bottom: y > 380.
  auto s = step_once(p, {{50, 200, 1, 0}, {600, 200, 1, 0}, {300, 50, 0, 1}, {300, 400, 0, 1}, {100, 380, 1, 1}});
  EXPECT_NEAR(s.vx[0], 1.2f, kTol);
  EXPECT_NEAR(s.vx[1], 0.8f, kTol);
  EXPECT_NEAR(s.vy[2], 1.2f, kTol);
  EXPECT_NEAR(s.vy[3], 0.8f, kTol);
  EXPECT_FLOAT_EQ(s.vx[4], 1);  // exactly on the margin lines: no turn
  EXPECT_FLOAT_EQ(s.vy[4], 1);
  // Positions are not clamped: a boid beyond the edge keeps going, turning.
  s = step_once(p, {{-50, 200, -3, 0}});
  EXPECT_NEAR(s.x[0], -50 - 2.8f, kTol);
}

TEST(CornellRules, PredatorInRangeTurnsBoidAway) {
  Params p = quiet_params();
  // Predator at (320, 310), boid at (300, 300): predator_dx = -20 (right of boid), dy = -10.
  const auto s = step_once(p, {{300, 300, 1, 1}}, {{320, 310, 0, 0}});
  EXPECT_NEAR(s.vx[0], 1 - 0.5f, kTol);
  EXPECT_NEAR(s.vy[0], 1 - 0.5f, kTol);
  // Out of range (150 px): no effect.
  const auto far = step_once(p, {{300, 300, 1, 1}}, {{450, 300, 0, 0}});
  EXPECT_FLOAT_EQ(far.vx[0], 1);
}

TEST(CornellRules, PredatorMovesOnlyByMarginTurns) {
  Params p = quiet_params();
  p.width = 640, p.height = 480;
  p.leftmargin = 100;
  Flock f(p, test::snapshot_of({{300, 300, 1, 0}}));
  f.set_predators({{50, 200, 1, 0}});
  f.step();
  EXPECT_NEAR(f.predators()[0].vx, 1.2f, kTol);
  EXPECT_NEAR(f.predators()[0].x, 51.2f, kTol);
}

TEST(CornellRules, StaticBias) {
  Params p = quiet_params();
  p.scouts1 = 1;
  p.scouts2 = 1;
  p.biasval = 0.001;
  const auto s = step_once(p, {{100, 100, -1, 0}, {500, 500, 1, 0}, {900, 900, 1, 0}});
  EXPECT_NEAR(s.vx[0], (1 - 0.001f) * -1 + 0.001f, kTol);  // group 1: toward +x
  EXPECT_NEAR(s.vx[1], (1 - 0.001f) * 1 - 0.001f, kTol);   // group 2: toward -x
  EXPECT_FLOAT_EQ(s.vx[2], 1);                              // not a scout
}

TEST(CornellRules, DynamicBiasGrowsShrinksAndIsBounded) {
  Params p = quiet_params();
  p.scouts1 = 3;
  p.dynamicbias = true;
  p.biasval = 0.001;
  p.maxbias = 0.01;
  p.bias_increment = 0.00004;
  Flock f(p, test::snapshot_of({{100, 100, 2, 0}, {500, 500, -2, 0}, {900, 900, 2, 0}}));
  f.step();
  // Going its way: 0.001 -> 0.00104, then vx = (1 - b) vx + b.
  EXPECT_NEAR(f.scout_bias()[0], 0.00104f, 1e-8);
  EXPECT_NEAR(f.snapshot().vx[0], (1 - 0.00104f) * 2 + 0.00104f, kTol);
  // The wrong way: 0.001 -> 0.00096.
  EXPECT_NEAR(f.scout_bias()[1], 0.00096f, 1e-8);
  EXPECT_NEAR(f.snapshot().vx[1], (1 - 0.00096f) * -2 + 0.00096f, kTol);
  // Bounds: never below bias_increment (25 more frames the wrong way reach it)...
  for (int i = 0; i < 30; ++i) f.step();
  ASSERT_LT(f.snapshot().vx[1], 0);
  EXPECT_NEAR(f.scout_bias()[1], 0.00004f, 1e-8);
  // ... and never above maxbias (225 frames the right way reach it).
  for (int i = 0; i < 300; ++i) f.step();
  EXPECT_NEAR(f.scout_bias()[0], 0.01f, 1e-7);
}

TEST(CornellRules, SpeedClampsScaleBothComponentsAlike) {
  Params p = quiet_params();
  p.minspeed = 3, p.maxspeed = 6;
  // speed 10 -> 6, and (0.3, 0.4) speed 0.5 -> 3: both components by the same limit (the
  // seeds' text scales vy by the other limit; fixed).
  const auto s = step_once(p, {{100, 100, 6, 8}, {500, 500, 0.3f, 0.4f}});
  EXPECT_NEAR(s.vx[0], 3.6f, kTol);
  EXPECT_NEAR(s.vy[0], 4.8f, kTol);
  EXPECT_NEAR(s.vx[1], 1.8f, kTol);
  EXPECT_NEAR(s.vy[1], 2.4f, kTol);
}

TEST(CornellRules, ZeroSpeedNeverGivesNaN) {
  Params p = quiet_params();
  p.minspeed = 3, p.maxspeed = 6;
  const auto s = step_once(p, {{100, 100, 0, 0}});
  EXPECT_FLOAT_EQ(s.vx[0], 3);
  EXPECT_FLOAT_EQ(s.vy[0], 0);
  // A velocity steered to exactly zero takes the previous direction.
  float vx = 0, vy = 0;
  rules::limit_speed(vx, vy, 3.0f, 6.0f, 0.0f, -2.0f);
  EXPECT_FLOAT_EQ(vx, 0);
  EXPECT_FLOAT_EQ(vy, -3);
  // minspeed above maxspeed: maxspeed wins.
  vx = 1, vy = 0;
  rules::limit_speed(vx, vy, 5.0f, 4.0f, 0.0f, 0.0f);
  EXPECT_FLOAT_EQ(vx, 4);
}

TEST(ReportRules, NormalisedSteeringSeparationAndVmax) {
  Params p = quiet_params();
  p.rules = int(RuleSet::Report);
  p.cohesion = p.alignment = p.separation = true;
  p.S_sep = 4, p.S_align = 0.04, p.S_coh = 0.075, p.D_sep = 1, p.D_vis = INFINITY, p.V_max = 10, p.dt = 0.05;
  // A at (100,100) v(1,0); B at (100.6,100) v(1,2) (0.6 apart < D_sep); C at (100,110) v(1,0).
  const auto s = step_once(p, {{100, 100, 1, 0}, {100.6f, 100, 1, 2}, {100, 110, 1, 0}});
  // A: v_sep = (100 - 100.6, 0) = (-0.6, 0); mean others' velocity (1, 1) - (1, 0) = (0, 1)
  // -> unit (0, 1); mean others' position (100.3, 105) - (100, 100) = (0.3, 5) -> unit.
  const float n = std::sqrt(0.3f * 0.3f + 25.0f);
  const float vx = 1 + 4 * -0.6f + 0.04f * 0 + 0.075f * (0.3f / n);
  const float vy = 0 + 4 * 0 + 0.04f * 1 + 0.075f * (5 / n);
  EXPECT_NEAR(s.vx[0], vx, 1e-4);
  EXPECT_NEAR(s.vy[0], vy, 1e-4);
  EXPECT_NEAR(s.x[0], 100 + 0.05f * vx, 1e-4);
  // V_max clamps.
  const auto fast = step_once(p, {{100, 100, 30, 40}});
  EXPECT_NEAR(fast.vx[0], 6, kTol);
  EXPECT_NEAR(fast.vy[0], 8, kTol);
}

TEST(ReportRules, FiniteVisionAndWallCorrection) {
  Params p = quiet_params();
  p.rules = int(RuleSet::Report);
  p.cohesion = true;
  p.S_coh = 0.5, p.D_vis = 10, p.V_max = 100, p.dt = 1;
  p.width = p.height = 200;
  p.leftmargin = p.rightmargin = p.topmargin = p.bottommargin = 10;
  p.turnfactor = 1;
  // B is 5 px away (seen), C 50 px (not seen): A steers toward B only, unit vector (1, 0).
  auto s = step_once(p, {{100, 100, 0, 0}, {105, 100, 0, 0}, {150, 100, 0, 0}});
  EXPECT_NEAR(s.vx[0], 0.5f, kTol);
  EXPECT_NEAR(s.vy[0], 0, kTol);
  // boundPosition: x < threshold -> +correction; x > W - threshold -> -correction.
  p.cohesion = false;
  s = step_once(p, {{5, 100, 0, 0}, {195, 100, 0, 0}, {100, 195, 0, 0}});
  EXPECT_NEAR(s.vx[0], 1, kTol);
  EXPECT_NEAR(s.vx[1], -1, kTol);
  EXPECT_NEAR(s.vy[2], -1, kTol);
}

TEST(BlogRules, NumpyVariantStep) {
  Params p = quiet_params();
  p.rules = int(RuleSet::Blog);
  p.cohesion = p.alignment = p.separation = true;
  p.visualRange = 70, p.protectedRange = 14, p.centeringfactor = 0.1, p.avoidfactor = 7, p.matchingfactor = 3;
  p.maxspeed = 20, p.turnfactor = 20, p.dt = 1;
  // A (100,100) v(5,0), B (110,100) v(0,5): 10 apart, within both ranges.
  const auto s = step_once(p, {{100, 100, 5, 0}, {110, 100, 0, 5}});
  // A: centre incl. self (105, 100): +0.1*(5, 0) = (0.5, 0); separation (100-110)*7 = (-70, 0);
  // alignment 3 * mean velocity incl. self (2.5, 2.5) = (7.5, 7.5).
  // v = (5 + 0.5 - 70 + 7.5, 0 + 0 + 0 + 7.5) = (-57, 7.5) -> set to speed 20.
  const float n = std::sqrt(57.0f * 57.0f + 7.5f * 7.5f);
  const float vx = -57 / n * 20, vy = 7.5f / n * 20;
  EXPECT_FLOAT_EQ(s.x[0], std::round(100 + vx));  // positions rounded to whole px
  EXPECT_FLOAT_EQ(s.y[0], std::round(100 + vy));
  EXPECT_FLOAT_EQ(s.vx[0], std::round(100 + vx) - 100);  // velocity = rounded displacement
}

TEST(Rules, NoNaNOverManyStepsOfEveryPreset) {
  for (int rules : {0, 1, 2}) {
    Params p;
    p.rules = rules;
    p.boids = 300;
    p.minspeed = 0;  // allows boids to stop
    Flock f(p);
    for (int i = 0; i < 300; ++i) f.step();
    const auto s = f.snapshot();
    for (std::size_t i = 0; i < s.size(); ++i) {
      ASSERT_TRUE(std::isfinite(s.x[i]) && std::isfinite(s.vx[i])) << "rules " << rules << " boid " << i;
    }
  }
}
