// Sections: construction and spawning | parameters | the step (grid sort, boid rules per rule
// set, predators) | snapshots and hashing
#include "flockscope/core/flock.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <ranges>

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12 warns "'__Y' may be used uninitialized" inside its own AVX-512 headers (their
// _mm512_undefined_* idiom) wherever our kernels inline them; the warning is about the header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define FLOCKSCOPE_HAVE_AVX512_KERNEL 1
#endif

#include "flockscope/core/fnv1a.hpp"
#include "flockscope/core/rng.hpp"
#include "flockscope/core/spawn.hpp"
#include "flockscope/core/rules.hpp"

namespace flockscope {

using rules::Boid;

namespace {
// Lanes of a chunk of the grid step's candidate loop (cornell_cell_sums); the sorted
// previous-frame arrays are padded by as many floats so a chunk's last load stays inside.
constexpr std::uint32_t kRunLanes = 16;
}  // namespace

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
}

namespace {
// A velocity as each rule set's source initialises it.
void spawn_velocity(const Params& p, Pcg32& rng, float& vx, float& vy) {
  if (p.rule_set() == RuleSet::Blog) {  // seed 003: each component uniform in [-V0, V0]
    vx = float(rng.uniform(-p.maxspeed, p.maxspeed));
    vy = float(rng.uniform(-p.maxspeed, p.maxspeed));
    return;
  }
  double lo = p.minspeed, hi = p.maxspeed;  // seed 001: "within min/max speed limits"
  if (p.rule_set() == RuleSet::Report) lo = 0, hi = p.V_max;
  double dvx, dvy;
  random_velocity(rng, lo, hi, dvx, dvy);
  vx = float(dvx);
  vy = float(dvy);
}
}  // namespace

void Flock::spawn(std::uint64_t seed) {
  const Params& p = active_;
  const auto n = std::size_t(p.boids);
  FlockSnapshot s;
  s.x.resize(n), s.y.resize(n), s.vx.resize(n), s.vy.resize(n);
  Pcg32 rng(seed);
  double x_lo, x_hi, y_lo, y_hi;
  spawn_span(p.width, p.leftmargin, p.rightmargin, x_lo, x_hi);
  spawn_span(p.height, p.topmargin, p.bottommargin, y_lo, y_hi);
  for (std::size_t i = 0; i < n; ++i) {
    s.x[i] = float(rng.uniform(x_lo, x_hi));
    s.y[i] = float(rng.uniform(y_lo, y_hi));
    spawn_velocity(p, rng, s.vx[i], s.vy[i]);
  }
  start_from(std::move(s));
  spawn_predators(seed);
}

void Flock::start_from(FlockSnapshot s) {
  const std::size_t n = s.size();
  box_valid_ = false;
  x_ = std::move(s.x), y_ = std::move(s.y), vx_ = std::move(s.vx), vy_ = std::move(s.vy);
  id_.resize(n);
  for (std::size_t i = 0; i < n; ++i) id_[i] = std::uint32_t(i);
  // Padded for the vector loops' last loads (cornell_sum_range: 8 lanes, cornell_cell_sums: 16).
  for (auto* v : {&sx_, &sy_, &svx_, &svy_}) v->assign(n + kRunLanes, 0.0f);
  sid_.assign(n, 0);
  const auto scouts = std::min<std::uint64_t>(n, std::uint64_t(active_.scouts1) + std::uint64_t(active_.scouts2));
  bias_.assign(std::size_t(scouts), float(active_.biasval));
  steps_ = 0;
  time_ = 0;
}

void Flock::spawn_predators(std::uint64_t seed) {
  Pcg32 rng(seed, 2);  // its own stream: adding predators does not move the boids
  Params p = active_;
  p.rules = int(RuleSet::Cornell);  // predators start like Cornell boids in every rule set
  predators_.resize(std::size_t(active_.predators));
  double x_lo, x_hi, y_lo, y_hi;
  spawn_span(p.width, p.leftmargin, p.rightmargin, x_lo, x_hi);
  spawn_span(p.height, p.topmargin, p.bottommargin, y_lo, y_hi);
  for (auto& pr : predators_) {
    pr.x = float(rng.uniform(x_lo, x_hi));
    pr.y = float(rng.uniform(y_lo, y_hi));
    spawn_velocity(p, rng, pr.vx, pr.vy);
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
  c.cohesion = p.cohesion;
  c.alignment = p.alignment;
  c.separation = p.separation;
}

rules::CornellCoeffs<float> cornell_coeffs(const Params& p) {
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
  return c;
}

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
// thread count. The previous-frame arrays are padded (by kRunLanes >= kLanes) so the last load
// stays inside.
using rules::kLanes;
using rules::v8f;
using rules::v8i;

// Seven neighbour sums, lane by lane, for the 8-lane loops (cornell_sum_range, and each half
// of the portable grid kernel): a pair adds to the separation sums or the visible ones by
// mask. A dead lane adds +0.0 (its loads may be another cell's boids or the padding).
struct LaneSums {
  v8f cdx{}, cdy{}, xp{}, yp{}, xv{}, yv{};
  v8i count{};
  [[gnu::always_inline]] void add(v8f dx, v8f dy, v8f ox, v8f oy, v8f ovx, v8f ovy, v8i separate, v8i visible) {
    cdx += rules::masked(dx, separate);
    cdy += rules::masked(dy, separate);
    xp += rules::masked(ox, visible);
    yp += rules::masked(oy, visible);
    xv += rules::masked(ovx, visible);
    yv += rules::masked(ovy, visible);
    count -= visible;  // masks are -1 where true
  }
};

FLOCKSCOPE_CLONES("avx2", "default")
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

// ---- the grid step of the Cornell rules, one cell at a time
// For each non-empty cell, the 3x3 block around it is three contiguous slot runs of the
// previous frame (one per row of cells). Every boid of the cell reads them in place, 16
// candidates a chunk: lane l of a chunk is slot j + l, and a lane is live when its slot is
// inside the run and is not the boid itself (excluded by slot, exactly as all-pairs skips
// j == i). Reading in place (no copy of the block into a padded buffer, no NaN marker for
// the boid itself) saves the copy and a store-to-load stall per boid; with the sorted arrays
// padded by 16, a chunk's last load stays inside. Sums stay per lane and are added by a fixed
// tree once per boid (lanes l and l + 8, then an 8-lane shuffle tree), so results are the
// same on every run, thread count and instruction set (no FMA contraction: the core builds
// with -ffp-contract=off). The rules' update (steer, bias, speed limit, move) follows in the
// same pass.
struct CornellPass {
  const UniformGrid* grid;
  const float *sx, *sy, *svx, *svy;
  const std::uint32_t* sid;
  float *x, *y, *vx, *vy;
  std::uint32_t* id;
  float* bias;
  std::size_t bias_size;
  const Params* p;
  const rules::CornellCoeffs<float>* c;
  float biasval;
  const Predator* predators;
  std::size_t predator_count;
  bool box_test;  // false when d^2 alone decides exactly (see step_boids)
  bool mask_self;  // false when the boid itself may stay in its lanes (see step_boids)
  bool avx512;    // the CPU has AVX-512 F/VL/BW/DQ: the neighbour loop uses mask registers
};

[[gnu::always_inline]] inline v8f shuffle_lo(v8f a, v8f b) { return __builtin_shufflevector(a, b, 0, 8, 2, 10, 4, 12, 6, 14); }
[[gnu::always_inline]] inline v8f shuffle_hi(v8f a, v8f b) { return __builtin_shufflevector(a, b, 1, 9, 3, 11, 5, 13, 7, 15); }
// Lane k of the result is the sum of the lanes of v[k], by a fixed tree.
[[gnu::always_inline]] inline v8f transpose_sum(v8f a, v8f b, v8f c, v8f d, v8f e, v8f f, v8f g, v8f h) {
  const v8f ab = shuffle_lo(a, b) + shuffle_hi(a, b), cd = shuffle_lo(c, d) + shuffle_hi(c, d);
  const v8f ef = shuffle_lo(e, f) + shuffle_hi(e, f), gh = shuffle_lo(g, h) + shuffle_hi(g, h);
  const v8f abcd = __builtin_shufflevector(ab, cd, 0, 1, 8, 9, 4, 5, 12, 13) +
                   __builtin_shufflevector(ab, cd, 2, 3, 10, 11, 6, 7, 14, 15);
  const v8f efgh = __builtin_shufflevector(ef, gh, 0, 1, 8, 9, 4, 5, 12, 13) +
                   __builtin_shufflevector(ef, gh, 2, 3, 10, 11, 6, 7, 14, 15);
  return __builtin_shufflevector(abcd, efgh, 0, 1, 2, 3, 8, 9, 10, 11) +
         __builtin_shufflevector(abcd, efgh, 4, 5, 6, 7, 12, 13, 14, 15);
}

// The update of one boid from its neighbour sums (lanes: close_dx, close_dy, xpos, ypos, xvel,
// yvel, neighbours): the straightforward scalar form, for row tails and scout groups.
[[gnu::always_inline]] inline void cornell_update_one(const CornellPass& k, std::uint32_t i, const float* sums) {
  const auto& c = *k.c;
  const Boid<float> self{k.sx[i], k.sy[i], k.svx[i], k.svy[i]};
  rules::CornellSums<float> s;
  s.close_dx = sums[0], s.close_dy = sums[1], s.xpos = sums[2], s.ypos = sums[3];
  s.xvel = sums[4], s.yvel = sums[5], s.neighbours = int(sums[6]);
  rules::PredatorSums<float> ps;
  for (std::size_t q = 0; q < k.predator_count; ++q)
    rules::predator_accumulate(ps, self.x - k.predators[q].x, self.y - k.predators[q].y, c);
  Boid<float> nb = rules::cornell_steer(self, s, ps, c);
  const std::uint32_t id = k.sid[i];
  if (id < k.bias_size) {
    if (const int group = scout_group(*k.p, id); group != 0) {
      float bias = c.dynamic_bias ? k.bias[id] : k.biasval;
      rules::cornell_bias(nb.vx, bias, group, c);
      k.bias[id] = bias;
    }
  }
  rules::limit_speed(nb.vx, nb.vy, c.minspeed, c.maxspeed, self.vx, self.vy);
  k.x[i] = self.x + nb.vx * c.dt;
  k.y[i] = self.y + nb.vy * c.dt;
  k.vx[i] = nb.vx, k.vy[i] = nb.vy, k.id[i] = id;
}

[[gnu::always_inline]] inline v8f select(v8i m, v8f a, v8f b) { return v8f((v8i(a) & m) | (v8i(b) & ~m)); }

// The same update for the eight boids in slots [i, i + 8), from their sums (8 floats each,
// as above), lane for lane the same operations as cornell_update_one, so the same results.
[[gnu::always_inline]] inline void cornell_update_8(const CornellPass& k, std::uint32_t i, const float* sums) {
  const auto& c = *k.c;
  for (std::uint32_t l = 0; l < kLanes; ++l)
    if (k.sid[i + l] < k.bias_size) {  // scouts (rare): the scalar form applies their bias
      for (std::uint32_t m = 0; m < kLanes; ++m) cornell_update_one(k, i + m, sums + 8 * m);
      return;
    }
  // Transpose the eight boids' sum vectors into one vector per quantity.
  v8f r[8];
  for (std::uint32_t l = 0; l < kLanes; ++l) r[l] = rules::load8(sums + 8 * l);
  const v8f t0 = __builtin_shufflevector(r[0], r[1], 0, 8, 1, 9, 4, 12, 5, 13);
  const v8f t1 = __builtin_shufflevector(r[0], r[1], 2, 10, 3, 11, 6, 14, 7, 15);
  const v8f t2 = __builtin_shufflevector(r[2], r[3], 0, 8, 1, 9, 4, 12, 5, 13);
  const v8f t3 = __builtin_shufflevector(r[2], r[3], 2, 10, 3, 11, 6, 14, 7, 15);
  const v8f t4 = __builtin_shufflevector(r[4], r[5], 0, 8, 1, 9, 4, 12, 5, 13);
  const v8f t5 = __builtin_shufflevector(r[4], r[5], 2, 10, 3, 11, 6, 14, 7, 15);
  const v8f t6 = __builtin_shufflevector(r[6], r[7], 0, 8, 1, 9, 4, 12, 5, 13);
  const v8f t7 = __builtin_shufflevector(r[6], r[7], 2, 10, 3, 11, 6, 14, 7, 15);
  const v8f u0 = __builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
  const v8f u1 = __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
  const v8f u2 = __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
  const v8f u3 = __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
  const v8f u4 = __builtin_shufflevector(t4, t6, 0, 1, 8, 9, 4, 5, 12, 13);
  const v8f u5 = __builtin_shufflevector(t4, t6, 2, 3, 10, 11, 6, 7, 14, 15);
  const v8f u6 = __builtin_shufflevector(t5, t7, 0, 1, 8, 9, 4, 5, 12, 13);
  const v8f u7 = __builtin_shufflevector(t5, t7, 2, 3, 10, 11, 6, 7, 14, 15);
  const v8f close_dx = __builtin_shufflevector(u0, u4, 0, 1, 2, 3, 8, 9, 10, 11);
  const v8f close_dy = __builtin_shufflevector(u1, u5, 0, 1, 2, 3, 8, 9, 10, 11);
  const v8f xpos = __builtin_shufflevector(u2, u6, 0, 1, 2, 3, 8, 9, 10, 11);
  const v8f ypos = __builtin_shufflevector(u3, u7, 0, 1, 2, 3, 8, 9, 10, 11);
  const v8f xvel = __builtin_shufflevector(u0, u4, 4, 5, 6, 7, 12, 13, 14, 15);
  const v8f yvel = __builtin_shufflevector(u1, u5, 4, 5, 6, 7, 12, 13, 14, 15);
  const v8f count = __builtin_shufflevector(u2, u6, 4, 5, 6, 7, 12, 13, 14, 15);

  const v8f X = rules::load8(k.sx + i), Y = rules::load8(k.sy + i);
  const v8f VX = rules::load8(k.svx + i), VY = rules::load8(k.svy + i);
  const v8f zero{};
  v8f vx = VX, vy = VY;
  // cornell_steer
  const v8i seen = count > zero;
  if (c.cohesion) {
    vx = select(seen, vx + (xpos / count - X) * c.centering, vx);
    vy = select(seen, vy + (ypos / count - Y) * c.centering, vy);
  }
  if (c.alignment) {
    vx = select(seen, vx + (xvel / count - VX) * c.matching, vx);
    vy = select(seen, vy + (yvel / count - VY) * c.matching, vy);
  }
  if (c.separation) {
    vx = vx + close_dx * c.avoid;
    vy = vy + close_dy * c.avoid;
  }
  const v8f turn = v8f{} + c.turn;
  vy = select(Y < c.top_edge, vy + turn, vy);
  vx = select(X > c.right_edge, vx - turn, vx);
  vx = select(X < c.left_edge, vx + turn, vx);
  vy = select(Y > c.bottom_edge, vy - turn, vy);
  if (k.predator_count > 0) {
    v8f pdx{}, pdy{};
    v8i pcount{};
    const v8f pr = v8f{} + c.predator_range, pr2 = v8f{} + c.predator_range2;
    for (std::size_t q = 0; q < k.predator_count; ++q) {
      const v8f dx = X - k.predators[q].x, dy = Y - k.predators[q].y;
      const v8i in = (v8f(v8i(dx) & 0x7fffffff) < pr) & (v8f(v8i(dy) & 0x7fffffff) < pr) & (dx * dx + dy * dy < pr2);
      pdx = select(in, pdx + dx, pdx);
      pdy = select(in, pdy + dy, pdy);
      pcount -= in;
    }
    const v8i fled = pcount > 0;
    const v8f pt = v8f{} + c.predator_turn;
    vy = select(fled & (pdy > zero), vy + pt, vy);
    vy = select(fled & (pdy < zero), vy - pt, vy);
    vx = select(fled & (pdx > zero), vx + pt, vx);
    vx = select(fled & (pdx < zero), vx - pt, vx);
  }
  // limit_speed
  const v8f sq = vx * vx + vy * vy;
  v8f speed{};
  for (std::uint32_t l = 0; l < kLanes; ++l) speed[l] = std::sqrt(sq[l]);
  v8f target = select(speed < c.minspeed, v8f{} + c.minspeed, speed);
  target = select(target > c.maxspeed, v8f{} + c.maxspeed, target);
  const v8i change = target != speed;
  const v8i moving = speed > zero;
  vx = select(change & moving, vx / speed * target, vx);
  vy = select(change & moving, vy / speed * target, vy);
  const v8i stopped = change & ~moving;
  for (std::uint32_t l = 0; l < kLanes; ++l)
    if (stopped[l]) {  // a zero speed takes the previous direction (rare): the scalar rule
      float svx = vx[l], svy = vy[l];
      rules::limit_speed(svx, svy, c.minspeed, c.maxspeed, VX[l], VY[l]);
      vx[l] = svx, vy[l] = svy;
    }
  const v8f nx = X + vx * c.dt, ny = Y + vy * c.dt;
  std::memcpy(k.x + i, &nx, sizeof nx);
  std::memcpy(k.y + i, &ny, sizeof ny);
  std::memcpy(k.vx + i, &vx, sizeof vx);
  std::memcpy(k.vy + i, &vy, sizeof vy);
  std::memcpy(k.id + i, k.sid + i, 8 * sizeof(std::uint32_t));
}

// The three slot runs of a cell's 3x3 block: [run[0], run[1]), [run[2], run[3]), [run[4], run[5]).
struct BlockRuns {
  std::uint32_t run[6];
};

// One half (8 lanes) of a 16-lane chunk: the classification and the masked sums.
template <bool BoxTest>
struct HalfSums : LaneSums {
  [[gnu::always_inline]] void add(const CornellPass& k, std::uint32_t j, v8i live, v8f X, v8f Y, v8f range,
                                  v8f protected2, v8f visual2) {
    const v8f ox = rules::load8(k.sx + j), oy = rules::load8(k.sy + j);
    const v8f dx = X - ox, dy = Y - oy;
    const v8f d2 = dx * dx + dy * dy;
    v8i separate = (d2 < protected2) & live;
    v8i visible = (d2 < visual2) & live & ~separate;
    if constexpr (BoxTest) {
      const v8i in_box = (v8f(v8i(dx) & 0x7fffffff) < range) & (v8f(v8i(dy) & 0x7fffffff) < range);
      separate &= in_box;
      visible &= in_box;
    }
    LaneSums::add(dx, dy, ox, oy, rules::load8(k.svx + j), rules::load8(k.svy + j), separate, visible);
  }
};

// The neighbour sums of the boids in slots [b, e) (one cell) over its block's runs, each
// written as 8 floats (close_dx, close_dy, xpos, ypos, xvel, yvel, neighbours, 0) to
// sums + 8 * (i - b). The portable kernel (every target_clones variant): a 16-lane chunk is
// two 8-lane halves (lanes 0-7 and 8-15), and the reduction starts with lane l + lane l + 8.
// (Written with 8-lane vectors because GCC lowers 64-byte vector types piecewise in a
// target_clones function on AVX2 and below.)
template <bool BoxTest>
[[gnu::always_inline]] inline void cornell_cell_sums(const CornellPass& k, std::uint32_t b, std::uint32_t e,
                                                     const BlockRuns& block, float* __restrict sums) {
  const auto& c = *k.c;
  // (Broadcasts written out: the rules:: helpers get lowered for the default target first.)
  const v8f range = v8f{} + c.range, protected2 = v8f{} + c.protected2, visual2 = v8f{} + c.visual2;
  const v8i lane = {0, 1, 2, 3, 4, 5, 6, 7};
  for (std::uint32_t i = b; i < e; ++i) {
    const v8f X = v8f{} + k.sx[i], Y = v8f{} + k.sy[i];
    // Lanes 0-7 of every chunk first, then lanes 8-15: each lane's additions keep their
    // order, and one half's seven sums fit the registers of AVX2 and SSE (both halves at
    // once spill).
    HalfSums<BoxTest> lo, hi;
    for (std::uint32_t r = 0; r < 3; ++r) {
      const std::uint32_t rb = block.run[2 * r], re = block.run[2 * r + 1];
      for (std::uint32_t j = rb; j < re; j += kRunLanes) {
        const v8i slot = std::int32_t(j) + lane;
        lo.add(k, j, (slot < std::int32_t(re)) & (slot != std::int32_t(i)), X, Y, range, protected2, visual2);
      }
    }
    for (std::uint32_t r = 0; r < 3; ++r) {
      const std::uint32_t rb = block.run[2 * r], re = block.run[2 * r + 1];
      // Only chunks with live lanes in their upper half: a dead half would add +0.0 to
      // every lane, no change.
      for (std::uint32_t j = rb; j + 8 < re; j += kRunLanes) {
        const v8i slot = std::int32_t(j + 8) + lane;
        hi.add(k, j + 8, (slot < std::int32_t(re)) & (slot != std::int32_t(i)), X, Y, range, protected2, visual2);
      }
    }
    const v8f total = transpose_sum(lo.cdx + hi.cdx, lo.cdy + hi.cdy, lo.xp + hi.xp, lo.yp + hi.yp, lo.xv + hi.xv,
                                    lo.yv + hi.yv, __builtin_convertvector(lo.count + hi.count, v8f), v8f{});
    std::memcpy(sums + 8 * std::size_t(i - b), &total, sizeof total);
  }
}

#ifdef FLOCKSCOPE_HAVE_AVX512_KERNEL
using v16f = float __attribute__((vector_size(64)));

// Lanes 0-7: a's lane l + lane l + 8; lanes 8-15: the same of b (the kernels' first fold).
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline))
inline v16f fold_pair(__m512 a, __m512 b) {
  return v16f(_mm512_add_ps(_mm512_shuffle_f32x4(a, b, 0x44), _mm512_shuffle_f32x4(a, b, 0xee)));
}

