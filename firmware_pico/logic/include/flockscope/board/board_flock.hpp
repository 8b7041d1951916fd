// The board's flock: Cornell rules (seeds 000/001/004) in Q16.16 fixed point, the per-boid
// arithmetic taken from core's rules.hpp templates (the same code as the float engine),
// a uniform neighbour grid, and a step split into three parts so that two cores can share
// it: begin_step() (grid sort), update(begin, end) on disjoint slot ranges (any number of
// cores at once: each reads the shared previous frame and writes only its own slots) or
// in one call on one core, end_step() (predators, frame counter).
//
// Memory is the caller's (static arrays on the RP2040, vectors on the host): see
// FlockBuffers and bytes_per_boid(). Synchronous update as in core: every boid reads the
// previous frame only.
//
// The RP2040's Thumb-1 routines (logic/src/*_m0.S) read NearBoid, ScanRun, ScanJob,
// RulesJob, StencilTrim, UpdateRun and BoardPredator by the names in asm_offsets.h, which
// asm_offsets.cpp checks against these structs.
//
// Sections: buffers | coefficients | BoardFlock
#pragma once

#include <cstddef>
#include <cstdint>

#include "flockscope/board/board_config.hpp"
#include "flockscope/board/board_params.hpp"
#include "flockscope/board/fixed.hpp"
#include "flockscope/core/rng.hpp"
#include "flockscope/core/rules.hpp"


