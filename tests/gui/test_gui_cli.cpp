// The window's command line, through the real binary: headless drawing to a PNG of the
// requested size, and the one-line reasons for a bad preset and a missing display.
#include <gtest/gtest.h>
#include <stb/stb_image.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "flockscope/core/params.hpp"

namespace fs = std::filesystem;

namespace {
struct Result {
  int code;
  std::string output;
};

Result run(const std::string& env, const std::string& args) {
  const std::string cmd = env + " " + FLOCKSCOPE_BIN + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

fs::path scratch() {
  const fs::path d = fs::temp_directory_path() / "flockscope_test_gui_cli";
  fs::create_directories(d);
  return d;
}
const std::string kEnv = "SDL_VIDEODRIVER=offscreen XDG_CONFIG_HOME=/tmp/flockscope_test_gui_cli/xdg";
}  // namespace

TEST(GuiCli, FramesAndScreenshotWriteThePngAndExit) {
  const fs::path png = scratch() / "window.png";
  fs::remove(png);
  const Result r = run("cd " + scratch().string() + " && " + kEnv,
                       "--frames 3 --screenshot " + png.string() + " --size 800x500 --preset cornell-pic32-lab --set boids=50");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("ms per frame"), std::string::npos) << r.output;  // the frame-time split
  int w = 0, h = 0, n = 0;
  ASSERT_TRUE(stbi_info(png.c_str(), &w, &h, &n)) << r.output;
  EXPECT_EQ(w, 800);
  EXPECT_EQ(h, 500);
  // Nothing lands in the working directory (imgui.ini and settings live under XDG).
  EXPECT_FALSE(fs::exists(scratch() / "imgui.ini"));
}

// A crowded flock drawn headless prints the density pass in its timing line; --colour picks
// its colouring and refuses what it does not know.
TEST(GuiCli, ACrowdedFlockPrintsItsDensityPass) {
  const Result r = run(kEnv, "--frames 3 --size 800x500 --colour heading --set boids=40000 --set width=4000 --set height=4000");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("density"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(drawn)"), std::string::npos) << r.output;
  const Result bad = run(kEnv, "--frames 1 --colour plaid");
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--colour"), std::string::npos) << bad.output;
}

TEST(GuiCli, BadPresetIsAOneLineReason) {
  const Result r = run(kEnv, "--frames 1 --preset no-such-preset");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("no-such-preset"), std::string::npos) << r.output;
}

TEST(GuiCli, NoDisplaySaysWhatToDoInstead) {
  const Result r = run("SDL_VIDEODRIVER=no-such-driver", "--frames 1");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("flockscope run"), std::string::npos) << r.output;
}

TEST(GuiCli, AMistypedParameterNameSuggestsTheRightOne) {
  const Result r = run(kEnv, "--set visualrange=30 --frames 1");
  EXPECT_NE(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("unknown parameter 'visualrange' (did you mean visualRange?)"), std::string::npos) << r.output;
}

// `flockscope params`' table: the cells of the row `name`, cut at the header's column starts
// (name, default, range, unit, applies, rules, help), each without its padding.
std::vector<std::string> params_row(const std::string& table, const std::string& name) {
  const std::string header = table.substr(0, table.find('\n'));
  std::vector<std::size_t> starts{0};
  for (const char* col : {"default", "range", "unit", "applies", "rules", "help"})
    starts.push_back(header.find(std::string("  ") + col) + 2);
  const auto at = table.find("\n" + name + " ");
  if (at == std::string::npos) return {};
  const std::string line = table.substr(at + 1, table.find('\n', at + 1) - at - 1);
  std::vector<std::string> cells;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    std::string cell = line.substr(starts[i], i + 1 < starts.size() ? starts[i + 1] - starts[i] : std::string::npos);
    cell.erase(cell.find_last_not_of(' ') + 1);
    cells.push_back(cell);
  }
  return cells;
}

TEST(GuiCli, ParamsListsTheTable) {
  const Result r = run("", "params");
  ASSERT_EQ(r.code, 0) << r.output;
  // The header, then one line a parameter: name, default, range, unit, applies, rules, help.
  EXPECT_EQ(r.output.rfind("name ", 0), 0u) << r.output;
  EXPECT_EQ(params_row(r.output, "visualRange"),
            (std::vector<std::string>{"visualRange", "40", "[0, 10000]", "px", "live", "cornell,blog",
                                      "Boids closer than this (and outside protectedRange) are aligned with and steered toward"}))
      << r.output;
  // A whole-number parameter's bounds are whole numbers (not 4.2949673e+09), and a range
  // without a unit stays without one.
  EXPECT_EQ(params_row(r.output, "seed"),
            (std::vector<std::string>{"seed", "1", "[0, 4294967295]", "", "reset", "all", "Random seed of the initial state"}))
      << r.output;
  EXPECT_EQ(params_row(r.output, "boids").at(2), "[0, 10000000]") << r.output;
  EXPECT_EQ(params_row(r.output, "boids").at(3), "boids") << r.output;
  EXPECT_EQ(params_row(r.output, "D_vis").at(2), "[0, inf]") << r.output;
  // The unit has its own column: no range cell repeats it.
  EXPECT_EQ(r.output.find("] px"), std::string::npos) << r.output;
  std::size_t lines = 0;
  for (char c : r.output) lines += c == '\n';
  EXPECT_EQ(lines, 1u + flockscope::param_table().size());  // the header and every row of the table
}

