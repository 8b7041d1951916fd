// Presets and state files: every bundled preset loads with the seeds' numbers; bad files fail
// with a message naming the file, the key and the allowed range.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "flockscope/core/io.hpp"

using namespace flockscope;
namespace fs = std::filesystem;

namespace {
fs::path temp_file(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "flockscope_test_io";
  fs::create_directories(dir);
  const fs::path f = dir / name;
  std::ofstream(f) << text;
  return f;
}
std::string load_error(const fs::path& f) {
  try {
    load_preset(f);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Presets, AllBundledPresetsExistAndLoad) {
  const std::vector<std::string> want = {"blog-numpy",           "blog-only-alignment",   "blog-only-cohesion",
                                         "blog-only-separation", "consensus-study",       "cornell-consensus",
                                         "cornell-final-project", "cornell-food",         "cornell-gravity",
                                         "cornell-perching",     "cornell-pic32-lab",     "cornell-pico-predator",
                                         "cornell-smart-predator", "report-baseline",
                                         "report-vis10",         "report-vis10-literal",  "report-vis25",
                                         "report-vis25-literal"};
  EXPECT_EQ(preset_names(), want);
  for (const auto& n : want) EXPECT_NO_THROW(load_preset(resolve_preset(n))) << n;
}

TEST(Presets, CarryTheSeedsNumbers) {
  const Params lab = load_preset(resolve_preset("cornell-pic32-lab"));
  EXPECT_EQ(lab.width, 320);
  EXPECT_EQ(lab.height, 240);
  EXPECT_EQ(lab.visualRange, 20);
  EXPECT_EQ(lab.protectedRange, 2);
  EXPECT_EQ(lab.minspeed, 2);
  EXPECT_EQ(lab.maxspeed, 3);
  EXPECT_EQ(lab.leftmargin, 50);
  EXPECT_EQ(lab.predators, 1);
  EXPECT_EQ(lab.predatorturnfactor, 0.4);
  EXPECT_EQ(lab.predatorRange, 50);
  const Params pico = load_preset(resolve_preset("cornell-pico-predator"));
  EXPECT_EQ(pico.width, 640);
  EXPECT_EQ(pico.visualRange, 40);
  EXPECT_EQ(pico.protectedRange, 8);
  EXPECT_EQ(pico.minspeed, 3);
  EXPECT_EQ(pico.maxspeed, 6);
  EXPECT_EQ(pico.bottommargin, 100);
  EXPECT_EQ(pico.predatorturnfactor, 0.5);
  EXPECT_EQ(pico.predatorRange, 100);
  const Params cons = load_preset(resolve_preset("cornell-consensus"));
  EXPECT_TRUE(cons.dynamicbias);
  EXPECT_EQ(cons.maxbias, 0.01);
  EXPECT_EQ(cons.bias_increment, 0.00004);
  EXPECT_EQ(cons.biasval, 0.001);
  EXPECT_GT(cons.scouts1, 0);
  EXPECT_GT(cons.scouts2, 0);
  const Params base = load_preset(resolve_preset("report-baseline"));
  EXPECT_EQ(base.rule_set(), RuleSet::Report);
  EXPECT_EQ(base.boids, 100);
  EXPECT_EQ(base.width, 200);
  EXPECT_EQ(base.D_sep, 1);
  EXPECT_EQ(base.S_sep, 4);
  EXPECT_EQ(base.S_align, 0.04);
  EXPECT_EQ(base.S_coh, 0.075);
  EXPECT_EQ(base.V_max, 10);
  EXPECT_TRUE(base.vision_infinite());
  EXPECT_EQ(load_preset(resolve_preset("report-vis10")).D_vis, 10);
  const Params v25 = load_preset(resolve_preset("report-vis25"));
  EXPECT_EQ(v25.D_vis, 25);
  EXPECT_EQ(v25.S_align, 0.06);
  const Params blog = load_preset(resolve_preset("blog-numpy"));
  EXPECT_EQ(blog.rule_set(), RuleSet::Blog);
  EXPECT_EQ(blog.width, 900);
  EXPECT_EQ(blog.boids, 300);
}

TEST(Presets, MalformedJsonNamesTheFile) {
  const auto f = temp_file("broken.json", "{\"params\": {\"visualRange\": 40,");
  const std::string err = load_error(f);
  EXPECT_NE(err.find("broken.json"), std::string::npos) << err;
  EXPECT_NE(err.find("not valid JSON"), std::string::npos) << err;
}

TEST(Presets, OutOfRangeNamesFileKeyAndRange) {
  const auto f = temp_file("far.json", R"({"params": {"boids": 10, "visualRange": 20000}})");
  const std::string err = load_error(f);
  EXPECT_NE(err.find("far.json"), std::string::npos) << err;
  EXPECT_NE(err.find("visualRange"), std::string::npos) << err;
  EXPECT_NE(err.find("[0, 10000]"), std::string::npos) << err;
}

TEST(Presets, UnknownKeysAndWrongTypesAreRejected) {
  EXPECT_NE(load_error(temp_file("k.json", R"({"params": {"visualrange": 20}})")).find("unknown parameter 'visualrange'"),
            std::string::npos);
  EXPECT_NE(load_error(temp_file("t.json", R"({"parms": {}})")).find("unknown top-level key 'parms'"),
            std::string::npos);
  EXPECT_NE(load_error(temp_file("a.json", R"({"params": {"boids": [1]}})")).find("boids"), std::string::npos);
  EXPECT_NE(load_error(temp_file("b.json", R"({"params": {"dynamicbias": "yes please"}})")).find("dynamicbias"),
            std::string::npos);
  EXPECT_NE(load_error(temp_file("c.json", R"([1, 2])")).find("JSON object"), std::string::npos);
  EXPECT_NE(load_error(temp_file("missing/none.json", "")).find("cannot open"), std::string::npos);
}

TEST(Presets, SaveThenLoadGivesTheSameParameters) {
  Params p = load_preset(resolve_preset("report-vis25"));
  p.seed = 99;
  p.dynamicbias = true;
  const fs::path f = fs::temp_directory_path() / "flockscope_test_io" / "saved.json";
  save_preset(p, f, "round trip");
  EXPECT_EQ(load_preset(f), p);
  Params inf = p;
  inf.D_vis = INFINITY;
  save_preset(inf, f);
  EXPECT_TRUE(load_preset(f).vision_infinite());
}

TEST(StateFiles, WriteThenReadRoundTrips) {
  FlockSnapshot s;
  s.x = {1.5f, -2.25f}, s.y = {3, 4}, s.vx = {0.1f, -0.2f}, s.vy = {5, 6};
  const fs::path f = fs::temp_directory_path() / "flockscope_test_io" / "state.csv";
  write_state_csv(f, s, Params{});
  const FlockSnapshot r = read_state_csv(f);
  EXPECT_EQ(r.x, s.x);
  EXPECT_EQ(r.vy, s.vy);
}

TEST(StateFiles, BadRowsNameTheLine) {
  auto err = [](const fs::path& f) {
    try {
      read_state_csv(f);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(err(temp_file("s1.csv", "x,y,vx\n1,2,3\n")).find("no column 'vy'"), std::string::npos);
  EXPECT_NE(err(temp_file("s2.csv", "x,y,vx,vy\n1,2,3,4\n1,2,oops,4\n")).find("s2.csv:3"), std::string::npos);
  EXPECT_NE(err(temp_file("s3.csv", "x,y,vx,vy\n1,2,3,nan\n")).find("not a finite number"), std::string::npos);
  EXPECT_NE(err(temp_file("s4.csv", "x,y,vx,vy\n1,2\n")).find("missing column"), std::string::npos);
  // Column order and extra columns do not matter.
  const FlockSnapshot s = read_state_csv(temp_file("s5.csv", "vy,id,x,vx,y\n4,0,1,3,2\n"));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s.x[0], 1);
  EXPECT_EQ(s.vy[0], 4);
}

TEST(Presets, DescriptionIsReadForTheListAndNeverThrows) {
  EXPECT_EQ(preset_description(resolve_preset("report-baseline")).rfind("The report's baseline (Table 1)", 0), 0u);
  EXPECT_EQ(preset_description(fs::temp_directory_path() / "flockscope-no-such-preset.json"), "");
}

// A preset name the file system refuses (longer than a file name may be) is an unknown
// preset with the usual message, not an exception from the file system that ends the app.
TEST(Presets, ANameTooLongForTheFileSystemIsAnUnknownPreset) {
  const std::string name(300, 'r');
  EXPECT_THROW(resolve_preset(name), InputError);
  EXPECT_THROW(resolve_preset(name + ".json"), InputError);
  EXPECT_THROW(resolve_preset("dir/" + name), InputError);
  try {
    resolve_preset(name);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown preset"), std::string::npos) << e.what();
  }
}
