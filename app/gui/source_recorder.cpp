#include "source_recorder.hpp"

#include <vector>

namespace flockscope::gui {

namespace fs = std::filesystem;

void SourceRecorder::start(const fs::path& file, const BoidSource& s) {
  writer_.reset();
  std::error_code ec;
  if (!file.parent_path().empty()) fs::create_directories(file.parent_path(), ec);
  try {
    writer_ = std::make_unique<RecordingWriter>(file, s.params(), s.kind());
    written_ = s.params();
    file_ = file;
    record_frame(s);
  } catch (...) {
    writer_.reset();
    throw;
  }
}

std::uint64_t SourceRecorder::stop() {
  if (!writer_) return 0;
  writer_->close();
  const std::uint64_t n = writer_->frames();
  writer_.reset();
  return n;
}

void SourceRecorder::record_frame(const BoidSource& s) {
  if (!writer_) return;
  try {
    writer_->write_frame(s.step(), s.time(), s.metrics(), s.boids(), s.ids(),
                         std::vector<Predator>(s.predators().begin(), s.predators().end()));
  } catch (...) {
    writer_.reset();
    throw;
  }
}

void SourceRecorder::params(const Params& p, bool always) {
  if (!writer_ || (!always && written_ == p)) return;
  writer_->write_params(p);
  written_ = p;
}

}  // namespace flockscope::gui