// A word where a subcommand goes that is none: the nearest command is named.
TEST(GuiCli, AMistypedCommandSuggestsTheRightOne) {
  const Result r = run(kEnv, "runn --steps 1");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("unknown command 'runn' (did you mean run?"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  const Result far = run(kEnv, "xyzzy");
  EXPECT_EQ(far.code, 2) << far.output;
  EXPECT_EQ(far.output.find("did you mean"), std::string::npos) << far.output;
  EXPECT_NE(far.output.find("sweep"), std::string::npos) << far.output;  // the commands listed
}

// The assets are found beside the executable as installed (PREFIX/bin/flockscope reads
// PREFIX/share/flockscope/assets), whatever the source tree it was built from;
// FLOCKSCOPE_ASSETS overrides.
TEST(GuiCli, AssetsAreFoundBesideTheInstalledExecutable) {
  const fs::path prefix = scratch() / "prefix";
  fs::remove_all(prefix);
  fs::create_directories(prefix / "bin");
  fs::create_directories(prefix / "share" / "flockscope" / "assets" / "presets");
  fs::copy_file(FLOCKSCOPE_BIN, prefix / "bin" / "flockscope");
  {
    std::ofstream(prefix / "share" / "flockscope" / "assets" / "presets" / "only-here.json") << R"({"params": {"boids": 7}})";
  }
  const std::string bin = (prefix / "bin" / "flockscope").string();
  auto sh_run = [&](const std::string& env, const std::string& args) {
    const std::string cmd = "env -u FLOCKSCOPE_ASSETS " + env + " " + bin + " " + args + " 2>&1";
    FILE* pipe = popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
    const int status = pclose(pipe);
    return Result{WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
  };
  const Result r = sh_run("", "run --preset only-here --steps 1 --out " + (prefix / "out").string());
  EXPECT_EQ(r.code, 0) << r.output;
  std::ifstream in(prefix / "out" / "final_state.csv");
  std::size_t rows = 0;
  for (std::string line; std::getline(in, line);) ++rows;
  EXPECT_EQ(rows, 1u + 7u);  // the header and the preset's 7 boids
  const Result overridden = sh_run("FLOCKSCOPE_ASSETS=" + (prefix / "none").string(),
                                   "run --preset only-here --steps 1 --out " + (prefix / "out2").string());
  EXPECT_EQ(overridden.code, 2) << overridden.output;
  EXPECT_NE(overridden.output.find("unknown preset 'only-here'"), std::string::npos) << overridden.output;
}

// `run --plots` draws the world as the window does, y growing downwards: boids near the top
// of the world (small y) are near the top of state.png.
TEST(GuiCli, RunPlotsDrawYDownAsTheWindow) {
  const fs::path d = scratch() / "ydown";
  fs::remove_all(d);
  fs::create_directories(d);
  {
    std::ofstream init(d / "top.csv");
    init << "x,y,vx,vy\n";
    for (int i = 0; i < 20; ++i) init << 100 + 20 * i << "," << 20 + i % 3 * 10 << ",1,0\n";
  }
  const Result r = run(kEnv, "run --preset cornell-pico-predator --set predators=0 --set scouts1=20 --init " + (d / "top.csv").string() +
                                 " --steps 0 --plots --out " + (d / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load((d / "out" / "state.png").c_str(), &w, &h, &n, 4);
  ASSERT_NE(px, nullptr);
  std::vector<int> red_rows;  // scout group 1's colour, (200, 40, 40)
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const unsigned char* p = px + 4 * (std::size_t(y) * std::size_t(w) + std::size_t(x));
      if (p[0] > 150 && p[1] < 90 && p[2] < 90) red_rows.push_back(y);
    }
  stbi_image_free(px);
  ASSERT_GT(red_rows.size(), 20u);
  std::nth_element(red_rows.begin(), red_rows.begin() + long(red_rows.size() / 2), red_rows.end());
  EXPECT_LT(red_rows[red_rows.size() / 2], h / 3) << "the boids at y = 20..40 are drawn near the bottom";
}