// transpose_sum on each 8-lane half: lane k of a half is the sum of that half of input k,
// by the same tree.
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline))
inline v16f transpose_sum_pair(v16f a, v16f b, v16f c, v16f d, v16f e, v16f f, v16f g, v16f h) {
#define FLOCKSCOPE_LO(x, y) __builtin_shufflevector(x, y, 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30)
#define FLOCKSCOPE_HI(x, y) __builtin_shufflevector(x, y, 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31)
  const v16f ab = FLOCKSCOPE_LO(a, b) + FLOCKSCOPE_HI(a, b), cd = FLOCKSCOPE_LO(c, d) + FLOCKSCOPE_HI(c, d);
  const v16f ef = FLOCKSCOPE_LO(e, f) + FLOCKSCOPE_HI(e, f), gh = FLOCKSCOPE_LO(g, h) + FLOCKSCOPE_HI(g, h);
#undef FLOCKSCOPE_LO
#undef FLOCKSCOPE_HI
  const v16f abcd = __builtin_shufflevector(ab, cd, 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29) +
                    __builtin_shufflevector(ab, cd, 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31);
  const v16f efgh = __builtin_shufflevector(ef, gh, 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29) +
                    __builtin_shufflevector(ef, gh, 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31);
  return __builtin_shufflevector(abcd, efgh, 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27) +
         __builtin_shufflevector(abcd, efgh, 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
}

// cornell_cell_sums with AVX-512: 16-lane registers and mask registers (a masked add instead
// of and + add), two boids a pass over the runs (each chunk loaded once for both, two
// independent chains of additions). Lane for lane the same additions in the same order as
// the portable kernel (a masked-out lane keeps its value where the portable one adds +0.0,
// which never differs: a sum that starts at +0.0 cannot become -0.0), so both give the same
// bits. The count is a popcount of the visible mask, exact in any order.
// Three of the visible sums are masked fused multiply-adds by 1.0 (x * 1 is exact, so
// fma(x, 1, s) rounds x + s once, exactly as the add does): they run on the multiply pipes,
// which the squares leave half idle, instead of queueing behind the subtractions, the d^2 add
// and the other sums on the add pipes (Zen 4, measured 1.12-1.2x on the whole step; moving
// the separation sums too, 0.95x). MaskSelf false (protected2 > 0, see step_boids): the boid's
// own lane stays live and adds +0.0 to its separation sums, which changes no bit, so the
// loop skips the per-chunk arithmetic that finds and clears that lane (1.04-1.08x at 1M
// boids on 2 threads, noisy).
template <int N, bool BoxTest, bool MaskSelf>
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline))
inline void cornell_boids_avx512(const CornellPass& k, std::uint32_t i, const BlockRuns& block,
                                 float* __restrict sums) {
  const auto& c = *k.c;
  const __m512 range = _mm512_set1_ps(c.range), protected2 = _mm512_set1_ps(c.protected2),
               visual2 = _mm512_set1_ps(c.visual2);
  const __m512 abs_mask = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fffffff));
  const __m512 ones = _mm512_set1_ps(1.0f);
  __m512 X[N], Y[N], cdx[N], cdy[N], xp[N], yp[N], xv[N], yv[N];
  std::uint32_t count[N];
  for (int q = 0; q < N; ++q) {
    X[q] = _mm512_set1_ps(k.sx[i + q]), Y[q] = _mm512_set1_ps(k.sy[i + q]);
    cdx[q] = cdy[q] = xp[q] = yp[q] = xv[q] = yv[q] = _mm512_setzero_ps();
    count[q] = 0;
  }
  for (std::uint32_t r = 0; r < 3; ++r) {
    const std::uint32_t rb = block.run[2 * r], re = block.run[2 * r + 1];
    for (std::uint32_t j = rb; j < re; j += kRunLanes) {
      const std::uint32_t left = re - j;
      const __mmask16 in_run = left >= kRunLanes ? __mmask16(0xffff) : __mmask16((1u << left) - 1);
      const __m512 ox = _mm512_loadu_ps(k.sx + j), oy = _mm512_loadu_ps(k.sy + j);
      const __m512 ovx = _mm512_loadu_ps(k.svx + j), ovy = _mm512_loadu_ps(k.svy + j);
      for (int q = 0; q < N; ++q) {
        __mmask16 live = in_run;
        if constexpr (MaskSelf) {
          const std::uint32_t me = i + std::uint32_t(q) - j;  // wraps when i + q < j: no lane is the boid
          if (me < kRunLanes) live = __mmask16(in_run & ~(1u << me));
        }
        const __m512 dx = _mm512_sub_ps(X[q], ox), dy = _mm512_sub_ps(Y[q], oy);
        const __m512 d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
        if constexpr (BoxTest) {
          live = _mm512_mask_cmp_ps_mask(live, _mm512_and_ps(dx, abs_mask), range, _CMP_LT_OQ);
          live = _mm512_mask_cmp_ps_mask(live, _mm512_and_ps(dy, abs_mask), range, _CMP_LT_OQ);
        }
        const __mmask16 separate = _mm512_mask_cmp_ps_mask(live, d2, protected2, _CMP_LT_OQ);
        const __mmask16 visible = _kandn_mask16(separate, _mm512_mask_cmp_ps_mask(live, d2, visual2, _CMP_LT_OQ));
        cdx[q] = _mm512_mask_add_ps(cdx[q], separate, cdx[q], dx);
        cdy[q] = _mm512_mask_add_ps(cdy[q], separate, cdy[q], dy);
        xp[q] = _mm512_mask3_fmadd_ps(ox, ones, xp[q], visible);
        yp[q] = _mm512_mask3_fmadd_ps(oy, ones, yp[q], visible);
        xv[q] = _mm512_mask3_fmadd_ps(ovx, ones, xv[q], visible);
        yv[q] = _mm512_mask_add_ps(yv[q], visible, yv[q], ovy);
        count[q] += std::uint32_t(__builtin_popcount(visible));
      }
    }
  }
  if constexpr (N == 2) {
    // Both boids' reductions at once, boid 0 in lanes 0-7 and boid 1 in lanes 8-15 of each
    // register: the same additions as below in half the instructions. The counts go in
    // afterwards (a tree over one count and seven zeros is the count): the tree's last two
    // inputs are zeros, which the compiler folds.
    v16f total = transpose_sum_pair(fold_pair(cdx[0], cdx[1]), fold_pair(cdy[0], cdy[1]), fold_pair(xp[0], xp[1]),
                                    fold_pair(yp[0], yp[1]), fold_pair(xv[0], xv[1]), fold_pair(yv[0], yv[1]), v16f{},
                                    v16f{});
    total[6] = float(count[0]);
    total[14] = float(count[1]);
    std::memcpy(sums, &total, sizeof total);
    return;
  }
  for (int q = 0; q < N; ++q) {
    // Lane l + lane l + 8, then the portable kernel's 8-lane tree.
#define FLOCKSCOPE_FOLD16(v) v8f(_mm256_add_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1)))
    v8f total = transpose_sum(FLOCKSCOPE_FOLD16(cdx[q]), FLOCKSCOPE_FOLD16(cdy[q]), FLOCKSCOPE_FOLD16(xp[q]),
                              FLOCKSCOPE_FOLD16(yp[q]), FLOCKSCOPE_FOLD16(xv[q]), FLOCKSCOPE_FOLD16(yv[q]), v8f{}, v8f{});
    total[6] = float(count[q]);
#undef FLOCKSCOPE_FOLD16
    std::memcpy(sums + 8 * std::size_t(q), &total, sizeof total);
  }
}

