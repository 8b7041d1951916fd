#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/params.hpp"

using namespace flockscope;

TEST(ParamTable, HasEveryNameTheSeedsUse) {
  for (const char* name : {"visualRange", "protectedRange", "centeringfactor", "avoidfactor", "matchingfactor",
                           "turnfactor", "maxspeed", "minspeed", "leftmargin", "rightmargin", "topmargin",
                           "bottommargin", "predatorRange", "predatorturnfactor", "maxbias", "bias_increment", "biasval",
                           "width", "height", "boids", "predators", "scouts1", "scouts2", "dynamicbias", "rules", "seed",
                           "S_sep", "S_align", "S_coh", "D_sep", "D_vis", "V_max", "dt"})
    EXPECT_NE(find_param(name), nullptr) << name;
}

TEST(ParamTable, IdsAreUniqueAndStable) {
  std::set<int> ids;
  for (const auto& d : param_table()) EXPECT_TRUE(ids.insert(d.id).second) << d.name;
  // The wire depends on these; they must never change.
  EXPECT_EQ(find_param("width")->id, 1);
  EXPECT_EQ(find_param("visualRange")->id, 7);
  EXPECT_EQ(find_param("D_vis")->id, 31);
  EXPECT_EQ(find_param("alignment")->id, 36);
  EXPECT_EQ(find_param(std::uint16_t(17))->name, "maxspeed");
}

TEST(ParamTable, DefaultsLieInTheirRangesAndMatchTheStruct) {
  const Params p;
  for (const auto& d : param_table()) {
    EXPECT_GE(d.def, d.min) << d.name;
    EXPECT_LE(d.def, d.max) << d.name;
    EXPECT_LE(d.slider_min, d.slider_max) << d.name;
    EXPECT_EQ(get_param(p, d), d.def) << d.name;
  }
}

TEST(ParamTable, LabSliderRangesAndLogScale) {
  EXPECT_EQ(find_param("protectedRange")->slider_max, 100);
  EXPECT_EQ(find_param("visualRange")->slider_max, 200);
  EXPECT_EQ(find_param("centeringfactor")->slider_min, 0.0002);
  EXPECT_TRUE(find_param("centeringfactor")->log_scale());
  EXPECT_FALSE(find_param("visualRange")->log_scale());
}

TEST(SetParam, AcceptsValidTextOfEveryKind) {
  Params p;
  EXPECT_FALSE(set_param_text(p, "visualRange", "55.5"));
  EXPECT_EQ(p.visualRange, 55.5);
  EXPECT_FALSE(set_param_text(p, "D_vis", "inf"));
  EXPECT_TRUE(p.vision_infinite());
  EXPECT_FALSE(set_param_text(p, "D_vis", "10"));
  EXPECT_FALSE(p.vision_infinite());
  EXPECT_FALSE(set_param_text(p, "D_vis", "0"));
  EXPECT_TRUE(p.vision_infinite());
  EXPECT_FALSE(set_param_text(p, "dynamicbias", "true"));
  EXPECT_TRUE(p.dynamicbias);
  EXPECT_FALSE(set_param_text(p, "rules", "blog"));
  EXPECT_EQ(p.rule_set(), RuleSet::Blog);
  EXPECT_FALSE(apply_assignment(p, "boids=250"));
  EXPECT_EQ(p.boids, 250);
}

TEST(SetParam, RejectsWithKeyAndRangeAndChangesNothing) {
  Params p;
  const Params before = p;
  auto err = set_param_text(p, "visualRange", "20000");
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("visualRange"), std::string::npos) << *err;
  EXPECT_NE(err->find("[0, 10000]"), std::string::npos) << *err;
  EXPECT_TRUE(set_param_text(p, "visualRange", "-1"));
  EXPECT_TRUE(set_param_text(p, "visualRange", "nan"));
  EXPECT_TRUE(set_param_text(p, "visualRange", "12abc"));
  EXPECT_TRUE(set_param_text(p, "boids", "2.5"));
  EXPECT_TRUE(set_param_text(p, "dynamicbias", "maybe"));
  EXPECT_TRUE(set_param_text(p, "rules", "flocking"));
  err = set_param_text(p, "nosuch", "1");
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("unknown parameter 'nosuch'"), std::string::npos);
  EXPECT_TRUE(apply_assignment(p, "visualRange"));
  EXPECT_EQ(p, before);
}

TEST(CopyParams, CopiesOnlyTheKindAsked) {
  Params a, b;
  b.visualRange = 77;
  b.boids = 5;
  copy_params(a, b, Apply::Live);
  EXPECT_EQ(a.visualRange, 77);
  EXPECT_EQ(a.boids, Params{}.boids);
}

TEST(ParamTable, UnknownNameSuggestsTheNearestOne) {
  Params p;
  const auto case_slip = apply_assignment(p, "visualrange=30");
  ASSERT_TRUE(case_slip);
  EXPECT_NE(case_slip->find("unknown parameter 'visualrange' (did you mean visualRange?)"), std::string::npos) << *case_slip;
  const auto typo = apply_assignment(p, "maxsped=3");
  ASSERT_TRUE(typo);
  EXPECT_NE(typo->find("did you mean maxspeed?"), std::string::npos) << *typo;
  const auto far = apply_assignment(p, "nosuch=1");
  ASSERT_TRUE(far);
  EXPECT_EQ(far->find("did you mean"), std::string::npos) << *far;
  EXPECT_EQ(p, Params{});  // nothing was set
}

// The used_by column is what the window trusts to grey out a slider: a parameter that a rule
// set does not read must leave its flock bit for bit the same, and one it reads (for those
// where a change shows in 30 steps) must change it. Scouts and predators are there so that
// the bias and predator parameters have something to act on.
TEST(ParamTable, UsedByMatchesWhatTheStepReads) {
  for (const RuleSet r : {RuleSet::Cornell, RuleSet::Report, RuleSet::Blog}) {
    Params base;
    base.rules = int(r);
    base.boids = 200, base.width = 300, base.height = 300, base.predators = 2;
    base.scouts1 = 40, base.scouts2 = 40, base.D_vis = 50;
    // The same start (spawned from `base`), then 30 steps under p: the change as a slider
    // makes it.
    auto hash_after = [&base](const Params& p) {
      Flock f(base);
      f.set_params(p);
      for (int i = 0; i < 30; ++i) f.step();
      return f.state_hash();
    };
    const std::uint64_t h0 = hash_after(base);
    int used_and_changed = 0;
    for (const ParamDef& d : param_table()) {
      if (d.apply != Apply::Live || d.name == "rules") continue;  // reset-only ones shape the start
      Params q = base;
      const double v = get_param(base, d);
      // A different valid value: the other end of a flag or choice, else a third more (or a
      // value inside the range when the default is 0).
      double w = d.kind == ParamKind::Bool || d.kind == ParamKind::Choice ? (v == d.min ? d.max : d.min)
                                                                           : (v != 0 ? v * 1.35 : d.slider_max / 3);
      w = std::min(w, d.max);
      ASSERT_FALSE(set_param(q, d, w)) << d.name;
      const bool changed = hash_after(q) != h0;
      if (!d.used_by_rules(r))
        EXPECT_FALSE(changed) << d.name << " is not used by rule set " << int(r) << " but changed its flock";
      else
        used_and_changed += changed;
    }
    EXPECT_GT(used_and_changed, 5) << "rule set " << int(r);
  }
}
