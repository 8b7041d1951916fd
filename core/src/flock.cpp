// Sections: construction and spawning | parameters | the step (grid sort, boid rules per rule
// set, predators) | snapshots and hashing
// The Cornell grid step's pass lives beside it: cornell_pass.hpp (its inputs and the update),
// cornell_kernel_portable.hpp, cornell_kernel_avx2.hpp and cornell_kernel_avx512.hpp (the kernels),
// cornell_rows.cpp (the row pass), row_shares.hpp (the rows shared out among threads).
#include "flockscope/core/flock.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>

#include "cornell_pass.hpp"
#include "flockscope/core/fnv1a.hpp"
#include "flockscope/core/rng.hpp"
#include "flockscope/core/rules.hpp"
#include "flockscope/core/spawn.hpp"
#include "row_shares.hpp"

namespace flockscope {

using rules::Boid;
using grid_step::CornellPass;
using grid_step::kSlotPadding;
using grid_step::cornell_coeffs;
using grid_step::LaneSums;
using grid_step::RowShares;
using rules::kLanes;
using rules::v8f;
using rules::v8i;

int scout_group(const Params& p, std::uint32_t id) {
  if (id < std::uint64_t(p.scouts1)) return 1;
  if (id < std::uint64_t(p.scouts1) + std::uint64_t(p.scouts2)) return 2;
  return 0;
}

// ---------------------------------------------------------------- construction and spawning
Flock::Flock(const Params& params) : active_(params), pending_(params) { spawn(std::uint64_t(params.seed)); }

Flock::Flock(const Params& params, const FlockSnapshot& initial) : active_(params), pending_(params) {
  active_.boids = pending_.boids = std::int64_t(initial.size());
  start_from(initial);
  spawn_predators(std::uint64_t(params.seed));
  spawn_food(std::uint64_t(params.seed));
}

namespace {
// A velocity as each rule set's source initialises it.
void spawn_velocity(const Params& p, Pcg32& rng, float& vx, float& vy) {
  double lo = p.minspeed, hi = p.maxspeed;  // seed 001: "within min/max speed limits"
  switch (p.rule_set()) {
    case RuleSet::Blog:  // seed 003: each component uniform in [-V0, V0]
      vx = float(rng.uniform(-p.maxspeed, p.maxspeed));
      vy = float(rng.uniform(-p.maxspeed, p.maxspeed));
      return;
    case RuleSet::Report: lo = 0, hi = p.V_max; break;
    case RuleSet::Cornell: break;
  }
  double dvx, dvy;
  random_velocity(rng, lo, hi, dvx, dvy);
  vx = float(dvx);
  vy = float(dvy);
}
// Where boids, predators and food sources start: inside the margins (spawn_span), x then y
// drawn from the generator.
struct SpawnArea {
  double x_lo, x_hi, y_lo, y_hi;
  explicit SpawnArea(const Params& p) {
    spawn_span(p.width, p.leftmargin, p.rightmargin, x_lo, x_hi);
    spawn_span(p.height, p.topmargin, p.bottommargin, y_lo, y_hi);
  }
  void place(Pcg32& rng, float& x, float& y) const {
    x = float(rng.uniform(x_lo, x_hi));
    y = float(rng.uniform(y_lo, y_hi));
  }
};

}  // namespace

void Flock::spawn(std::uint64_t seed) {
  const Params& p = active_;
  const auto n = std::size_t(p.boids);
  FlockSnapshot s;
  s.x.resize(n), s.y.resize(n), s.vx.resize(n), s.vy.resize(n);
  Pcg32 rng(seed);
  const SpawnArea area(p);
  for (std::size_t i = 0; i < n; ++i) {
    area.place(rng, s.x[i], s.y[i]);
    spawn_velocity(p, rng, s.vx[i], s.vy[i]);
  }
  start_from(std::move(s));
  spawn_predators(seed);
  spawn_food(seed);
}

void Flock::start_from(FlockSnapshot s) {
  const std::size_t n = s.size();
  box_valid_ = false;
  x_ = std::move(s.x), y_ = std::move(s.y), vx_ = std::move(s.vx), vy_ = std::move(s.vy);
  id_.resize(n);
  for (std::size_t i = 0; i < n; ++i) id_[i] = std::uint32_t(i);
  // Padded for the vector loops' last loads (cornell_sum_range, the grid kernels' groups).
  for (auto* v : {&sx_, &sy_, &svx_, &svy_}) v->assign(n + kSlotPadding, 0.0f);
  sid_.assign(n, 0);
  const auto scouts = std::min<std::uint64_t>(n, std::uint64_t(active_.scouts1) + std::uint64_t(active_.scouts2));
  bias_.assign(std::size_t(scouts), float(active_.biasval));
  steps_ = 0;
  time_ = 0;
  time_base_ = 0, time_base_step_ = 0, time_dt_ = active_.dt;
  perch_.clear();
  aims_.assign(predators_.size(), PredatorAim{});
}

void Flock::spawn_predators(std::uint64_t seed) {
  Pcg32 rng(seed, 2);  // its own stream: adding predators does not move the boids
  Params p = active_;
  p.rules = int(RuleSet::Cornell);  // predators start like Cornell boids in every rule set
  predators_.resize(std::size_t(active_.predators));
  const SpawnArea area(p);
  for (auto& pr : predators_) {
    area.place(rng, pr.x, pr.y);
    spawn_velocity(p, rng, pr.vx, pr.vy);
  }
}

// Food sources: their own stream, so adding food moves neither boids nor predators. Each
// starts inside the margins heading a random way (its first step sets the speed).
void Flock::spawn_food(std::uint64_t seed) {
  Pcg32 rng(seed, 3);
  const Params& p = active_;
  food_.resize(std::size_t(p.food));
  const SpawnArea area(p);
  for (auto& f : food_) {
    area.place(rng, f.x, f.y);
    f.vx = float(rng.uniform(-1, 1));
    f.vy = float(rng.uniform(-1, 1));
  }
}

// ---------------------------------------------------------------- parameters
void Flock::set_params(const Params& params) {
  pending_ = params;
  copy_params(active_, params, Apply::Live);
}

void Flock::reset() {
  active_ = pending_;
  spawn(std::uint64_t(active_.seed));
}

// ---------------------------------------------------------------- the step
namespace {

// What the three rule sets' coefficient structs share: the walls, the time step, the switches.
template <class Coeffs>
void fill_common(Coeffs& c, const Params& p) {
  c.turn = float(p.turnfactor);
  c.left_edge = float(p.leftmargin);
  c.right_edge = float(p.width - p.rightmargin);
  c.top_edge = float(p.topmargin);
  c.bottom_edge = float(p.height - p.bottommargin);
  c.dt = float(p.dt);
  c.gravity = float(p.gravity);
  c.cohesion = p.cohesion;
  c.alignment = p.alignment;
  c.separation = p.separation;
}

}  // namespace

rules::CornellCoeffs<float> grid_step::cornell_coeffs(const Params& p) {
  rules::CornellCoeffs<float> c{};
  fill_common(c, p);
  c.range = float(std::max(p.visualRange, p.protectedRange));
  c.protected2 = float(p.protectedRange * p.protectedRange);
  c.visual2 = float(p.visualRange * p.visualRange);
  c.centering = float(p.centeringfactor);
  c.matching = float(p.matchingfactor);
  c.avoid = float(p.avoidfactor);
  c.predator_range = float(p.predatorRange);
  c.predator_range2 = float(p.predatorRange * p.predatorRange);
  c.predator_turn = float(p.predatorturnfactor);
  c.minspeed = float(p.minspeed);
  c.maxspeed = float(p.maxspeed);
  c.maxbias = float(p.maxbias);
  c.bias_increment = float(p.bias_increment);
  c.bias_pull = p.bias_pull() == BiasTarget::MaxSpeed ? float(p.maxspeed) : 1.0f;
  c.dynamic_bias = p.dynamicbias;
  c.food_range = float(p.food_range);
  c.food_range2 = float(p.food_range * p.food_range);
  c.food_factor = float(p.food_factor);
  c.perch_frames = std::int32_t(p.perch_frames);
  c.perch_y = float(p.perch_y);
  c.perch_top = float(p.perch_y - p.perch_range);
  c.perch_x0 = float(p.perch_x0);
  c.perch_x1 = float(p.perch_x1);
  return c;
}

namespace {

// The report's and the blog's coefficients: alike in shape, each its own seed's parameters
// (S_sep, S_align, S_coh, V_max against centeringfactor, avoidfactor, matchingfactor); what
// they share is fill_common's.
rules::ReportCoeffs<float> report_coeffs(const Params& p) {
  rules::ReportCoeffs<float> c{};
  fill_common(c, p);
  c.s_sep = float(p.S_sep);
  c.s_align = float(p.S_align);
  c.s_coh = float(p.S_coh);
  c.v_max = float(p.V_max);
  return c;
}

rules::BlogCoeffs<float> blog_coeffs(const Params& p) {
  rules::BlogCoeffs<float> c{};
  fill_common(c, p);
  c.centering = float(p.centeringfactor);
  c.avoid = float(p.avoidfactor);
  c.matching = float(p.matchingfactor);
  c.maxspeed = float(p.maxspeed);
  return c;
}

// rules::cornell_accumulate over slots [b, e) except `self_slot`: the engine's hot loop. It
// runs rules::cornell_classify on eight candidates at once (GCC/Clang vector extensions: SSE
// pairs on any x86-64, one AVX2 register where the CPU has it, chosen at run time), with
// the sums kept per lane and added in a fixed order: the same result on every run and
// thread count. The previous-frame arrays are padded (by kSlotPadding >= kLanes) so the last load
// stays inside. (x86-64-v3: AVX2 with FMA, for rules::offset_d2's fma.)

FLOCKSCOPE_CLONES("arch=x86-64-v3", "default")
void cornell_sum_range(rules::CornellSums<float>& out, float x, float y, std::uint32_t self_slot, std::uint32_t b,
                       std::uint32_t e, const float* __restrict sx, const float* __restrict sy,
                       const float* __restrict svx, const float* __restrict svy, float range, float protected2,
                       float visual2) {
  rules::CornellCoeffs<v8f> c{};
  c.range = rules::broadcast(range);
  c.protected2 = rules::broadcast(protected2);
  c.visual2 = rules::broadcast(visual2);
  const v8f X = rules::broadcast(x), Y = rules::broadcast(y);
  const v8i lane = {0, 1, 2, 3, 4, 5, 6, 7};
  LaneSums sums;
  for (std::uint32_t j = b; j < e; j += kLanes) {
    const v8i slot = std::int32_t(j) + lane;
    const v8i live = (slot < std::int32_t(e)) & (slot != std::int32_t(self_slot));
    const v8f ox = rules::load8(sx + j), oy = rules::load8(sy + j);
    const v8f dx = X - ox, dy = Y - oy;
    v8i separate, visible;
    rules::cornell_classify(dx, dy, c, separate, visible);
    sums.add(dx, dy, ox, oy, rules::load8(svx + j), rules::load8(svy + j), separate & live, visible & live);
  }
  out.close_dx += rules::lane_sum(sums.cdx), out.close_dy += rules::lane_sum(sums.cdy);
  out.xpos += rules::lane_sum(sums.xp), out.ypos += rules::lane_sum(sums.yp);
  out.xvel += rules::lane_sum(sums.xv), out.yvel += rules::lane_sum(sums.yv);
  for (std::uint32_t k = 0; k < kLanes; ++k) out.neighbours += sums.count[k];
}


struct CpuKernels {
  bool avx2 = false, avx512 = false;
};

const CpuKernels& cpu_kernels() {
#ifdef FLOCKSCOPE_HAVE_X86_KERNELS
  static const CpuKernels k{
      .avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"),
      .avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq")};
#else
  static const CpuKernels k;
#endif
  return k;
}

// The grid step's kernel: the best the CPU has (AVX-512 F/VL/BW/DQ, then AVX2 with FMA, then
// the portable one), or FLOCKSCOPE_KERNEL=portable|avx2|avx512 from the environment where the
// CPU has it (tests compare the kernels' results bit for bit; benchmarks time each one).
// Read at every step (a getenv per step is nothing), so a test can switch it between runs.
grid_step::GridKernel grid_kernel() {
  using grid_step::GridKernel;
  const CpuKernels& cpu = cpu_kernels();
  const GridKernel best = cpu.avx512 ? GridKernel::Avx512 : cpu.avx2 ? GridKernel::Avx2 : GridKernel::Portable;
  const char* v = std::getenv("FLOCKSCOPE_KERNEL");
  if (v == nullptr) return best;
  const std::string_view asked(v);
  if (asked == "portable") return GridKernel::Portable;
  if (asked == "avx2" && cpu.avx2) return GridKernel::Avx2;
  if (asked == "avx512" && cpu.avx512) return GridKernel::Avx512;
  return best;
}

// The largest distance at which a boid can feel another under the given rules.
float interaction_radius(const Params& p) {
  switch (p.rule_set()) {
    case RuleSet::Report: return float(p.vision_infinite() ? p.D_sep : std::max(p.D_sep, p.D_vis));
    case RuleSet::Cornell:
    case RuleSet::Blog: break;
  }
  return float(std::max(p.visualRange, p.protectedRange));
}
}  // namespace

bool grid_kernel_supported(std::string_view name) {
  if (name == "portable") return true;
  if (name == "avx2") return cpu_kernels().avx2;
  if (name == "avx512") return cpu_kernels().avx512;
  return false;
}

void Flock::sort_into_grid(float radius, bool have_box) {
  const std::size_t n = size();
  float* __restrict sx = sx_.data();
  float* __restrict sy = sy_.data();
  float* __restrict svx = svx_.data();
  float* __restrict svy = svy_.data();
  std::uint32_t* __restrict sid = sid_.data();
  const float* x = x_.data();
  const float* y = y_.data();
  const float* vx = vx_.data();
  const float* vy = vy_.data();
  const std::uint32_t* id = id_.data();
  // One counting sort that moves the state itself (no permutation array kept): the previous
  // frame lands in sx_.. in cell order. Parallel and stable, so the order is thread-count free.
  // Cells a range tall and half a range wide: a boid's block is 2.5 ranges wide instead of 3,
  // so the row pass runs 12 % fewer candidate lanes on a gathered flock, for twice the cells
  // to count (docs/performance.md, "The grid").
  constexpr int kColumns = 2;
  grid_.build_scatter(x, y, n, radius, threads_, [&](std::size_t i, std::uint32_t k) {
    sx[k] = x[i], sy[k] = y[i], svx[k] = vx[i], svy[k] = vy[i], sid[k] = id[i];
  }, 1.0, have_box ? box_ : nullptr, kColumns);
}

// Runs f(i) for i in [0, n) on the engine's threads when the work is worth a parallel region
// (even a one-thread region costs a futex call per step, which dominates small flocks run
// by the thousand in sweeps), else inline. Each f(i) writes only slot i, so the schedule
// never changes the result.
template <class F>
void Flock::parallel_for(std::size_t n, std::size_t min_parallel, F&& f) const {
  if (threads_ <= 1 || n < min_parallel) {
    for (std::size_t i = 0; i < n; ++i) f(i);
    return;
  }
#pragma omp parallel for schedule(dynamic, 512) num_threads(threads_)
  for (std::size_t i = 0; i < n; ++i) f(i);
}

// Calls f(begin, end) for the ranges of previous-frame slots that can hold boid i's neighbours
// (boid i itself among them: the loops mask it out by index).
template <class F>
void Flock::for_each_candidate_range(std::size_t i, bool all_pairs, F&& f) const {
  if (all_pairs) {
    f(std::uint32_t(0), std::uint32_t(size()));
    return;
  }
  grid_.for_each_neighbour_range(grid_.cell_x(sx_[i]), grid_.cell_y(sy_[i]), f);
}

void Flock::step() {
  prepare_perching();
  step_boids(false);
  step_predators();
  step_food();
  advance_time();
}

void Flock::step_all_pairs() {
  prepare_perching();
  step_boids(true);
  step_predators();
  step_food();
  advance_time();
}

void Flock::advance_time() {
  if (active_.dt != time_dt_) time_base_ = time_, time_base_step_ = steps_, time_dt_ = active_.dt;
  ++steps_;
  const double n = double(steps_ - time_base_step_);
  // A dt of 1/k (0.1, 0.05, 0.001) divides by k: the quotient is the double nearest the
  // decimal time, so 3 steps of 0.1 are 0.3, not 0.30000000000000004.
  const double k = std::round(1.0 / time_dt_);
  const bool reciprocal = k >= 1 && k < 1e15 && 1.0 / k == time_dt_;
  time_ = time_base_ + (reciprocal ? n / k : n * time_dt_);
}

auto Flock::surroundings() const {
  return rules::Surroundings<Predator, FoodSource>{predators_.data(), std::uint32_t(predators_.size()), food_.data(),
                                                   std::uint32_t(food_.size())};
}

auto Flock::extras_of(std::uint32_t id, float biasval) {
  rules::BoidExtras<float> e;
  e.group = id < bias_.size() ? scout_group(active_, id) : 0;
  e.stored_bias = e.group != 0 ? bias_.data() + id : nullptr;
  e.static_bias = biasval;
  e.perch = perch_.empty() ? nullptr : perch_.data() + id;
  return e;
}

void Flock::prepare_perching() {
  const bool on = active_.rule_set() == RuleSet::Cornell && active_.perch_frames > 0;
  if (!on) {
    perch_.clear();
    return;
  }
  perch_.resize(size(), 0);
}

void Flock::step_boids(bool all_pairs) {
  const Params& p = active_;
  if (p.update_order() == UpdateOrder::InPlace) {
    step_boids_in_place();
    return;
  }
  const std::size_t n = size();
  const bool have_box = box_valid_ && n > 0;
  box_valid_ = false;  // set again below only by a pass that computes it
  if (all_pairs) {  // the previous frame, unsorted
    std::copy(x_.begin(), x_.end(), sx_.begin()), std::copy(y_.begin(), y_.end(), sy_.begin());
    std::copy(vx_.begin(), vx_.end(), svx_.begin()), std::copy(vy_.begin(), vy_.end(), svy_.begin());
    sid_ = id_;
  } else {
    const auto t0 = std::chrono::steady_clock::now();
    sort_into_grid(interaction_radius(p), have_box);
    phase_times_.grid += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  const auto t_boids = std::chrono::steady_clock::now();
  struct AddTime {  // the boids' pass, however the switch below leaves
    double& total;
    std::chrono::steady_clock::time_point t0;
    ~AddTime() { total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); }
  } add_time{phase_times_.boids, t_boids};
  const float* sx = sx_.data();
  const float* sy = sy_.data();
  const float* svx = svx_.data();
  const float* svy = svy_.data();
  auto store = [&](std::size_t i, const Boid<float>& b) {
    x_[i] = b.x, y_[i] = b.y, vx_[i] = b.vx, vy_[i] = b.vy, id_[i] = sid_[i];
  };

  switch (p.rule_set()) {
    // parallel_for hands out dynamic chunks: dense clusters make some boids far costlier.
    case RuleSet::Cornell: {
      const auto c = cornell_coeffs(p);
      const float biasval = float(p.biasval);
      const auto world = surroundings();
      if (!all_pairs) {
        // The box test |dx|, |dy| < range only matters if it can reject a pair that the fused
        // test (rules::cornell_classify) alone would accept. It cannot when t at dx = range,
        // dy = 0 is neither separate nor visible: each fma rounds monotonically, so |dx| or
        // |dy| >= range gives a t at least that large.
        const std::uint32_t visible_band = rules::visible_band_bits(c.visual2, c.protected2);
        bool separate_at_range, visible_at_range;
        rules::classify_offset(rules::offset_d2(c.range, 0.0f, c.protected2), visible_band, separate_at_range,
                               visible_at_range);
        // The boid itself, left in its lanes, is at dx = dy = +0.0, t = -protected2: with
        // protected2 > 0 it counts as a separation neighbour adding +0.0 to sums that are never
        // -0.0 (they start at +0.0), so nothing changes and the AVX-512 and AVX2 loops skip
        // masking it out.
        const CornellPass k{.grid = &grid_,
                            .sx = sx,
                            .sy = sy,
                            .svx = svx,
                            .svy = svy,
                            .sid = sid_.data(),
                            .x = x_.data(),
                            .y = y_.data(),
                            .vx = vx_.data(),
                            .vy = vy_.data(),
                            .id = id_.data(),
                            .bias = bias_.data(),
                            .bias_size = bias_.size(),
                            .p = &p,
                            .c = &c,
                            .biasval = biasval,
                            .predators = predators_.data(),
                            .predator_count = predators_.size(),
                            .food = food_.data(),
                            .food_count = food_.size(),
                            .perch = perch_.empty() ? nullptr : perch_.data(),
                            .visible_band = visible_band,
                            .box_test = separate_at_range || visible_at_range,
                            .mask_self = !(c.protected2 > 0.0f),
                            .kernel = grid_kernel()};
        const int rows = grid_.ny();
        const float inf = std::numeric_limits<float>::infinity();
        const float empty_box[4] = {inf, -inf, inf, -inf};
        if (threads_ <= 1 || n < 4096) {  // a parallel region costs a few microseconds
          std::copy(empty_box, empty_box + 4, box_);
          grid_step::cornell_rows(k, 0, rows, box_);
        } else {
          std::vector<float> boxes(4 * std::size_t(threads_));
          for (std::size_t t = 0; t < std::size_t(threads_); ++t) std::copy(empty_box, empty_box + 4, &boxes[4 * t]);
          RowShares shares(grid_, n, threads_);
#pragma omp parallel num_threads(threads_)
          {
            const int thread = omp_get_thread_num();
            float* box = boxes.data() + 4 * std::size_t(thread % threads_);
            shares.run(thread, [&](int row) { grid_step::cornell_rows(k, row, row + 1, box); });
          }
          std::copy(empty_box, empty_box + 4, box_);
          for (int t = 0; t < threads_; ++t) {
            const float* b = boxes.data() + 4 * std::size_t(t);
            box_[0] = std::min(box_[0], b[0]), box_[1] = std::max(box_[1], b[1]);
            box_[2] = std::min(box_[2], b[2]), box_[3] = std::max(box_[3], b[3]);
          }
        }
        // Every boid passed through exactly one row, so this is the box of all of them
        // (finite positions; a NaN position would make the grid meaningless anyway).
        box_valid_ = n > 0 && std::isfinite(box_[0]) && std::isfinite(box_[1]) && std::isfinite(box_[2]) &&
                     std::isfinite(box_[3]);
        break;
      }
      parallel_for(n, 2048, [&](std::size_t i) {
        const Boid<float> self{sx[i], sy[i], svx[i], svy[i]};
        rules::CornellSums<float> s;
        for_each_candidate_range(i, all_pairs, [&](std::uint32_t b, std::uint32_t e) {
          cornell_sum_range(s, self.x, self.y, std::uint32_t(i), b, e, sx, sy, svx, svy, c.range, c.protected2,
                            c.visual2);
        });
        const std::uint32_t id = sid_[i];
        store(i, rules::cornell_update(self, s, world, extras_of(id, biasval), c));
      });
      break;
    }
    case RuleSet::Report: {
      const auto c = report_coeffs(p);
      const bool global = p.vision_infinite();
      const float sep2 = float(p.D_sep * p.D_sep);
      const float vis2 = global ? 0.0f : float(p.D_vis * p.D_vis);
      // With infinite vision both divisors are N - 1: the global branch below serves both.
      const bool divide_all = !global && p.divisor() == ReportDivisor::All;
      const int others_all = n > 1 ? int(n - 1) : 0;
      // With infinite vision the means over "all others" are global sums minus self: O(N).
      double gx = 0, gy = 0, gvx = 0, gvy = 0;
      if (global)
        for (std::size_t i = 0; i < n; ++i) gx += sx[i], gy += sy[i], gvx += svx[i], gvy += svy[i];
      parallel_for(n, 2048, [&](std::size_t i) {
        const Boid<float> self{sx[i], sy[i], svx[i], svy[i]};
        float sep_x = 0, sep_y = 0, px = 0, py = 0, pvx = 0, pvy = 0;
        int seen = 0;
        if (global) {
          // Infinite vision: the neighbour loop only separates, over a handful of boids per
          // range, where a plain loop beats a vector one carrying seven reductions.
          for_each_candidate_range(i, all_pairs, [&](std::uint32_t b, std::uint32_t e) {
            for (std::uint32_t j = b; j < e; ++j) {
              const float dx = self.x - sx[j], dy = self.y - sy[j];
              if (j != i && dx * dx + dy * dy < sep2) sep_x += dx, sep_y += dy;
            }
          });
        } else {
          for_each_candidate_range(i, all_pairs, [&](std::uint32_t b, std::uint32_t e) {
#pragma omp simd reduction(+ : sep_x, sep_y, px, py, pvx, pvy, seen)
            for (std::uint32_t j = b; j < e; ++j) {
              const float dx = self.x - sx[j], dy = self.y - sy[j];
              const float d2 = dx * dx + dy * dy;
              const bool other = j != i;
              const bool sep = other & (d2 < sep2);
              const bool vis = other & (d2 < vis2);
              sep_x += sep ? dx : 0.0f;
              sep_y += sep ? dy : 0.0f;
              px += vis ? sx[j] : 0.0f;
              py += vis ? sy[j] : 0.0f;
              pvx += vis ? svx[j] : 0.0f;
              pvy += vis ? svy[j] : 0.0f;
              seen += vis ? 1 : 0;
            }
          });
        }
        float mx = 0, my = 0, mvx = 0, mvy = 0;
        if (divide_all) seen = others_all;  // the report's pseudocode: the sums over N - 1
        if (global && n > 1) {
          const double others = double(n - 1);
          seen = int(n - 1);
          mx = float((gx - self.x) / others), my = float((gy - self.y) / others);
          mvx = float((gvx - self.vx) / others), mvy = float((gvy - self.vy) / others);
        } else if (seen > 0) {
          mx = px / float(seen), my = py / float(seen), mvx = pvx / float(seen), mvy = pvy / float(seen);
        }
        store(i, rules::report_update(self, sep_x, sep_y, mx, my, mvx, mvy, seen, c));
      });
      break;
    }
    case RuleSet::Blog: {
      const auto c = blog_coeffs(p);
      const float vis2 = float(p.visualRange * p.visualRange);
      const float sep2 = float(p.protectedRange * p.protectedRange);
      parallel_for(n, 2048, [&](std::size_t i) {
        const Boid<float> self{sx[i], sy[i], svx[i], svy[i]};
        // The blog's neighbourhood includes the boid itself.
        float px = self.x, py = self.y, pvx = self.vx, pvy = self.vy, sep_x = 0, sep_y = 0;
        int count = 1;
        for_each_candidate_range(i, all_pairs, [&](std::uint32_t b, std::uint32_t e) {
#pragma omp simd reduction(+ : sep_x, sep_y, px, py, pvx, pvy, count)
          for (std::uint32_t j = b; j < e; ++j) {
            const float dx = self.x - sx[j], dy = self.y - sy[j];
            const float d2 = dx * dx + dy * dy;
            const bool other = j != i;
            const bool vis = other & (d2 <= vis2);
            const bool sep = other & (d2 < sep2) & (d2 != 0.0f);
            px += vis ? sx[j] : 0.0f;
            py += vis ? sy[j] : 0.0f;
            pvx += vis ? svx[j] : 0.0f;
            pvy += vis ? svy[j] : 0.0f;
            count += vis ? 1 : 0;
            sep_x += sep ? dx : 0.0f;
            sep_y += sep ? dy : 0.0f;
          }
        });
        const float k = float(count);
        store(i, rules::blog_update(self, sep_x, sep_y, px / k, py / k, pvx / k, pvy / k, c));
      });
      break;
    }
  }
}

// The seeds' loop (update in_place): boids are updated one by one in id order, each reading
// the state as it is at that moment, so boid i sees the new position and velocity of every
// boid j < i and the previous ones of every j > i. All pairs, single-threaded, with each
// rule set's neighbour tests and update as in the synchronous pass; deterministic.
void Flock::step_boids_in_place() {
  const Params& p = active_;
  const std::size_t n = size();
  box_valid_ = false;
  // Into id order: slot i holds boid i from here on (after the first in-place step the
  // slots already are, so the copy is made only when a grid step reordered them).
  bool in_id_order = true;
  for (std::size_t i = 0; i < n && in_id_order; ++i) in_id_order = id_[i] == i;
  if (!in_id_order) {
    const FlockSnapshot s = snapshot();
    x_ = s.x, y_ = s.y, vx_ = s.vx, vy_ = s.vy;
    for (std::size_t i = 0; i < n; ++i) id_[i] = std::uint32_t(i);
  }
  float* x = x_.data();
  float* y = y_.data();
  float* vx = vx_.data();
  float* vy = vy_.data();
  switch (p.rule_set()) {
    case RuleSet::Cornell: {
      const auto c = cornell_coeffs(p);
      const auto world = surroundings();
      for (std::size_t i = 0; i < n; ++i) {
        const Boid<float> self{x[i], y[i], vx[i], vy[i]};
        rules::CornellSums<float> s;
        for (std::size_t j = 0; j < n; ++j)
          if (j != i) rules::cornell_accumulate(s, self.x - x[j], self.y - y[j], Boid<float>{x[j], y[j], vx[j], vy[j]}, c);
        const Boid<float> b = rules::cornell_update(self, s, world, extras_of(std::uint32_t(i), float(p.biasval)), c);
        x[i] = b.x, y[i] = b.y, vx[i] = b.vx, vy[i] = b.vy;
      }
      break;
    }
    case RuleSet::Report: {
      const auto c = report_coeffs(p);
      const bool global = p.vision_infinite();
      const bool divide_all = global || p.divisor() == ReportDivisor::All;
      const float sep2 = float(p.D_sep * p.D_sep);
      const float vis2 = float(p.D_vis * p.D_vis);
      for (std::size_t i = 0; i < n; ++i) {
        const Boid<float> self{x[i], y[i], vx[i], vy[i]};
        float sep_x = 0, sep_y = 0, px = 0, py = 0, pvx = 0, pvy = 0;
        int seen = 0;
        for (std::size_t j = 0; j < n; ++j) {
          if (j == i) continue;
          const float dx = self.x - x[j], dy = self.y - y[j];
          const float d2 = dx * dx + dy * dy;
          if (d2 < sep2) sep_x += dx, sep_y += dy;
          if (global || d2 < vis2) px += x[j], py += y[j], pvx += vx[j], pvy += vy[j], ++seen;
        }
        if (divide_all) seen = n > 1 ? int(n - 1) : 0;
        float mx = 0, my = 0, mvx = 0, mvy = 0;
        if (seen > 0) mx = px / float(seen), my = py / float(seen), mvx = pvx / float(seen), mvy = pvy / float(seen);
        const Boid<float> b = rules::report_update(self, sep_x, sep_y, mx, my, mvx, mvy, seen, c);
        x[i] = b.x, y[i] = b.y, vx[i] = b.vx, vy[i] = b.vy;
      }
      break;
    }
    case RuleSet::Blog: {
      const auto c = blog_coeffs(p);
      const float vis2 = float(p.visualRange * p.visualRange);
      const float sep2 = float(p.protectedRange * p.protectedRange);
      for (std::size_t i = 0; i < n; ++i) {
        const Boid<float> self{x[i], y[i], vx[i], vy[i]};
        float px = self.x, py = self.y, pvx = self.vx, pvy = self.vy, sep_x = 0, sep_y = 0;
        int count = 1;
        for (std::size_t j = 0; j < n; ++j) {
          if (j == i) continue;
          const float dx = self.x - x[j], dy = self.y - y[j];
          const float d2 = dx * dx + dy * dy;
          if (d2 <= vis2) px += x[j], py += y[j], pvx += vx[j], pvy += vy[j], ++count;
          if (d2 < sep2 && d2 != 0.0f) sep_x += dx, sep_y += dy;
        }
        const float k = float(count);
        const Boid<float> b = rules::blog_update(self, sep_x, sep_y, px / k, py / k, pvx / k, pvy / k, c);
        x[i] = b.x, y[i] = b.y, vx[i] = b.vx, vy[i] = b.vy;
      }
      break;
    }
  }
}

// Predators move like boids that turn at the margins (seeds 001/004), within the rule set's
// speed limits; a centroid or chase predator also steers toward its aim (seed 001's smarter
// predator).
void Flock::step_predators() {
  const Params& p = active_;
  const auto c = cornell_coeffs(p);
  float lo = c.minspeed, hi = c.maxspeed;
  switch (p.rule_set()) {
    case RuleSet::Report: lo = 0.0f, hi = float(p.V_max); break;
    case RuleSet::Cornell:
    case RuleSet::Blog: break;
  }
  aims_.resize(predators_.size());
  const bool hunting = p.hunt() != PredatorMode::Random;
  for (std::size_t q = 0; q < predators_.size(); ++q) {
    Predator& pr = predators_[q];
    aims_[q] = hunting ? find_aim(pr, aims_[q]) : PredatorAim{};
    const float old_vx = pr.vx, old_vy = pr.vy;
    if (aims_[q].active) rules::predator_hunt(pr.x, pr.y, pr.vx, pr.vy, aims_[q].x, aims_[q].y, float(p.predator_steer));
    rules::cornell_edges(pr.x, pr.y, pr.vx, pr.vy, c);
    rules::limit_speed(pr.vx, pr.vy, lo, hi, old_vx, old_vy);
    pr.x += pr.vx * c.dt;
    pr.y += pr.vy * c.dt;
  }
}

// One pass over the boids on the screen, whose result does not depend on their storage order
// (so not on the step's path, grid or all pairs): the centroid sums positions as exact
// integers (in 1/256 px), and the nearest boid is the one with the lowest id among equally
// near ones.
PredatorAim Flock::find_aim(const Predator& pr, const PredatorAim& last) const {
  const double vision2 = active_.predator_vision * active_.predator_vision;
  const bool chase = active_.hunt() == PredatorMode::Chase;
  std::int64_t sx = 0, sy = 0, seen = 0;
  double nearest_d2 = vision2, target_d2 = vision2;
  std::int64_t nearest = -1;
  float nearest_x = 0, nearest_y = 0, target_x = 0, target_y = 0;
  bool target_seen = false;
  const float w = float(active_.width), h = float(active_.height);
  for (std::size_t k = 0; k < size(); ++k) {
    // Only boids on the screen: a boid that flees past the edge is lost to sight, so the
    // predator turns back at the margins instead of following it out of the world.
    if (!(x_[k] >= 0 && x_[k] <= w && y_[k] >= 0 && y_[k] <= h)) continue;
    const double dx = double(x_[k]) - pr.x, dy = double(y_[k]) - pr.y;
    const double d2 = dx * dx + dy * dy;
    if (!(d2 < vision2)) continue;
    if (!chase) {
      sx += std::llround(double(x_[k]) * 256.0), sy += std::llround(double(y_[k]) * 256.0), ++seen;
      continue;
    }
    const std::int64_t id = id_[k];
    if (id == last.target) target_seen = true, target_d2 = d2, target_x = x_[k], target_y = y_[k];
    if (d2 < nearest_d2 || (d2 == nearest_d2 && nearest >= 0 && id < nearest))
      nearest_d2 = d2, nearest = id, nearest_x = x_[k], nearest_y = y_[k];
  }
  (void)target_d2;
  PredatorAim aim;
  if (!chase) {
    if (seen > 0) {
      aim.active = true;
      aim.x = float(double(sx) / 256.0 / double(seen));
      aim.y = float(double(sy) / 256.0 / double(seen));
    }
    return aim;
  }
  if (target_seen) return {true, target_x, target_y, last.target};  // keeps its boid while it is in sight
  if (nearest >= 0) return {true, nearest_x, nearest_y, nearest};
  return aim;
}

// Food sources wander: each step a small random turn (from the seed, the step and the
// source: no state besides the sources), the speed set back to food_speed, and a bounce off
// each wall (the position mirrored back inside).
void Flock::step_food() {
  const Params& p = active_;
  const float speed = float(p.food_speed), w = float(p.width), h = float(p.height);
  for (std::size_t q = 0; q < food_.size(); ++q) {
    FoodSource& f = food_[q];
    Pcg32 rng(std::uint64_t(p.seed) * 0x9E3779B97F4A7C15ull + steps_, 3 + q);
    f.vx += float(rng.uniform(-0.3, 0.3));
    f.vy += float(rng.uniform(-0.3, 0.3));
    const float norm = std::sqrt(f.vx * f.vx + f.vy * f.vy);
    if (norm > 0) f.vx = f.vx / norm * speed, f.vy = f.vy / norm * speed;
    else f.vx = speed, f.vy = 0;
    f.x += f.vx, f.y += f.vy;
    if (f.x < 0) f.x = -f.x, f.vx = std::fabs(f.vx);
    if (f.x > w) f.x = 2 * w - f.x, f.vx = -std::fabs(f.vx);
    if (f.y < 0) f.y = -f.y, f.vy = std::fabs(f.vy);
    if (f.y > h) f.y = 2 * h - f.y, f.vy = -std::fabs(f.vy);
    f.x = std::clamp(f.x, 0.0f, w), f.y = std::clamp(f.y, 0.0f, h);  // a speed above the world's size
  }
}

// ---------------------------------------------------------------- snapshots and hashing
FlockSnapshot Flock::snapshot() const {
  FlockSnapshot s;
  const std::size_t n = size();
  s.x.resize(n), s.y.resize(n), s.vx.resize(n), s.vy.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = id_[k];
    s.x[i] = x_[k], s.y[i] = y_[k], s.vx[i] = vx_[k], s.vy[i] = vy_[k];
  }
  return s;
}

std::uint64_t Flock::state_hash() const {
  const FlockSnapshot s = snapshot();
  Fnv1a f;
  const auto add = [&f](float v) { f.add_bytes(&v, sizeof v); };
  for (std::size_t i = 0; i < s.size(); ++i) add(s.x[i]), add(s.y[i]), add(s.vx[i]), add(s.vy[i]);
  for (const auto& pr : predators_) add(pr.x), add(pr.y), add(pr.vx), add(pr.vy);
  for (float b : bias_) add(b);
  // The extensions' state, where there is some (so a flock without them hashes as before).
  for (const auto& fs : food_) add(fs.x), add(fs.y), add(fs.vx), add(fs.vy);
  for (const auto& a : aims_)
    if (a.active) f.add_bytes(&a.target, sizeof a.target), add(a.x), add(a.y);
  for (std::int32_t t : perch_) f.add_bytes(&t, sizeof t);
  f.add_bytes(&steps_, sizeof steps_);
  return f.h;
}

std::size_t Flock::memory_bytes() const {
  std::size_t bytes = 0;
  for (const auto* v : {&x_, &y_, &vx_, &vy_, &sx_, &sy_, &svx_, &svy_, &bias_}) bytes += v->capacity() * sizeof(float);
  bytes += (id_.capacity() + sid_.capacity()) * sizeof(std::uint32_t);
  bytes += predators_.capacity() * sizeof(Predator) + aims_.capacity() * sizeof(PredatorAim);
  bytes += food_.capacity() * sizeof(FoodSource) + perch_.capacity() * sizeof(std::int32_t);
  return bytes + grid_.memory_bytes();
}

}  // namespace flockscope