template <bool BoxTest, bool MaskSelf>
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), noinline))
void cornell_cell_sums_avx512(const CornellPass& k, std::uint32_t b, std::uint32_t e, const BlockRuns& block,
                              float* __restrict sums) {
  std::uint32_t i = b;
  for (; i + 2 <= e; i += 2) cornell_boids_avx512<2, BoxTest, MaskSelf>(k, i, block, sums + 8 * std::size_t(i - b));
  if (i < e) cornell_boids_avx512<1, BoxTest, MaskSelf>(k, i, block, sums + 8 * std::size_t(i - b));
}
#endif

// Grid rows [row_begin, row_end). `sums` is this thread's staging of neighbour sums (grown
// as needed). The sums of a row's boids are staged in slot order and the update runs eight
// boids at a time as soon as eight are ready (the last few of a row one at a time), so
// staging never holds more than a cell plus 8 boids.
FLOCKSCOPE_CLONES("arch=x86-64-v4", "avx2", "default")
void cornell_rows(const CornellPass& k, int row_begin, int row_end, std::vector<float>& sums, float* box) {
  // The bounding box of the new positions, for the next step's grid (min/max: exact).
  v8f min_x = v8f{} + box[0], max_x = v8f{} + box[1], min_y = v8f{} + box[2], max_y = v8f{} + box[3];
  const UniformGrid& g = *k.grid;
  const int nx = g.nx();
  for (int cy = row_begin; cy < row_end; ++cy) {
    std::uint32_t pending = g.cell_start(std::size_t(cy) * std::size_t(nx));  // first slot not updated yet
    for (int cx = 0; cx < nx; ++cx) {
      const std::size_t cell = std::size_t(cy) * std::size_t(nx) + std::size_t(cx);
      const std::uint32_t b = g.cell_start(cell), e = g.cell_start(cell + 1);
      if (b == e) continue;
      // At the grid's edge rows the block has two runs: the third stays empty.
      BlockRuns block{};
      int r = 0;
      g.for_each_neighbour_range(cx, cy, [&](std::uint32_t rb, std::uint32_t re) {
        block.run[2 * r] = rb, block.run[2 * r + 1] = re;
        ++r;
      });
      if (sums.size() < 8 * std::size_t(e - pending)) sums.resize(8 * std::size_t(e - pending) + 8 * 64);
      float* staged = sums.data() + 8 * std::size_t(b - pending);
#ifdef FLOCKSCOPE_HAVE_AVX512_KERNEL
      if (k.avx512) {
        if (k.box_test)
          cornell_cell_sums_avx512<true, true>(k, b, e, block, staged);
        else if (k.mask_self)
          cornell_cell_sums_avx512<false, true>(k, b, e, block, staged);
        else
          cornell_cell_sums_avx512<false, false>(k, b, e, block, staged);
      } else
#endif
      if (k.box_test)
        cornell_cell_sums<true>(k, b, e, block, staged);
      else
        cornell_cell_sums<false>(k, b, e, block, staged);
      // Update the ready groups of eight and move the rest to the front of the staging.
      std::uint32_t done = 0;
      for (; pending + done + kLanes <= e; done += kLanes) {
        cornell_update_8(k, pending + done, sums.data() + 8 * done);
        const v8f new_x = rules::load8(k.x + pending + done), new_y = rules::load8(k.y + pending + done);
        min_x = select(new_x < min_x, new_x, min_x), max_x = select(new_x > max_x, new_x, max_x);
        min_y = select(new_y < min_y, new_y, min_y), max_y = select(new_y > max_y, new_y, max_y);
      }
      if (done > 0) {
        std::memmove(sums.data(), sums.data() + 8 * done, 8 * sizeof(float) * std::size_t(e - pending - done));
        pending += done;
      }
    }
    const std::uint32_t row_end_slot = g.cell_start(std::size_t(cy + 1) * std::size_t(nx));
    for (std::uint32_t i = pending; i < row_end_slot; ++i) {
      cornell_update_one(k, i, sums.data() + 8 * (i - pending));
      box[0] = std::min(box[0], k.x[i]), box[1] = std::max(box[1], k.x[i]);
      box[2] = std::min(box[2], k.y[i]), box[3] = std::max(box[3], k.y[i]);
    }
  }
  for (std::uint32_t l = 0; l < kLanes; ++l) {
    box[0] = std::min(box[0], min_x[l]), box[1] = std::max(box[1], max_x[l]);
    box[2] = std::min(box[2], min_y[l]), box[3] = std::max(box[3], max_y[l]);
  }
}

