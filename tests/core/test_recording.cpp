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
    EXPECT_EQ(fr.metrics.perched, ms[i].perched);
    EXPECT_EQ(fr.metrics.speed_down, ms[i].speed_down);
    EXPECT_EQ(fr.metrics.speed_up, ms[i].speed_up);
    EXPECT_TRUE(std::isnan(fr.metrics.food_distance));  // no food
    EXPECT_EQ(fr.metrics.predator_distance, ms[i].predator_distance);
    EXPECT_EQ(r.metrics(i).predator_distance, ms[i].predator_distance);  // the plots' copy too
    EXPECT_TRUE(fr.food.empty());
    ASSERT_EQ(fr.boids.size(), 200u);
    ASSERT_EQ(fr.predators.size(), 2u);
    for (std::size_t k = 0; k < 200; ++k) {  // in id order, within the quantisation step
      EXPECT_NEAR(fr.boids.x[k], states[i].x[k], 0.02);
      EXPECT_NEAR(fr.boids.y[k], states[i].y[k], 0.02);
      EXPECT_NEAR(fr.boids.vx[k], states[i].vx[k], 0.001);
    }
  }
  // ~8 bytes a boid; a frame's head, its predators and its extras chunk (57 bytes) in the rest.
  EXPECT_LT(fs::file_size(file), 10u * (200u * 8u + 260u) + 2000u);
}

// The food sources and the extensions' metrics come back as they were written.
TEST(Recording, FoodAndTheExtensionsMetricsRoundTrip) {
  Params p;
  p.boids = 100;
  p.food = 3;
  p.predators = 1;
  p.perch_frames = 50;
  Flock f(p);
  const fs::path file = scratch("food.flkrec");
  std::vector<Metrics> ms;
  std::vector<std::vector<FoodSource>> food;
  {
    RecordingWriter w(file, p);
    for (int i = 0; i < 5; ++i) {
      ms.push_back(compute_metrics(f));
      food.push_back(f.food());
      w.write_frame(f, ms.back());
      f.step();
    }
  }
  const Recording r = Recording::load(file);
  ASSERT_EQ(r.frames(), 5u);
  EXPECT_TRUE(r.damage().empty()) << r.damage();
  for (std::size_t i = 0; i < 5; ++i) {
    const RecordedFrame fr = r.frame(i);
    EXPECT_EQ(fr.metrics.food_distance, ms[i].food_distance);
    EXPECT_EQ(fr.metrics.predator_distance, ms[i].predator_distance);
    EXPECT_EQ(fr.metrics.perched, ms[i].perched);
    ASSERT_EQ(fr.food.size(), 3u);
    for (std::size_t q = 0; q < 3; ++q) {
      EXPECT_EQ(fr.food[q].x, food[i][q].x);
      EXPECT_EQ(fr.food[q].y, food[i][q].y);
      EXPECT_EQ(fr.food[q].vx, food[i][q].vx);
      EXPECT_EQ(fr.food[q].vy, food[i][q].vy);
    }
  }
}

