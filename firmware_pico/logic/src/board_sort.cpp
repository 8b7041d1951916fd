// BoardFlock's grid sort (begin_step): the counting sort of the last state into cell
// order, in parts so that two cores can share the per-boid passes (sort_cells, sort_move,
// sort_finish: disjoint ranges, any order) around the serial count: the state is
// scattered into `near` (Q16.16, as scratch), copied back in grid order, and `near`
// becomes the Q23.9 snapshot the neighbour scans read (the previous frame: the update
// writes only the state). With the C++ versions of the per-boid passes: the host's; the
// RP2040 assembles sort_m0.S instead (its jobs: sort_jobs.hpp).
//
// Sections: begin_step | sort_cells | sort_count, middle_cell | sort_move | sort_finish
#include "board_flock_shared.hpp"
#include "flockscope/board/board_config.hpp"
#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/sort_jobs.hpp"

#include <cstring>

namespace flockscope::board {

// ---- begin_step
void BoardFlock::begin_step() {
  sort_cells(0, n_);
  sort_scatter();
  sort_finish(0, n_);
}

// ---- sort_cells
namespace {
// grid_line() with one unsigned test on p = (raw >> 16) + pad: below limit
// (grid_line_limit: p >= 0, p inv neither wraps nor reaches count 2^16) it is (p inv) >> 16;
// the rest (off the grid's ends) goes through grid_line(). The steps of sort_m0.S.
inline std::uint32_t grid_line_fast(std::int32_t raw, std::int32_t pad, std::uint32_t inv, std::uint32_t count,
                                    std::uint32_t limit) {
  const auto p = std::uint32_t((raw >> 16) + pad);
  return p < limit ? (p * inv) >> 16 : grid_line(raw, pad, inv, count);
}
}  // namespace

#if !FLOCKSCOPE_SORT_ASM
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

// ---- sort_count, middle_cell
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

// ---- sort_move
#if !FLOCKSCOPE_SORT_ASM
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

// ---- sort_finish
#if !FLOCKSCOPE_SORT_ASM
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
  const SortFinishJob job{buf_.near + begin, buf_.near + end, buf_.x + begin, buf_.y + begin, buf_.vx + begin,
                          buf_.vy + begin};
  flockscope_sort_finish(&job);
  std::uint16_t* id = buf_.id;
  const std::uint16_t* sid = buf_.sid;
  for (std::uint32_t k = begin; k < end; ++k) id[k] = sid[k];
}

}  // namespace flockscope::board
