// BoardFlock's step after the sort: update() (each boid's neighbour scan and rules, from
// the sorted snapshot) and end_step() (the predators). update() walks the cells along the
// slots and hands each cell's boids to the fast path (flockscope_update_run: the fast scan
// and the rules' fast path, Thumb-1 on the RP2040) or, where its conditions do not hold,
// scans them here (the edge and general scans) and applies the general rules
// (update_boid; with food or perching on, update_boid<true> in the cell walk's own instance
// update_cells<true>). Also the scan jobs and their runs (make_job, make_runs, trim_runs),
// the C++ fast scan (the host's flockscope_scan_neighbours) and update run, and the checks of
// the assembly against the C++ (check_scan, check_rules). The rules' fast path in C++ is
// board_rules_fast.cpp.
//
// end_step() is here for the compiler's sake: beside it (it limits the predators' speed
// too), GCC keeps rules::limit_speed_sq one out-of-line function that update_boid and
// finish_fast call; in a file without it, GCC inlines the limit into both, and the
// RP2040's update() grows by 40 %.
//
// Sections: the fast scan | a cell's runs and the update run | the general and edge scans |
// scan jobs | checks | update | the rules | predators
#include "board_flock_shared.hpp"
#include "flockscope/board/board_config.hpp"
#include "flockscope/board/board_flock.hpp"

#include <algorithm>

namespace flockscope::board {

using rules::Boid;

std::uint32_t BoardFlock::cell_x(fix x) const { return grid_line(x.raw, pad_px_, inv_cell_, cols_); }
std::uint32_t BoardFlock::cell_y(fix y) const { return grid_line(y.raw, pad_px_, inv_cell_, rows_); }

// ---- the fast scan
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

#if !FLOCKSCOPE_SCAN_ASM
extern "C" void flockscope_scan_neighbours(ScanJob* job) { scan_fast_cpp(job); }
extern "C" const void* const flockscope_scan_entries[kScanEntriesEnd + 1] = {};  // (the C++ scan has no entries)
#endif

// ---- a cell's runs and the update run
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

#if !FLOCKSCOPE_RULES_ASM
// The host's run of a cell's boids (rules_m0.S has the RP2040's): UpdateRun's contract.
extern "C" std::uint32_t flockscope_update_run(UpdateRun* run, std::uint32_t k, std::uint32_t end) {
  ScanJob& job = *run->job;
  if (k >= end) return end;
  if (run->top) {
    make_cell_runs(job, run->trim, run->near, run->top, run->row_bytes / 2, 2 * kUpdateRunReach + 1, run->lines_x,
                   run->lines_y);
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

// ---- the general and edge scans
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

// ---- scan jobs
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

// ---- checks
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

// ---- update
// Food and perching take their own instance of the cell walk (update_cells<true>), so that
// the parameter sets without them run the code they ran before those extensions existed.
void BoardFlock::update(std::uint32_t begin, std::uint32_t end) {
  if (ext_)
    update_cells<true>(begin, end);
  else
    update_cells<false>(begin, end);
}

template <bool Ext>
[[gnu::noinline]] void BoardFlock::update_cells(std::uint32_t begin, std::uint32_t end) {
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
  const bool run_makes_jobs = rules_fast_ && fast_scan_ && reach_ == kUpdateRunReach;
  // next - top_back: stencil_top() (reach rows and reach + 1 cells back)
  const std::uint32_t rows = rows_, top_back = kUpdateRunReach * cols + kUpdateRunReach + 1;
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
      if (run_makes_jobs && stencil_inside(cx, cy, kUpdateRunReach, cols, rows)) {
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
        if (!finish_fast(k, run.code, rules)) update_boid<Ext>(k, job.x, job.y, job.s, rules);
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
    if (!update_fast(k, job, rules)) update_boid<Ext>(k, job.x, job.y, job.s, rules);
    ++k;
  }
  scan_cycles_ += scan_cycles + run.scan_cycles;
}

// Taken once per update() call, so that the per-boid loop keeps them at hand.
// ---- the rules
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
    update_boid<false>(k, job.x, job.y, job.s, rules);
    take(general);
    differ += fast[0] != general[0] || fast[1] != general[1] || fast[2] != general[2] || fast[3] != general[3];
  }
  return differ;
}

template <bool Ext>
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
  const std::uint32_t id = buf_.id[k];
  rules::Surroundings<BoardPredator, BoardFood> world{pred_, npred};
  rules::BoidExtras<fix> extras;
  extras.group = id < scout_end ? (id < scouts1_ ? 1 : 2) : 0;
  extras.stored_bias = extras.group != 0 ? buf_.bias + id : nullptr;
  extras.static_bias = biasval_;
  std::int32_t perch = 0;  // the boid's timer, widened for the rule (stored in 16 bits)
  if constexpr (Ext) {
    world.food = food_, world.food_count = n_food_;
    if (perch_on_) perch = buf_.perch[id], extras.perch = &perch;
  }
  const Boid<fix> nb = rules::cornell_update(self, s, world, extras, c, [&](fix& vx, fix& vy) {
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
  if constexpr (Ext) {
    if (perch_on_) buf_.perch[id] = std::int16_t(perch);
  }
}

// ---- predators
void BoardFlock::end_step() {
  // Predators move like boids that only turn at the margins (seeds 001/004); a centroid or
  // chase predator also steers toward its aim (seed 001's smarter predator), found from the
  // boids' new positions as core's Flock::step_predators does.
  if (hunt_ != 0) find_aims();
  for (std::uint32_t i = 0; i < n_pred_; ++i) {
    BoardPredator& p = pred_[i];
    const fix ovx = p.vx, ovy = p.vy;
    if (hunt_ != 0) hunt(i);
    rules::cornell_edges(p.x, p.y, p.vx, p.vy, c_);
    rules::limit_speed(p.vx, p.vy, c_.minspeed, c_.maxspeed, ovx, ovy);
    p.x += p.vx * c_.dt;
    p.y += p.vy * c_.dt;
  }
  if (n_food_ != 0) step_food();
  ++frame_;
}

}  // namespace flockscope::board
