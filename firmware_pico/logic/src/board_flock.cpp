// Sections: configuration and spawning | the step (grid sort, boid update, predators) |
// metrics
#include "flockscope/board/board_flock.hpp"

#include "flockscope/core/fnv1a.hpp"
#include "flockscope/core/spawn.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>

namespace flockscope::board {

using rules::Boid;

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
  // the paths fix's operators take for such values, so it gives update_boid's bits.
  const auto weight = [](fix w) { return w.raw >= 0 && w.raw < 65536; };
  const auto below128 = [](fix speed) { return speed.raw >= 0 && speed.raw < (1 << 23); };
  rules_fast_ = !general_rules_only_ && weight(c.centering) && weight(c.matching) && weight(c.avoid) &&
                c.dt == fix(1) && c.predator_range.raw <= (1 << 23) && below128(c.minspeed) && below128(c.maxspeed);
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

// grid_line() with one unsigned test on p = (raw >> 16) + pad: below limit
// (grid_line_limit: p >= 0, p inv neither wraps nor reaches count 2^16) it is (p inv) >> 16;
// the rest (off the grid's ends) goes through grid_line(). The steps of sort_m0.S.
inline std::uint32_t grid_line_fast(std::int32_t raw, std::int32_t pad, std::uint32_t inv, std::uint32_t count,
                                    std::uint32_t limit) {
  const auto p = std::uint32_t((raw >> 16) + pad);
  return p < limit ? (p * inv) >> 16 : grid_line(raw, pad, inv, count);
}
}  // namespace

std::uint32_t BoardFlock::cell_x(fix x) const { return grid_line(x.raw, pad_px_, inv_cell_, cols_); }
std::uint32_t BoardFlock::cell_y(fix y) const { return grid_line(y.raw, pad_px_, inv_cell_, rows_); }

void BoardFlock::begin_step() {
  sort_cells(0, n_);
  sort_scatter();
  sort_finish(0, n_);
}

// The counting sort of the last state into cell order, in parts so that two cores can
// share the per-boid passes (sort_cells, sort_move, sort_finish: disjoint ranges, any
// order) around the serial count: the state is scattered into `near` (Q16.16, as
// scratch), copied back in grid order, and `near` becomes the Q23.9 snapshot the neighbour
// scans read (the previous frame: the update writes only the state).
namespace {
// sort_cells()'s per-slot pass (plain data with fixed offsets: the RP2040 build runs it in
// Thumb-1, sort_m0.S): the slots' x from the first on, its end, y and cell from the same
// slot; the grid (limits: grid_line_limit of cols and rows).
struct SortCellsJob {
  const fix *x, *x_end, *y;              // 0, 4, 8 (each its raw Q16.16 word)
  std::uint16_t* cell;                   // 12
  std::int32_t pad;                      // 16
  std::uint32_t inv, cols, rows;         // 20, 24, 28
  std::uint32_t limit_x, limit_y;        // 32, 36
};
static_assert(sizeof(void*) != 4 || sizeof(SortCellsJob) == 40, "sort_m0.S reads SortCellsJob at fixed offsets");
}  // namespace
extern "C" void flockscope_sort_cells(const SortCellsJob* job);
#ifndef FLOCKSCOPE_SORT_ASM
extern "C" void flockscope_sort_cells(const SortCellsJob* job) {
  // cell_y() * cols + cell_x().
  const fix* y = job->y;
  std::uint16_t* cell = job->cell;
  const std::int32_t pad = job->pad;
  const std::uint32_t inv = job->inv, cols = job->cols, rows = job->rows;
  for (const fix* x = job->x; x != job->x_end; ++x, ++y, ++cell)
    *cell = std::uint16_t(grid_line_fast(y->raw, pad, inv, rows, job->limit_y) * cols +
                          grid_line_fast(x->raw, pad, inv, cols, job->limit_x));
}
#endif

void BoardFlock::sort_cells(std::uint32_t begin, std::uint32_t end) {
  if (end > n_) end = n_;
  if (begin >= end) return;
  const SortCellsJob job{buf_.x + begin, buf_.x + end, buf_.y + begin, buf_.cell + begin, pad_px_,
                         inv_cell_,      cols_,        rows_,          line_limit_x_,      line_limit_y_};
  flockscope_sort_cells(&job);
}

void BoardFlock::sort_scatter() {
  sort_count();
  sort_move(0, cell_count());
}

void BoardFlock::sort_count() {
  // Serial (one core while the other waits), so its loops are unrolled by hand: the M0+
  // pays a compare and a taken branch for every turn. It leaves start[c] at the end of
  // cell c (the running sum up to and including it), and sort_move() moves each cell's
  // boids in from its end, so that start[c] ends at the cell's first slot with no pass
  // over the cells afterwards.
  const std::uint32_t cells = cell_count();
  std::uint16_t* const count = buf_.cell_start;
  const std::uint16_t* cell = buf_.cell;
  const std::uint32_t n = n_;
  // The counters zeroed as whole words (cell_start may start on a halfword).
  std::uint32_t c0 = 0;
  if (reinterpret_cast<std::uintptr_t>(count) & 2u) count[c0++] = 0;
  flockscope_zero_words(reinterpret_cast<std::uint32_t*>(count + c0), (cells - c0) / 2);
  if ((cells - c0) & 1u) count[cells - 1] = 0;
  count[cells] = std::uint16_t(n);
  std::uint32_t i = 0;
  for (; i + 2 <= n; i += 2) ++count[cell[i]], ++count[cell[i + 1]];
  if (i < n) ++count[cell[i]];
  // The running sum in a register; each store keeps its low 16 bits (it is at most n).
  std::uint32_t sum = 0, c = 0;
  for (; c + 4 <= cells; c += 4) {
    count[c] = std::uint16_t(sum += count[c]);
    count[c + 1] = std::uint16_t(sum += count[c + 1]);
    count[c + 2] = std::uint16_t(sum += count[c + 2]);
    count[c + 3] = std::uint16_t(sum += count[c + 3]);
  }
  for (; c < cells; ++c) count[c] = std::uint16_t(sum += count[c]);
}

