// The recording file format (core/include/flockscope/core/recording.hpp): round trip,
// exact metrics, quantisation bounds, parameter changes, truncation, bad files.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "flockscope/core/io.hpp"
#include "flockscope/core/recording.hpp"

namespace fs = std::filesystem;
using namespace flockscope;

namespace {
fs::path scratch(const char* name) {
  const fs::path d = fs::temp_directory_path() / "flockscope_test_recording";
  fs::create_directories(d);
  return d / name;
}
}  // namespace

TEST(Recording, RoundTripKeepsMetricsExactAndBoidsClose) {
  Params p;
  p.boids = 200;
  p.predators = 2;
  Flock f(p);
  const fs::path file = scratch("rt.flkrec");
  std::vector<Metrics> ms;
  std::vector<FlockSnapshot> states;
  {
    RecordingWriter w(file, p);
    for (int i = 0; i < 10; ++i) {
      ms.push_back(compute_metrics(f));
      states.push_back(f.snapshot());
      w.write_frame(f, ms.back());
      if (i == 4) {
        Params q = p;
        q.visualRange = 55;
        f.set_params(q);
        w.write_params(q);
      }
      f.step();
    }
    w.close();
  }
  const Recording r = Recording::load(file);
  ASSERT_EQ(r.frames(), 10u);
  EXPECT_EQ(r.params().boids, 200);
  EXPECT_EQ(r.params_at(4).visualRange, 40);
  EXPECT_EQ(r.params_at(5).visualRange, 55);
  for (std::size_t i = 0; i < 10; ++i) {
    const RecordedFrame fr = r.frame(i);
    EXPECT_EQ(fr.step, i);
    EXPECT_EQ(fr.metrics.diameter, ms[i].diameter);
    EXPECT_EQ(fr.metrics.centroid_x, ms[i].centroid_x);
    EXPECT_EQ(fr.metrics.polarisation, ms[i].polarisation);
    EXPECT_EQ(fr.metrics.clusters, ms[i].clusters);
    ASSERT_EQ(fr.boids.size(), 200u);
    ASSERT_EQ(fr.predators.size(), 2u);
    for (std::size_t k = 0; k < 200; ++k) {  // in id order, within the quantisation step
      EXPECT_NEAR(fr.boids.x[k], states[i].x[k], 0.02);
      EXPECT_NEAR(fr.boids.y[k], states[i].y[k], 0.02);
      EXPECT_NEAR(fr.boids.vx[k], states[i].vx[k], 0.001);
    }
  }
  EXPECT_LT(fs::file_size(file), 10u * (200u * 8u + 200u) + 2000u);  // ~8 bytes a boid
}

TEST(Recording, TruncatedTailIsDroppedNotAnError) {
  Params p;
  p.boids = 50;
  Flock f(p);
  const fs::path file = scratch("trunc.flkrec");
  {
    RecordingWriter w(file, p);
    for (int i = 0; i < 3; ++i) w.write_frame(f, compute_metrics(f)), f.step();
  }
  fs::resize_file(file, fs::file_size(file) - 7);
  EXPECT_EQ(Recording::load(file).frames(), 2u);
}

TEST(Recording, BadFilesSayWhatIsWrong) {
  const fs::path file = scratch("bad.flkrec");
  std::ofstream(file) << "hello";
  try {
    Recording::load(file);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad magic"), std::string::npos);
  }
  EXPECT_THROW(Recording::load(scratch("missing.flkrec")), InputError);
  EXPECT_THROW(RecordingWriter("/proc/nope/x.flkrec", Params{}), InputError);
}