namespace flockscope::board {

// ---- buffers
// One boid of the previous frame as its neighbours see it: Q23.9 (1/512 px) position and
// velocity, rounded from Q16.16 (round_q9). The velocity is one word, vx in the low half and
// vy in the high half, each saturated to 16 bits (|v| < 64 px a frame; the parameters allow
// at most 64): the Thumb-1 scan adds both halves to two sums with one store and one load
// of an interpolator (scan_m0.S). The neighbour scan reads only x, y and v (16 bytes a slot,
// one pointer, immediate offsets); during the sort the same memory holds the Q16.16
// state being moved into grid order (x, y, vx in v, vy in w), and after it w keeps vy
// rounded, which nothing reads.
struct NearBoid {
  std::int32_t x, y;
  std::uint32_t v;
  std::int32_t w;
  constexpr std::int32_t vx() const { return std::int16_t(v & 0xffffu); }
  constexpr std::int32_t vy() const { return std::int32_t(v) >> 16; }
};

// The snapshot's velocity word from Q23.9 components (NearBoid::v).
constexpr std::int32_t saturate16(std::int32_t v) { return v < -32768 ? -32768 : v > 32767 ? 32767 : v; }
constexpr std::uint32_t pack_v9(std::int32_t vx9, std::int32_t vy9) {
  return (std::uint32_t(saturate16(vx9)) & 0xffffu) | std::uint32_t(saturate16(vy9)) << 16;
}

// n words from p on set to 0 (the RP2040's in Thumb-1, sort_m0.S: the sort's counters and
// the framebuffer's rows every frame).
extern "C" void flockscope_zero_words(std::uint32_t* p, std::uint32_t n);

struct FlockBuffers {
  fix *x, *y, *vx, *vy;      // state (Q16.16), in grid order from begin_step() on
  NearBoid* near;            // the previous frame in grid order, Q23.9 (see NearBoid)
  std::uint16_t* id;         // stable boid ids (spawn order)
  std::uint16_t *sid, *cell; // capacity entries each, the sort's scratch only
  std::uint16_t* cell_start; // max_cells + 1 entries
  fix* bias;                 // per scout id, bias_capacity entries
  std::uint32_t capacity, max_cells, bias_capacity;
  // Per boid id, capacity entries: its perching timer (rules::perch_rest; frames of rest
  // left, or before it may land again). Null: the board does not perch (perch_frames stays 0).
  std::int16_t* perch = nullptr;
};
// Bytes of FlockBuffers per boid of capacity (the RAM budget in the README).
inline constexpr std::size_t kBytesPerBoid = 4 * sizeof(fix) + sizeof(NearBoid) + 3 * sizeof(std::uint16_t);

// The neighbour sums of one boid, filled by flockscope_scan_neighbours(): the boid's own
// Q23.9 position and the squared ranges in, the sums out (Q23.9, wrapping where noted),
// and the slot ranges (row runs of the grid stencil) to scan. Plain data with fixed offsets:
// the RP2040 build scans with a Thumb-1 routine (scan_m0.S) that reads this layout.
// One run per stencil row, up to 2 * kMaxReach + 1 (make_job).
inline constexpr std::uint32_t kMaxReach = 4;
inline constexpr std::uint32_t kMaxRuns = 2 * kMaxReach + 1;
// What the rules take from a boid's neighbours (Q23.9, wrapping where noted): the scans'
// result and the boid update's input. Integer sums, so any order of the neighbours (one
// boid's scan, or each pair visited once and added to both boids) gives the same bits.
struct NeighbourSums {
  std::uint32_t sum_x, sum_y;   // sum of the visible neighbours' x, y (wrapping)
  std::int32_t sum_vx, sum_vy;  // sum of their velocities
  std::int32_t seen;            // how many
  std::int32_t sep_x, sep_y;    // sum of (self - other) over the protected ones
};
// One run of the stencil: the slots [begin, end) of one grid row's cells, and where the
// Thumb-1 scan enters its eight-candidate loop for it (scan_entry(); the host's C++ scan
// does not read it).
struct ScanRun {
  const NearBoid* begin;
  const NearBoid* end;
  const void* entry;
};
struct ScanJob {
  std::int32_t x, y;            // the boid (Q23.9)
  std::uint32_t visual2;        // visualRange^2 in 2^-18 px^2 (the Q23.9 range squared)
  std::uint32_t protected2;
  NeighbourSums s;
  std::uint32_t runs;           // how many runs follow
  // make_runs: the outer rows' two runs first; for the Thumb-1 scan, run[runs].entry =
  // scan_end_entry() (its end).
  ScanRun run[kMaxRuns + 1];
  // Nonzero: the runs after the first two (the middle rows') go without the early test on
  // dy alone (d2 decides there; set by make_runs() where d2 cannot wrap, see configure()).
  std::uint32_t middle_whole;
};
// The Thumb-1 scan's entries (scan_m0.S; null on the host, whose scan is C++): [0..7] with
// the test on dy alone, [8..15] without it, by the run's length modulo 8 (the loop takes
// eight candidates a turn and is entered part-way, as a Duff's device; an empty run has
// length 0 and takes entry 0 or 8, which tests for it); [16] the end of the scan.
inline constexpr std::uint32_t kScanEntriesWhole = 8, kScanEntriesEnd = 16;
extern "C" const void* const flockscope_scan_entries[kScanEntriesEnd + 1];
inline const void* scan_entry(bool dy_test, const NearBoid* begin, const NearBoid* end) {
  return flockscope_scan_entries[(dy_test ? 0 : kScanEntriesWhole) + (std::uint32_t(end - begin) & 7u)];
}
inline const void* scan_end_entry() { return flockscope_scan_entries[kScanEntriesEnd]; }
// Scans the job's runs for one boid (the caller zeroes the sums). A candidate is rejected
// when dy^2 >= visual2 (after the first two runs only with middle_whole 0), else at squared
// distance d2 = dx^2 + dy^2 (32-bit unsigned) it is
// protected if d2 < protected2, else visible if d2 < visual2: the strict comparisons of
// rules::cornell_classify. No box test and no self test: callers use it only when
// 0 < protected2 <= visual2 < 2^30 (the boid itself, d2 = 0, then adds a zero offset to the
// protected sums) and every offset in the runs is below 110 px (d2 fits 32 bits), see
// BoardFlock::configure().
extern "C" void flockscope_scan_neighbours(ScanJob* job);

// The rules' fast path (BoardFlock::configure() decides when it applies): one boid's
// cohesion, alignment, separation, margins, predators, speed test and move, from its scan
// job's sums, in the same bits as BoardFlock::update_boid. Plain data with fixed offsets:
// the RP2040 build runs a Thumb-1 routine (rules_m0.S) that reads this layout; the host
// runs its C++ version.
struct RulesJob {
  fix *xs, *ys, *vxs, *vys;  // the state; slot k is read, and written on kRulesDone
  // Weights in [0, 1) (raw < 2^16; 0 for a rule that is off).
  std::int32_t centering, matching, avoid;
  std::int32_t turn;
  std::int32_t left, right, top, bottom;  // the margins' edges
  // The predators' range (below 128 px), its square and the turn.
  std::int32_t predator_range, predator_range2, predator_turn;
  std::uint32_t npred;
  const void* predators;                // BoardPredator[npred]
  std::int32_t min2, max2;              // minspeed^2, maxspeed^2
  std::int32_t out_vx, out_vy, out_v2;  // with kRulesLimit, the velocity and its square
  std::int32_t minspeed, maxspeed;      // below 128 px/frame
  const std::uint8_t* sqrt_seeds;       // kSqrtSeeds (fixed.hpp)
  std::uint32_t scout_end;              // ids below it are scouts (read by the C++ callers)
};
// What flockscope_rules did with slot k:
inline constexpr std::uint32_t kRulesDone = 0;   // its next state written
// Its speed (RulesJob out_vx, out_vy; squared out_v2) is outside [min, max] and below 0.5
// or from 128 px/frame on (the fast path limits the others itself): the caller limits it,
// moves and writes the boid.
inline constexpr std::uint32_t kRulesLimit = 1;
// Off the fast path (a sum beyond +-2^23 in Q23.9, a predator 32,768 px away): nothing
// written, the caller runs the general rules.
inline constexpr std::uint32_t kRulesOff = 2;
extern "C" std::uint32_t flockscope_rules(const ScanJob* job, RulesJob* rules, std::uint32_t k);

// The fast scan's stencil, trimmed for each boid (BoardFlock::make_runs, trim_runs): the
// outermost rows and columns of the (2 reach + 1)^2 cells lie wholly beyond the visual range
// of a boid near the far side of its own cell (with cells of exactly half the range, as
// the lab's 20 px, hardly ever), and so do the four corner cells more often (at reach 2,
// cells of half the range, a uniform flock: each corner for about 7 boids in 10; on the
// lab's flock of 2,000, 10 % of the candidates fresh, 8 % clumped:
// BoardFlock.TrimmedStencilGivesEveryBoidTheWholeStencilSums). A
// cell whose nearest point is at least visualRange away holds no candidate the scan would
// count, so leaving it out changes no sum. The runs of the outer rows (the job's first two)
// are cut at their corner cells, or emptied.
struct StencilTrim {
  // Q23.9: the inner edges of the outer rows and columns (the top edge of the row below
  // the top one, the top edge of the bottom row; the same for the columns). A boid in the
  // outer top row has y <= top9 (its Q16.16 y is below the edge, and rounding keeps that),
  // so its offset from a boid at y is at least y - top9; and so on.
  std::int32_t top9, bottom9, left9, right9;
  // The outer rows' slots: [0] the row's begin, [1] the begin of its second cell, [2] the
  // begin of its last cell, [3] the row's end.
  const NearBoid *top[4], *bottom[4];
};

// A cell's boids through the fast scan and the rules' fast path, one after the other
// (BoardFlock::update): for each slot k of [k, end), unless it is a scout, the job's
// position from the snapshot, the stencil trimmed (trim, if not null), the scan, the rules.
// Plain data with fixed offsets: the RP2040 build runs it in Thumb-1 (rules_m0.S), the host
// its C++ version. It stops at the first slot it cannot finish, whose number it returns
// (end when it finished them all), with the reason in `code`: kRunScout (a scout: nothing
// done), or flockscope_rules' kRulesLimit or kRulesOff (the slot's scan done: the job holds
// its position and sums). The Thumb-1 version sets the job's runs' entries and makes its
// own label the end's (it runs the scan's loops inline): a C++ caller that scans the job
// afterwards sets the end's entry again (set_scan_entries).
struct UpdateRun {
  ScanJob* job;                  // its runs (with their entries) the cell's (make_runs)
  StencilTrim* trim;
  RulesJob* rules;
  const NearBoid* near;
  const std::uint16_t* id;
  std::uint32_t scout_end;       // RulesJob::scout_end, at hand for the run
  std::uint32_t (*clock)();      // not null: the scans are timed (BoardFlock::set_profile_clock)
  std::uint32_t scan_cycles;     // their cycles added up (each modulo 2^24)
  std::uint32_t code;
  // Not null: the run makes the job's runs and the trim first, for the cell whose 5 x 5
  // stencil (reach 2) starts at this cell start (its top left cell's), and sets it null;
  // the job and the trim are then what make_runs() makes for the cell (make_cell_runs).
  const std::uint16_t* top;
  std::uint32_t row_bytes;       // the grid's columns x 2 (from one stencil row to the next)
  const std::int16_t* lines_x;   // the grid lines (BoardFlock::line_px_) from the stencil's
  const std::int16_t* lines_y;   // second column and row on
};
inline constexpr std::uint32_t kRunScout = 3;
// The reach whose cells' jobs flockscope_update_run makes itself (UpdateRun::top: its
// stencil is 5 x 5 cells).
inline constexpr std::uint32_t kUpdateRunReach = 2;
extern "C" std::uint32_t flockscope_update_run(UpdateRun* run, std::uint32_t k, std::uint32_t end);

// A predator in fixed point (core's Predator is the float engine's).
struct BoardPredator {
  fix x, y, vx, vy;
};
inline constexpr std::uint32_t kMaxPredators = 16;
// What a centroid or chase predator steers toward this frame (core's PredatorAim): the
// centre of the boids it sees, or the boid it chases (target: its id; -1 none).
struct BoardAim {
  bool active = false;
  fix x, y;
  std::int32_t target = -1;
};
// A moving food source (core's FoodSource).
struct BoardFood {
  fix x, y, vx, vy;
};
inline constexpr std::uint32_t kMaxFood = 16;

struct FlockMetrics {
  float diameter, centroid_x, centroid_y, polarisation, mean_speed;
  std::uint32_t boids;  // how many boids diameter, polarisation and mean speed were computed over
};

// ---- BoardFlock

class BoardFlock {
 public:
  explicit BoardFlock(const FlockBuffers& buffers);