std::uint32_t BoardFlock::middle_cell() const {
  // The first cell c whose end (start[c] after sort_count) is at least n / 2 (start[]
  // ascends; start[cells] = n).
  const std::uint16_t* start = buf_.cell_start;
  std::uint32_t lo = 0, hi = cell_count();
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi) / 2;
    if (start[mid] >= n_ / 2) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

namespace {
// sort_move()'s two passes (plain data with fixed offsets: the RP2040 build runs them in
// Thumb-1, sort_m0.S). start is cell_start + begin: the cells' counters from the first
// moved cell on; slot_end the end of the last moved cell (its counter before the move);
// span 2^32 - 1 when the cells are all of them (the assembly then skips the test).
struct SortMoveJob {
  const std::uint16_t* cell;             // 0
  std::uint32_t n;                       // 4
  std::uint16_t* start;                  // 8
  std::uint32_t begin, span, slot_end;   // 12, 16, 20
  const std::uint16_t* id;               // 24
  std::uint16_t* sid;                    // 28
  NearBoid* near;                        // 32
  const fix *x, *y, *vx, *vy;            // 36, 40, 44, 48 (each its raw Q16.16 word)
};
static_assert(sizeof(void*) != 4 || sizeof(SortMoveJob) == 52, "sort_m0.S reads SortMoveJob at fixed offsets");
}  // namespace
extern "C" void flockscope_sort_move(const SortMoveJob* job);
#ifndef FLOCKSCOPE_SORT_ASM
extern "C" void flockscope_zero_words(std::uint32_t* p, std::uint32_t n) { std::memset(p, 0, n * sizeof *p); }

extern "C" void flockscope_sort_move(const SortMoveJob* job) {
  // First each boid's slot: start[c] steps down to it, and sid[k] keeps the boid's index
  // for now (the assembly keeps 2 i, its offset in cell and id).
  const std::uint16_t* cell = job->cell;
  std::uint16_t *start = job->start, *sid = job->sid;
  for (std::uint32_t i = job->n; i-- > 0;) {
    const std::uint32_t c = cell[i] - job->begin;
    if (c >= job->span) continue;
    const std::uint32_t k = --start[c];
    sid[k] = std::uint16_t(i);
  }
  // Then the cells' slots, [start[begin], slot_end), gathered from their boids.
  const fix *x = job->x, *y = job->y, *vx = job->vx, *vy = job->vy;
  for (std::uint32_t k = start[0]; k < job->slot_end; ++k) {
    const std::uint32_t i = sid[k];
    sid[k] = job->id[i];
    job->near[k] = {x[i].raw, y[i].raw, std::uint32_t(vx[i].raw), vy[i].raw};
  }
}
#endif

void BoardFlock::sort_move(std::uint32_t cell_begin, std::uint32_t cell_end) {
  // Every boid whose cell is in [cell_begin, cell_end) goes to the last free slot of its
  // cell, in the reverse order of i (so any split of the cells gives the one-pass stable
  // sort): start[c], the cell's end after sort_count(), steps down to its first slot. The
  // other cells' counters are not touched (another core may be moving their boids; the
  // counters are uint16, and a halfword store writes only itself). In two passes (the
  // slots first, then each slot's boid into `near` and its id into `sid`), so that the
  // assembly's second pass reads the state from one index with the registers free for it;
  // the slots [start[cell_begin], end of cell_end - 1) are this call's alone.
  // (The assembly keeps a boid's index in sid as 2 i: at most 32,768 boids, main.cpp checks.)
  const std::uint32_t cells = cell_count();
  if (cell_end > cells) cell_end = cells;  // no boid's cell is beyond
  if (cell_begin >= cell_end) return;
  std::uint16_t* start = buf_.cell_start;
  // Every cell (one core): a span that every cell index is below, the test skipped.
  const std::uint32_t span = cell_begin == 0 && cell_end == cells ? 0xffffffffu : cell_end - cell_begin;
  const SortMoveJob job{buf_.cell, n_,      start + cell_begin, cell_begin, span,
                        start[cell_end - 1], buf_.id, buf_.sid, buf_.near, buf_.x, buf_.y, buf_.vx, buf_.vy};
  flockscope_sort_move(&job);
}

namespace {
// sort_finish()'s per-slot pass (plain data with fixed offsets: the RP2040 build runs it in
// Thumb-1, sort_m0.S): the arrays from the first slot on.
struct SortFinishJob {
  NearBoid *near, *near_end;  // 0, 4
  fix *x, *y, *vx, *vy;       // 8, 12, 16, 20 (each its raw Q16.16 word)
};
static_assert(sizeof(void*) != 4 || sizeof(SortFinishJob) == 24, "sort_m0.S reads SortFinishJob at fixed offsets");
}  // namespace
extern "C" void flockscope_sort_finish(const SortFinishJob* job);
namespace {
// The Q23.9 snapshot of a boid's Q16.16 state, as sort_finish makes it (w keeps vy).
NearBoid snapshot_of(fix x, fix y, fix vx, fix vy) {
  const std::int32_t vy9 = round_q9(vy.raw);
  return {round_q9(x.raw), round_q9(y.raw), pack_v9(round_q9(vx.raw), vy9), vy9};
}
}  // namespace
#ifndef FLOCKSCOPE_SORT_ASM
extern "C" void flockscope_sort_finish(const SortFinishJob* job) {
  fix *x = job->x, *y = job->y, *vx = job->vx, *vy = job->vy;
  for (NearBoid* b = job->near; b != job->near_end; ++b, ++x, ++y, ++vx, ++vy) {
    x->raw = b->x, y->raw = b->y, vx->raw = std::int32_t(b->v), vy->raw = b->w;
    *b = snapshot_of(*x, *y, *vx, *vy);
  }
}
#endif

