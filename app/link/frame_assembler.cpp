#include "link/frame_assembler.hpp"

#include <algorithm>

#include "flockscope/protocol/flock_state.hpp"

namespace flockscope::link {

using protocol::Message;
using protocol::MsgType;

const char* to_string(MetricsSource s) {
  switch (s) {
    case MetricsSource::kState: return "state";
    case MetricsSource::kBoard: return "board";
    case MetricsSource::kPartial: return "partial";
  }
  return "?";
}

std::size_t metrics_boids(const MirroredFrame& f) {
  switch (metrics_source(f)) {
    case MetricsSource::kState: break;
    case MetricsSource::kBoard: return std::size_t(f.metrics.boids);
    case MetricsSource::kPartial: return std::size_t(std::count(f.fresh.begin(), f.fresh.end(), std::uint8_t(1)));
  }
  return f.size();
}

Metrics metrics_of(const MirroredFrame& f, double cluster_radius, const MetricsOptions& opt) {
  switch (metrics_source(f)) {
    case MetricsSource::kState: break;
    case MetricsSource::kBoard: {
      Metrics m = compute_metrics(view_of(f), cluster_radius, opt);
      m.diameter = f.metrics.diameter;
      m.centroid_x = f.metrics.centroid_x;
      m.centroid_y = f.metrics.centroid_y;
      m.polarisation = f.metrics.polarisation;
      m.mean_speed = f.metrics.mean_speed;
      return m;
    }
    case MetricsSource::kPartial: {
      MirroredFrame arrived;
      arrived.predators = f.predators;
      arrived.food = f.food;
      for (std::size_t k = 0; k < f.size() && k < f.fresh.size(); ++k) {
        if (!f.fresh[k]) continue;
        arrived.x.push_back(f.x[k]), arrived.y.push_back(f.y[k]), arrived.vx.push_back(f.vx[k]), arrived.vy.push_back(f.vy[k]);
      }
      return compute_metrics(view_of(arrived), cluster_radius, opt);
    }
  }
  return compute_metrics(view_of(f), cluster_radius, opt);
}

void FrameAssembler::restart() {
  open_ = false;
  have_last_ = false;
}

void FrameAssembler::set_capacity(std::uint32_t max_boids) { capacity_ = std::min(max_boids, kMaxBoardBoids); }

void FrameAssembler::finish(const Emit& emit) {
  if (!open_) return;
  open_ = false;
  if (over_capacity_) {
    ++counters_.over_capacity;
    return;
  }
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
  if (cur_.state_complete) {
    cur_.fresh.clear();
    emit(cur_);
    return;
  }
  if (std::find(known_.begin(), known_.end(), 0) == known_.end()) {
    cur_.fresh = fresh_;
    emit(cur_);
    return;
  }
  // Partial, with boids never received: hand on only the boids with a position.
  MirroredFrame& f = known_only_;
  f.frame = cur_.frame;
  f.state_complete = false;
  f.has_metrics = cur_.has_metrics, f.has_stats = cur_.has_stats;
  f.metrics = cur_.metrics, f.stats = cur_.stats;
  f.predators = cur_.predators;
  f.food = cur_.food;
  f.aims = cur_.aims;
  f.x.clear(), f.y.clear(), f.vx.clear(), f.vy.clear(), f.groups.clear(), f.fresh.clear();
  const bool groups = cur_.groups.size() == cur_.size();
  for (std::size_t k = 0; k < known_.size(); ++k) {
    if (!known_[k]) continue;
    f.x.push_back(cur_.x[k]), f.y.push_back(cur_.y[k]), f.vx.push_back(cur_.vx[k]), f.vy.push_back(cur_.vy[k]);
    f.fresh.push_back(fresh_[k]);
    if (groups) f.groups.push_back(cur_.groups[k]);
  }
  emit(f);
}

void FrameAssembler::begin(std::uint32_t frame, const Emit& emit) {
  if (open_ && cur_.frame == frame) return;
  finish(emit);
  open_ = true;
  cur_.frame = frame;
  cur_.has_metrics = cur_.has_stats = false;
  cur_.state_complete = false;
  received_ = next_offset_ = 0;
  std::fill(fresh_.begin(), fresh_.end(), std::uint8_t(0));
  contiguous_ = true;
  over_capacity_ = false;
}

void FrameAssembler::add(const Message& m, const Emit& emit) {
  switch (m.type) {
    case MsgType::kFlockState: {
      const auto& s = m.flock_state;
      begin(s.frame, emit);
      if (s.total > capacity_) {
        ++counters_.bad_chunks;
        over_capacity_ = true;  // a protocol error: the whole frame goes
        return;
      }
      if (std::uint64_t(s.offset) + s.count > s.total) {
        ++counters_.bad_chunks;
        contiguous_ = false;  // this frame can no longer be whole
        return;
      }
      if (cur_.size() != s.total) {
        // The flock grew or shrank: new boids have no position until their chunk comes.
        cur_.x.resize(s.total), cur_.y.resize(s.total), cur_.vx.resize(s.total), cur_.vy.resize(s.total);
        known_.resize(s.total, 0);
        fresh_.resize(s.total, 0);
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
      std::fill_n(known_.begin() + s.offset, s.count, std::uint8_t(1));
      std::fill_n(fresh_.begin() + s.offset, s.count, std::uint8_t(1));
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
    case MsgType::kSurroundings: {
      const auto& s = m.surroundings;
      begin(s.frame, emit);
      cur_.food.resize(s.food_count);
      for (std::uint32_t i = 0; i < s.food_count; ++i)
        cur_.food[i] = {protocol::dequantise(s.food[i].x, s.pos_shift), protocol::dequantise(s.food[i].y, s.pos_shift),
                        0.0f, 0.0f};
      cur_.aims.resize(s.aim_count);
      for (std::uint32_t i = 0; i < s.aim_count; ++i) {
        PredatorAim& a = cur_.aims[i];
        a = PredatorAim{};
        a.active = (s.aims[i].flags & protocol::kAimActive) != 0;
        a.x = protocol::dequantise(s.aims[i].x, s.pos_shift);
        a.y = protocol::dequantise(s.aims[i].y, s.pos_shift);
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
      if (cur_.stats.boid_count == 0 && received_ == 0)
        cur_.x.clear(), cur_.y.clear(), cur_.vx.clear(), cur_.vy.clear(), cur_.groups.clear(), known_.clear(),
            fresh_.clear();
      finish(emit);
      return;
    // Not parts of a frame. No default: a new message is a -Wswitch error here.
    case MsgType::kHello:
    case MsgType::kParamSet:
    case MsgType::kParamChange:
    case MsgType::kAck:
    case MsgType::kCommand:
    case MsgType::kLog:
      return;
  }
}

}  // namespace flockscope::link
