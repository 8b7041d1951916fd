// Core's table <-> the wire: every parameter round-trips with its own type tag; a value
// with the wrong tag is refused, not reinterpreted; out-of-range board values are flagged.
#include <gtest/gtest.h>

#include <cmath>

#include "link/wire_params.hpp"

using namespace flockscope;
namespace proto = flockscope::protocol;

TEST(WireParams, EveryTableParameterRoundTripsWithItsKindsTag) {
  const Params p{};
  for (const ParamDef& d : param_table()) {
    const double v = get_param(p, d);
    const auto w = link::to_wire(d, v);
    const proto::ParamType want = d.kind == ParamKind::Int    ? proto::ParamType::kInt
                                  : d.kind == ParamKind::Bool ? proto::ParamType::kBool
                                  : d.kind == ParamKind::Choice ? proto::ParamType::kChoice
                                                                : proto::ParamType::kReal;
    EXPECT_EQ(w.type, want) << d.name;
    const auto back = link::from_wire(d, w);
    ASSERT_TRUE(back.has_value()) << d.name;
    EXPECT_EQ(*back, v) << d.name;
  }
}

TEST(WireParams, WrongTagAndNaNAreRefused) {
  const ParamDef* vr = find_param("visualRange");
  const ParamDef* boids = find_param("boids");
  ASSERT_TRUE(vr && boids);
  EXPECT_FALSE(link::from_wire(*vr, proto::ParamValue::of_int(40)));
  EXPECT_FALSE(link::from_wire(*boids, proto::ParamValue::of_real(40)));
  EXPECT_FALSE(link::from_wire(*vr, proto::ParamValue::of_real(std::nan(""))));
  EXPECT_EQ(link::from_wire(*boids, proto::ParamValue::of_int(4294967295LL)).value(), 4294967295.0);
}

TEST(WireParams, BoardSetBecomesParamsAndOutOfRangeIsFlagged) {
  std::vector<proto::Param> set = {{7, proto::ParamValue::of_real(55.5)},
                                   {3, proto::ParamValue::of_int(2000)},
                                   {17, proto::ParamValue::of_real(5000.0)},  // above core's max 1000
                                   {999, proto::ParamValue::of_int(1)}};      // a newer board's: skipped
  std::vector<link::FlaggedParam> flagged;
  const Params p = link::params_from_wire(set, Params{}, &flagged);
  EXPECT_EQ(p.visualRange, 55.5);
  EXPECT_EQ(p.boids, 2000);
  EXPECT_EQ(p.maxspeed, 1000.0);
  EXPECT_EQ(link::describe(flagged), "maxspeed=5000 (above this app's maximum 1000)");
}

TEST(WireParams, ValuesOutsideTheTableAreKeptAsSentAndFlaggedWithTheReason) {
  // What a hostile board sent: none of it may be silently replaced.
  std::vector<proto::Param> set = {{1, proto::ParamValue::of_real(1e308)},                       // width
                                   {8, proto::ParamValue::of_real(INFINITY)},                    // protectedRange
                                   {7, proto::ParamValue::of_real(std::nan(""))},                // visualRange
                                   {6, proto::ParamValue::of_choice(99)},                        // rules
                                   {24, proto::ParamValue{proto::ParamType::kBool, 7}},          // dynamicbias
                                   {17, proto::ParamValue::of_int(5)},                           // maxspeed, wrong type
                                   {9, proto::ParamValue::of_real(0.01)}};                       // in range
  std::vector<link::FlaggedParam> flagged;
  const Params p = link::params_from_wire(set, Params{}, &flagged);
  ASSERT_EQ(flagged.size(), 6u);
  EXPECT_EQ(link::describe(flagged),
            "width=1e+308 (above this app's maximum 1e+06), protectedRange=inf (above this app's maximum 10000), "
            "visualRange=nan (not a number), rules=choice 99 (not one of this app's choices 0 to 2), "
            "dynamicbias=bool 7 (a bool is 0 or 1), maxspeed=5 (wrong type for this app's table)");
  EXPECT_TRUE(flagged[0].usable);
  EXPECT_FALSE(flagged[2].usable);
  EXPECT_FALSE(flagged[4].usable);
  EXPECT_EQ(flagged[2].value.bits, proto::ParamValue::of_real(std::nan("")).bits);  // as sent
  // Params hold valid values only: the nearest for a number out of range, the old one otherwise.
  EXPECT_EQ(p.width, 1e6);
  EXPECT_EQ(p.visualRange, Params{}.visualRange);
  EXPECT_EQ(p.dynamicbias, Params{}.dynamicbias);
  EXPECT_EQ(get_param(p, *find_param("centeringfactor")), 0.01);
  // An acknowledgement's value goes through the same check.
  EXPECT_FALSE(link::flag_reported(*find_param("visualRange"), proto::ParamValue::of_real(45)));
  const auto nan_ack = link::flag_reported(*find_param("visualRange"), proto::ParamValue::of_real(std::nan("")));
  ASSERT_TRUE(nan_ack);
  EXPECT_FALSE(nan_ack->usable);
}

// A board takes the lab's extensions only with capability bit 9: without it (older firmware
// that lists them held at off, or a student's firmware), its set loses them, so the window
// greys them and nothing sends them; gravity and the rest stay.
TEST(WireParams, ExtensionsAreOnABoardOnlyWithItsCapability) {
  const auto id = [](const char* n) { return flockscope::find_param(n)->id; };
  const std::vector<proto::Param> set = {{id("visualRange"), proto::ParamValue::of_real(40)},
                                         {id("gravity"), proto::ParamValue::of_real(0)},
                                         {id("predator_mode"), proto::ParamValue::of_choice(0)},
                                         {id("food_range"), proto::ParamValue::of_real(150)},
                                         {id("perch_frames"), proto::ParamValue::of_int(0)}};
  const auto without = flockscope::link::params_it_takes(set, proto::cap::kParamChange);
  ASSERT_EQ(without.size(), 2u);
  EXPECT_EQ(without[0].id, id("visualRange"));
  EXPECT_EQ(without[1].id, id("gravity"));
  EXPECT_EQ(flockscope::link::params_it_takes(set, proto::cap::kSurroundings).size(), 5u);
  EXPECT_TRUE(flockscope::link::needs_surroundings(id("food_speed")));
  EXPECT_FALSE(flockscope::link::needs_surroundings(id("gravity")));
}