void BoardFlock::sort_finish(std::uint32_t begin, std::uint32_t end) {
  if (end > n_) end = n_;
  if (begin >= end) return;
  static_assert(sizeof(fix) == sizeof(std::int32_t), "sort_m0.S stores a fix as its raw word");
  const SortFinishJob job{buf_.near + begin, buf_.near + end, buf_.x + begin, buf_.y + begin, buf_.vx + begin,
                          buf_.vy + begin};
  flockscope_sort_finish(&job);
  std::uint16_t* id = buf_.id;
  const std::uint16_t* sid = buf_.sid;
  for (std::uint32_t k = begin; k < end; ++k) id[k] = sid[k];
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
    // The middle rows without the test on dy alone (ScanJob::middle_whole: the runs after
    // the outer rows' two); its d2 cannot wrap there (configure()).
    const bool dy_test = !job->middle_whole || r < 2;
    for (const NearBoid *p = job->run[r].begin, *e = job->run[r].end; p < e; ++p) {
      const std::int32_t dy = y - p->y;
      const std::uint32_t dy2 = std::uint32_t(dy) * std::uint32_t(dy);
      if (dy_test && dy2 >= vis2) continue;
      const std::int32_t dx = x - p->x;
      const std::uint32_t d2 = std::uint32_t(dx) * std::uint32_t(dx) + dy2;
      if (d2 >= vis2) continue;
      if (d2 < prot2) {
        sep_x += dx, sep_y += dy;
      } else {
        sum_x += std::uint32_t(p->x), sum_y += std::uint32_t(p->y);
        sum_vx += p->vx(), sum_vy += p->vy();
        ++seen;
      }
    }
  }
  job->s = {sum_x, sum_y, sum_vx, sum_vy, seen, sep_x, sep_y};
}
}  // namespace

#ifndef FLOCKSCOPE_SCAN_ASM
extern "C" void flockscope_scan_neighbours(ScanJob* job) { scan_fast_cpp(job); }
extern "C" const void* const flockscope_scan_entries[17] = {};  // (the C++ scan has no entries)
#endif

// ---- the rules' fast path
namespace {
// v in [-2^23, 2^23): a Q23.9 sum whose mean update_boid takes as div_s32(v * 128, n).
inline bool small9(std::int32_t v) { return std::uint32_t((v >> 23) + 1) <= 1u; }

// The fast path in C++: the host's flockscope_rules, in the steps of rules_m0.S. Its
// products by a weight in [0, 1) and its squares below 128 px are fix's own operators (the
// assembly's MUL_WEIGHT and SQUARE are their 32-bit paths); the speed limit's quotient is
// the assembly's two divisions, which the host tests thus check against fix's operator/.
// fix's additions wrap, so the order of the velocity's terms changes no bit.
std::uint32_t rules_fast_cpp(const ScanJob* job, RulesJob* r, std::uint32_t k) {
  const NeighbourSums& s = job->s;
  const fix x = r->xs[k], y = r->ys[k], vx = r->vxs[k], vy = r->vys[k];
  const fix w_centering = fix::from_raw(r->centering), w_matching = fix::from_raw(r->matching);
  fix dvx{}, dvy{};
  if (s.seen > 0) {  // cohesion and alignment: the neighbours' means (update_boid's `mean`)
    const auto n = std::uint32_t(s.seen);
    const auto rel_x = std::int32_t(s.sum_x - n * std::uint32_t(job->x));
    const auto rel_y = std::int32_t(s.sum_y - n * std::uint32_t(job->y));
    if (!small9(rel_x) || !small9(rel_y) || !small9(s.sum_vx) || !small9(s.sum_vy)) return kRulesOff;
    auto mean = [n = s.seen](std::int32_t sum9) { return fix::from_raw(div_s32(sum9 * 128, n)); };
    dvx = mean(rel_x) * w_centering + (mean(s.sum_vx) - vx) * w_matching;
    dvy = mean(rel_y) * w_centering + (mean(s.sum_vy) - vy) * w_matching;
  }
  if (!small9(s.sep_x) || !small9(s.sep_y)) return kRulesOff;
  const fix avoid = fix::from_raw(r->avoid), turn = fix::from_raw(r->turn);
  dvx = dvx + fix::from_raw(s.sep_x * 128) * avoid;
  dvy = dvy + fix::from_raw(s.sep_y * 128) * avoid;
  if (y.raw < r->top) dvy = dvy + turn;
  if (x.raw > r->right) dvx = dvx - turn;
  if (x.raw < r->left) dvx = dvx + turn;
  if (y.raw > r->bottom) dvy = dvy - turn;
  fix psx{}, psy{};
  bool chased = false;
  const fix range = fix::from_raw(r->predator_range), range2 = fix::from_raw(r->predator_range2);
  const auto* pred = static_cast<const BoardPredator*>(r->predators);
  for (std::uint32_t q = 0; q < r->npred; ++q) {
    const fix dx = x - pred[q].x, dy = y - pred[q].y;
    if (dx.raw == INT32_MIN || dy.raw == INT32_MIN) return kRulesOff;  // (abs_of keeps it negative)
    if (abs_of(dx) < range && abs_of(dy) < range && square(dx) + square(dy) < range2) {
      psx = psx + dx, psy = psy + dy;
      chased = true;
    }
  }
  if (chased) {
    const fix pt = fix::from_raw(r->predator_turn);
    if (psy > fix(0)) dvy = dvy + pt;
    if (psy < fix(0)) dvy = dvy - pt;
    if (psx > fix(0)) dvx = dvx + pt;
    if (psx < fix(0)) dvx = dvx - pt;
  }
  constexpr std::int32_t kGuard = 100 << 16;  // update_boid's vmax_guard
  auto nvx = (vx + dvx).raw, nvy = (vy + dvy).raw;
  nvx = nvx > kGuard ? kGuard : nvx < -kGuard ? -kGuard : nvx;
  nvy = nvy > kGuard ? kGuard : nvy < -kGuard ? -kGuard : nvy;
  const std::int32_t v2 = (square(fix::from_raw(nvx)) + square(fix::from_raw(nvy))).raw;
  if (!(v2 >= r->min2 && v2 <= r->max2)) {
    // The speed limit (rules::limit_speed_sq) for speeds from 0.5 to 128 px/frame (v2 in
    // [2^14, 2^30)): fix's square root, then each component / speed * target as fix's
    // operators give it: floor(|v| 2^16 / speed) in two 32-bit divisions (|v| 2^8 < 2^32
    // and the first remainder 2^8 < 2^31), negated for a negative v, times the target by the
    // three products (both below 128 px).
    if (v2 < (1 << 14) || v2 >= (1 << 30)) {
      r->out_vx = nvx, r->out_vy = nvy, r->out_v2 = v2;
      return kRulesLimit;
    }
    const std::int32_t speed = sqrt(fix::from_raw(v2)).raw;
    std::int32_t target = speed < r->minspeed ? r->minspeed : speed;
    target = target > r->maxspeed ? r->maxspeed : target;
    if (target != speed) {
      const auto d = std::uint32_t(speed);
      auto scale = [d, target](std::int32_t v) {
        const std::uint32_t m = (v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v)) << 8;
        const std::uint32_t q = ((m / d) << 8) + (((m % d) << 8) / d);
        return (fix::from_raw(std::int32_t(v < 0 ? 0u - q : q)) * fix::from_raw(target)).raw;
      };
      nvx = scale(nvx);
      nvy = scale(nvy);
    }
  }
  r->xs[k] = x + fix::from_raw(nvx);
  r->ys[k] = y + fix::from_raw(nvy);
  r->vxs[k].raw = nvx;
  r->vys[k].raw = nvy;
  return kRulesDone;
}
}  // namespace

