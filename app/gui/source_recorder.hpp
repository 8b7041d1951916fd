// SourceRecorder: the window's recording of whatever source it shows, one frame per step of
// the source (not per drawn frame), with the parameters written again whenever they change.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>

#include "boid_source.hpp"
#include "flockscope/core/recording.hpp"

namespace flockscope::gui {

class SourceRecorder {
 public:
  // Starts FILE (its folder created) with the source's parameters and its current frame.
  // Throws (naming the file) when it cannot be written; nothing is recording then.
  void start(const std::filesystem::path& file, const BoidSource& s);
  // Closes the file; returns the frames it holds (0 when nothing was recording).
  std::uint64_t stop();
  bool active() const { return writer_ != nullptr; }
  const std::filesystem::path& file() const { return file_; }
  std::uint64_t frames() const { return writer_ ? writer_->frames() : 0; }
  std::uint64_t bytes() const { return writer_ ? writer_->bytes() : 0; }

  // The source's current step as the next frame. A write error throws and ends the recording
  // (the file keeps the frames before it).
  void record_frame(const BoidSource& s);
  // The parameters in force from the next frame on: written when they differ from the last
  // written (`always`: after a reset, which a replay shows as a new start).
  void params(const Params& p, bool always = false);

 private:
  std::unique_ptr<RecordingWriter> writer_;
  Params written_;
  std::filesystem::path file_;
};

}  // namespace flockscope::gui