// A frame's chunk is followed by its extras chunk: a tail cut inside the last frame drops that
// frame; one cut inside its extras keeps the frame, with the extensions' metrics at their
// defaults (as a recording without extras chunks reads) and the damage named.
TEST(Recording, TruncatedTailIsDroppedNotAnError) {
  Params p;
  p.boids = 50;
  p.predators = 1;
  Flock f(p);
  const fs::path file = scratch("trunc.flkrec");
  {
    RecordingWriter w(file, p);
    for (int i = 0; i < 3; ++i) w.write_frame(f, compute_metrics(f)), f.step();
  }
  const auto size = fs::file_size(file);
  constexpr std::uintmax_t kExtras = 5 + 4 + 5 * 8 + 4 + 4;  // head, five metrics, no food, CRC
  fs::resize_file(file, size - 7);
  {
    const Recording r = Recording::load(file);
    ASSERT_EQ(r.frames(), 3u);
    EXPECT_NE(r.damage().find("cut short"), std::string::npos) << r.damage();
    EXPECT_TRUE(std::isnan(r.frame(2).metrics.predator_distance));
    EXPECT_EQ(r.frame(2).metrics.perched, 0u);
    EXPECT_FALSE(std::isnan(r.frame(1).metrics.predator_distance));
  }
  fs::resize_file(file, size - kExtras - 7);
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

namespace {
// zlib's CRC-32, bit by bit: the recording's checksum, written independently of the writer's.
std::uint32_t zlib_crc32(const std::string& bytes) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (const char ch : bytes) {
    c ^= std::uint8_t(ch);
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return c ^ 0xFFFFFFFFu;
}
}  // namespace

// A later writer may append metrics to a frame's EXTRAS chunk (its count says how many): this
// reader takes the five it knows and the food after them. Built here from a recording by
// giving each EXTRAS chunk a sixth metric and a new CRC.
TEST(Recording, ExtrasWithMoreMetricsThanKnownAreRead) {
  Params p;
  p.boids = 30;
  p.food = 2;
  p.predators = 1;
  Flock f(p);
  const fs::path file = scratch("more.flkrec");
  std::vector<Metrics> ms;
  {
    RecordingWriter w(file, p);
    for (int i = 0; i < 3; ++i) ms.push_back(compute_metrics(f)), w.write_frame(f, ms.back()), f.step();
  }
  const std::string in = read_input_file(file, 1 << 20);
  auto u32 = [&](const std::string& s, std::size_t at) {
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= std::uint32_t(std::uint8_t(s[at + std::size_t(k)])) << (8 * k);
    return v;
  };
  auto put32 = [](std::string& s, std::uint32_t v) {
    for (int k = 0; k < 4; ++k) s += char(std::uint8_t(v >> (8 * k)));
  };
  const std::size_t head = 16 + u32(in, 12) + 4;
  std::string out = in.substr(0, head);
  int rewritten = 0;
  for (std::size_t at = head; at < in.size();) {
    const std::uint32_t len = u32(in, at + 1);
    std::string payload = in.substr(at + 5, len);
    if (in[at] == 3) {
      ASSERT_EQ(u32(payload, 0), 5u);
      std::string more;
      put32(more, 6);
      more += payload.substr(4, 40);
      more += std::string(8, '\x01');  // the sixth metric
      more += payload.substr(44);
      payload = more;
      ++rewritten;
    }
    std::string chunk(1, in[at]);
    put32(chunk, std::uint32_t(payload.size()));
    chunk += payload;
    put32(chunk, zlib_crc32(chunk));
    out += chunk;
    at += 5 + len + 4;
  }
  ASSERT_EQ(rewritten, 3);
  const fs::path more = scratch("more6.flkrec");
  std::ofstream(more, std::ios::binary | std::ios::trunc) << out;
  const Recording r = Recording::load(more);
  EXPECT_TRUE(r.damage().empty()) << r.damage();
  ASSERT_EQ(r.frames(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const RecordedFrame fr = r.frame(i);
    EXPECT_EQ(fr.metrics.food_distance, ms[i].food_distance);
    EXPECT_EQ(fr.metrics.predator_distance, ms[i].predator_distance);
    EXPECT_EQ(fr.food.size(), 2u);
  }
}

// A frame holding what no writer writes (a bound that is not finite, a cluster count beyond
// an int), with its checksum made good, is damage: the frames before it are kept, it and
// what follows are not, so a replay never draws NaN boids or a wrapped count.
TEST(Recording, AFrameWithValuesNoWriterWritesIsDamage) {
  Params p;
  p.boids = 20;
  Flock f(p);
  const fs::path file = scratch("values.flkrec");
  {
    RecordingWriter w(file, p);
    for (int i = 0; i < 3; ++i) w.write_frame(f, compute_metrics(f)), f.step();
  }
  const std::string in = read_input_file(file, 1 << 20);
  auto u32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= std::uint32_t(std::uint8_t(in[at + std::size_t(k)])) << (8 * k);
    return v;
  };
  // Frame 1's chunk, with `value` (8 bytes) written at `offset` of its payload.
  auto with_frame1 = [&](std::size_t offset, const std::string& value) {
    std::string out = in;
    int frame = 0;
    for (std::size_t at = 16 + u32(12) + 4; at < in.size(); at += 5 + u32(at + 1) + 4) {
      if (in[at] != 1 || frame++ != 1) continue;
      out.replace(at + 5 + offset, value.size(), value);
      const std::uint32_t crc = zlib_crc32(out.substr(at, 5 + u32(at + 1)));
      for (int k = 0; k < 4; ++k) out[at + 5 + u32(at + 1) + std::size_t(k)] = char(std::uint8_t(crc >> (8 * k)));
    }
    return out;
  };
  auto bytes_of = [](auto v) { return std::string(reinterpret_cast<const char*>(&v), sizeof v); };
  // step, time, 9 metrics (clusters the 7th), boids, predators, then x0 (payload byte 96).
  const Recording nan_bound = Recording::parse(with_frame1(96, bytes_of(std::nanf(""))), "nan.flkrec");
  EXPECT_EQ(nan_bound.frames(), 1u);
  EXPECT_NE(nan_bound.damage().find("not finite"), std::string::npos) << nan_bound.damage();
  const Recording huge_clusters = Recording::parse(with_frame1(16 + 6 * 8, bytes_of(1e300)), "clusters.flkrec");
  EXPECT_EQ(huge_clusters.frames(), 1u);
  EXPECT_NE(huge_clusters.damage().find("cluster count"), std::string::npos) << huge_clusters.damage();
  const Recording intact = Recording::parse(in, "intact.flkrec");
  EXPECT_EQ(intact.frames(), 3u);
  EXPECT_EQ(intact.damage(), "");
}

// With SOURCE_DATE_EPOCH set, the same frames give the same file (the fuzzers' seed
// recordings are written this way); the header's "created" is that time.
TEST(Recording, SourceDateEpochMakesTheFileReproducible) {
  setenv("SOURCE_DATE_EPOCH", "1796083200", 1);
  Params p;
  p.boids = 10;
  auto write = [&](const char* name) {
    Flock f(p);
    const fs::path file = scratch(name);
    {
      RecordingWriter w(file, p);
      for (int i = 0; i < 2; ++i) w.write_frame(f, compute_metrics(f)), f.step();
    }
    return read_input_file(file, 1 << 20);
  };
  const std::string a = write("epoch_a.flkrec"), b = write("epoch_b.flkrec");
  unsetenv("SOURCE_DATE_EPOCH");
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("\"created\":\"2026-12-01T00:00:00Z\""), std::string::npos);
}