namespace {
// A fast job's runs (the width x width cells whose first cell start is `top`, grid rows
// `cols` cell starts apart): the outer rows' first (top, bottom), then the middle rows', each
// with its Thumb-1 scan entry (the outer rows' with the test on dy alone, the middle rows'
// as job.middle_whole says); and, with a trim, its edges (Q23.9, from the grid lines from
// the stencil's second column and row on: a Q16.16 coordinate is on line i or beyond iff it
// is at least line i's first pixel, and round_q9 keeps the order, so a boid on a line
// before has a Q23.9 coordinate <= 512 x that pixel) and the outer rows' slots. make_runs()
// and the host's flockscope_update_run make them here; the RP2040's update run makes the
// same at width 5 (reach 2) in Thumb-1 (rules_m0.S).
void make_cell_runs(ScanJob& job, StencilTrim* trim, const NearBoid* near, const std::uint16_t* top,
                    std::uint32_t cols, std::uint32_t width, const std::int16_t* lines_x,
                    const std::int16_t* lines_y) {
  const std::uint32_t last = width - 1;
  const std::uint16_t* row = top;
  for (std::uint32_t i = 0; i < width; ++i, row += cols) {
    const bool outer = i == 0 || i == last;
    ScanRun& r = job.run[i == 0 ? 0 : i == last ? 1 : i + 1];
    r.begin = near + row[0], r.end = near + row[width];
    r.entry = scan_entry(outer || !job.middle_whole, r.begin, r.end);
  }
  job.runs = width;
  job.run[width].entry = scan_end_entry();
  if (!trim) return;
  trim->top9 = lines_y[0] * 512, trim->bottom9 = lines_y[width - 2] * 512;
  trim->left9 = lines_x[0] * 512, trim->right9 = lines_x[width - 2] * 512;
  const std::uint16_t* const bottom = top + last * cols;
  const std::uint32_t cell[4] = {0, 1, last, width};  // the row's begin, second cell, last cell, end
  for (std::uint32_t j = 0; j < 4; ++j) {
    trim->top[j] = near + top[cell[j]];
    trim->bottom[j] = near + bottom[cell[j]];
  }
}
}  // namespace

#ifndef FLOCKSCOPE_RULES_ASM
extern "C" std::uint32_t flockscope_rules(const ScanJob* job, RulesJob* rules, std::uint32_t k) {
  return rules_fast_cpp(job, rules, k);
}

// The host's run of a cell's boids (rules_m0.S has the RP2040's): UpdateRun's contract.
extern "C" std::uint32_t flockscope_update_run(UpdateRun* run, std::uint32_t k, std::uint32_t end) {
  ScanJob& job = *run->job;
  if (k >= end) return end;
  if (run->top) {
    make_cell_runs(job, run->trim, run->near, run->top, run->row_bytes / 2, 5, run->lines_x, run->lines_y);
    run->top = nullptr;
  }
  for (; k < end; ++k) {
    if (run->id[k] < run->scout_end) {
      run->code = kRunScout;
      return k;
    }
    job.x = run->near[k].x;
    job.y = run->near[k].y;
    if (run->trim) BoardFlock::trim_runs(job, *run->trim);
    const std::uint32_t t0 = run->clock ? run->clock() : 0;
    flockscope_scan_neighbours(&job);
    if (run->clock) run->scan_cycles += (run->clock() - t0) & 0xFFFFFFu;
    const std::uint32_t code = flockscope_rules(&job, run->rules, k);
    if (code != kRulesDone) {
      run->code = code;
      return k;
    }
  }
  return end;
}
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
    for (const NearBoid *p = job.run[r].begin, *e = job.run[r].end; p < e; ++p) {
      if (p == self) continue;
      const std::int32_t dx = std::int32_t(std::uint32_t(job.x) - std::uint32_t(p->x));
      const std::int32_t dy = std::int32_t(std::uint32_t(job.y) - std::uint32_t(p->y));
      bool separate, visible;
      rules::cornell_classify(near9::from_raw(dx), near9::from_raw(dy), c, separate, visible);  // core's rule
      NeighbourSums& s = job.s;
      if (separate) {
        s.sep_x += dx, s.sep_y += dy;
      } else if (visible) {
        s.sum_x += std::uint32_t(p->x), s.sum_y += std::uint32_t(p->y);
        s.sum_vx += p->vx(), s.sum_vy += p->vy();
        ++s.seen;
      }
    }
  }
}
}  // namespace

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
    for (const NearBoid *p = job.run[r].begin, *e = job.run[r].end; p < e; ++p) {
      const std::int32_t dy = y - p->y;
      if (std::uint32_t(dy + r1) >= span) continue;  // |dy| >= range
      const std::int32_t dx = x - p->x;
      if (std::uint32_t(dx + r1) >= span) continue;
      const std::uint32_t d2 = std::uint32_t(dx * dx) + std::uint32_t(dy * dy);
      if (d2 < prot2) {
        sep_x += std::uint32_t(dx), sep_y += std::uint32_t(dy);
      } else if (d2 < vis2) {
        sum_x += std::uint32_t(p->x), sum_y += std::uint32_t(p->y);
        sum_vx += std::uint32_t(p->vx()), sum_vy += std::uint32_t(p->vy());
        ++seen;
      }
    }
  }
  job.s = {sum_x, sum_y, std::int32_t(sum_vx), std::int32_t(sum_vy), std::int32_t(seen), std::int32_t(sep_x),
           std::int32_t(sep_y)};
}
}  // namespace

