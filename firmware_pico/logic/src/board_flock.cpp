// Sections: configuration and spawning | the step (grid sort, boid update, predators) |
// metrics
#include "flockscope/board/board_flock.hpp"

#include "flockscope/core/spawn.hpp"

#include <cmath>

namespace flockscope::board {

using rules::Boid;

BoardFlock::BoardFlock(const FlockBuffers& buffers) : buf_(buffers) {}

// ---------------------------------------------------------------- configuration and spawning

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
  c.dt = fix(v(pid::dt));
  c.cohesion = v(pid::cohesion) != 0;
  c.alignment = v(pid::alignment) != 0;
  c.separation = v(pid::separation) != 0;
  c.dynamic_bias = v(pid::dynamicbias) != 0;
  c_ = c;
  near_ = {};
  near_.range = fix8(range);
  near_.protected2 = fix8(prot * prot);
  near_.visual2 = fix8(vis * vis);
  biasval_ = fix(v(pid::biasval));

  // Grid: cells of at least the interaction range, at most max_cells of them.
  std::int32_t cs = std::int32_t(std::ceil(range));
  if (cs < 1) cs = 1;
  // The grid reaches a few cells past the screen (boids overshoot the margins, and clamped
  // into the edge cells they would all be each other's candidates), as far as max_cells
  // allows.
  for (;;) {
    inv_cell_ = 65536u / std::uint32_t(cs);
    bool fits = false;
    for (int pad_cells = 4; pad_cells >= 0 && !fits; --pad_cells) {
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
}

void BoardFlock::reset(const ParamStore& p, std::uint64_t seed, std::uint32_t n) {
  configure(p);
  scouts1_ = std::uint32_t(p.active(pid::scouts1));
  scouts2_ = std::uint32_t(p.active(pid::scouts2));
  rng_ = Pcg32(seed);
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
}

std::uint8_t BoardFlock::group(std::uint32_t k) const {
  const std::uint32_t id = buf_.id[k];
  if (id < scouts1_) return 1;
  if (id < scouts1_ + scouts2_) return 2;
  return 0;
}

// ---------------------------------------------------------------- the step
std::uint32_t BoardFlock::cell_x(fix x) const {
  // Monotone and clamped, with cells at least cell_px_ wide (the reciprocal is rounded
  // down): two boids closer than the interaction range are at most one cell apart, so the
  // 3x3 stencil finds every neighbour, off screen too. A multiply, not a division.
  const std::int32_t px = (x.raw >> 16) + pad_px_;
  if (px <= 0) return 0;
  const std::uint32_t c = (std::uint32_t(px) * inv_cell_) >> 16;
  return c < cols_ ? c : cols_ - 1;
}

std::uint32_t BoardFlock::cell_y(fix y) const {
  const std::int32_t py = (y.raw >> 16) + pad_px_;
  if (py <= 0) return 0;
  const std::uint32_t c = (std::uint32_t(py) * inv_cell_) >> 16;
  return c < rows_ ? c : rows_ - 1;
}

std::uint32_t BoardFlock::cell_of(fix x, fix y) const { return cell_y(y) * cols_ + cell_x(x); }

void BoardFlock::begin_step() {
  // Counting sort of the last state into cell order.
  const std::uint32_t cells = cols_ * rows_;
  std::uint16_t* start = buf_.cell_start;
  for (std::uint32_t c = 0; c <= cells; ++c) start[c] = 0;
  for (std::uint32_t i = 0; i < n_; ++i) {
    const std::uint32_t c = cell_of(buf_.x[i], buf_.y[i]);
    buf_.cell[i] = std::uint16_t(c);
    ++start[c + 1];
  }
  for (std::uint32_t c = 0; c < cells; ++c) start[c + 1] = std::uint16_t(start[c + 1] + start[c]);
  // start[c] is now the first slot of cell c; scatter using cell_start as a cursor would
  // destroy it, so walk each boid to start[c] + (rank within c) by a second counter pass.
  for (std::uint32_t i = 0; i < n_; ++i) {
    const std::uint32_t c = buf_.cell[i];
    const std::uint32_t k = start[c]++;
    buf_.sx[k] = buf_.x[i], buf_.sy[k] = buf_.y[i], buf_.svx[k] = buf_.vx[i], buf_.svy[k] = buf_.vy[i];
    buf_.sid[k] = buf_.id[i];
  }
  // Each start[c] now points one past cell c, i.e. at the start of c + 1: shift back.
  for (std::uint32_t c = cells; c > 0; --c) start[c] = start[c - 1];
  start[0] = 0;
}

namespace {
// The neighbour sums of one boid over one contiguous range of candidates, in Q24.8 integers:
// the offsets and velocities of hundreds of neighbours overflow Q16.16 but not these
// (127 px * 256 * 65535 boids < 2^31). Kept out of line so that the hot loop gets the
// registers to itself (the Cortex-M0+ has eight low ones).
struct NearSums {
  std::int32_t sep_x, sep_y, rel_x, rel_y, vel_x, vel_y;
  int seen;
};

__attribute__((noinline)) void scan_range(NearSums& out, std::uint32_t b, std::uint32_t e, std::uint32_t self,
                                          std::int32_t x, std::int32_t y, std::int32_t range,
                                          const std::int32_t* __restrict sx, const std::int32_t* __restrict sy,
                                          const std::int32_t* __restrict svx, const std::int32_t* __restrict svy,
                                          const rules::CornellCoeffs<fix8>& coeffs) {
  // Local sums and a local copy of the three ranges the test reads: nothing aliases them,
  // so the compiler keeps what it can in registers instead of reloading through pointers on
  // every candidate.
  NearSums a = out;
  rules::CornellCoeffs<fix8> near;
  near.range = coeffs.range;
  near.protected2 = coeffs.protected2;
  near.visual2 = coeffs.visual2;
  for (std::uint32_t j = b; j < e; ++j) {
    // The box test first on the exact Q16.16 offsets: most candidates stop here, for the
    // cost of a load, a subtraction and a compare per axis.
    const std::int32_t ddy = y - sy[j];
    if (ddy >= range || ddy <= -range) continue;
    const std::int32_t ddx = x - sx[j];
    if (ddx >= range || ddx <= -range || j == self) continue;
    const fix8 dx = fix8::from_raw(round_q8(ddx)), dy = fix8::from_raw(round_q8(ddy));
    bool separate, visible;
    rules::cornell_classify(dx, dy, near, separate, visible);  // core's rule, shared
    if (separate) {
      a.sep_x += dx.raw;
      a.sep_y += dy.raw;
    } else if (visible) {
      a.rel_x -= dx.raw;
      a.rel_y -= dy.raw;
      a.vel_x += round_q8(svx[j]);
      a.vel_y += round_q8(svy[j]);
      ++a.seen;
    }
  }
  out = a;
}
}  // namespace

void BoardFlock::update(std::uint32_t begin, std::uint32_t end) {
  if (end > n_) end = n_;
  const fix* __restrict sx = buf_.sx;
  const fix* __restrict sy = buf_.sy;
  const fix* __restrict svx = buf_.svx;
  const fix* __restrict svy = buf_.svy;
  const std::uint16_t* start = buf_.cell_start;
  const rules::CornellCoeffs<fix>& c = c_;
  const rules::CornellCoeffs<fix8> near = near_;
  const std::uint32_t npred = predator_count();
  const fix vmax_guard(100);
  const std::int32_t range_raw = c.range.raw;
  const fix min2 = c.minspeed * c.minspeed, max2 = c.maxspeed * c.maxspeed;

  for (std::uint32_t k = begin; k < end; ++k) {
    const Boid<fix> self{sx[k], sy[k], svx[k], svy[k]};
    const std::uint32_t cx = cell_x(self.x), cy = cell_y(self.y);
    const std::uint32_t x0 = cx > 0 ? cx - 1 : 0, x1 = cx + 1 < cols_ ? cx + 1 : cx;
    const std::uint32_t y0 = cy > 0 ? cy - 1 : 0, y1 = cy + 1 < rows_ ? cy + 1 : cy;
    NearSums acc{};
    for (std::uint32_t row = y0; row <= y1; ++row)
      scan_range(acc, start[row * cols_ + x0], start[row * cols_ + x1 + 1], k, self.x.raw, self.y.raw, range_raw,
                 &sx->raw, &sy->raw, &svx->raw, &svy->raw, near);
    const std::int32_t sep_x = acc.sep_x, sep_y = acc.sep_y, rel_x = acc.rel_x, rel_y = acc.rel_y;
    const std::int32_t vel_x = acc.vel_x, vel_y = acc.vel_y;
    const int seen = acc.seen;
    // Hand rules::cornell_steer the neighbours' means with a count of 1 (it only ever uses
    // sum / count): the division happens here, in 32 bits where the sums cannot overflow.
    rules::CornellSums<fix> s;
    if (seen > 0) {
      auto mean = [seen](std::int32_t sum8) {  // Q24.8 sum -> Q16.16 mean
        return fix::from_raw((sum8 < (1 << 23) && sum8 > -(1 << 23)) ? sum8 * 256 / seen : sum8 / seen * 256);
      };
      s.xpos = self.x + mean(rel_x);
      s.ypos = self.y + mean(rel_y);
      s.xvel = mean(vel_x);
      s.yvel = mean(vel_y);
      s.neighbours = 1;
    }
    s.close_dx = from_fix8(fix8::from_raw(sep_x));
    s.close_dy = from_fix8(fix8::from_raw(sep_y));
    rules::PredatorSums<fix> ps;
    for (std::uint32_t q = 0; q < npred; ++q)
      rules::predator_accumulate(ps, self.x - pred_[q].x, self.y - pred_[q].y, c);
    Boid<fix> nb = rules::cornell_steer(self, s, ps, c);
    const std::uint32_t id = buf_.sid[k];
    if (id < scouts1_ + scouts2_ && id < buf_.bias_capacity) {
      fix bias = c.dynamic_bias ? buf_.bias[id] : biasval_;
      rules::cornell_bias(nb.vx, bias, id < scouts1_ ? 1 : 2, c);
      buf_.bias[id] = bias;
    }
    // A guard against absurd parameter mixes: components beyond 100 px/frame would make
    // the squared speed overflow Q16.16.
    if (nb.vx > vmax_guard) nb.vx = vmax_guard;
    if (nb.vx < -vmax_guard) nb.vx = -vmax_guard;
    if (nb.vy > vmax_guard) nb.vy = vmax_guard;
    if (nb.vy < -vmax_guard) nb.vy = -vmax_guard;
    // limit_speed only changes a velocity whose speed is outside [min, max]; the squared
    // test skips its square root for the others (same result, much cheaper).
    const fix v2 = nb.vx * nb.vx + nb.vy * nb.vy;
    if (!(v2 >= min2 && v2 <= max2)) rules::limit_speed(nb.vx, nb.vy, c.minspeed, c.maxspeed, self.vx, self.vy);
    if (c.dt == fix(1)) {  // the Cornell rules' dt: no multiply
      buf_.x[k] = self.x + nb.vx;
      buf_.y[k] = self.y + nb.vy;
    } else {
      buf_.x[k] = self.x + nb.vx * c.dt;
      buf_.y[k] = self.y + nb.vy * c.dt;
    }
    buf_.vx[k] = nb.vx;
    buf_.vy[k] = nb.vy;
    buf_.id[k] = std::uint16_t(id);
  }
}

void BoardFlock::end_step() {
  // Predators move like boids that only turn at the margins (seeds 001/004).
  for (std::uint32_t i = 0; i < n_pred_; ++i) {
    Predator& p = pred_[i];
    const fix ovx = p.vx, ovy = p.vy;
    rules::cornell_edges(p.x, p.y, p.vx, p.vy, c_);
    rules::limit_speed(p.vx, p.vy, c_.minspeed, c_.maxspeed, ovx, ovy);
    p.x += p.vx * c_.dt;
    p.y += p.vy * c_.dt;
  }
  ++frame_;
}

// ---------------------------------------------------------------- metrics
FlockMetrics BoardFlock::metrics(std::uint32_t sample) const {
  FlockMetrics m{};
  if (n_ == 0) {
    const float nan = std::nanf("");
    return {nan, nan, nan, nan, nan};
  }
  std::int64_t sx = 0, sy = 0;
  for (std::uint32_t k = 0; k < n_; ++k) sx += buf_.x[k].raw, sy += buf_.y[k].raw;
  const double cx = double(sx) / n_ / 65536.0, cy = double(sy) / n_ / 65536.0;
  m.centroid_x = float(cx);
  m.centroid_y = float(cy);
  const std::uint32_t stride = sample == 0 || n_ <= sample ? 1 : (n_ + sample - 1) / sample;
  float dsum = 0, ssum = 0, hx = 0, hy = 0;
  std::uint32_t count = 0;
  for (std::uint32_t k = 0; k < n_; k += stride, ++count) {
    const float dx = buf_.x[k].to_float() - float(cx), dy = buf_.y[k].to_float() - float(cy);
    dsum += std::sqrt(dx * dx + dy * dy);
    const float vx = buf_.vx[k].to_float(), vy = buf_.vy[k].to_float();
    const float sp = std::sqrt(vx * vx + vy * vy);
    ssum += sp;
    if (sp > 0) hx += vx / sp, hy += vy / sp;
  }
  m.diameter = dsum / float(count);
  m.mean_speed = ssum / float(count);
  m.polarisation = std::sqrt(hx * hx + hy * hy) / float(count);
  return m;
}

}  // namespace flockscope::board
