// The consensus study's grid: the order of its axes (the plots' x axis first), the bias
// words, and the errors of its flags.
#include <gtest/gtest.h>

#include "flockscope/core/io.hpp"
#include "flockscope/experiments/consensus.hpp"

using namespace flockscope;
using namespace flockscope::experiments;

namespace {

std::vector<std::string> keys(const std::vector<GridAxis>& axes) {
  std::vector<std::string> k;
  for (const auto& a : axes) k.push_back(a.key);
  return k;
}

}  // namespace

TEST(ConsensusGrid, TheFirstScoutKeyWithSeveralValuesLeadsThenBoidsBiasAndTheRest) {
  ConsensusGrid g;
  g.informed = "0.1";
  g.right_share = "0.5,0.75";
  g.boids = "20,40";
  g.bias = "static,dynamic";
  g.other = {"maxspeed=2,3"};
  const auto axes = consensus_axes(g);
  EXPECT_EQ(keys(axes), (std::vector<std::string>{"right_share", "informed", "boids", "dynamicbias", "maxspeed"}));
  EXPECT_EQ(axes[3].labels, (std::vector<std::string>{"false", "true"}));  // static, dynamic
  EXPECT_EQ(axes[1].values, (std::vector<double>{0.1}));
}

TEST(ConsensusGrid, SharesAndSizesTogetherAndUnknownBiasWordsAreRefused) {
  ConsensusGrid both;
  both.informed = "0.1";
  both.scouts1 = std::string("5");
  EXPECT_THROW(consensus_axes(both), InputError);
  ConsensusGrid bias;
  bias.bias = "static,sideways";
  try {
    consensus_axes(bias);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--bias static,sideways: expected static, dynamic or both (static,dynamic)");
  }
}

TEST(ConsensusGrid, HeadingWindowIsFromColonToInSteps) {
  SummaryOptions o;
  parse_heading_window("100:400", o);
  EXPECT_EQ(o.heading_from, 100u);
  EXPECT_EQ(o.heading_to, 400u);
  for (const char* bad : {"100", ":400", "100:", "1x:400", "100:4e2", "-1:400"})
    EXPECT_THROW(parse_heading_window(bad, o), InputError) << bad;
}