bool BoardFlock::make_job(std::uint32_t k, ScanJob& job) const {
  const NearBoid* near = buf_.near;
  job.x = near[k].x;
  job.y = near[k].y;
  job.visual2 = std::uint32_t(visual2_);  // used by the fast scan only, where they fit
  job.protected2 = std::uint32_t(protected2_);
  // Slot k's cell (its state is still the previous frame's: update() writes it after the
  // scan).
  StencilTrim trim{};  // (filled by make_runs() for the fast jobs it is used with)
  const bool fast = make_runs(cell_x(buf_.x[k]), cell_y(buf_.y[k]), job, trim);
  if (fast && trimming()) trim_runs(job, trim);
  if (fast) set_scan_entries(job);
  return fast;
}

[[gnu::always_inline]] inline void BoardFlock::trim_runs(ScanJob& job, const StencilTrim& t) {
  // Offsets to the outer rows' and columns' inner edges (non-negative: the boid's own cell
  // lies between them) and their squares; every square below 2^31 (the offsets are less
  // than reach cells + 1 px, under 70 px, 35,840 in Q23.9), so two add up within 32 bits.
  // A row, or a corner, is out of reach when its nearest point is: offset^2 >= visual2
  // (the scan counts a candidate only when d2 < visual2).
  const std::uint32_t v2 = job.visual2;
  const auto sq = [](std::int32_t d) { return std::uint32_t(d) * std::uint32_t(d); };
  const std::uint32_t l2 = sq(job.x - t.left9), r2 = sq(t.right9 - job.x);
  const std::uint32_t t2 = sq(job.y - t.top9), b2 = sq(t.bottom9 - job.y);
  ScanRun* run = job.run;
  if (t2 >= v2) {
    run[0].begin = run[0].end = t.top[0];
  } else {
    run[0].begin = t.top[l2 + t2 >= v2];
    run[0].end = t.top[3 - (r2 + t2 >= v2)];
  }
  // The bottom row's run (make_runs puts the outer rows first).
  if (b2 >= v2) {
    run[1].begin = run[1].end = t.bottom[0];
  } else {
    run[1].begin = t.bottom[l2 + b2 >= v2];
    run[1].end = t.bottom[3 - (r2 + b2 >= v2)];
  }
}

void BoardFlock::set_scan_entries(ScanJob& job) {
  for (std::uint32_t r = 0; r < job.runs; ++r)
    job.run[r].entry = scan_entry(r < 2 || !job.middle_whole, job.run[r].begin, job.run[r].end);
  job.run[job.runs].entry = scan_end_entry();
}

[[gnu::always_inline]] inline bool BoardFlock::make_runs(std::uint32_t cx, std::uint32_t cy, ScanJob& job,
                                                         StencilTrim& trim) const {
  const NearBoid* near = buf_.near;
  const std::uint16_t* start = buf_.cell_start;
  const std::uint32_t reach = reach_, cols = cols_, rows = rows_;
  if (stencil_inside(cx, cy)) {  // all 2 * reach + 1 rows inside the grid: the stencil's row runs
    // The outer rows' runs first (the top row's, then the bottom row's: the scan tests dy
    // alone only there, see ScanJob::middle_whole), then the middle rows'. Integer sums:
    // the order of the runs changes no bit.
    job.middle_whole = middle_whole_;
    const bool t = trimming();
    make_cell_runs(job, t ? &trim : nullptr, near, stencil_top(cx, cy), cols, 2 * reach + 1,
                   t ? stencil_lines(cx) : nullptr, t ? stencil_lines(cy) : nullptr);
    return true;
  }
  const std::uint32_t x0 = cx > reach ? cx - reach : 0, x1 = cx + reach < cols ? cx + reach : cols - 1;
  const std::uint32_t y0 = cy > reach ? cy - reach : 0, y1 = cy + reach < rows ? cy + reach : rows - 1;
  job.s = {};
  job.runs = 0;
  for (std::uint32_t row = y0; row <= y1; ++row) {
    job.run[job.runs].begin = near + start[row * cols + x0];
    job.run[job.runs].end = near + start[row * cols + x1 + 1];
    ++job.runs;
  }
  // Boids in the outermost cells may be anywhere beyond them: those stencils take the
  // general scan, as do parameter sets outside the fast scan's conditions.
  return false;
}

