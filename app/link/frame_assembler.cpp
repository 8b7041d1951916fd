#include "frame_assembler.hpp"

#include "flockscope/protocol/flock_state.hpp"

namespace flockscope::link {

using protocol::Message;
using protocol::MsgType;

Metrics metrics_of(const MirroredFrame& f, double cluster_radius, const MetricsOptions& opt) {
  Metrics m = compute_metrics(view_of(f), cluster_radius, opt);
  if (!metrics_from_state(f)) {
    m.diameter = f.metrics.diameter;
    m.centroid_x = f.metrics.centroid_x;
    m.centroid_y = f.metrics.centroid_y;
    m.polarisation = f.metrics.polarisation;
    m.mean_speed = f.metrics.mean_speed;
  }
  return m;
}

void FrameAssembler::restart() {
  open_ = false;
  have_last_ = false;
}

void FrameAssembler::finish(const Emit& emit) {
  if (!open_) return;
  open_ = false;
  cur_.state_complete = contiguous_ && received_ == cur_.size() && (!cur_.has_stats || cur_.stats.boid_count == received_);
  ++counters_.frames;
  ++(cur_.state_complete ? counters_.complete : counters_.partial);
  if (have_last_) {
    if (cur_.frame > last_emitted_)
      counters_.missed += cur_.frame - last_emitted_ - 1;
    else if (cur_.frame == last_emitted_)
      ++counters_.repeated;  // a paused board sends its frame again
    else
      ++counters_.discontinuities;
  }
  have_last_ = true;
  last_emitted_ = cur_.frame;
  emit(cur_);
}

void FrameAssembler::begin(std::uint32_t frame, const Emit& emit) {
  if (open_ && cur_.frame == frame) return;
  finish(emit);
  open_ = true;
  cur_.frame = frame;
  cur_.has_metrics = cur_.has_stats = false;
  cur_.state_complete = false;
  received_ = next_offset_ = 0;
  contiguous_ = true;
}

void FrameAssembler::add(const Message& m, const Emit& emit) {
  switch (m.type) {
    case MsgType::kFlockState: {
      const auto& s = m.flock_state;
      begin(s.frame, emit);
      if (s.offset + s.count > s.total || s.total > 1000000u) {
        ++counters_.bad_chunks;
        contiguous_ = false;  // this frame can no longer be whole
        return;
      }
      if (cur_.size() != s.total) {
        // The flock grew or shrank: new boids start at the origin until their chunk comes.
        cur_.x.resize(s.total), cur_.y.resize(s.total), cur_.vx.resize(s.total), cur_.vy.resize(s.total);
        contiguous_ = contiguous_ && s.offset == 0;
      }
      if (s.offset != next_offset_) contiguous_ = false;
      next_offset_ = s.offset + s.count;
      const bool groups = (s.flags & protocol::kStateFlagGroups) != 0;
      if (groups)
        cur_.groups.resize(s.total, 0);
      else
        cur_.groups.clear();
      for (std::uint32_t i = 0; i < s.count; ++i) {
        const auto& b = s.boids[i];
        const std::uint32_t k = s.offset + i;
        cur_.x[k] = protocol::dequantise(b.x, s.pos_shift);
        cur_.y[k] = protocol::dequantise(b.y, s.pos_shift);
        cur_.vx[k] = protocol::dequantise(b.vx, s.vel_shift);
        cur_.vy[k] = protocol::dequantise(b.vy, s.vel_shift);
        if (groups) cur_.groups[k] = s.groups[i] & 3u;
      }
      received_ += s.count;
      return;
    }
    case MsgType::kPredators: {
      const auto& p = m.predators;
      begin(p.frame, emit);
      cur_.predators.resize(p.count);
      for (std::uint32_t i = 0; i < p.count; ++i) {
        const auto& q = p.predators[i];
        cur_.predators[i] = {protocol::dequantise(q.x, p.pos_shift), protocol::dequantise(q.y, p.pos_shift),
                             protocol::dequantise(q.vx, p.vel_shift), protocol::dequantise(q.vy, p.vel_shift)};
      }
      return;
    }
    case MsgType::kMetrics:
      begin(m.metrics.frame, emit);
      cur_.metrics = m.metrics;
      cur_.has_metrics = true;
      return;
    case MsgType::kStats:
      begin(m.stats.frame, emit);
      cur_.stats = m.stats;
      cur_.has_stats = true;
      // The stats close a frame: with 0 boids (or state off) no chunk says so.
      if (cur_.stats.boid_count == 0 && received_ == 0) cur_.x.clear(), cur_.y.clear(), cur_.vx.clear(), cur_.vy.clear(), cur_.groups.clear();
      finish(emit);
      return;
    default: return;
  }
}

}  // namespace flockscope::link