  // Re-derives the coefficients from the active parameters (live changes).
  void configure(const ParamStore& params);
  // Spawns n boids and the predators from seed, exactly as core's Flock spawns them
  // (the same PCG32 draws), quantised to Q16.16.
  void reset(const ParamStore& params, std::uint64_t seed, std::uint32_t n);
  // Grows (new boids continue the spawn sequence) or shrinks (highest ids go) the flock.
  void set_count(std::uint32_t n);

  // begin_step() = sort_cells(0, size()); sort_scatter(); sort_finish(0, size()), and
  // sort_scatter() = sort_count(); sort_move(0, cell_count()). Two cores share it by
  // splitting sort_cells and sort_finish into disjoint slot ranges and sort_move into
  // disjoint cell ranges (any split, any order within a pass: the same bits; middle_cell()
  // halves the boids); sort_count() runs on one core, each pass after the previous one has
  // ended everywhere.
  void begin_step();
  void sort_cells(std::uint32_t begin, std::uint32_t end);   // each boid's cell
  void sort_scatter();                                       // counting sort into `near`
  void sort_count();                                         // cells' ends (serial)
  void sort_move(std::uint32_t cell_begin, std::uint32_t cell_end);  // those cells' boids into `near`
  void sort_finish(std::uint32_t begin, std::uint32_t end);  // state back, Q23.9 snapshot
  std::uint32_t cell_count() const { return cols_ * rows_; }
  // After sort_count(): the first cell whose end is at least size() / 2.
  std::uint32_t middle_cell() const;
  // After sort_move(): the first slot of cell c (c <= cell_count(); cell_count()'s is size()).
  std::uint32_t cell_begin(std::uint32_t c) const { return buf_.cell_start[c]; }
  // Slots [begin, end): each boid's whole stencil scanned, then updated (any number of
  // disjoint ranges at once, in any order: the two cores' runs, update_run()).
  void update(std::uint32_t begin, std::uint32_t end);
  // How many slots from `next` the next run of update() takes when cores claim runs as
  // they get free: a quarter of what is left, at least 8 (long runs first: few claims,
  // each run's first cell job made once; short ones at the end, so the cores finish
  // within a few boids of each other). update() clips a run at size().
  static constexpr std::uint32_t update_run(std::uint32_t next, std::uint32_t size) {
    const std::uint32_t quarter = next < size ? (size - next) / 4 : 0;
    return quarter > 8 ? quarter : 8;
  }
  void end_step();
  void step() {
    begin_step();
    update(0, n_);
    end_step();
  }