// FLOCKSCOPE_PORTABLE_KERNEL=1 in the environment keeps the AVX-512 kernel off (tests compare
// both kernels' results bit for bit; benchmarks can time the portable one).
// Read at every step (a getenv per step is nothing), so a test can switch it between runs.
bool force_portable_kernel() {
  const char* v = std::getenv("FLOCKSCOPE_PORTABLE_KERNEL");
  return v != nullptr && v[0] != '\0' && v[0] != '0';
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

// The rows of the grid step's boids pass, shared out for cache affinity with load balance.
// Thread t first takes, front to back, the rows whose boids are about slots [t n / T,
// (t + 1) n / T): the state it writes there is what the grid build's range t reads at the
// next step, so on most of the step each core touches lines its own cache holds (handing
// rows out in dynamic order instead made both passes slower on this 2-core VM: measured
// 40 against 49.6 steps/s at 1M boids, the sort 6.8 against 3.5 ns a boid). A thread whose
// share is done takes rows from the back of another share, so a dense cluster in one
// share still spreads over all threads. Each share is a (front, back) pair in one atomic
// word. Which thread runs a row never changes a result: each boid depends only on the
// previous frame.
class RowShares {
 public:
  RowShares(const UniformGrid& grid, std::size_t n, int threads) : shares_(std::size_t(threads)) {
    const int rows = grid.ny();
    const std::size_t nx = std::size_t(grid.nx());
    int begin = 0;
    for (int t = 0; t < threads; ++t) {
      const std::size_t next_slot = n * std::size_t(t + 1) / std::size_t(threads);
      // The share ends at the first row starting at or after the next share's first slot.
      const int end = t + 1 == threads ? rows
                                       : *std::ranges::partition_point(std::views::iota(begin, rows), [&](int row) {
                                           return grid.cell_start(std::size_t(row) * nx) < next_slot;
                                         });
      shares_[std::size_t(t)].range.store(pack(std::uint32_t(begin), std::uint32_t(end)), std::memory_order_relaxed);
      begin = end;
    }
  }
  // Runs f(row) for rows of the caller's own share, then for rows left in the others'.
  template <class F>
  void run(int thread, F&& f) {
    const std::size_t count = shares_.size();
    const std::size_t own = std::size_t(thread) % count;
    for (int row; (row = take(shares_[own], true)) >= 0;) f(row);
    for (std::size_t k = 1; k < count; ++k)
      for (int row; (row = take(shares_[(own + k) % count], false)) >= 0;) f(row);
  }

 private:
  struct alignas(64) Share {
    std::atomic<std::uint64_t> range{0};
  };
  static std::uint64_t pack(std::uint32_t front, std::uint32_t back) { return std::uint64_t(back) << 32 | front; }
  // The share's first row (front) or last row (!front), taken out of it; -1 when it is empty.
  static int take(Share& s, bool front) {
    std::uint64_t r = s.range.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint32_t first = std::uint32_t(r), end = std::uint32_t(r >> 32);
      if (first >= end) return -1;
      const std::uint64_t rest = front ? pack(first + 1, end) : pack(first, end - 1);
      if (s.range.compare_exchange_weak(r, rest, std::memory_order_relaxed)) return int(front ? first : end - 1);
    }
  }
  std::vector<Share> shares_;
};
}  // namespace

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
  grid_.build_scatter(x, y, n, radius, threads_, [&](std::size_t i, std::uint32_t k) {
    sx[k] = x[i], sy[k] = y[i], svx[k] = vx[i], svy[k] = vy[i], sid[k] = id[i];
  }, 1.0, have_box ? box_ : nullptr);
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
  step_boids(false);
  step_predators();
  ++steps_;
  time_ += active_.dt;
}

