// Sections: configuration and spawning | the step (grid sort, boid update, predators) |
// metrics
#include "flockscope/board/board_flock.hpp"

#include "flockscope/core/fnv1a.hpp"
#include "flockscope/core/spawn.hpp"

#include <algorithm>
#include <atomic>
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
  c.bias_pull = fix(1);  // bias_target unit: the board refuses maxspeed (board_params.cpp)
  c.dt = fix(v(pid::dt));
  c.cohesion = v(pid::cohesion) != 0;
  c.alignment = v(pid::alignment) != 0;
  c.separation = v(pid::separation) != 0;
  c.dynamic_bias = v(pid::dynamicbias) != 0;
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
  // pixel; two boids whose Q23.9 offset is inside the range are less than d = ceil(range +
  // 1/512) whole pixels apart, and are at most reach_ cells apart when d * inv < reach_ * 2^16.
  reach_ = reach_pref_;  // the runs of ScanJob hold 2 * reach_ + 1 rows
  const auto d = std::uint32_t(std::ceil(range + 1.0 / 512));
  std::int32_t cs = std::int32_t((d + reach_ - 1) / reach_);
  if (cs < 1) cs = 1;
  while (std::uint64_t(d) * (65536u / std::uint32_t(cs)) >= std::uint64_t(reach_) * 65536u) ++cs;
  // The grid reaches past the screen (boids overshoot the margins, and clamped into the
  // edge cells they would all be each other's candidates), as far as max_cells allows;
  // coarser cells only if even the screen does not fit.
  for (;;) {
    inv_cell_ = 65536u / std::uint32_t(cs);
    bool fits = false;
    for (int pad_cells = 8; pad_cells >= 0 && !fits; --pad_cells) {
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
  // Whole-cell aggregation (make_job): the edges of the columns and rows, in whole pixels.
  // Column c holds the whole pixels px (pad included) with px * inv_cell_ >> 16 == c, i.e.
  // from ceil(c * 2^16 / inv_cell_) on; a boid's Q23.9 x is then within
  // [512 edge_x_[c], 512 edge_x_[c + 1]] (round_q9 may round up onto the next pixel:
  // closed at both ends).
  agg_ok_ = cols_ + 1 <= kMaxEdges && rows_ + 1 <= kMaxEdges;
  if (agg_ok_) {
    auto edge = [&](std::uint32_t line) {
      const std::uint32_t first = (line * 65536u + inv_cell_ - 1) / inv_cell_;
      return std::int16_t(std::int32_t(first) - pad_px_);
    };
    for (std::uint32_t i = 0; i <= cols_; ++i) edge_x_[i] = edge(i);
    for (std::uint32_t i = 0; i <= rows_; ++i) edge_y_[i] = edge(i);
  }
  // The fast scan (flockscope_scan_neighbours) skips the box test and the self test: it
  // needs 0 < protected2 <= visual2 < 2^30 (ranges below 64 px; the boid itself then counts
  // as protected at offset 0, which adds nothing) and offsets whose squares add up within
  // 32 bits: inside unclamped cells a candidate is less than (reach_ + 1) cells + 1 px away,
  // which must stay below 110 px (dy^2 < 2^30 after the first test, dx^2 < 3 * 2^30).
  fast_scan_ = !general_only_ && protected2_ > 0 && protected2_ <= visual2_ && visual2_ < (std::uint64_t(1) << 30) &&
               std::uint64_t(reach_ + 1) * 65536u <= std::uint64_t(109) * inv_cell_;
  build_templates();
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
namespace {
// The column (or row) of a Q16.16 coordinate: monotone and clamped to [0, count), with
// cells at least cell_px_ wide (the reciprocal inv is rounded down): two boids closer than
// the interaction range are at most reach_ cells apart, so the stencil finds every
// neighbour, off screen too. A multiply, not a division. The grid's fields come as
// arguments so that begin_step's loop keeps them in registers.
inline std::uint32_t grid_line(std::int32_t raw, std::int32_t pad, std::uint32_t inv, std::uint32_t count) {
  const std::int32_t p = (raw >> 16) + pad;
  if (p <= 0) return 0;
  const std::uint32_t c = (std::uint32_t(p) * inv) >> 16;
  return c < count ? c : count - 1;
}
}  // namespace

std::uint32_t BoardFlock::cell_x(fix x) const { return grid_line(x.raw, pad_px_, inv_cell_, cols_); }
std::uint32_t BoardFlock::cell_y(fix y) const { return grid_line(y.raw, pad_px_, inv_cell_, rows_); }

void BoardFlock::begin_step() {
  sort_cells(0, n_);
  sort_scatter();
  sort_finish(0, n_);
  sort_sums();
}

// The counting sort of the last state into cell order, in four parts so that two cores can
// share the per-boid passes (sort_cells, sort_finish: disjoint ranges, any order) around
// the serial scatter: the state is scattered into `near` (Q16.16, as scratch), copied
// back in grid order, and `near` becomes the Q23.9 snapshot the neighbour scans read (the
// previous frame: the update writes only the state).
void BoardFlock::sort_cells(std::uint32_t begin, std::uint32_t end) {
  // cell_y() * cols_ + cell_x(), with the buffers and the grid in locals (kept in
  // registers, not reloaded from *this after every store).
  const fix *x = buf_.x, *y = buf_.y;
  std::uint16_t* cell = buf_.cell;
  const std::int32_t pad = pad_px_;
  const std::uint32_t inv = inv_cell_, cols = cols_, rows = rows_;
  if (end > n_) end = n_;
  for (std::uint32_t i = begin; i < end; ++i)
    cell[i] = std::uint16_t(grid_line(y[i].raw, pad, inv, rows) * cols + grid_line(x[i].raw, pad, inv, cols));
}

void BoardFlock::sort_scatter() {
  const std::uint32_t cells = cols_ * rows_;
  tmpl_always_ = aggregate_on() && templates_ && tmpl_ok_ && agg_min_ == 0;  // make_job's shortcuts
  plain_only_ = !aggregate_on();
  std::uint16_t* start = buf_.cell_start;
  const std::uint16_t* cell = buf_.cell;
  const std::uint32_t n = n_;
  for (std::uint32_t c = 0; c <= cells; ++c) start[c] = 0;
  for (std::uint32_t i = 0; i < n; ++i) ++start[cell[i] + 1];
  for (std::uint32_t c = 0; c < cells; ++c) start[c + 1] = std::uint16_t(start[c + 1] + start[c]);
  NearBoid* near = buf_.near;
  const fix *x = buf_.x, *y = buf_.y, *vx = buf_.vx, *vy = buf_.vy;
  const std::uint16_t* id = buf_.id;
  std::uint16_t* sid = buf_.sid;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t k = start[cell[i]]++;
    near[k] = {x[i].raw, y[i].raw, vx[i].raw, vy[i].raw};
    sid[k] = id[i];
  }
  // Each start[c] now points one past cell c, i.e. at the start of c + 1: shift back.
  for (std::uint32_t c = cells; c > 0; --c) start[c] = start[c - 1];
  start[0] = 0;
}

void BoardFlock::sort_finish(std::uint32_t begin, std::uint32_t end) {
  NearBoid* near = buf_.near;
  fix *x = buf_.x, *y = buf_.y, *vx = buf_.vx, *vy = buf_.vy;
  std::uint16_t* id = buf_.id;
  const std::uint16_t* sid = buf_.sid;
  if (end > n_) end = n_;
  for (std::uint32_t k = begin; k < end; ++k) {
    NearBoid& b = near[k];
    x[k].raw = b.x, y[k].raw = b.y, vx[k].raw = b.vx, vy[k].raw = b.vy;
    id[k] = sid[k];
    b = {round_q9(b.x), round_q9(b.y), round_q9(b.vx), round_q9(b.vy)};
  }
}

void BoardFlock::sort_sums() {
  // With aggregation: the cells' prefix sums (CellSum) of the snapshot. They may share
  // memory with the sort's scratch (`cell`, `sid`), which is done with by now.
  if (!aggregate_on()) return;
  std::atomic_signal_fence(std::memory_order_seq_cst);  // the scratch's last reads come first
  const std::uint32_t cells = cols_ * rows_;
  const std::uint16_t* start = buf_.cell_start;
  const NearBoid* near = buf_.near;
  CellSum* csum = buf_.cell_sum;
  std::uint32_t ax = 0, ay = 0, avx = 0, avy = 0;
  for (std::uint32_t c = 0, k = 0; c < cells; ++c) {
    csum[c] = {ax, ay, avx, avy};
    for (const std::uint32_t e = start[c + 1]; k < e; ++k) {
      const NearBoid& b = near[k];
      ax += std::uint32_t(b.x), ay += std::uint32_t(b.y), avx += std::uint32_t(b.vx), avy += std::uint32_t(b.vy);
    }
  }
  csum[cells] = {ax, ay, avx, avy};
}

// ---- the neighbour scan
namespace {
// The fast scan in C++: the host's flockscope_scan_neighbours, and on the RP2040 (which
// assembles scan_m0.S instead) the reference check_scan() compares it with.
// Preconditions in board_flock.hpp and configure().
void scan_fast_cpp(ScanJob* job) {
  const std::int32_t x = job->x, y = job->y;
  const std::uint32_t vis2 = job->visual2, prot2 = job->protected2;
  std::uint32_t sum_x = 0, sum_y = 0;
  std::int32_t sum_vx = 0, sum_vy = 0, seen = 0, sep_x = 0, sep_y = 0;
  for (std::uint32_t r = 0; r < job->runs; ++r) {
    for (const NearBoid *p = job->run[2 * r], *e = job->run[2 * r + 1]; p < e; ++p) {
      const std::int32_t dy = y - p->y;
      const std::uint32_t dy2 = std::uint32_t(dy) * std::uint32_t(dy);
      if (dy2 >= vis2) continue;
      const std::int32_t dx = x - p->x;
      const std::uint32_t d2 = std::uint32_t(dx) * std::uint32_t(dx) + dy2;
      if (d2 >= vis2) continue;
      if (d2 < prot2) {
        sep_x += dx, sep_y += dy;
      } else {
        sum_x += std::uint32_t(p->x), sum_y += std::uint32_t(p->y);
        sum_vx += p->vx, sum_vy += p->vy;
        ++seen;
      }
    }
  }
  job->sum_x = sum_x, job->sum_y = sum_y, job->sum_vx = sum_vx, job->sum_vy = sum_vy;
  job->seen = seen, job->sep_x = sep_x, job->sep_y = sep_y;
}
}  // namespace

#ifndef FLOCKSCOPE_SCAN_ASM
extern "C" void flockscope_scan_neighbours(ScanJob* job) { scan_fast_cpp(job); }
#endif

namespace {
// The general scan (any ranges, boids in clamped edge cells far off screen): the box test
// first, then core's rules::cornell_classify on exact 64-bit squares of the Q23.9 offsets
// (near9), skipping the boid itself. Same sums as the fast scan wherever both apply.
void scan_general(ScanJob& job, const NearBoid* self, std::int32_t range9, std::uint64_t visual2,
                  std::uint64_t protected2) {
  rules::CornellCoeffs<near9> c{};
  c.range = near9::from_raw(range9);
  c.visual2 = near9::from_raw(std::int64_t(visual2));
  c.protected2 = near9::from_raw(std::int64_t(protected2));
  for (std::uint32_t r = 0; r < job.runs; ++r) {
    for (const NearBoid *p = job.run[2 * r], *e = job.run[2 * r + 1]; p < e; ++p) {
      if (p == self) continue;
      const std::int32_t dx = std::int32_t(std::uint32_t(job.x) - std::uint32_t(p->x));
      const std::int32_t dy = std::int32_t(std::uint32_t(job.y) - std::uint32_t(p->y));
      bool separate, visible;
      rules::cornell_classify(near9::from_raw(dx), near9::from_raw(dy), c, separate, visible);  // core's rule
      if (separate) {
        job.sep_x += dx, job.sep_y += dy;
      } else if (visible) {
        job.sum_x += std::uint32_t(p->x), job.sum_y += std::uint32_t(p->y);
        job.sum_vx += p->vx, job.sum_vy += p->vy;
        ++job.seen;
      }
    }
  }
}
}  // namespace

// Whole-cell aggregation. Each stencil cell is classified against the boid from its
// closed Q23.9 bounds (edge_x_, edge_y_): with dmin/dmax the least/greatest offset from the
// boid to any point of the cell per axis,
//   outside  dxmin^2 + dymin^2 >= visual2: no boid of the cell is visible or protected
//            (protected2 <= visual2), so it is left out of the runs;
//   whole    dxmax^2 + dymax^2 < visual2 and dxmin^2 + dymin^2 >= protected2: every boid
//            of the cell is visible and not protected by cornell_classify's strict tests
//            (and inside its box, as |dx|, |dy| < range), so the cell adds exactly its
//            totals: count and sums of x, y, vx, vy (integer sums in wrapping arithmetic,
//            associative: bit-identical to adding its boids one by one). The boid's own
//            cell is never whole (dmin = 0 < protected2);
//   partial  the rest: scanned boid by boid as before.
// In a row, the outside cells are at the ends (dxmin falls then rises) and the whole ones
// form at most two intervals (dxmax^2 < c is an interval, dxmin^2 >= c' the complement of
// one), so a row gives at most three runs of partial cells.
void BoardFlock::make_aggregated_job(std::uint32_t cx, std::uint32_t cy, ScanJob& job, WholeSums& whole) const {
  const NearBoid* near = buf_.near;
  const std::uint16_t* start = buf_.cell_start;
  const CellSum* csum = buf_.cell_sum;
  const std::uint32_t reach = reach_, cols = cols_, width = 2 * reach + 1;
  const std::int32_t X = job.x, Y = job.y;
  const std::uint32_t vis2 = job.visual2, prot2 = job.protected2;
  std::uint32_t dxmin2[2 * kMaxReach + 1], dxmax2[2 * kMaxReach + 1];
  for (std::uint32_t i = 0; i < width; ++i) {
    const std::uint32_t col = cx - reach + i;
    const std::int32_t a = X - edge_x_[col] * 512, b = edge_x_[col + 1] * 512 - X;
    const std::int32_t dmin = a < 0 ? -a : b < 0 ? -b : 0, dmax = a > b ? a : b;
    dxmin2[i] = std::uint32_t(dmin) * std::uint32_t(dmin);
    dxmax2[i] = std::uint32_t(dmax) * std::uint32_t(dmax);
  }
  std::uint32_t wx = 0, wy = 0, wvx = 0, wvy = 0, wn = 0, runs = 0;
  for (std::uint32_t r = 0; r < width; ++r) {
    const std::uint32_t row = cy - reach + r;
    const std::int32_t a = Y - edge_y_[row] * 512, b = edge_y_[row + 1] * 512 - Y;
    const std::int32_t dmin = a < 0 ? -a : b < 0 ? -b : 0, dmax = a > b ? a : b;
    const std::uint32_t dymin2 = std::uint32_t(dmin) * std::uint32_t(dmin);
    if (dymin2 >= vis2) continue;  // the whole row is outside
    const std::uint32_t dymax2 = std::uint32_t(dmax) * std::uint32_t(dmax);
    const std::uint32_t vmin_rem = vis2 - dymin2;                      // outside: dxmin2 >= vmin_rem
    const std::uint32_t vmax_rem = dymax2 < vis2 ? vis2 - dymax2 : 0;  // whole: dxmax2 < vmax_rem
    const std::uint32_t prem = dymin2 < prot2 ? prot2 - dymin2 : 0;    //   and dxmin2 >= prem
    std::uint32_t i = 0, e = width;
    while (i < e && dxmin2[i] >= vmin_rem) ++i;
    while (e > i && dxmin2[e - 1] >= vmin_rem) --e;
    const std::uint32_t base = row * cols + cx - reach;
    while (i < e) {
      const bool w = dxmax2[i] < vmax_rem && dxmin2[i] >= prem;
      std::uint32_t j = i + 1;
      while (j < e && (dxmax2[j] < vmax_rem && dxmin2[j] >= prem) == w) ++j;
      const std::uint32_t s0 = start[base + i], s1 = start[base + j];
      if (s0 != s1) {
        if (w) {
          const CellSum &p = csum[base + i], &q = csum[base + j];
          wx += q.x - p.x, wy += q.y - p.y, wvx += q.vx - p.vx, wvy += q.vy - p.vy;
          wn += s1 - s0;
        } else {
          job.run[2 * runs] = near + s0;
          job.run[2 * runs + 1] = near + s1;
          ++runs;
        }
      }
      i = j;
    }
  }
  job.runs = runs;
  whole = {wx, wy, wvx, wvy, std::int32_t(wn)};
}

// The templates: for every bin of the boid's position in its cell (a square of 2^shift
// Q23.9 units), every stencil cell classified as in make_aggregated_job for all positions in
// the bin at once (the least |dx| over the bin and the cell, the greatest, likewise dy), so
// that whole and outside hold for each boid of the bin. Needs cells of one width W
// wherever a fast stencil reaches (columns and rows 1 .. n - 2).
void BoardFlock::build_templates() {
  tmpl_ok_ = false;
  if (!agg_ok_ || !fast_scan_ || cols_ < 3 || rows_ < 3) return;
  const std::int32_t w = edge_x_[2] - edge_x_[1];
  for (std::uint32_t c = 1; c + 1 < cols_; ++c)
    if (edge_x_[c + 1] - edge_x_[c] != w) return;
  for (std::uint32_t r = 1; r + 1 < rows_; ++r)
    if (edge_y_[r + 1] - edge_y_[r] != w) return;
  const std::int64_t cell9 = std::int64_t(w) * 512;  // offsets in the cell: 0 .. cell9
  std::uint32_t shift = 0;
  while ((cell9 >> shift) + 1 > std::int64_t(kMaxBins)) ++shift;
  const auto bins = std::uint32_t(cell9 >> shift) + 1;
  const std::uint32_t reach = reach_, width = 2 * reach + 1;
  const auto vis2 = std::int64_t(visual2_), prot2 = std::int64_t(protected2_);
  // Least and greatest |d| for d in [lo, hi].
  auto dmin = [](std::int64_t lo, std::int64_t hi) { return lo > 0 ? lo : hi < 0 ? -hi : 0; };
  auto dmax = [](std::int64_t lo, std::int64_t hi) { return -lo > hi ? -lo : hi; };
  std::uint32_t used = 0;
  for (std::uint32_t by = 0; by < bins; ++by)
    for (std::uint32_t bx = 0; bx < bins; ++bx) {
      tmpl_start_[by * bins + bx] = std::uint16_t(used);
      const std::int64_t ulo = std::int64_t(bx) << shift, uhi = std::min((std::int64_t(bx + 1) << shift) - 1, cell9);
      const std::int64_t vlo = std::int64_t(by) << shift, vhi = std::min((std::int64_t(by + 1) << shift) - 1, cell9);
      for (std::uint32_t r = 0; r < width; ++r) {
        // dy = boid - other over the bin and the cell [(r - reach) cell9, (r - reach + 1) cell9].
        const std::int64_t oy = (std::int64_t(r) - std::int64_t(reach)) * cell9;
        const std::int64_t ylo = vlo - (oy + cell9), yhi = vhi - oy;
        const std::int64_t ymin = dmin(ylo, yhi), ymax = dmax(ylo, yhi);
        std::uint8_t cls[2 * kMaxReach + 1];  // 0 outside, 1 partial, 2 whole
        for (std::uint32_t i = 0; i < width; ++i) {
          const std::int64_t ox = (std::int64_t(i) - std::int64_t(reach)) * cell9;
          const std::int64_t xlo = ulo - (ox + cell9), xhi = uhi - ox;
          const std::int64_t xmin = dmin(xlo, xhi), xmax = dmax(xlo, xhi);
          const std::int64_t near2 = xmin * xmin + ymin * ymin, far2 = xmax * xmax + ymax * ymax;
          cls[i] = near2 >= vis2 ? 0 : far2 < vis2 && near2 >= prot2 ? 2 : 1;
        }
        std::uint32_t i = 0, e = width;
        while (i < e && cls[i] == 0) ++i;
        while (e > i && cls[e - 1] == 0) --e;
        while (i < e) {
          const bool whole = cls[i] == 2;
          std::uint32_t j = i + 1;
          while (j < e && (cls[j] == 2) == whole) ++j;
          const std::uint32_t off = r * cols_ + i;
          if (used == kTemplatePool || off >= 2048) return;
          tmpl_seg_[used] = std::uint16_t(off << 5 | (j - i) << 1 | (whole ? 1 : 0));
          ++used;
          i = j;
        }
      }
      // Partial segments first, whole ones after (make_template_job's two loops).
      {
        std::uint16_t tmp[5 * (2 * kMaxReach + 1)];  // at most 5 segments a row (no allocation)
        const std::uint32_t first = tmpl_start_[by * bins + bx];
        std::uint32_t m = 0;
        for (int pass = 0; pass < 2; ++pass)
          for (std::uint32_t q = first; q < used; ++q)
            if ((tmpl_seg_[q] & 1u) == std::uint32_t(pass)) tmp[m++] = tmpl_seg_[q];
        for (std::uint32_t q = 0; q < m; ++q) tmpl_seg_[first + q] = tmp[q];
      }
    }
  tmpl_start_[bins * bins] = std::uint16_t(used);
  tmpl_shift_ = shift;
  tmpl_bins_ = bins;
  tmpl_ok_ = true;
}

void BoardFlock::make_template_job(std::uint32_t cx, std::uint32_t cy, ScanJob& job, WholeSums& whole) const {
  const std::uint16_t* start = buf_.cell_start;
  // The boid's offset in its cell: 0 .. 512 W (see configure()).
  const auto u = std::uint32_t(job.x - edge_x_[cx] * 512), v = std::uint32_t(job.y - edge_y_[cy] * 512);
  const std::uint32_t bin = (v >> tmpl_shift_) * tmpl_bins_ + (u >> tmpl_shift_);
  const std::uint16_t* seg = tmpl_seg_ + tmpl_start_[bin];
  const std::uint16_t* const end = tmpl_seg_ + tmpl_start_[bin + 1];
  const std::uint16_t* const s = start + ((cy - reach_) * cols_ + cx - reach_);  // the stencil's top-left
  // The partial segments come first (build_templates): runs for the scan.
  {
    const NearBoid* near = buf_.near;
    const NearBoid** run = job.run;
    for (; seg != end; ++seg) {
      const std::uint32_t t = *seg;
      if (t & 1) break;
      const std::uint16_t* c = s + (t >> 5);
      const std::uint32_t s0 = c[0], s1 = c[(t >> 1) & 15];
      if (s0 == s1) continue;
      run[0] = near + s0;
      run[1] = near + s1;
      run += 2;
    }
    job.runs = std::uint32_t(run - job.run) / 2;
  }
  // Then the whole ones: totals from the prefix sums (an empty one adds zeros).
  const CellSum* const cs = buf_.cell_sum + (s - start);
  std::uint32_t wx = 0, wy = 0, wvx = 0, wvy = 0, wn = 0;
  for (; seg != end; ++seg) {
    const std::uint32_t t = *seg, a = t >> 5, b = a + ((t >> 1) & 15);
    const CellSum &p = cs[a], &q = cs[b];
    wx += q.x - p.x, wy += q.y - p.y, wvx += q.vx - p.vx, wvy += q.vy - p.vy;
    wn += std::uint32_t(s[b] - s[a]);
  }
  whole = {wx, wy, wvx, wvy, std::int32_t(wn)};
}

namespace {
// The edge scan: for stencils that reach the clamped outermost cells (whose boids may be
// anywhere beyond them) when the fast scan's ranges hold (range9 < 2^15, 0 < protected2 <=
// visual2 = range9^2). cornell_classify in 32 bits: the box test |dx|, |dy| < range first
// (so the squares stay below 2^30 each), then the strict d2 tests; the boid itself adds a
// zero offset to the protected sums, as in the fast scan. The job's sums are zero.
void scan_edge(ScanJob& job, std::int32_t range9) {
  const std::int32_t x = job.x, y = job.y;
  const std::uint32_t vis2 = job.visual2, prot2 = job.protected2;
  const std::int32_t r1 = range9 - 1;
  const auto span = std::uint32_t(2 * range9 - 1);
  std::uint32_t sum_x = 0, sum_y = 0, sum_vx = 0, sum_vy = 0, seen = 0, sep_x = 0, sep_y = 0;
  for (std::uint32_t r = 0; r < job.runs; ++r) {
    for (const NearBoid *p = job.run[2 * r], *e = job.run[2 * r + 1]; p < e; ++p) {
      const std::int32_t dy = y - p->y;
      if (std::uint32_t(dy + r1) >= span) continue;  // |dy| >= range
      const std::int32_t dx = x - p->x;
      if (std::uint32_t(dx + r1) >= span) continue;
      const std::uint32_t d2 = std::uint32_t(dx * dx) + std::uint32_t(dy * dy);
      if (d2 < prot2) {
        sep_x += std::uint32_t(dx), sep_y += std::uint32_t(dy);
      } else if (d2 < vis2) {
        sum_x += std::uint32_t(p->x), sum_y += std::uint32_t(p->y);
        sum_vx += std::uint32_t(p->vx), sum_vy += std::uint32_t(p->vy);
        ++seen;
      }
    }
  }
  job.sum_x = sum_x, job.sum_y = sum_y, job.sum_vx = std::int32_t(sum_vx), job.sum_vy = std::int32_t(sum_vy);
  job.seen = std::int32_t(seen), job.sep_x = std::int32_t(sep_x), job.sep_y = std::int32_t(sep_y);
}
}  // namespace

bool BoardFlock::make_job(std::uint32_t k, ScanJob& job, WholeSums& whole) const {
  const NearBoid* near = buf_.near;
  job.x = near[k].x;
  job.y = near[k].y;
  job.visual2 = std::uint32_t(visual2_);  // used by the fast scan only, where they fit
  job.protected2 = std::uint32_t(protected2_);
  // Slot k's cell (its state is still the previous frame's: update() writes it after the
  // scan).
  return make_runs(cell_x(buf_.x[k]), cell_y(buf_.y[k]), job, whole);
}

bool BoardFlock::make_runs(std::uint32_t cx, std::uint32_t cy, ScanJob& job, WholeSums& whole) const {
  const NearBoid* near = buf_.near;
  const std::uint16_t* start = buf_.cell_start;
  const std::uint32_t reach = reach_, cols = cols_, rows = rows_;
  // The fast scan when the stencil stays off the clamped outermost cells.
  const bool fast = fast_scan_ && cx > reach && cx + reach + 1 < cols && cy > reach && cy + reach + 1 < rows;
  if (fast && plain_only_) {  // the default (whole cells off): the stencil's row runs
    whole.n = 0;
    const std::uint16_t* s = start + ((cy - reach) * cols + cx - reach);
    const std::uint32_t width = 2 * reach + 1;
    for (std::uint32_t r = 0; r < width; ++r, s += cols) {
      job.run[2 * r] = near + s[0];
      job.run[2 * r + 1] = near + s[width];
    }
    job.runs = width;
    return true;
  }
  if (fast && tmpl_always_) {  // templates for every fast stencil
    make_template_job(cx, cy, job, whole);
    return true;
  }
  if (fast && aggregate_on()) {
    if (!(templates_ && tmpl_ok_)) {
      make_aggregated_job(cx, cy, job, whole);
      return true;
    }
    if (agg_min_ == 0) {
      make_template_job(cx, cy, job, whole);
      return true;
    }
  }
  whole.n = 0;  // (only n: a struct assignment here compiled to a memset call on the M0+)
  if (fast) {  // all 2 * reach + 1 rows inside the grid
    const std::uint16_t* s = start + ((cy - reach) * cols + cx - reach);
    const std::uint32_t width = 2 * reach + 1;
    std::uint32_t count = 0;
    for (std::uint32_t r = 0; r < width; ++r, s += cols) {
      const std::uint32_t s0 = s[0], s1 = s[width];
      job.run[2 * r] = near + s0;
      job.run[2 * r + 1] = near + s1;
      count += s1 - s0;
    }
    job.runs = width;
    // Optionally (set_aggregate_min) whole cells only where the stencil is crowded.
    if (count >= agg_min_ && aggregate_on() && templates_ && tmpl_ok_) make_template_job(cx, cy, job, whole);
    return true;
  }
  const std::uint32_t x0 = cx > reach ? cx - reach : 0, x1 = cx + reach < cols ? cx + reach : cols - 1;
  const std::uint32_t y0 = cy > reach ? cy - reach : 0, y1 = cy + reach < rows ? cy + reach : rows - 1;
  job.sum_x = job.sum_y = 0;
  job.sum_vx = job.sum_vy = job.seen = job.sep_x = job.sep_y = 0;
  job.runs = 0;
  for (std::uint32_t row = y0; row <= y1; ++row) {
    job.run[2 * job.runs] = near + start[row * cols + x0];
    job.run[2 * job.runs + 1] = near + start[row * cols + x1 + 1];
    ++job.runs;
  }
  // Boids in the outermost cells may be anywhere beyond them: those stencils take the
  // general scan, as do parameter sets outside the fast scan's conditions.
  return false;
}

namespace {
void add_whole(ScanJob& job, const WholeSums& w) {
  if (w.n == 0) return;  // the sums are then zero (and unset)
  job.sum_x += w.x, job.sum_y += w.y;
  job.sum_vx = std::int32_t(std::uint32_t(job.sum_vx) + w.vx);
  job.sum_vy = std::int32_t(std::uint32_t(job.sum_vy) + w.vy);
  job.seen += w.n;
}
}  // namespace

bool BoardFlock::scan_sums(std::uint32_t k, ScanJob& job) const {
  WholeSums whole;
  const bool fast = make_job(k, job, whole);
  if (fast)
    flockscope_scan_neighbours(&job);
  else if (fast_scan_)
    scan_edge(job, range9_);
  else
    scan_general(job, buf_.near + k, range9_, visual2_, protected2_);
  add_whole(job, whole);
  return fast;
}

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
  return h.h;
}