  std::uint32_t size() const { return n_; }
  std::uint32_t capacity() const { return buf_.capacity; }
  std::uint32_t frame() const { return frame_; }
  bool predators_on() const { return predators_on_; }
  void set_predators_on(bool on) { predators_on_ = on; }
  std::uint32_t predator_count() const { return predators_on_ ? n_pred_ : 0; }
  const BoardPredator& predator(std::uint32_t i) const { return pred_[i]; }
  void set_predator(std::uint32_t i, const BoardPredator& p) { pred_[i] = p; }
  // Predator i's aim after the last step (inactive for random predators, or when it sees
  // no boid).
  const BoardAim& aim(std::uint32_t i) const { return aim_[i]; }
  // The food sources (their number is the food parameter as of the last reset).
  std::uint32_t food_count() const { return n_food_; }
  const BoardFood& food(std::uint32_t i) const { return food_[i]; }
  void set_food(std::uint32_t i, const BoardFood& f) { food_[i] = f; }
  // Whether boids perch (perch_frames > 0 and perching storage), and boid id's timer.
  bool perching() const { return perch_on_; }
  fix perch_y() const { return c_.perch_y; }  // the ledge
  fix perch_x0() const { return c_.perch_x0; }
  fix perch_x1() const { return c_.perch_x1; }
  std::int32_t perch_timer(std::uint32_t id) const { return perch_on_ ? buf_.perch[id] : 0; }
  // How many boids rest on the ledge now.
  std::uint32_t perched() const;

