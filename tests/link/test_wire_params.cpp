// Core's table <-> the wire: every parameter round-trips with its own type tag; a value
// with the wrong tag is refused, not reinterpreted; out-of-range board values are flagged.
#include <gtest/gtest.h>

#include "wire_params.hpp"

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
  std::string flagged;
  const Params p = link::params_from_wire(set, Params{}, &flagged);
  EXPECT_EQ(p.visualRange, 55.5);
  EXPECT_EQ(p.boids, 2000);
  EXPECT_EQ(p.maxspeed, 1000.0);
  EXPECT_EQ(flagged, "maxspeed=5000");
}