std::uint32_t BoardFlock::check_scan() const {
  std::uint32_t differ = 0;
  for (std::uint32_t k = 0; k < n_; ++k) {
    ScanJob a, b;
    WholeSums whole;
    if (!make_job(k, a, whole)) continue;
    b = a;
    flockscope_scan_neighbours(&a);
    scan_fast_cpp(&b);
    differ += a.sum_x != b.sum_x || a.sum_y != b.sum_y || a.sum_vx != b.sum_vx || a.sum_vy != b.sum_vy ||
              a.seen != b.seen || a.sep_x != b.sep_x || a.sep_y != b.sep_y;
  }
  return differ;
}

void BoardFlock::update(std::uint32_t begin, std::uint32_t end) {
  if (end > n_) end = n_;
  const NearBoid* near = buf_.near;
  const rules::CornellCoeffs<fix>& c = c_;
  const std::uint32_t npred = predator_count();
  const std::uint32_t scout_end = std::min(scouts1_ + scouts2_, buf_.bias_capacity);  // ids below: scouts
  std::uint32_t (*const clock)() = clock_;
  std::uint32_t scan_cycles = 0;  // added to scan_cycles_ at the end (not a member store per boid)
  const fix vmax_guard(100);
  const fix min2 = c.minspeed * c.minspeed, max2 = c.maxspeed * c.maxspeed;
  ScanJob job;
  WholeSums whole;
  job.visual2 = std::uint32_t(visual2_);  // as make_job() sets them (no scan writes them)
  job.protected2 = std::uint32_t(protected2_);
  // Slots are in grid order (begin_step): slot k lies in the cell c with start[c] <= k <
  // start[c + 1], the cell make_job() computes from its position. So the cell is found by
  // walking the cells along with k from the first slot's (no per-boid cell_x/cell_y), and
  // the plain fast job, whose runs depend on the cell only (no scan writes them), is built
  // once per cell (make_runs), not once per boid. Every other kind of job depends on the
  // boid (template bins, whole sums) or has its sums accumulated (the general scan): made
  // afresh for each.
  const std::uint16_t* start = buf_.cell_start;
  const std::uint32_t cols = cols_;
  std::uint32_t cx = 0, cy = 0;
  if (begin < end) cx = cell_x(buf_.x[begin]), cy = cell_y(buf_.y[begin]);
  const std::uint16_t* next = start + (cy * cols + cx + 1);  // start[c + 1] of the cell c
  bool fast = false, reuse = false;

  for (std::uint32_t k = begin; k < end; ++k) {
    const Boid<fix> self{buf_.x[k], buf_.y[k], buf_.vx[k], buf_.vy[k]};
    job.x = near[k].x;
    job.y = near[k].y;
    if (*next <= k) {  // past the cell (and any empty ones after it)
      do {
        ++next;
        if (++cx == cols) cx = 0, ++cy;
      } while (*next <= k);
      reuse = false;
    }
    if (!reuse) {
      fast = make_runs(cx, cy, job, whole);
      reuse = fast && plain_only_;
    }
    const std::uint32_t t0 = clock ? clock() : 0;
    if (fast)
      flockscope_scan_neighbours(&job);
    else if (fast_scan_)
      scan_edge(job, range9_);
    else
      scan_general(job, near + k, range9_, visual2_, protected2_);
    if (clock) scan_cycles += (clock() - t0) & 0xFFFFFFu;
    add_whole(job, whole);
    const std::int32_t seen = job.seen;
    // Relative sums (Q23.9): sum of (other - self) = sum of others - seen * self, in
    // wrapping arithmetic (exact: the true value is small).
    const auto rel_x = std::int32_t(job.sum_x - std::uint32_t(seen) * std::uint32_t(job.x));
    const auto rel_y = std::int32_t(job.sum_y - std::uint32_t(seen) * std::uint32_t(job.y));
    // Hand rules::cornell_steer the neighbours' means with a count of 1 (it only ever uses
    // sum / count): the division happens here, in 32 bits where the sums cannot overflow.
    rules::CornellSums<fix> s;
    if (seen > 0) {
      auto mean = [seen](std::int32_t sum9) {  // Q23.9 sum -> Q16.16 mean
        return fix::from_raw((sum9 < (1 << 24) && sum9 > -(1 << 24)) ? div_s32(sum9 * 128, seen)
                                                                       : div_s32(sum9, seen) * 128);
      };
      s.xpos = self.x + mean(rel_x);
      s.ypos = self.y + mean(rel_y);
      s.xvel = mean(job.sum_vx);
      s.yvel = mean(job.sum_vy);
      s.neighbours = 1;
    }
    auto q9_to_fix = [](std::int32_t v9) {  // Q23.9 -> Q16.16, saturated (32-bit tests)
      return fix::from_raw(v9 >= (1 << 24) ? INT32_MAX : v9 < -(1 << 24) ? INT32_MIN : v9 * 128);
    };
    s.close_dx = q9_to_fix(job.sep_x);
    s.close_dy = q9_to_fix(job.sep_y);
    rules::PredatorSums<fix> ps;
    for (std::uint32_t q = 0; q < npred; ++q)
      rules::predator_accumulate(ps, self.x - pred_[q].x, self.y - pred_[q].y, c);
    Boid<fix> nb = rules::cornell_steer(self, s, ps, c);
    const std::uint32_t id = buf_.id[k];
    if (id < scout_end) {
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
    const fix v2 = square(nb.vx) + square(nb.vy);  // = vx * vx + vy * vy (fixed.hpp)
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
  }
  scan_cycles_ += scan_cycles;
}

void BoardFlock::end_step() {
  // Predators move like boids that only turn at the margins (seeds 001/004).
  for (std::uint32_t i = 0; i < n_pred_; ++i) {
    BoardPredator& p = pred_[i];
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
    return {nan, nan, nan, nan, nan, 0};
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
  m.boids = count;
  return m;
}

}  // namespace flockscope::board