void Flock::step_all_pairs() {
  step_boids(true);
  step_predators();
  ++steps_;
  time_ += active_.dt;
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
      if (!all_pairs) {
        CornellPass k{&grid_, sx, sy, svx, svy, sid_.data(), x_.data(), y_.data(), vx_.data(), vy_.data(),
                      id_.data(), bias_.data(), bias_.size(), &p, &c, biasval, predators_.data(),
                      predators_.size(), true, true, false};
        // The box test |dx|, |dy| < range only matters if it can reject a pair that d^2 alone
        // would accept: not when range^2 (rounded as the loop rounds dx*dx) reaches both radii,
        // because rounding is monotonic, so |dx| >= range implies dx*dx + dy*dy >= range^2.
        const float range2 = c.range * c.range;
        k.box_test = !(range2 >= c.visual2 && range2 >= c.protected2);
        // The boid itself, left in its lanes, is at dx = dy = +0.0, d^2 = 0: with protected2 > 0
        // it counts as a separation neighbour adding +0.0 to sums that are never -0.0 (they
        // start at +0.0), so nothing changes and the AVX-512 loop can skip masking it out.
        k.mask_self = !(c.protected2 > 0.0f);
#ifdef FLOCKSCOPE_HAVE_AVX512_KERNEL
        static const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                                   __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
        k.avx512 = avx512 && !force_portable_kernel();
#endif
        const int rows = grid_.ny();
        const float inf = std::numeric_limits<float>::infinity();
        const float empty_box[4] = {inf, -inf, inf, -inf};
        if (threads_ <= 1 || n < 4096) {  // a parallel region costs a few microseconds
          std::vector<float> sums;
          std::copy(empty_box, empty_box + 4, box_);
          cornell_rows(k, 0, rows, sums, box_);
        } else {
          std::vector<float> boxes(4 * std::size_t(threads_));
          for (std::size_t t = 0; t < std::size_t(threads_); ++t) std::copy(empty_box, empty_box + 4, &boxes[4 * t]);
          RowShares shares(grid_, n, threads_);
#pragma omp parallel num_threads(threads_)
          {
            std::vector<float> sums;
            const int thread = omp_get_thread_num();
            float* box = boxes.data() + 4 * std::size_t(thread % threads_);
            shares.run(thread, [&](int row) { cornell_rows(k, row, row + 1, sums, box); });
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
        rules::PredatorSums<float> ps;
        for (const auto& pr : predators_) rules::predator_accumulate(ps, self.x - pr.x, self.y - pr.y, c);
        Boid<float> b = rules::cornell_steer(self, s, ps, c);
        const std::uint32_t id = sid_[i];
        if (const int group = scout_group(p, id); group != 0 && id < bias_.size()) {
          float bias = c.dynamic_bias ? bias_[id] : biasval;
          rules::cornell_bias(b.vx, bias, group, c);
          bias_[id] = bias;
        }
        rules::limit_speed(b.vx, b.vy, c.minspeed, c.maxspeed, self.vx, self.vy);
        b.x = self.x + b.vx * c.dt;
        b.y = self.y + b.vy * c.dt;
        store(i, b);
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
      for (std::size_t i = 0; i < n; ++i) {
        const Boid<float> self{x[i], y[i], vx[i], vy[i]};
        rules::CornellSums<float> s;
        for (std::size_t j = 0; j < n; ++j)
          if (j != i) rules::cornell_accumulate(s, self.x - x[j], self.y - y[j], Boid<float>{x[j], y[j], vx[j], vy[j]}, c);
        rules::PredatorSums<float> ps;
        for (const auto& pr : predators_) rules::predator_accumulate(ps, self.x - pr.x, self.y - pr.y, c);
        Boid<float> b = rules::cornell_steer(self, s, ps, c);
        if (const int group = scout_group(p, std::uint32_t(i)); group != 0 && i < bias_.size()) {
          float bias = c.dynamic_bias ? bias_[i] : float(p.biasval);
          rules::cornell_bias(b.vx, bias, group, c);
          bias_[i] = bias;
        }
        rules::limit_speed(b.vx, b.vy, c.minspeed, c.maxspeed, self.vx, self.vy);
        x[i] = self.x + b.vx * c.dt, y[i] = self.y + b.vy * c.dt, vx[i] = b.vx, vy[i] = b.vy;
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

// Predators move like boids that only turn at the margins (seeds 001/004), within the
// rule set's speed limits.
void Flock::step_predators() {
  const Params& p = active_;
  const auto c = cornell_coeffs(p);
  const bool report = p.rule_set() == RuleSet::Report;
  const float lo = report ? 0.0f : c.minspeed;
  const float hi = report ? float(p.V_max) : c.maxspeed;
  for (auto& pr : predators_) {
    const float old_vx = pr.vx, old_vy = pr.vy;
    rules::cornell_edges(pr.x, pr.y, pr.vx, pr.vy, c);
    rules::limit_speed(pr.vx, pr.vy, lo, hi, old_vx, old_vy);
    pr.x += pr.vx * c.dt;
    pr.y += pr.vy * c.dt;
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
  f.add_bytes(&steps_, sizeof steps_);
  return f.h;
}

std::size_t Flock::memory_bytes() const {
  std::size_t bytes = 0;
  for (const auto* v : {&x_, &y_, &vx_, &vy_, &sx_, &sy_, &svx_, &svy_, &bias_}) bytes += v->capacity() * sizeof(float);
  bytes += (id_.capacity() + sid_.capacity()) * sizeof(std::uint32_t);
  bytes += predators_.capacity() * sizeof(Predator);
  return bytes + grid_.memory_bytes();
}

}  // namespace flockscope
