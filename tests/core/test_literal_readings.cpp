// The seeds' literal readings (report_divisor all, update in_place, bias_target maxspeed)
// against values computed by hand on 2-3 boids, and the defaults left bit for bit alone.
#include <gtest/gtest.h>

#include <cmath>

#include "flockscope/core/io.hpp"
#include "test_support.hpp"

using namespace flockscope;
using test::quiet_params;
using test::step_once;

namespace {

constexpr float kTol = 1e-5f;

Params report_quiet() {
  Params p = quiet_params();
  p.rules = int(RuleSet::Report);
  p.V_max = 100, p.dt = 1;
  return p;
}

}  // namespace

TEST(LiteralReadings, ChoicesReadAndPrintByName) {
  Params p;
  EXPECT_EQ(p.divisor(), ReportDivisor::Seen);
  EXPECT_EQ(p.update_order(), UpdateOrder::Synchronous);
  EXPECT_EQ(p.bias_pull(), BiasTarget::Unit);
  EXPECT_FALSE(set_param_text(p, "report_divisor", "all"));
  EXPECT_FALSE(set_param_text(p, "update", "in_place"));
  EXPECT_FALSE(set_param_text(p, "bias_target", "maxspeed"));
  EXPECT_EQ(p.divisor(), ReportDivisor::All);
  EXPECT_EQ(p.update_order(), UpdateOrder::InPlace);
  EXPECT_EQ(p.bias_pull(), BiasTarget::MaxSpeed);
  EXPECT_EQ(format_param(p, *find_param("report_divisor")), "all");
  EXPECT_EQ(format_param(p, *find_param("update")), "in_place");
  EXPECT_EQ(format_param(p, *find_param("bias_target")), "maxspeed");
  EXPECT_EQ(format_param(p, *find_param("rules")), "cornell");
  // A name of another choice is refused, naming this choice's values; p is unchanged.
  const auto err = set_param_text(p, "update", "report");
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("synchronous | in_place"), std::string::npos) << *err;
  EXPECT_EQ(p.update_order(), UpdateOrder::InPlace);
  EXPECT_TRUE(set_param_text(p, "bias_target", "2"));
  EXPECT_FALSE(set_param_text(p, "bias_target", "0"));
  EXPECT_EQ(p.bias_pull(), BiasTarget::Unit);
}

TEST(LiteralReadings, BiasTargetMaxspeedPullsTowardPlusMinusMaxspeed) {
  Params p = quiet_params();
  p.scouts1 = 1, p.scouts2 = 1, p.biasval = 0.001, p.maxspeed = 6;
  p.bias_target = int(BiasTarget::MaxSpeed);
  const auto s = step_once(p, {{100, 100, -1, 0}, {500, 500, 1, 0}, {900, 900, 1, 0}});
  EXPECT_NEAR(s.vx[0], (1 - 0.001f) * -1 + 0.001f * 6, kTol);  // group 1: toward +6
  EXPECT_NEAR(s.vx[1], (1 - 0.001f) * 1 - 0.001f * 6, kTol);   // group 2: toward -6
  EXPECT_FLOAT_EQ(s.vx[2], 1);
  p.bias_target = int(BiasTarget::Unit);  // seed 000: toward +-1
  const auto u = step_once(p, {{100, 100, -1, 0}, {500, 500, 1, 0}});
  EXPECT_NEAR(u.vx[0], (1 - 0.001f) * -1 + 0.001f, kTol);
  EXPECT_NEAR(u.vx[1], (1 - 0.001f) * 1 - 0.001f, kTol);
}

