// Sections: construction | frame boundary (requests) | parameters | commands | output (frame's tail, chunks)
#include "flockscope/board/board.hpp"

namespace flockscope::board {

using protocol::MsgType;
using protocol::ParamValue;
using protocol::Status;

// ---------------------------------------------------------------- construction
Board::Board(const BoardConfig& config, const FlockBuffers& buffers)
    : cfg_(config), params_(config.limits), flock_(buffers), pacer_(config.period_us), spawn_(config.spawn) {
  using namespace protocol::cap;
  link_.set_identity({cfg_.role, kSwMajor, kSwMinor, kSwPatch, flock_.capacity(),
                      kFlockState | kPredators | kScoutGroups | kMetrics | kStats | kLog | kParamChange | kParamSet |
                          kCommands | kSurroundings,
                      cfg_.name});
  params_.force(pid::seed, double(config.seed));
  params_.force(pid::boids, double(config.boids));
  reset_flock(config.seed);
}

void Board::reset_flock(std::uint64_t seed) {
  params_.apply_pending();
  params_version_ = params_.version();
  const auto want = std::uint32_t(params_.active(pid::boids));
  if (want == 0) {  // the lab: start small, spawn while the budget allows
    spawn_.start();
    flock_.reset(params_, seed, cfg_.spawn.step < flock_.capacity() ? cfg_.spawn.step : flock_.capacity());
  } else {
    spawn_.stop();
    flock_.reset(params_, seed, want);
  }
  elapsed_us_ = 0;
  link_.restart_state();
}

Status Board::set_param(std::uint16_t id, const ParamValue& v) {
  double value = 0;
  const Status st = params_.check(id, v, value);
  if (!protocol::is_accepted(st)) return st;
  const Status done = params_.store(id, value);
  if (params_.version() != params_version_) {
    params_version_ = params_.version();
    flock_.configure(params_);
  }
  return done;
}

void Board::reset(std::uint64_t seed) {
  params_.force(pid::seed, double(seed));
  reset_flock(seed);
}

// ---------------------------------------------------------------- frame boundary (requests)
std::uint64_t Board::frame_start(Transport& io, std::uint64_t now) {
  const std::uint64_t deadline = pacer_.begin(now);
  if (!link_.paused() && last_start_ != 0) elapsed_us_ += now - last_start_;
  last_start_ = now;

  link_.close_frame_output();  // the previous frame's state is history now

  // Requests that arrived during the last frame, applied now, at the frame boundary. The
  // read is bounded so that a flood from the host cannot stall the flock; the frame's start
  // clocks the refusals' reasons, so a refusal reads no timer.
  link_.read_requests(io, now, 16384);
  if (params_.version() != params_version_) {
    params_version_ = params_.version();
    flock_.configure(params_);
  }
  return deadline;
}

// ---------------------------------------------------------------- parameters (the session's questions)
protocol::Param Board::param_entry(std::size_t index) const {
  const std::uint16_t id = param_at(index).id;  // the table is in ascending id
  return {id, params_.reported(id)};
}

bool Board::param_value(std::uint16_t id, ParamValue& value) const {
  if (!find_param(id)) return false;
  value = params_.reported(id);
  return true;
}

Status Board::check_param(const protocol::Param& p, double& value) {
  const Status st = params_.check(p.id, p.value, value);
  const ParamInfo* info = st == Status::kOutOfRange ? find_param(p.id) : nullptr;
  if (info) {  // what the board allows, on the log before the ack
    double lo = 0, hi = 0;
    params_.range(p.id, lo, hi);
    link_.say_allowed_range(info->name, lo, hi);
  }
  return st;
}

// ---------------------------------------------------------------- commands
Status Board::command(protocol::CommandId id, std::uint32_t arg, ParamValue& value) {
  using protocol::CommandId;
  switch (id) {
    case CommandId::kReset:
      params_.force(pid::seed, double(arg));
      reset_flock(arg);
      value = ParamValue::of_int(arg);
      return Status::kOk;
    case CommandId::kSetBoidCount:
      if (arg > flock_.capacity()) {
        value = ParamValue::of_int(flock_.size());
        return Status::kOutOfRange;
      }
      spawn_.stop();
      flock_.set_count(arg);
      params_.force(pid::boids, arg);
      value = ParamValue::of_int(flock_.size());
      return Status::kOk;
    case CommandId::kPredators:
      if (arg > 1) {
        value = ParamValue::of_bool(flock_.predators_on());
        return Status::kInvalid;
      }
      flock_.set_predators_on(arg == 1);
      value = ParamValue::of_bool(arg == 1);
      return Status::kOk;
    default:  // the session's own (pause, resume, request_params, streams)
      return Status::kUnknownId;
  }
}

// ---------------------------------------------------------------- output
void Board::frame_end(std::uint64_t now, std::uint32_t compute_us) {
  compute_us_ = compute_us;
  pacer_.end_work(now);
  // The lab's spawning, decided on this frame's cost.
  if (!link_.paused()) {
    const std::uint32_t n = spawn_.next_count(compute_us, pacer_.period_us(), flock_.size(), flock_.capacity());
    if (n != flock_.size()) {
      flock_.set_count(n);
    }
  }
  if (!link_.in_session()) return;
  out_groups_ = params_.active(pid::scouts1) + params_.active(pid::scouts2) > 0;
  link_.begin_frame_output(flock_.frame(), flock_.size(),
                           (link_.streams() & protocol::stream::kFlockState) && !link_.paused());
}

void Board::pump(Transport& io) { link_.pump(io); }

void Board::write_frame_tail() {
  const std::uint32_t streams = link_.streams();
  const std::uint32_t frame = link_.output_frame();
  if (streams & protocol::stream::kPredators) {
    // (The session's message is reused field by field: assigning a whole Message{} would
    // clear and copy all of its union, several KiB, three times a frame.)
    protocol::Message& m = link_.begin_message(MsgType::kPredators);
    m.predators = protocol::Predators{};
    auto& p = m.predators;
    p.frame = frame;
    p.count = std::uint8_t(flock_.predator_count());
    p.pos_shift = 4;
    p.vel_shift = 8;
    for (std::uint32_t i = 0; i < p.count; ++i) {
      const BoardPredator& q = flock_.predator(i);
      p.predators[i] = {quantise_fix(q.x, 4), quantise_fix(q.y, 4), quantise_fix(q.vx, 8), quantise_fix(q.vy, 8)};
    }
    link_.send(m);
    // The lab's extensions: the food sources and each predator's aim, every frame (empty
    // lists when they are off, so that the app drops what it showed).
    protocol::Message& e = link_.begin_message(MsgType::kSurroundings);
    e.surroundings = protocol::Surroundings{};
    auto& s = e.surroundings;
    s.frame = frame;
    s.food_count = std::uint8_t(flock_.food_count());
    s.aim_count = std::uint8_t(flock_.predator_count());
    s.pos_shift = 4;
    for (std::uint32_t i = 0; i < s.food_count; ++i)
      s.food[i] = {quantise_fix(flock_.food(i).x, 4), quantise_fix(flock_.food(i).y, 4)};
    for (std::uint32_t i = 0; i < s.aim_count; ++i) {
      const BoardAim& a = flock_.aim(i);
      s.aims[i] = {std::uint8_t(a.active ? protocol::kAimActive : 0), quantise_fix(a.x, 4), quantise_fix(a.y, 4)};
    }
    link_.send(e);
  }
  if (std::uint32_t sample = 0; metrics_wanted(sample)) {
    const FlockMetrics fm = metrics_source_ ? metrics_source_(flock_, sample) : flock_.metrics(sample);
    protocol::Message& m = link_.begin_message(MsgType::kMetrics);
    m.metrics = {frame, fm.diameter, fm.centroid_x, fm.centroid_y, fm.polarisation, fm.mean_speed, fm.boids};
    link_.send(m);
  }
  if (streams & protocol::stream::kStats) {
    protocol::Message& m = link_.begin_message(MsgType::kStats);
    m.stats = protocol::Stats{};
    auto& s = m.stats;
    s.frame = frame;
    s.fps = pacer_.fps();
    s.compute_us = compute_us_;
    s.spare_us = pacer_.spare_us();
    s.boid_count = flock_.size();
    s.elapsed_ms = elapsed_ms();
    s.tx_dropped = link_.counters().tx_dropped;
    s.flags = std::uint8_t((link_.paused() ? protocol::kStatsFlagPaused : 0) |
                           (flock_.predators_on() ? protocol::kStatsFlagPredators : 0) |
                           (flock_.rules_fast() ? 0 : protocol::kStatsFlagGeneralRules));
    link_.send(m);
  }
}

bool Board::metrics_wanted(std::uint32_t& sample) const {
  if (!link_.in_session() || !(link_.streams() & protocol::stream::kMetrics)) return false;
  // With the state stream on, the app computes exact metrics from the state and the board
  // sends a cheap sample; without it (or paused) the board's message is the app's only
  // source, and the state's encoding is not using the frame's link time: all boids.
  const bool state_on = (link_.streams() & protocol::stream::kFlockState) && !link_.paused();
  sample = state_on ? kMetricsSample : 0;
  return true;
}

bool Board::write_state_chunk(std::uint32_t frame, std::uint32_t total, std::uint32_t offset, std::uint16_t count) {
  // The frame is written straight from the state (no Message in between) into raw_, which
  // is word-aligned for the CRC and COBS, then stuffed into the ring itself.
  const std::size_t payload = protocol::flock_state_payload_size(count, out_groups_);
  const std::size_t n = protocol::kHeaderSize + payload + protocol::kCrcSize;
  if (protocol::wire_size_bound(payload) > link_.ring_free()) return false;
  protocol::write_frame_header(raw_, MsgType::kFlockState, link_.take_seq());
  const fix *x = &flock_.xs()[offset], *y = &flock_.ys()[offset];
  const fix *vx = &flock_.vxs()[offset], *vy = &flock_.vys()[offset];
  protocol::write_flock_state_payload(
      raw_ + protocol::kHeaderSize, frame, total, offset, count, 4, 8, out_groups_,
      [&](std::size_t i) {
        return protocol::BoidQ{quantise_fix(x[i], 4), quantise_fix(y[i], 4), quantise_fix(vx[i], 8),
                               quantise_fix(vy[i], 8)};
      },
      [this, offset](std::size_t i) { return flock_.group(offset + std::uint32_t(i)); });
  return link_.push_frame(raw_, n);
}

std::uint64_t Board::run_frame(Transport& io, std::uint64_t (*now_us)()) {
  const std::uint64_t deadline = frame_start(io, now_us());
  const std::uint64_t t0 = now_us();
  if (running()) flock_.step();
  const std::uint64_t t1 = now_us();
  frame_end(t1, std::uint32_t(t1 - t0));
  pump(io);
  return deadline;
}

}  // namespace flockscope::board