bool BoardFlock::scan_sums(std::uint32_t k, ScanJob& job) const {
  const bool fast = make_job(k, job);
  if (fast)
    flockscope_scan_neighbours(&job);
  else if (fast_scan_)
    scan_edge(job, range9_);
  else
    scan_general(job, buf_.near + k, range9_, visual2_, protected2_);
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

namespace {
bool same_sums(const NeighbourSums& a, const NeighbourSums& b) {
  return a.sum_x == b.sum_x && a.sum_y == b.sum_y && a.sum_vx == b.sum_vx && a.sum_vy == b.sum_vy &&
         a.seen == b.seen && a.sep_x == b.sep_x && a.sep_y == b.sep_y;
}
}  // namespace

std::uint32_t BoardFlock::check_scan() const {
  std::uint32_t differ = 0;
  for (std::uint32_t k = 0; k < n_; ++k) {
    // The snapshot as sort_finish's C++ makes it from the state it wrote back.
    const NearBoid& p = buf_.near[k];
    const NearBoid want = snapshot_of(buf_.x[k], buf_.y[k], buf_.vx[k], buf_.vy[k]);
    if (p.x != want.x || p.y != want.y || p.v != want.v || p.w != want.w) {
      ++differ;
      continue;
    }
    ScanJob a, b;
    if (!make_job(k, a)) continue;
    b = a;
    flockscope_scan_neighbours(&a);
    scan_fast_cpp(&b);
    differ += !same_sums(a.s, b.s);
  }
  return differ;
}

void BoardFlock::update(std::uint32_t begin, std::uint32_t end) {
  if (end > n_) end = n_;
  const NearBoid* near = buf_.near;
  std::uint32_t (*const clock)() = clock_;
  std::uint32_t scan_cycles = 0;  // added to scan_cycles_ at the end (not a member store per boid)
  RulesJob rules = rules_job();
  ScanJob job;
  job.visual2 = std::uint32_t(visual2_);  // as make_job() sets them (no scan writes them)
  job.protected2 = std::uint32_t(protected2_);
  // Slots are in grid order (begin_step): slot k lies in the cell c with start[c] <= k <
  // start[c + 1], the cell make_job() computes from its position. So the cell is found by
  // walking the cells along with k from the first slot's (no per-boid cell_x/cell_y), and
  // the plain fast job, whose runs depend on the cell only (no scan writes them), is built
  // once per cell (make_runs), not once per boid. The general and edge scans accumulate
  // into the job's sums: their jobs are made afresh for each boid.
  const std::uint16_t* start = buf_.cell_start;
  const std::uint32_t cols = cols_;
  std::uint32_t cx = 0, cy = 0;
  if (begin < end) cx = cell_x(buf_.x[begin]), cy = cell_y(buf_.y[begin]);
  const std::uint16_t* next = start + (cy * cols + cx + 1);  // start[c + 1] of the cell c
  bool fast = false, reuse = false;
  // Filled by make_runs() for the fast jobs it is used with; its scalars zeroed here so that
  // the compiler sees them set (all of it value-initialised cost 7 K cycles a frame).
  StencilTrim trim;
  trim.top9 = trim.bottom9 = trim.left9 = trim.right9 = 0;
  const bool trim_on = trimming();

  // The fast scan's cells with the rules' fast path go through flockscope_update_run (the
  // RP2040's in Thumb-1: no call, trim or test per boid in C++ here), which hands back the
  // slots it cannot finish: scouts (the general rules, after their scan here), and the
  // rules' kRulesLimit (the speed limit here) and kRulesOff (the general rules). At reach 2
  // it also makes each such cell's job itself (UpdateRun::top: the cell starts of the
  // stencil's top left cell, 2 rows and 2 columns before the cell's own).
  UpdateRun run{&job, trim_on ? &trim : nullptr, &rules, near, buf_.id, rules.scout_end, clock, 0, 0,
                nullptr, 2 * cols, nullptr, nullptr};
  const bool run_makes_jobs = rules_fast_ && fast_scan_ && reach_ == 2;
  const std::uint32_t rows = rows_, top_back = 2 * cols + 3;  // next - top_back: stencil_top()
  job.middle_whole = middle_whole_;
  for (std::uint32_t k = begin; k < end;) {
    if (*next <= k) {  // past the cell (and any empty ones after it)
      do {
        ++next;
        if (++cx == cols) cx = 0, ++cy;
      } while (*next <= k);
      reuse = false;
    }
    if (!reuse) {
      if (run_makes_jobs && stencil_inside(cx, cy, 2, cols, rows)) {
        fast = true;
        run.top = next - top_back;
        if (trim_on) run.lines_x = stencil_lines(cx), run.lines_y = stencil_lines(cy);
      } else {
        fast = make_runs(cx, cy, job, trim);
      }
      reuse = fast;
    }
    if (fast && rules_fast_) {
      const std::uint32_t stop = *next < end ? *next : end;  // the cell's last slot + 1
      k = flockscope_update_run(&run, k, stop);
      if (k == stop) continue;  // the cell done
      if (run.code != kRunScout) {  // scanned; the rules stopped
        if (!finish_fast(k, run.code, rules)) update_boid(k, job.x, job.y, job.s, rules);
        ++k;
        continue;
      }
    }
    job.x = near[k].x;
    job.y = near[k].y;
    const std::uint32_t t0 = clock ? clock() : 0;
    if (fast) {
      if (trim_on) trim_runs(job, trim);
      set_scan_entries(job);
      flockscope_scan_neighbours(&job);
    } else if (fast_scan_) {
      scan_edge(job, range9_);
    } else {
      scan_general(job, near + k, range9_, visual2_, protected2_);
    }
    if (clock) scan_cycles += (clock() - t0) & 0xFFFFFFu;
    if (!update_fast(k, job, rules)) update_boid(k, job.x, job.y, job.s, rules);
    ++k;
  }
  scan_cycles_ += scan_cycles + run.scan_cycles;
}

// Taken once per update() call, so that the per-boid loop keeps them at hand.
RulesJob BoardFlock::rules_job() {
  RulesJob r{};
  r.xs = buf_.x, r.ys = buf_.y, r.vxs = buf_.vx, r.vys = buf_.vy;
  r.centering = c_.cohesion ? c_.centering.raw : 0;  // (a rule that is off adds 0 x its term)
  r.matching = c_.alignment ? c_.matching.raw : 0;
  r.avoid = c_.separation ? c_.avoid.raw : 0;
  r.turn = c_.turn.raw;
  r.left = c_.left_edge.raw, r.right = c_.right_edge.raw, r.top = c_.top_edge.raw, r.bottom = c_.bottom_edge.raw;
  r.predator_range = c_.predator_range.raw, r.predator_range2 = c_.predator_range2.raw;
  r.predator_turn = c_.predator_turn.raw;
  r.npred = predator_count();
  r.predators = pred_;
  r.min2 = (c_.minspeed * c_.minspeed).raw, r.max2 = (c_.maxspeed * c_.maxspeed).raw;
  r.minspeed = c_.minspeed.raw, r.maxspeed = c_.maxspeed.raw;
  r.sqrt_seeds = kSqrtSeeds.v;
  r.scout_end = std::min(scouts1_ + scouts2_, buf_.bias_capacity);
  return r;
}

[[gnu::always_inline]] inline bool BoardFlock::update_fast(std::uint32_t k, const ScanJob& job, RulesJob& rules) {
  if (!rules_fast_ || buf_.id[k] < rules.scout_end) return false;  // (scouts: the bias)
  return finish_fast(k, flockscope_rules(&job, &rules, k), rules);
}

bool BoardFlock::finish_fast(std::uint32_t k, std::uint32_t code, const RulesJob& rules) {
  if (code == kRulesDone) return true;
  if (code != kRulesLimit) return false;
  // The speed limit for the speeds the fast path hands back (outside [min, max], and below
  // 0.5 or from 128 px/frame), as update_boid's limit, then the move by dt = 1.
  fix vx = fix::from_raw(rules.out_vx), vy = fix::from_raw(rules.out_vy);
  rules::limit_speed_sq(vx, vy, fix::from_raw(rules.out_v2), c_.minspeed, c_.maxspeed, buf_.vx[k], buf_.vy[k]);
  buf_.x[k] = buf_.x[k] + vx;
  buf_.y[k] = buf_.y[k] + vy;
  buf_.vx[k] = vx;
  buf_.vy[k] = vy;
  return true;
}

std::uint32_t BoardFlock::check_rules(std::uint32_t* checked) {
  if (checked) *checked = 0;
  if (!rules_fast_) return 0;
  RulesJob rules = rules_job();
  std::uint32_t differ = 0;
  for (std::uint32_t k = 0; k < n_; ++k) {
    ScanJob job;
    scan_sums(k, job);
    const fix x = buf_.x[k], y = buf_.y[k], vx = buf_.vx[k], vy = buf_.vy[k];
    auto take = [&](fix* out) {  // slot k's next state, and slot k back as it was
      out[0] = buf_.x[k], out[1] = buf_.y[k], out[2] = buf_.vx[k], out[3] = buf_.vy[k];
      buf_.x[k] = x, buf_.y[k] = y, buf_.vx[k] = vx, buf_.vy[k] = vy;
    };
    fix fast[4], general[4];
    if (!update_fast(k, job, rules)) continue;  // (scouts, kRulesOff: the general rules anyway)
    if (checked) ++*checked;
    take(fast);
    update_boid(k, job.x, job.y, job.s, rules);
    take(general);
    differ += fast[0] != general[0] || fast[1] != general[1] || fast[2] != general[2] || fast[3] != general[3];
  }
  return differ;
}

[[gnu::always_inline]] inline void BoardFlock::update_boid(std::uint32_t k, std::int32_t x9, std::int32_t y9,
                                                           const NeighbourSums& sums, const RulesJob& rj) {
  const rules::CornellCoeffs<fix>& c = c_;
  const std::uint32_t npred = rj.npred;
  const std::uint32_t scout_end = rj.scout_end;
  const fix vmax_guard(100);
  const fix min2 = fix::from_raw(rj.min2), max2 = fix::from_raw(rj.max2);
  const Boid<fix> self{buf_.x[k], buf_.y[k], buf_.vx[k], buf_.vy[k]};
  const std::int32_t seen = sums.seen;
  // Relative sums (Q23.9): sum of (other - self) = sum of others - seen * self, in
  // wrapping arithmetic (exact: the true value is small).
  const auto rel_x = std::int32_t(sums.sum_x - std::uint32_t(seen) * std::uint32_t(x9));
  const auto rel_y = std::int32_t(sums.sum_y - std::uint32_t(seen) * std::uint32_t(y9));
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
    s.xvel = mean(sums.sum_vx);
    s.yvel = mean(sums.sum_vy);
    s.neighbours = 1;
  }
  auto q9_to_fix = [](std::int32_t v9) {  // Q23.9 -> Q16.16, saturated (32-bit tests)
    return fix::from_raw(v9 >= (1 << 24) ? INT32_MAX : v9 < -(1 << 24) ? INT32_MIN : v9 * 128);
  };
  s.close_dx = q9_to_fix(sums.sep_x);
  s.close_dy = q9_to_fix(sums.sep_y);
  rules::PredatorSums<fix> ps;
  for (std::uint32_t q = 0; q < npred; ++q)
    rules::predator_accumulate(ps, self.x - pred_[q].x, self.y - pred_[q].y, c);
  Boid<fix> nb = rules::cornell_steer(self, s, ps, c);
  const std::uint32_t id = buf_.id[k];
  const int group = id < scout_end ? (id < scouts1_ ? 1 : 2) : 0;
  rules::cornell_finish(self, nb, group, group != 0 ? buf_.bias + id : nullptr, biasval_, c, [&](fix& vx, fix& vy) {
    // A guard against absurd parameter mixes: components beyond 100 px/frame would make
    // the squared speed overflow Q16.16.
    if (vx > vmax_guard) vx = vmax_guard;
    if (vx < -vmax_guard) vx = -vmax_guard;
    if (vy > vmax_guard) vy = vmax_guard;
    if (vy < -vmax_guard) vy = -vmax_guard;
    // limit_speed only changes a velocity whose speed is outside [min, max]; the squared
    // test skips its square root for the others (same result, much cheaper), and hands
    // the limit the squared speed it has (limit_speed_sq: the same rule).
    const fix v2 = square(vx) + square(vy);  // = vx * vx + vy * vy (fixed.hpp)
    if (!(v2 >= min2 && v2 <= max2)) rules::limit_speed_sq(vx, vy, v2, c.minspeed, c.maxspeed, self.vx, self.vy);
  });
  buf_.x[k] = nb.x;
  buf_.y[k] = nb.y;
  buf_.vx[k] = nb.vx;
  buf_.vy[k] = nb.vy;
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
namespace {
// Integer vector lengths for the metrics (the Cortex-M0+ has no FPU: in soft float the two
// square roots and divisions of a boid cost ~4,500 cycles; these ~360, firmware_pico/README.md).

// floor(log2(v)) of a byte (the M0+ has no CLZ instruction either).
constexpr std::array<std::uint8_t, 256> make_log2_byte() {
  std::array<std::uint8_t, 256> t{};
  for (std::uint32_t v = 2; v < 256; ++v) t[v] = std::uint8_t(t[v / 2] + 1);
  return t;
}
constexpr std::array<std::uint8_t, 256> kLog2Byte = make_log2_byte();
inline std::uint32_t top_bit(std::uint32_t v) {  // v > 0
  std::uint32_t n = 0;
  if (v >> 16) v >>= 16, n = 16;
  if (v >> 8) v >>= 8, n += 8;
  return n + kLog2Byte[v];
}

// Square roots of x in [2^30, 2^32): the root of the middle of x's top-byte interval
// (within 0.4 %), then one Newton step r = (r0 + x / r0) / 2 on the hardware divider:
// within 1.5 units of sqrt(x) (sqrt(x) is in [2^15, 2^16): relative 5e-5).
constexpr std::array<std::uint16_t, 192> make_root_table() {
  std::array<std::uint16_t, 192> t{};
  for (std::uint64_t i = 64; i < 256; ++i) {
    std::uint64_t v = (2 * i + 1) << 23;  // (i + 0.5) * 2^24
    t[i - 64] = std::uint16_t(digit_sqrt<std::uint64_t>(v, std::uint64_t(1) << 62));
  }
  return t;
}
constexpr std::array<std::uint16_t, 192> kRoot0 = make_root_table();
inline std::uint32_t sqrt_top(std::uint32_t x) {
  const std::uint32_t r0 = kRoot0[(x >> 24) - 64];
  return (r0 + divmod_u32(x, r0).q + 1) >> 1;
}

// The length of (a, b), magnitudes below 2^32: the pair is scaled by 2^-s so that the
// larger one has its top bit at 14 (a, b below 2^15 + 1, rounded: the squares add up within
// 32 bits), the sum of squares x by 4 more when below 2^30; then len = sqrt_top(x) *
// 2^(s - e) (e = 1 if x was scaled). The scaled pair and its root, for the unit vector.
struct Length {
  std::uint32_t a, b;  // the scaled components
  std::uint32_t root;  // sqrt_top of their squared length (times 2 if e = 1)
  std::int32_t shift;  // length = root * 2^shift
  std::uint32_t e;
};
inline Length length_of(std::uint32_t a, std::uint32_t b) {
  const std::int32_t s = std::int32_t(top_bit(a | b)) - 14;
  if (s > 0) {
    a = ((a >> (s - 1)) + 1) >> 1;  // rounded (without the overflow of a + half)
    b = ((b >> (s - 1)) + 1) >> 1;
  } else {
    a <<= -s, b <<= -s;
  }
  std::uint32_t x = a * a + b * b;  // [2^28, 2^31]
  std::uint32_t e = 0;
  if (x < (1u << 30)) x <<= 2, e = 1;
  const std::uint32_t r = sqrt_top(x);
  return {a, b, r, s - std::int32_t(e), e};
}
// root * 2^shift in units of 2^-14 (lengths from Q16.16 inputs; below 2^31): exact for
// lengths from 1 px up (shift >= 2); shorter ones rounded.
inline std::uint32_t q14(const Length& l) {
  const std::int32_t sh = l.shift - 2;
  return sh >= 0 ? l.root << sh : (l.root + (1u << (-sh - 1))) >> -sh;
}
inline std::uint32_t magnitude(std::int32_t v) { return v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v); }
}  // namespace