TEST(LiteralReadings, DivisorAllDividesTheSumsOverTheBoidsSeenByNMinus1) {
  Params p = report_quiet();
  p.cohesion = true, p.S_coh = 0.5, p.D_vis = 10;
  // A (100,100) sees B (105,100) only; C (150,100) sees nobody. N - 1 = 2.
  p.report_divisor = int(ReportDivisor::Seen);
  auto s = step_once(p, {{100, 100, 0, 0}, {105, 100, 0, 0}, {150, 100, 0, 0}});
  EXPECT_NEAR(s.vx[0], 0.5f, kTol);  // toward B: unit (1, 0)
  EXPECT_NEAR(s.vy[0], 0, kTol);
  EXPECT_NEAR(s.vx[2], 0, kTol);  // sees nobody: no cohesion
  p.report_divisor = int(ReportDivisor::All);
  s = step_once(p, {{100, 100, 0, 0}, {105, 100, 0, 0}, {150, 100, 0, 0}});
  // A: p_flock = (105, 100) / 2 = (52.5, 50); v_coh = (-47.5, -50), normalised.
  const float na = std::sqrt(47.5f * 47.5f + 50.0f * 50.0f);
  EXPECT_NEAR(s.vx[0], 0.5f * -47.5f / na, kTol);
  EXPECT_NEAR(s.vy[0], 0.5f * -50.0f / na, kTol);
  // C: p_flock = (0, 0) (nobody seen); v_coh = -(150, 100), normalised: toward the origin.
  const float nc = std::sqrt(150.0f * 150.0f + 100.0f * 100.0f);
  EXPECT_NEAR(s.vx[2], 0.5f * -150.0f / nc, kTol);
  EXPECT_NEAR(s.vy[2], 0.5f * -100.0f / nc, kTol);

  // Alignment: A v(1,0) sees B v(2,0). Seen: (2,0) - (1,0) -> unit (1,0). All: (2,0)/2 - (1,0) = 0.
  p.cohesion = false, p.alignment = true, p.S_align = 0.5;
  p.report_divisor = int(ReportDivisor::Seen);
  s = step_once(p, {{100, 100, 1, 0}, {105, 100, 2, 0}, {150, 100, 0, 4}});
  EXPECT_NEAR(s.vx[0], 1.5f, kTol);
  p.report_divisor = int(ReportDivisor::All);
  s = step_once(p, {{100, 100, 1, 0}, {105, 100, 2, 0}, {150, 100, 0, 4}});
  EXPECT_NEAR(s.vx[0], 1.0f, kTol);
  EXPECT_NEAR(s.vy[0], 0.0f, kTol);
  // C v(0,4) sees nobody: v_flock = 0, v_align = -(0, 4) -> unit (0, -1).
  EXPECT_NEAR(s.vy[2], 4 - 0.5f, kTol);
}

TEST(LiteralReadings, ReportBaselineGivesTheSameBitsWithEitherDivisor) {
  Params seen = load_preset(resolve_preset("report-baseline"));
  ASSERT_TRUE(seen.vision_infinite());
  Params all = seen;
  all.report_divisor = int(ReportDivisor::All);
  Flock a(seen), b(all);
  for (int i = 0; i < 400; ++i) a.step(), b.step();
  EXPECT_EQ(a.state_hash(), b.state_hash());
  // The same comparison at D_vis = 10 differs (the test can tell the readings apart).
  seen.D_vis = all.D_vis = 10;
  Flock c(seen), d(all);
  for (int i = 0; i < 400; ++i) c.step(), d.step();
  EXPECT_NE(c.state_hash(), d.state_hash());
}

TEST(LiteralReadings, InPlaceCornellSecondBoidSeesTheFirstBoidsNewVelocity) {
  Params p = quiet_params();
  p.alignment = true;  // matchingfactor 0.05; A and B 20 px apart (visible)
  const auto sync = step_once(p, {{100, 100, 1, 0}, {120, 100, 0, 2}});
  EXPECT_NEAR(sync.vx[1], 0 + (1 - 0) * 0.05f, kTol);
  EXPECT_NEAR(sync.vy[1], 2 + (0 - 2) * 0.05f, kTol);
  p.update = int(UpdateOrder::InPlace);
  const auto s = step_once(p, {{100, 100, 1, 0}, {120, 100, 0, 2}});
  // A (first) as before: v = (0.95, 0.1), moved to (100.95, 100.1).
  EXPECT_NEAR(s.vx[0], 0.95f, kTol);
  EXPECT_NEAR(s.vy[0], 0.1f, kTol);
  EXPECT_NEAR(s.x[0], 100.95f, kTol);
  // B sees A's new velocity (0.95, 0.1), not (1, 0).
  EXPECT_NEAR(s.vx[1], 0 + (0.95f - 0) * 0.05f, kTol);
  EXPECT_NEAR(s.vy[1], 2 + (0.1f - 2) * 0.05f, kTol);
  EXPECT_NEAR(s.x[1], 120 + 0.0475f, kTol);
}

