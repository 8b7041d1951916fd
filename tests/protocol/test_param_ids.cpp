// The wire's parameter ids are the parameter table's ids (params/include/flockscope/
// params/param_list.hpp). This test freezes the ids PROTOCOL.md publishes: the table may
// grow, but an id may never move to another parameter or change its wire type.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string_view>

#include "flockscope/params/param_list.hpp"
#include "flockscope/protocol/messages.hpp"

namespace {

using flockscope::protocol::ParamType;

struct Row {
  std::uint16_t id;
  std::string_view name;
  ParamType type;
};

constexpr Row kCore[] = {
#define FLOCKSCOPE_ROW(id, name, kind, ...) {id, #name, ParamType::k##kind},
    FLOCKSCOPE_PARAM_LIST(FLOCKSCOPE_ROW)
#undef FLOCKSCOPE_ROW
};

// PROTOCOL.md, "Parameter ids". Append only.
constexpr Row kPublished[] = {
    {1, "width", ParamType::kReal},           {2, "height", ParamType::kReal},
    {3, "boids", ParamType::kInt},            {4, "predators", ParamType::kInt},
    {5, "seed", ParamType::kInt},             {6, "rules", ParamType::kChoice},
    {7, "visualRange", ParamType::kReal},     {8, "protectedRange", ParamType::kReal},
    {9, "centeringfactor", ParamType::kReal}, {10, "avoidfactor", ParamType::kReal},
    {11, "matchingfactor", ParamType::kReal}, {12, "turnfactor", ParamType::kReal},
    {13, "leftmargin", ParamType::kReal},     {14, "rightmargin", ParamType::kReal},
    {15, "topmargin", ParamType::kReal},      {16, "bottommargin", ParamType::kReal},
    {17, "maxspeed", ParamType::kReal},       {18, "minspeed", ParamType::kReal},
    {19, "predatorRange", ParamType::kReal},  {20, "predatorturnfactor", ParamType::kReal},
    {21, "scouts1", ParamType::kInt},         {22, "scouts2", ParamType::kInt},
    {23, "biasval", ParamType::kReal},        {24, "dynamicbias", ParamType::kBool},
    {25, "maxbias", ParamType::kReal},        {26, "bias_increment", ParamType::kReal},
    {27, "S_sep", ParamType::kReal},          {28, "S_align", ParamType::kReal},
    {29, "S_coh", ParamType::kReal},          {30, "D_sep", ParamType::kReal},
    {31, "D_vis", ParamType::kReal},          {32, "V_max", ParamType::kReal},
    {33, "dt", ParamType::kReal},             {34, "cohesion", ParamType::kBool},
    {35, "separation", ParamType::kBool},     {36, "alignment", ParamType::kBool},
    {37, "report_divisor", ParamType::kChoice}, {38, "update", ParamType::kChoice},
    {39, "bias_target", ParamType::kChoice},
};

TEST(ProtocolParamIds, CoreTableKeepsThePublishedIds) {
  for (const Row& p : kPublished) {
    const Row* found = nullptr;
    for (const Row& c : kCore)
      if (c.id == p.id) found = &c;
    ASSERT_NE(found, nullptr) << "id " << p.id << " (" << p.name << ") vanished from the table";
    EXPECT_EQ(found->name, p.name) << "id " << p.id << " was given to another parameter";
    EXPECT_EQ(found->type, p.type) << "id " << p.id << " changed its wire type";
  }
}

TEST(ProtocolParamIds, IdsAreUniqueAndNonZero) {
  std::set<std::uint16_t> ids;
  for (const Row& c : kCore) {
    EXPECT_NE(c.id, 0) << c.name;
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
  }
  // The whole set must fit one param_set frame, or the board has to chunk it.
  EXPECT_LE(std::size(kCore), flockscope::protocol::kMaxParamsPerFrame);
}

}  // namespace