FlockMetrics BoardFlock::metrics(std::uint32_t sample) const {
  FlockMetrics m{};
  if (n_ == 0) {
    const float nan = std::nanf("");
    return {nan, nan, nan, nan, nan, 0};
  }
  const std::int32_t *xs = &buf_.x[0].raw, *ys = &buf_.y[0].raw;
  const std::int32_t *vxs = &buf_.vx[0].raw, *vys = &buf_.vy[0].raw;
  std::int64_t sx = 0, sy = 0;
  for (std::uint32_t k = 0; k < n_; ++k) sx += xs[k], sy += ys[k];
  m.centroid_x = float(double(sx) / n_ / 65536.0);
  m.centroid_y = float(double(sy) / n_ / 65536.0);
  // The centroid to the nearest 2^-16 px, for the distances.
  auto mean_raw = [n = std::int64_t(n_)](std::int64_t s) {
    return std::int32_t(s >= 0 ? (s + n / 2) / n : -((-s + n / 2) / n));
  };
  const std::int32_t cx = mean_raw(sx), cy = mean_raw(sy);
  const std::uint32_t stride = sample == 0 || n_ <= sample ? 1 : (n_ + sample - 1) / sample;
  std::uint64_t dsum = 0, ssum = 0;  // units of 2^-14 px, px/frame
  std::int64_t hx = 0, hy = 0;       // unit headings, units of 2^-16
  std::uint32_t count = 0, moving = 0;
  for (std::uint32_t k = 0; k < n_; k += stride, ++count) {
    const std::int32_t x = xs[k], y = ys[k];
    const std::uint32_t dx = x >= cx ? std::uint32_t(x) - std::uint32_t(cx) : std::uint32_t(cx) - std::uint32_t(x);
    const std::uint32_t dy = y >= cy ? std::uint32_t(y) - std::uint32_t(cy) : std::uint32_t(cy) - std::uint32_t(y);
    if ((dx | dy) != 0) dsum += q14(length_of(dx, dy));
    const std::int32_t vx = vxs[k], vy = vys[k];
    const std::uint32_t ax = magnitude(vx), ay = magnitude(vy);
    if ((ax | ay) == 0) continue;
    const Length l = length_of(ax, ay);
    ssum += q14(l);
    ++moving;
    // The unit heading in units of 2^-16: (a, b) * 2^e / root, through one reciprocal
    // (2^31 - 1) / root (root in [2^15, 2^16]; (a << e) < 2^16 unless a = 2^15 and e = 0).
    const std::uint32_t inv = divmod_u32(0x7FFFFFFFu, l.root).q;
    const std::uint32_t ux = ((l.a << l.e) * inv) >> 15, uy = ((l.b << l.e) * inv) >> 15;
    hx += vx < 0 ? -std::int32_t(ux) : std::int32_t(ux);
    hy += vy < 0 ? -std::int32_t(uy) : std::int32_t(uy);
  }
  m.diameter = float(double(dsum) / 16384.0 / count);
  m.mean_speed = float(double(ssum) / 16384.0 / count);
  m.polarisation = moving ? float(std::sqrt(double(hx) * double(hx) + double(hy) * double(hy)) / 65536.0 / moving) : 0.0f;
  m.boids = count;
  return m;
}

}  // namespace flockscope::board
