// Recordings: a run (its parameters, seed, per-frame flock state and metrics) in one compact
// binary file with a JSON header, written by the app while it records and read back by its
// replay and by `flockscope replay`. Board sessions (`mirror --record`, the window mirroring a
// board) are recorded in the same format, so nothing here assumes the frames came from our
// own engine.
//
// File layout (all integers little-endian, written byte by byte, never a memcpy of a struct):
//
//   offset 0   8 bytes  magic "FLKREC\r\n" (the CR LF catches text-mode transfers)
//   offset 8   u32      format version (2)
//   offset 12  u32      header length H
//   offset 16  H bytes  UTF-8 JSON header: {"format": "flockscope-recording", "version": 2,
//                       "source": "local"|"serial"|..., "seed": S, "params": {preset params},
//                       "metrics": [column names], "created": "ISO time"}
//   offset 16+H u32     CRC-32 of bytes 0 .. 16+H (the magic, version, length and header)
//   then chunks, until end of file:
//     u8 type, u32 payload length L, L bytes payload, u32 CRC-32 of the chunk's 5 + L bytes
//     (type, length and payload)
//     type 1 FRAME   u64 step, f64 time, 8 x f64 metrics (diameter, centroid_x, centroid_y,
//                    polarisation, mean_speed, mean_nn_distance, clusters, share_right)
//                    + f64 share_left, u32 boid count N, u32 predator count P,
//                    f32 x_min, x_max, y_min, y_max, v_max,
//                    N x (u16 x, u16 y, i16 vx, i16 vy) in boid-id order: positions quantised
//                    to the frame's bounding box (65535 steps), velocities to [-v_max, v_max]
//                    (32767 steps); then P x (f32 x, y, vx, vy)
//     type 2 PARAMS  UTF-8 JSON of the parameters in force from the next frame on
//     type 3 EXTRAS  right after its frame: u32 M, M x f64 metrics (perched, speed_down,
//                    speed_up, food_distance, predator_distance: M = 5; NaN: nothing to
//                    measure; a reader takes the ones it knows and skips the rest),
//                    u32 food source count F, F x (f32 x, y, vx, vy). A frame with none
//                    after it reads with those metrics at their defaults (0; NaN for the
//                    distances) and no food.
//   Unknown chunk types are skipped (their length is known), so later versions can add some.
//   CRC-32 is the protocol's (zlib's crc32, protocol/include/flockscope/protocol/crc32.hpp).
//   Version 1 is the same without the two kinds of CRC; it is still read.
//
// Metrics are stored exactly (f64), so a replay plots the very numbers the run plotted; the
// boids are quantised (8 bytes a boid; a 640 px world resolves to 0.01 px): enough to draw
// them and to recompute their metrics within that step. Reading stops at the first damage (a chunk cut short by a crash while
// recording, a checksum that does not match, a frame of the wrong length): the frames
// before it are kept and damage() names the byte offset and what is wrong.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/metrics.hpp"
#include "flockscope/core/params.hpp"

namespace flockscope {

inline constexpr std::uint32_t kRecordingVersion = 2;  // reads 1 and 2

// One frame as stored; boids in id order.
struct RecordedFrame {
  std::uint64_t step = 0;
  double time = 0;
  Metrics metrics;
  FlockSnapshot boids;
  std::vector<Predator> predators;
  std::vector<FoodSource> food;
};

// Appends frames to a recording file as they come. Throws InputError when the file cannot
// be written.
class RecordingWriter {
 public:
  RecordingWriter(const std::filesystem::path& file, const Params& params, std::string_view source = "local");
  // x, y, vx, vy in any storage order; ids (optional) map storage slots to boid ids. The
  // food sources come from `boids`.
  void write_frame(std::uint64_t step, double time, const Metrics& m, const PointsView& boids,
                   const std::uint32_t* ids, const std::vector<Predator>& predators);
  void write_frame(const Flock& f, const Metrics& m);
  // Parameters in force from the next frame on (a slider moved while recording).
  void write_params(const Params& p);
  std::uint64_t frames() const { return frames_; }
  std::uint64_t bytes() const { return bytes_; }
  void close();

 private:
  void chunk(std::uint8_t type, const std::vector<std::uint8_t>& payload);
  std::filesystem::path file_;
  std::ofstream out_;
  std::uint64_t frames_ = 0, bytes_ = 0;
  std::vector<std::uint8_t> buf_;
};

// A recording read back: the header and an index of its frames, decoded on demand.
class Recording {
 public:
  // Throws InputError naming the file and what is wrong when there is nothing to read (no
  // file, not a recording, a damaged header); damage further on is damage().
  static Recording load(const std::filesystem::path& file);
  // The same from a recording's bytes; `origin` names them in messages.
  static Recording parse(std::string bytes, std::string_view origin);
  // Empty when every chunk was read whole and intact; else "byte N: what", the first damage,
  // where reading stopped.
  const std::string& damage() const { return damage_; }

  const Params& params() const { return params_; }    // as at the start
  const std::string& source() const { return source_; }
  std::size_t frames() const { return frames_.size(); }
  // Frame i decoded; its parameters are params_at(i).
  RecordedFrame frame(std::size_t i) const;
  const Params& params_at(std::size_t i) const;
  // Metrics of every frame without decoding the boids (for the plots).
  const Metrics& metrics(std::size_t i) const { return metrics_[i]; }
  std::uint64_t step(std::size_t i) const { return steps_[i]; }
  double time(std::size_t i) const { return times_[i]; }

 private:
  Params params_;
  std::string source_;
  std::string data_;                      // the whole file
  std::string damage_;
  std::size_t chunks_ = 0;                // chunks read whole
  std::vector<std::size_t> frames_;       // payload offset of each frame chunk
  std::vector<std::size_t> extras_;       // payload offset of each frame's EXTRAS chunk (0: none)
  std::vector<std::uint32_t> param_idx_;  // index into param_sets_ for each frame
  std::vector<Params> param_sets_;
  std::vector<Metrics> metrics_;
  std::vector<std::uint64_t> steps_;
  std::vector<double> times_;
};

}  // namespace flockscope