  // State after the last step, in storage order (id(k) is slot k's boid).
  fix x(std::uint32_t k) const { return buf_.x[k]; }
  fix y(std::uint32_t k) const { return buf_.y[k]; }
  fix vx(std::uint32_t k) const { return buf_.vx[k]; }
  fix vy(std::uint32_t k) const { return buf_.vy[k]; }
  std::uint16_t id(std::uint32_t k) const { return buf_.id[k]; }
  const fix* xs() const { return buf_.x; }  // x(0) .. x(size() - 1), for tight loops
  const fix* ys() const { return buf_.y; }
  const fix* vxs() const { return buf_.vx; }
  const fix* vys() const { return buf_.vy; }
  // Scout group of slot k: 0 none, 1 right, 2 left (ids as in core::scout_group).
  std::uint8_t group(std::uint32_t k) const;
  // Places boid `id` (tests: start from a float engine's state). Slots follow ids.
  void set_boid(std::uint32_t id, fix x, fix y, fix vx, fix vy);
  void set_size(std::uint32_t n) { n_ = n <= buf_.capacity ? n : buf_.capacity; }

  // The whole state as one number (64-bit FNV-1a over the count, the sum of one FNV-1a
  // hash per boid of its id, x, y, vx, vy (so independent of the slots' order), every
  // scout's bias and the predators, 32-bit words low byte first): runs that must agree bit
  // for bit (pinned results, one core against two) compare it.
  std::uint64_t state_hash() const;

  // The previous frame in grid order (Q23.9), valid after begin_step() for the first size()
  // slots: where the boids were drawn.
  const NearBoid* previous() const { return buf_.near; }
  // Profiling (the emulator measurement): an up-counting cycle counter (modulo 2^24, e.g.
  // SysTick) read around each boid's neighbour scan; the cycles add up in scan_cycles().
  void set_profile_clock(std::uint32_t (*clock)()) { clock_ = clock; }
  std::uint32_t scan_cycles() const { return scan_cycles_; }
  void clear_scan_cycles() { scan_cycles_ = 0; }
  // After begin_step(): how many boids' snapshot (the sort's last pass: sort_m0.S on the
  // RP2040) or fast-scan sums differ between the RP2040's assembly
  // (flockscope_sort_finish, flockscope_scan_neighbours) and the C++ versions. 0 expected.
  std::uint32_t check_scan() const;
  // After begin_step(): how many boids the rules' fast path (flockscope_rules: rules_m0.S on
  // the RP2040, its C++ version on the host) gives a different next state than the general
  // rules (update_boid) from the same sums. 0 expected. The state is left as it was.
  // `checked`: how many boids it compared (those the fast path takes).
  std::uint32_t check_rules(std::uint32_t* checked = nullptr);
  // A fast job's runs for the boid at (job.x, job.y) cut as `trim` allows (StencilTrim;
  // the C++ of what flockscope_update_run does on the RP2040).
  static void trim_runs(ScanJob& job, const StencilTrim& trim);
  // Every run's entry for the Thumb-1 scan (scan_entry()), and the end's after them.
  static void set_scan_entries(ScanJob& job);
  // Whether the rules' fast path is in use (configure(): weights in [0, 1), dt 1, predator
  // range below 128 px, no gravity, no food, no perching; hunting predators leave the boids'
  // rules as they are). The stats message says which path a frame took.
  bool rules_fast() const { return rules_fast_; }
  // After begin_step(): slot k's neighbour sums as update() will use them (tests: the grid
  // against all pairs). Returns whether the fast scan made them.
  bool scan_sums(std::uint32_t k, ScanJob& job) const;
  // Tests: every boid takes the general scan (the fast one must give the same flock).
  void set_general_scan_only(bool on) { general_only_ = on; }
  // Tests: every boid takes the general rules (update_boid), from the next configure() on.
  void set_general_rules_only(bool on) { general_rules_only_ = on; }
  // Tests: false scans every fast job's whole stencil (no StencilTrim).
  void set_stencil_trim(bool on) { trim_on_ = on; }
  // The stencil radius in cells (2..kMaxReach; cells about range / reach wide), taken at the
  // next configure()/reset().
  void set_reach(std::uint32_t r) { reach_pref_ = r < 2 ? 2 : r > kMaxReach ? kMaxReach : r; }

