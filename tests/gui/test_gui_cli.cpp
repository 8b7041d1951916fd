// The window's command line, through the real binary: headless drawing to a PNG of the
// requested size, and the one-line reasons for a bad preset and a missing display.
#include <gtest/gtest.h>
#include <stb/stb_image.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
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
