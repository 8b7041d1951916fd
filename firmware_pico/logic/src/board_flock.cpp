// BoardFlock: its coefficients from the parameters, spawning, the flock's size and the
// state hash. The step is in board_sort.cpp (begin_step: the grid sort), board_update.cpp
// (update: the scans and the rules; end_step: the predators) and board_rules_fast.cpp (the
// rules' fast path in C++); the metrics in board_metrics.cpp.
//
// Sections: configuration and spawning | state hash
#include "flockscope/board/board_flock.hpp"

#include "flockscope/core/fnv1a.hpp"
#include "flockscope/core/spawn.hpp"

#include <cmath>

namespace flockscope::board {

BoardFlock::BoardFlock(const FlockBuffers& buffers) : buf_(buffers) {}

// ---------------------------------------------------------------- configuration and spawning

namespace {
// The first p = pixel + pad (as uint32, so that p < 0 is above it) from which grid_line()
// needs more than (p inv) >> 16: from there on p inv reaches count 2^16 (the last line,
// clamped) or wraps 32 bits. sort_cells' one test (grid_line_fast).
std::uint32_t grid_line_limit(std::uint32_t inv, std::uint32_t count) {
  if (count == 0) return 0;
  if (inv == 0) return 0xffffffffu;  // every line 0
  const std::uint64_t reach = ((std::uint64_t(count) << 16) + inv - 1) / inv;
  const std::uint64_t wrap = ((std::uint64_t(1) << 32) + inv - 1) / inv;
  const std::uint64_t limit = reach < wrap ? reach : wrap;
  return limit < 0xffffffffu ? std::uint32_t(limit) : 0xffffffffu;
}
}  // namespace

void BoardFlock::configure(const ParamStore& p) {
  auto v = [&](std::uint16_t id) { return p.active(id); };
  width_ = v(pid::width);
  height_ = v(pid::height);
  spawn_span(width_, v(pid::leftmargin), v(pid::rightmargin), spawn_x0_, spawn_x1_);
  spawn_span(height_, v(pid::topmargin), v(pid::bottommargin), spawn_y0_, spawn_y1_);
  minspeed_ = v(pid::minspeed);
  maxspeed_ = v(pid::maxspeed);
  const double vis = v(pid::visualRange), prot = v(pid::protectedRange);
  const double range = vis > prot ? vis : prot;

  rules::CornellCoeffs<fix> c{};
  c.range = fix(range);
  c.protected2 = fix(prot * prot);
  c.visual2 = fix(vis * vis);
  c.centering = fix(v(pid::centeringfactor));
  c.matching = fix(v(pid::matchingfactor));
  c.avoid = fix(v(pid::avoidfactor));
  c.turn = fix(v(pid::turnfactor));
  c.left_edge = fix(v(pid::leftmargin));
  c.right_edge = fix(width_ - v(pid::rightmargin));
  c.top_edge = fix(v(pid::topmargin));
  c.bottom_edge = fix(height_ - v(pid::bottommargin));
  const double pr = v(pid::predatorRange);
  c.predator_range = fix(pr);
  c.predator_range2 = fix(pr * pr);
  c.predator_turn = fix(v(pid::predatorturnfactor));
  c.minspeed = fix(minspeed_);
  c.maxspeed = fix(maxspeed_);
  c.maxbias = fix(v(pid::maxbias));
  c.bias_increment = fix(v(pid::bias_increment));
  c.bias_pull = fix(1);  // bias_target unit: the board refuses maxspeed (board_params.cpp)
  c.dt = fix(v(pid::dt));
  c.cohesion = v(pid::cohesion) != 0;
  c.alignment = v(pid::alignment) != 0;
  c.separation = v(pid::separation) != 0;
  c.dynamic_bias = v(pid::dynamicbias) != 0;
  c.gravity = fix(v(pid::gravity));
  // The lab's extensions (seed 001). Food's range is at most 181 px on the board, so that
  // its square fits Q16.16 (board_params.cpp; the sum of two squares saturates).
  hunt_ = std::uint32_t(v(pid::predator_mode));
  vision_raw_ = fix(v(pid::predator_vision)).raw;
  vision2_ = std::uint64_t(vision_raw_) * std::uint64_t(vision_raw_);
  steer_ = fix(v(pid::predator_steer));
  const double fr = v(pid::food_range);
  c.food_range = fix(fr);
  c.food_range2 = fix(fr * fr);
  c.food_factor = fix(v(pid::food_factor));
  food_speed_ = fix(v(pid::food_speed));
  const auto food = std::uint32_t(v(pid::food));
  n_food_ = food < kMaxFood ? food : kMaxFood;
  const bool perch_on = v(pid::perch_frames) > 0 && buf_.perch != nullptr;
  c.perch_frames = perch_on ? std::int32_t(v(pid::perch_frames)) : 0;
  const double perch_y = v(pid::perch_y);
  c.perch_y = fix(perch_y);
  c.perch_top = fix(perch_y - v(pid::perch_range));
  c.perch_x0 = fix(v(pid::perch_x0));
  c.perch_x1 = fix(v(pid::perch_x1));
  // Perching switched on: every boid starts free (core's prepare_perching).
  if (perch_on && !perch_on_)
    for (std::uint32_t id = 0; id < buf_.capacity; ++id) buf_.perch[id] = 0;
  perch_on_ = perch_on;
  ext_ = n_food_ != 0 || perch_on_;
  c_ = c;
  // The neighbour test in Q23.9: the box half-width and the squared ranges (exact squares
  // of the Q23.9 ranges, units of 2^-18 px^2).
  const std::int64_t vis9 = std::llround(vis * 512), prot9 = std::llround(prot * 512);
  range9_ = std::int32_t(vis9 > prot9 ? vis9 : prot9);
  visual2_ = std::uint64_t(vis9 * vis9);
  protected2_ = std::uint64_t(prot9 * prot9);
  biasval_ = fix(v(pid::biasval));

  // Grid: each boid scans the cells up to reach_ = 2 away (a 5 x 5 stencil of cells about
  // half the interaction range wide: 2.5 x 2.5 ranges instead of 3 x 3, about 30 % fewer
  // candidates). Cell indices come from a rounded-down reciprocal multiply of the whole
  // pixel of the Q16.16 state. Two boids whose Q23.9 offsets are inside the range (at most
  // range9 - 1 in each axis) are less than ((range9 - 1) * 128 + 128) / 2^16 px apart in
  // Q16.16 (the snapshot rounds to the nearest 1/512), so their whole pixels are at most
  // d = floor(((range9 - 1) * 128 + 127) / 2^16) + 1 apart (40 at a 40 px range), and
  // their cells at most ceil(d * inv / 2^16) <= reach_ apart when d * inv <= reach_ * 2^16
  // (20 px cells at a 40 px range).
  reach_ = reach_pref_;  // the runs of ScanJob hold 2 * reach_ + 1 rows
  const auto d = std::uint32_t(((std::uint64_t(range9_ > 0 ? range9_ - 1 : 0) << 7) + 127) >> 16) + 1;
  std::int32_t cs = std::int32_t((d + reach_ - 1) / reach_);
  if (cs < 1) cs = 1;
  while (std::uint64_t(d) * (65536u / std::uint32_t(cs)) > std::uint64_t(reach_) * 65536u) ++cs;
  // The grid reaches past the screen (boids overshoot the margins, and clamped into the
  // edge cells they would all be each other's candidates), as far as max_cells allows, up
  // to 16 cells; coarser cells only if even the screen does not fit.
  for (;;) {
    inv_cell_ = 65536u / std::uint32_t(cs);
    bool fits = false;
    for (int pad_cells = 16; pad_cells >= 0 && !fits; --pad_cells) {
      pad_px_ = pad_cells * cs;
      const auto last_x = std::uint32_t((width_ > 1 ? width_ - 1 : 0) + 2 * pad_px_);
      const auto last_y = std::uint32_t((height_ > 1 ? height_ - 1 : 0) + 2 * pad_px_);
      cols_ = ((last_x * inv_cell_) >> 16) + 1;
      rows_ = ((last_y * inv_cell_) >> 16) + 1;
      fits = cols_ * rows_ <= buf_.max_cells;
    }
    if (fits) break;
    cs += cs / 4 + 1;
  }
  cell_px_ = cs;
  line_limit_x_ = grid_line_limit(inv_cell_, cols_);
  line_limit_y_ = grid_line_limit(inv_cell_, rows_);
  // The grid lines' first pixels (StencilTrim's edges): grid_line() gives line i from pixel
  // ceil(i 2^16 / inv) - pad on. A table, so that make_runs() does not divide.
  trim_lines_ = cols_ < kMaxTrimLines && rows_ < kMaxTrimLines;
  for (std::uint32_t i = 0; trim_lines_ && i <= (cols_ > rows_ ? cols_ : rows_); ++i)
    line_px_[i] = std::int16_t(std::int32_t((i * 65536u + inv_cell_ - 1) / inv_cell_) - pad_px_);
  // The fast scan (flockscope_scan_neighbours) skips the box test and the self test: it
  // needs 0 < protected2 <= visual2 < 2^30 (ranges below 64 px; the boid itself then counts
  // as protected at offset 0, which adds nothing) and offsets whose squares add up within
  // 32 bits: inside unclamped cells a candidate is less than (reach_ + 1) cells + 1 px away,
  // which must stay below 110 px (dy^2 < 2^30 after the first test, dx^2 < 3 * 2^30).
  fast_scan_ = !general_only_ && protected2_ > 0 && protected2_ <= visual2_ && visual2_ < (std::uint64_t(1) << 30) &&
               std::uint64_t(reach_ + 1) * 65536u <= std::uint64_t(109) * inv_cell_;
  // The middle rows of the stencil (all but the outermost two) rarely hold a candidate that
  // is out of range in y alone (at reach 2 a boid's own row and the rows next to it), so
  // the fast scan skips that early test there (ScanJob::middle_whole) when d2 = dx^2 + dy^2
  // cannot wrap 32 bits: cells are at most cell_px_ + 1 px wide (grid_line's reciprocal is
  // rounded down), so |dx| < (reach + 1) such cells and, in the middle rows, |dy| < reach.
  const auto cell9 = std::uint64_t(cell_px_ + 1) * 512;
  const std::uint64_t dx9 = (reach_ + 1) * cell9, dy9 = reach_ * cell9;
  middle_whole_ = fast_scan_ && dx9 * dx9 + dy9 * dy9 < (std::uint64_t(1) << 32);
  // The rules' fast path (flockscope_rules) takes each product by a weight in [0, 1) in two
  // 32-bit multiplies, moves by v * 1 and squares a predator's offset below 128 px exactly:
  // the paths fix's operators take for such values, so it gives update_boid's bits. It has
  // the seeds' rules only: with gravity, food or perching on, every boid takes the general
  // path. Hunting predators change only the predators' step (end_step), not the boids' rules.
  const auto weight = [](fix w) { return w.raw >= 0 && w.raw < 65536; };
  const auto below128 = [](fix speed) { return speed.raw >= 0 && speed.raw < (1 << 23); };
  rules_fast_ = !general_rules_only_ && weight(c.centering) && weight(c.matching) && weight(c.avoid) &&
                c.dt == fix(1) && c.predator_range.raw <= (1 << 23) && below128(c.minspeed) && below128(c.maxspeed) &&
                c.gravity == fix(0) && !ext_;
}

void BoardFlock::spawn_one(std::uint32_t slot, std::uint32_t id) {
  // The draws of core's Flock::spawn (position, then spawn_velocity for Cornell rules).
  const double x = rng_.uniform(spawn_x0_, spawn_x1_);
  const double y = rng_.uniform(spawn_y0_, spawn_y1_);
  double vx, vy;
  random_velocity(rng_, minspeed_, maxspeed_, vx, vy);
  // Through float, as core stores them, so both start from the same numbers.
  buf_.x[slot] = fix(double(float(x)));
  buf_.y[slot] = fix(double(float(y)));
  buf_.vx[slot] = fix(double(float(vx)));
  buf_.vy[slot] = fix(double(float(vy)));
  buf_.id[slot] = std::uint16_t(id);
  if (id < buf_.bias_capacity) buf_.bias[id] = biasval_;
  if (perch_on_) buf_.perch[id] = 0;
}

void BoardFlock::reset(const ParamStore& p, std::uint64_t seed, std::uint32_t n) {
  configure(p);
  scouts1_ = std::uint32_t(p.active(pid::scouts1));
  scouts2_ = std::uint32_t(p.active(pid::scouts2));
  rng_ = Pcg32(seed);
  if (perch_on_)  // every boid starts free
    for (std::uint32_t id = 0; id < buf_.capacity; ++id) buf_.perch[id] = 0;
  n_ = 0;
  frame_ = 0;
  set_count(n);
  // Predators: their own stream, as core (adding predators does not move the boids).
  Pcg32 prng(seed, 2);
  n_pred_ = std::uint32_t(p.active(pid::predators));
  if (n_pred_ > kMaxPredators) n_pred_ = kMaxPredators;
  for (std::uint32_t i = 0; i < n_pred_; ++i) {
    const double x = prng.uniform(spawn_x0_, spawn_x1_);
    const double y = prng.uniform(spawn_y0_, spawn_y1_);
    double vx, vy;
    random_velocity(prng, minspeed_, maxspeed_, vx, vy);
    pred_[i] = {fix(double(float(x))), fix(double(float(y))), fix(double(float(vx))), fix(double(float(vy)))};
  }
  for (auto& a : aim_) a = BoardAim{};
  seed_ = seed;
  spawn_food(seed);
}

void BoardFlock::set_count(std::uint32_t n) {
  if (n > buf_.capacity) n = buf_.capacity;
  if (n < n_) {  // keep ids [0, n): compact the survivors
    std::uint32_t out = 0;
    for (std::uint32_t k = 0; k < n_; ++k) {
      if (buf_.id[k] >= n) continue;
      buf_.x[out] = buf_.x[k], buf_.y[out] = buf_.y[k], buf_.vx[out] = buf_.vx[k], buf_.vy[out] = buf_.vy[k];
      buf_.id[out] = buf_.id[k];
      ++out;
    }
    n_ = out;
    return;
  }
  for (std::uint32_t k = n_; k < n; ++k) spawn_one(k, k);
  n_ = n;
}

void BoardFlock::set_boid(std::uint32_t id, fix x, fix y, fix vx, fix vy) {
  if (id >= buf_.capacity) return;
  buf_.x[id] = x, buf_.y[id] = y, buf_.vx[id] = vx, buf_.vy[id] = vy;
  buf_.id[id] = std::uint16_t(id);
  if (id < buf_.bias_capacity) buf_.bias[id] = biasval_;
  if (perch_on_) buf_.perch[id] = 0;
}

std::uint8_t BoardFlock::group(std::uint32_t k) const {
  const std::uint32_t id = buf_.id[k];
  if (id < scouts1_) return 1;
  if (id < scouts1_ + scouts2_) return 2;
  return 0;
}

// ---------------------------------------------------------------- state hash
std::uint64_t BoardFlock::state_hash() const {
  // The boids: the sum (mod 2^64) of one FNV-1a hash per boid, so the order of the slots
  // (the grid's, which the sort may arrange as it likes) does not count, only what each
  // boid is.
  std::uint64_t boids = 0;
  for (std::uint32_t k = 0; k < n_; ++k) {
    Fnv1a b;
    b.add_u32(buf_.id[k]);
    b.add_u32(std::uint32_t(buf_.x[k].raw)), b.add_u32(std::uint32_t(buf_.y[k].raw));
    b.add_u32(std::uint32_t(buf_.vx[k].raw)), b.add_u32(std::uint32_t(buf_.vy[k].raw));
    boids += b.h;
  }
  Fnv1a h;
  h.add_u32(n_);
  h.add_u32(std::uint32_t(boids)), h.add_u32(std::uint32_t(boids >> 32));
  for (std::uint32_t id = 0; id < buf_.bias_capacity; ++id) h.add_u32(std::uint32_t(buf_.bias[id].raw));
  for (std::uint32_t q = 0; q < predator_count(); ++q) {
    const BoardPredator& p = pred_[q];
    h.add_u32(std::uint32_t(p.x.raw)), h.add_u32(std::uint32_t(p.y.raw));
    h.add_u32(std::uint32_t(p.vx.raw)), h.add_u32(std::uint32_t(p.vy.raw));
  }
  // The extensions' state, where there is some (so a flock without them hashes as before).
  for (std::uint32_t q = 0; q < n_food_; ++q) {
    const BoardFood& f = food_[q];
    h.add_u32(std::uint32_t(f.x.raw)), h.add_u32(std::uint32_t(f.y.raw));
    h.add_u32(std::uint32_t(f.vx.raw)), h.add_u32(std::uint32_t(f.vy.raw));
  }
  for (std::uint32_t q = 0; q < n_pred_; ++q) {
    const BoardAim& a = aim_[q];
    if (!a.active) continue;
    h.add_u32(std::uint32_t(a.target)), h.add_u32(std::uint32_t(a.x.raw)), h.add_u32(std::uint32_t(a.y.raw));
  }
  for (std::uint32_t id = 0; perch_on_ && id < n_; ++id) h.add_u32(std::uint32_t(std::int32_t(buf_.perch[id])));
  return h.h;
}

}  // namespace flockscope::board