TEST(LiteralReadings, InPlaceReportSecondBoidSeesTheFirstBoidsNewVelocityAndPosition) {
  Params p = report_quiet();
  p.alignment = true, p.S_align = 0.5;
  p.update = int(UpdateOrder::InPlace);
  auto s = step_once(p, {{100, 100, 1, 0}, {150, 100, 0, 2}});
  // A: (0,2) - (1,0) = (-1, 2) -> unit; v = (1, 0) + 0.5 unit.
  const float r5 = std::sqrt(5.0f);
  const float ax = 1 - 0.5f / r5, ay = 1.0f / r5;
  EXPECT_NEAR(s.vx[0], ax, kTol);
  EXPECT_NEAR(s.vy[0], ay, kTol);
  // B: A's new velocity minus its own, (ax, ay - 2), normalised.
  const float n = std::sqrt(ax * ax + (ay - 2) * (ay - 2));
  EXPECT_NEAR(s.vx[1], 0.5f * ax / n, kTol);
  EXPECT_NEAR(s.vy[1], 2 + 0.5f * (ay - 2) / n, kTol);
  // Cohesion: B steers toward A's new position (100 + ax, 100 + ay).
  p.alignment = false, p.cohesion = true, p.S_coh = 0.5;
  s = step_once(p, {{100, 100, 1, 0}, {150, 110, 0, 0}});
  const float bx0 = 150, by0 = 110;
  const float ax1 = 100 + 0.5f * 50 / std::sqrt(50.0f * 50 + 10.0f * 10) + 1;
  const float ay1 = 100 + 0.5f * 10 / std::sqrt(50.0f * 50 + 10.0f * 10);
  EXPECT_NEAR(s.x[0], ax1, kTol);
  EXPECT_NEAR(s.y[0], ay1, kTol);
  const float m = std::sqrt((ax1 - bx0) * (ax1 - bx0) + (ay1 - by0) * (ay1 - by0));
  EXPECT_NEAR(s.vx[1], 0.5f * (ax1 - bx0) / m, kTol);
  EXPECT_NEAR(s.vy[1], 0.5f * (ay1 - by0) / m, kTol);
}

TEST(LiteralReadings, InPlaceBlogSecondBoidSeesTheFirstBoidsNewVelocity) {
  Params p = quiet_params();
  p.rules = int(RuleSet::Blog);
  p.alignment = true;
  p.visualRange = 70, p.protectedRange = 14, p.matchingfactor = 3, p.maxspeed = 20, p.dt = 1;
  p.update = int(UpdateOrder::InPlace);
  const auto s = step_once(p, {{100, 100, 5, 0}, {110, 100, 0, 5}});
  // A: v = (5, 0) + 3 * mean incl. self (2.5, 2.5) = (12.5, 7.5) -> speed 20, rounded move.
  const float na = std::sqrt(12.5f * 12.5f + 7.5f * 7.5f);
  const float ax = std::round(100 + 12.5f / na * 20), ay = std::round(100 + 7.5f / na * 20);
  EXPECT_FLOAT_EQ(s.x[0], ax);
  EXPECT_FLOAT_EQ(s.y[0], ay);
  const float avx = ax - 100, avy = ay - 100;  // A's new velocity: (17, 10)
  EXPECT_FLOAT_EQ(s.vx[0], avx);
  // B: A's new position (117, 110) is (7, 10) from B, within 70; mean velocity incl.
  // self ((avx + 0) / 2, (avy + 5) / 2).
  const float bvx = 0 + 3 * (avx / 2), bvy = 5 + 3 * ((avy + 5) / 2);
  const float nb = std::sqrt(bvx * bvx + bvy * bvy);
  EXPECT_FLOAT_EQ(s.x[1], std::round(110 + bvx / nb * 20));
  EXPECT_FLOAT_EQ(s.y[1], std::round(100 + bvy / nb * 20));
}

TEST(LiteralReadings, InPlaceIsDeterministicAndDiffersFromSynchronous) {
  for (int rules : {0, 1, 2}) {
    Params p;
    p.rules = rules;
    p.boids = 200;
    p.D_vis = 25;
    p.scouts1 = 10, p.dynamicbias = true;
    Params q = p;
    q.update = int(UpdateOrder::InPlace);
    Flock a(q), b(q), c(p);
    b.set_threads(2);
    for (int i = 0; i < 50; ++i) a.step(), b.step(), c.step();
    EXPECT_EQ(a.state_hash(), b.state_hash()) << rules;
    EXPECT_NE(a.state_hash(), c.state_hash()) << rules;
    for (float v : a.snapshot().x) ASSERT_TRUE(std::isfinite(v)) << rules;
  }
}

TEST(LiteralReadings, LiteralPresetsLoad) {
  for (const char* name : {"report-vis10-literal", "report-vis25-literal"}) {
    const Params p = load_preset(resolve_preset(name));
    EXPECT_EQ(p.rule_set(), RuleSet::Report) << name;
    EXPECT_EQ(p.divisor(), ReportDivisor::All) << name;
    EXPECT_EQ(p.update_order(), UpdateOrder::InPlace) << name;
    EXPECT_EQ(p.boids, 100);
    EXPECT_EQ(p.S_sep, 4);
    EXPECT_EQ(p.D_sep, 1);
    EXPECT_EQ(p.S_coh, 0.075);
    EXPECT_EQ(p.V_max, 10);
  }
  EXPECT_EQ(load_preset(resolve_preset("report-vis10-literal")).D_vis, 10);
  EXPECT_EQ(load_preset(resolve_preset("report-vis10-literal")).S_align, 0.04);
  EXPECT_EQ(load_preset(resolve_preset("report-vis25-literal")).D_vis, 25);
  EXPECT_EQ(load_preset(resolve_preset("report-vis25-literal")).S_align, 0.06);
}
