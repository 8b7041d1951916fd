// The lab's extensions on the real firmware (build-pico/flockscope_pico_emu.elf in rp2040js,
// firmware_pico/emulate.sh), mirrored by `flockscope mirror --preset`: for each of the
// extension presets every parameter pushed is acknowledged (mirror exits 0 only then), and
// metrics.csv shows the behaviour by the measures `flockscope run` gives on the laptop
// (docs/cli.md): boids perch on the ledge; they dive faster than they climb under gravity;
// food pulls them closer to its sources than the same run with food_factor 0; chasing
// predators stay closer to the boids than random ones. 300 boids (--set boids=300) keep
// the emulated board's frames quick; the runs of a comparison start from the same seed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../board/emulator_process.hpp"
#include "../support/shell.hpp"

namespace fs = std::filesystem;

namespace {

// metrics.csv as rows of column -> cell.
using Rows = std::vector<std::map<std::string, std::string>>;
Rows read_csv(const fs::path& f) {
  const std::vector<std::string> ls = testsupport::lines(f);
  Rows rows;
  if (ls.empty()) return rows;
  auto split = [](const std::string& s) {
    std::vector<std::string> cells;
    std::stringstream ss(s);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    if (!s.empty() && s.back() == ',') cells.emplace_back();
    return cells;
  };
  const auto head = split(ls[0]);
  for (std::size_t i = 1; i < ls.size(); ++i) {
    const auto cells = split(ls[i]);
    std::map<std::string, std::string> r;
    for (std::size_t c = 0; c < head.size() && c < cells.size(); ++c) r[head[c]] = cells[c];
    rows.push_back(r);
  }
  return rows;
}

// The mean of a column over the rows of steps [from, to] with a value.
double mean(const Rows& rows, const std::string& col, long from = 0, long to = 1L << 40) {
  double sum = 0;
  int n = 0;
  for (const auto& r : rows) {
    const long step = std::atol(r.at("step").c_str());
    const auto it = r.find(col);
    if (step < from || step > to || it == r.end() || it->second.empty()) continue;
    sum += std::atof(it->second.c_str()), ++n;
  }
  return n ? sum / n : std::nan("");
}
long last_step(const Rows& rows) { return rows.empty() ? -1 : std::atol(rows.back().at("step").c_str()); }

// `flockscope mirror --preset P --set boids=300 SETS` against a fresh emulated board.
Rows mirror_preset(const std::string& preset, const std::string& sets, const std::string& tag) {
  emutest::Emulator emu(emutest::elf_path());
  EXPECT_TRUE(fs::exists(emu.link)) << "the emulator made no pty link";
  const fs::path out = fs::temp_directory_path() / ("flockscope-ext-" + tag + "-" + std::to_string(getpid()));
  fs::remove_all(out);
  const std::string cmd = std::string(FLOCKSCOPE_BIN) + " mirror --port " + emu.link + " --preset " + preset +
                          " --set boids=300 " + sets + " --seconds 40 --connect-timeout 120 --out " + out.string();
  const testsupport::Result r = testsupport::sh(cmd);
  std::printf("%s: %s\n", tag.c_str(), r.output.c_str());
  EXPECT_EQ(r.code, 0) << cmd << "\n" << r.output;
  Rows rows = read_csv(out / "metrics.csv");
  fs::remove_all(out);
  return rows;
}

bool have_emulator() { return fs::exists(emutest::elf_path()) && emutest::have_node(); }

}  // namespace

TEST(MirrorEmulator, PerchingBoidsLandOnTheLedge) {
  REQUIRE_OR_SKIP(have_emulator(), "no " + emutest::elf_path() + " or no node: run firmware_pico/build.sh");
  const Rows rows = mirror_preset("cornell-perching", "", "perching");
  ASSERT_GT(rows.size(), 30u);
  double most = 0;
  for (const auto& r : rows) most = std::max(most, std::atof(r.at("perched").c_str()));
  std::printf("perching: at most %.0f of 300 boids perched over %zu frames\n", most, rows.size());
  EXPECT_GT(most, 0.0);
}

TEST(MirrorEmulator, GravityMakesBoidsDiveFasterThanTheyClimb) {
  REQUIRE_OR_SKIP(have_emulator(), "no " + emutest::elf_path() + " or no node: run firmware_pico/build.sh");
  const Rows rows = mirror_preset("cornell-gravity", "", "gravity");
  ASSERT_GT(rows.size(), 30u);
  const double down = mean(rows, "speed_down", 10), up = mean(rows, "speed_up", 10);
  std::printf("gravity: speed_down %.3f, speed_up %.3f px/frame\n", down, up);
  EXPECT_GE(down, 1.1 * up);
}

TEST(MirrorEmulator, FoodPullsTheFlockTowardItsSources) {
  REQUIRE_OR_SKIP(have_emulator(), "no " + emutest::elf_path() + " or no node: run firmware_pico/build.sh");
  const Rows fed = mirror_preset("cornell-food", "", "food");
  const Rows unfed = mirror_preset("cornell-food", "--set food_factor=0", "food0");
  ASSERT_GT(fed.size(), 30u);
  ASSERT_GT(unfed.size(), 30u);
  const long to = std::min(last_step(fed), last_step(unfed));
  const double with = mean(fed, "food_distance", 10, to), without = mean(unfed, "food_distance", 10, to);
  std::printf("food: food_distance %.1f px with food_factor 0.003, %.1f px with 0 (frames 10..%ld)\n", with, without, to);
  EXPECT_LT(with, without);
}

TEST(MirrorEmulator, ChasingPredatorsStayCloserToTheBoids) {
  REQUIRE_OR_SKIP(have_emulator(), "no " + emutest::elf_path() + " or no node: run firmware_pico/build.sh");
  const Rows chase = mirror_preset("cornell-smart-predator", "", "chase");
  const Rows random = mirror_preset("cornell-smart-predator", "--set predator_mode=random", "random");
  ASSERT_GT(chase.size(), 30u);
  ASSERT_GT(random.size(), 30u);
  const long to = std::min(last_step(chase), last_step(random));
  const double c = mean(chase, "predator_distance", 10, to), r = mean(random, "predator_distance", 10, to);
  std::printf("predators: predator_distance %.1f px chasing, %.1f px random (frames 10..%ld)\n", c, r, to);
  EXPECT_LT(c, r);
}