  // core's compute_metrics (centroid, diameter = mean distance to the centroid, mean speed,
  // polarisation = |sum of unit headings| / moving boids) in integer arithmetic: centroid
  // over all boids; diameter, polarisation and mean speed over an even sample of at most
  // `sample` boids (0: all), their count in `boids`. Lengths are integer square roots (a
  // table and one Newton step on the hardware divider) of the vectors scaled to 15 bits:
  // within 1e-4 relative of the float result per boid (test BoardFlock.IntegerMetrics*).
  FlockMetrics metrics(std::uint32_t sample = 0) const;

 private:
  std::uint32_t cell_x(fix x) const;
  std::uint32_t cell_y(fix y) const;
  void spawn_one(std::uint32_t slot, std::uint32_t id);
  // Slot k's scan job (position, ranges, the stencil's row runs); true if the fast scan's
  // conditions hold for it.
  bool make_job(std::uint32_t k, ScanJob& job) const;
  // make_job() after the boid's own fields (x, y, the squared ranges): the runs of the
  // stencil about cell (cx, cy).
  // With the fast scan also the stencil's edges (StencilTrim), which trim_runs() applies to
  // a boid of the cell.
  bool make_runs(std::uint32_t cx, std::uint32_t cy, ScanJob& job, StencilTrim& trim) const;
  // Whether the fast scan takes the cell (cx, cy): its conditions hold and its stencil stays
  // off the clamped outermost cells (make_runs' test).
  bool stencil_inside(std::uint32_t cx, std::uint32_t cy) const {
    return fast_scan_ && stencil_inside(cx, cy, reach_, cols_, rows_);
  }
  // The same test with the grid's numbers at hand (update()'s loop keeps them in registers).
  static bool stencil_inside(std::uint32_t cx, std::uint32_t cy, std::uint32_t reach, std::uint32_t cols,
                             std::uint32_t rows) {
    return cx > reach && cx + reach + 1 < cols && cy > reach && cy + reach + 1 < rows;
  }
  // The cell start of its stencil's top left cell (reach rows and columns before its own:
  // update() steps back from the cell's end, start[c + 1], by reach cols + reach + 1), and
  // the grid lines from its second column (or row) on (StencilTrim's edges; with the trim
  // only).
  const std::uint16_t* stencil_top(std::uint32_t cx, std::uint32_t cy) const {
    return buf_.cell_start + ((cy - reach_) * cols_ + cx - reach_);
  }
  const std::int16_t* stencil_lines(std::uint32_t c) const { return line_px_ + (c - reach_ + 1); }
  // The rules' constants (RulesJob: the fast path's layout; the general rules read its
  // npred, scout_end, min2 and max2 besides c_), taken once per update() call.
  RulesJob rules_job();
  // update() with the extensions that keep state per boid or per source (Ext: food,
  // perching) or without them (the path every parameter set without them takes).
  template <bool Ext>
  void update_cells(std::uint32_t begin, std::uint32_t end);
  // The rules for slot k (x9, y9: its Q23.9 snapshot position) from its neighbour sums:
  // writes its next state.
  template <bool Ext>
  void update_boid(std::uint32_t k, std::int32_t x9, std::int32_t y9, const NeighbourSums& s, const RulesJob& rj);
  // Slot k through the fast path when it applies (not a scout, rules_fast_): true when it
  // was updated there (kRulesLimit's speed limit and move included).
  bool update_fast(std::uint32_t k, const ScanJob& job, RulesJob& rules);
  // After flockscope_rules returned `code` for slot k: true when slot k is updated (with
  // kRulesLimit, by the speed limit and the move here), false for kRulesOff.
  bool finish_fast(std::uint32_t k, std::uint32_t code, const RulesJob& rules);
  // end_step()'s extensions (board_extensions.cpp): each hunting predator's aim, the food
  // sources' move.
  void find_aims();
  void hunt(std::uint32_t i);
  void step_food();
  void spawn_food(std::uint64_t seed);
  FlockBuffers buf_;
  std::uint32_t n_ = 0;
  std::uint32_t frame_ = 0;
  Pcg32 rng_{1};
  // World, spawn spans and grid.
  double width_ = 640, height_ = 480;
  double spawn_x0_ = 0, spawn_x1_ = 640, spawn_y0_ = 0, spawn_y1_ = 480;
  double minspeed_ = 3, maxspeed_ = 6;
  std::int32_t cell_px_ = 20;
  std::uint32_t reach_ = 2;              // cells a neighbour can be away (the stencil radius)
  std::uint32_t reach_pref_ = FLOCKSCOPE_GRID_REACH;
  std::uint32_t inv_cell_ = 65536 / 40;  // floor(2^16 / cell_px_)
  std::int32_t pad_px_ = 0;              // the grid starts this far left of / above the screen
  std::uint32_t cols_ = 1, rows_ = 1;
  std::uint32_t line_limit_x_ = 0, line_limit_y_ = 0;  // grid_line_limit() of cols_, rows_
  // Scouts and bias.
  std::uint32_t scouts1_ = 0, scouts2_ = 0;
  fix biasval_{};
  // Rules.
  rules::CornellCoeffs<fix> c_{};
  std::int32_t range9_ = 0;  // the neighbour test, Q23.9, and its squared ranges (2^-18 px^2)
  std::uint64_t visual2_ = 0, protected2_ = 0;
  bool fast_scan_ = false;  // flockscope_scan_neighbours' conditions hold (configure())
  bool rules_fast_ = false;  // flockscope_rules' conditions hold (configure())
  BoardPredator pred_[kMaxPredators] = {};
  std::uint32_t n_pred_ = 0;
  // The lab's extensions (seed 001): hunting predators, food, perching.
  BoardAim aim_[kMaxPredators] = {};
  std::uint32_t hunt_ = 0;                   // predator_mode: 0 random, 1 centroid, 2 chase
  std::int64_t vision_raw_ = 0;              // predator_vision in Q16.16, and its square
  std::uint64_t vision2_ = 0;
  fix steer_{};                              // predator_steer
  BoardFood food_[kMaxFood] = {};
  std::uint32_t n_food_ = 0;
  fix food_speed_{};
  std::uint64_t seed_ = 1;                   // the last reset's (the food's wander draws)
  bool perch_on_ = false;
  bool ext_ = false;                         // food or perching: update_cells<true>
  bool predators_on_ = true;
  bool general_only_ = false;
  bool general_rules_only_ = false;
  bool trim_on_ = true;
  bool trimming() const { return trim_on_ && trim_lines_; }  // StencilTrim in use
  bool middle_whole_ = false;  // ScanJob::middle_whole for the fast jobs (configure())
  // StencilTrim's edges: line_px_[i] is the first pixel (less the pad) of grid column and
  // row i, for grids of fewer than kMaxTrimLines columns and rows (trim_lines_; coarser
  // grids scan whole stencils).
  static constexpr std::uint32_t kMaxTrimLines = 127;
  bool trim_lines_ = false;
  std::int16_t line_px_[kMaxTrimLines + 1] = {};
  std::uint32_t (*clock_)() = nullptr;
  std::uint32_t scan_cycles_ = 0;
};

}  // namespace flockscope::board
