// The lab's extensions (seed 001) on the board's fixed-point flock: each rule's arithmetic
// hand-computed on a board of one to three boids (food's pull, perching's landing, rest and
// take-off, a centroid and a chase predator's aim and steer), the parameters the board
// takes, and the board against core's float engine with every extension on.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/draw.hpp"
#include "flockscope/board/host_storage.hpp"
#include "flockscope/core/flock.hpp"

namespace fb = flockscope::board;
namespace pid = fb::pid;
using fb::fix;

namespace {

struct Setting {
  std::uint16_t id;
  double value;
};

// A board with these settings over its defaults (no predators unless set), `n` boids placed
// by the caller (set_boid) after reset.
struct Board {
  fb::HostFlockStorage storage{64};
  fb::ParamStore store{fb::BoardLimits{}};
  fb::BoardFlock flock{storage.buffers};
  explicit Board(const std::vector<Setting>& settings, std::uint32_t n) {
    store.force(pid::predators, 0);
    store.force(pid::predatorRange, 0);  // no boid turns away from a predator here
    for (const Setting& s : settings) store.force(s.id, s.value);
    flock.reset(store, 1, 0);
    flock.set_size(n);
  }
  // Boid id's state (slots follow the grid: look it up).
  flockscope::rules::Boid<fix> boid(std::uint32_t id) const {
    for (std::uint32_t k = 0; k < flock.size(); ++k)
      if (flock.id(k) == id) return {flock.x(k), flock.y(k), flock.vx(k), flock.vy(k)};
    ADD_FAILURE() << "no boid " << id;
    return {};
  }
};

}  // namespace

// Food: a boid at (300, 200) heading (3, 0), alone, a source 100 px right and below (141 px
// away, within food_range 150): v += 100 x food_factor on each axis, with fix's product by a
// weight (floor(a b / 2^16)); speed sqrt(4^2 + 1^2) inside [3, 6], so no limit; then the move.
TEST(BoardExtensions, FoodPullHandComputed) {
  Board b({{pid::food, 1}, {pid::food_range, 150}, {pid::food_factor, 0.01}}, 1);
  ASSERT_EQ(b.flock.food_count(), 1u);
  EXPECT_FALSE(b.flock.rules_fast());
  b.flock.set_boid(0, fix(300), fix(200), fix(3), fix(0));
  b.flock.set_food(0, {fix(400), fix(300), fix(0), fix(0)});
  b.flock.step();
  const std::int32_t pull = std::int32_t((std::int64_t(100) * 65536 * fix(0.01).raw) >> 16);
  EXPECT_EQ(pull, 65500);  // 100 x 655 / 65536 px/frame
  const auto a = b.boid(0);
  EXPECT_EQ(a.vx.raw, 3 * 65536 + pull);
  EXPECT_EQ(a.vy.raw, pull);
  EXPECT_EQ(a.x.raw, 303 * 65536 + pull);
  EXPECT_EQ(a.y.raw, 200 * 65536 + pull);

  // 130 px right and below (184 px): the squares' sum, 33,800, is beyond Q16.16 and
  // saturates instead of wrapping: out of range, no pull.
  Board far({{pid::food, 1}, {pid::food_range, 181}, {pid::food_factor, 0.01}}, 1);
  far.flock.set_boid(0, fix(300), fix(200), fix(3), fix(0));
  far.flock.set_food(0, {fix(430), fix(330), fix(0), fix(0)});
  far.flock.step();
  EXPECT_EQ(far.boid(0).vx, fix(3));
  EXPECT_EQ(far.boid(0).vy, fix(0));
}

// Perching: a boid at (300, 415) flying down at 3 px/frame toward the ledge at y 420 (x 120
// .. 520, perch_range 12) reaches 418, within 12 px above it: it lands at 420 at rest and
// rests perch_frames = 3 frames in all (the landing frame the first), takes off straight up
// at minspeed 3 (y 417) and may not land for 3 frames.
TEST(BoardExtensions, PerchingHandComputed) {
  Board b({{pid::perch_frames, 3}, {pid::perch_y, 420}, {pid::perch_x0, 120}, {pid::perch_x1, 520},
           {pid::perch_range, 12}, {pid::bottommargin, 40}},
          1);
  ASSERT_TRUE(b.flock.perching());
  EXPECT_FALSE(b.flock.rules_fast());
  b.flock.set_boid(0, fix(300), fix(415), fix(0), fix(3));
  b.flock.step();
  auto a = b.boid(0);
  EXPECT_EQ(a.x, fix(300));
  EXPECT_EQ(a.y, fix(420));
  EXPECT_EQ(a.vx, fix(0));
  EXPECT_EQ(a.vy, fix(0));
  EXPECT_EQ(b.flock.perch_timer(0), 3);
  EXPECT_EQ(b.flock.perched(), 1u);
  b.flock.step();
  b.flock.step();
  EXPECT_EQ(b.flock.perch_timer(0), 1);
  EXPECT_EQ(b.boid(0).y, fix(420));
  b.flock.step();  // takes off
  a = b.boid(0);
  EXPECT_EQ(a.vy, fix(-3));
  EXPECT_EQ(a.y, fix(417));
  EXPECT_EQ(b.flock.perch_timer(0), -3);
  EXPECT_EQ(b.flock.perched(), 0u);
  b.flock.step();
  EXPECT_EQ(b.flock.perch_timer(0), -2);
  // Perching off: the timers go; on again, every boid starts free.
  b.store.force(pid::perch_frames, 0);
  b.flock.configure(b.store);
  EXPECT_FALSE(b.flock.perching());
  EXPECT_TRUE(b.flock.rules_fast());
  b.store.force(pid::perch_frames, 3);
  b.flock.configure(b.store);
  EXPECT_EQ(b.flock.perch_timer(0), 0);
}

// A centroid predator at (320, 240) heading (3, 0) sees three boids that each fly (3, 0)
// untouched (more than visualRange apart, no predator range): after their move they are at
// (303, 200), (343, 200), (323, 290), centre (323, 230); the predator adds 0.25 of the offset
// (3, -10): v = (3.75, -2.5), speed 4.5 inside [3, 6], and moves. The fast path stays on:
// a hunting predator changes no boid's rule.
TEST(BoardExtensions, CentroidPredatorHandComputed) {
  Board b({{pid::predators, 1}, {pid::predator_mode, 1}, {pid::predator_vision, 150}, {pid::predator_steer, 0.25}},
          3);
  EXPECT_TRUE(b.flock.rules_fast());
  b.flock.set_boid(0, fix(300), fix(200), fix(3), fix(0));
  b.flock.set_boid(1, fix(340), fix(200), fix(3), fix(0));
  b.flock.set_boid(2, fix(320), fix(290), fix(3), fix(0));
  b.flock.set_predator(0, {fix(320), fix(240), fix(3), fix(0)});
  b.flock.step();
  const fb::BoardAim& aim = b.flock.aim(0);
  ASSERT_TRUE(aim.active);
  EXPECT_EQ(aim.x, fix(323));
  EXPECT_EQ(aim.y, fix(230));
  const fb::BoardPredator& p = b.flock.predator(0);
  EXPECT_EQ(p.vx.raw, 3 * 65536 + 49152);
  EXPECT_EQ(p.vy.raw, -(2 * 65536 + 32768));
  EXPECT_EQ(p.x.raw, 323 * 65536 + 49152);
  EXPECT_EQ(p.y.raw, 237 * 65536 + 32768);
}

// A chase predator at (320, 240) between two boids 50 px away on either side after their
// move (b0 (367 -> 370, 240), b1 (264 -> 270, 240) at 6 px/frame): the lower id wins the tie.
// Steering 0.25 x 50 px brings vx to 15.5: limited to maxspeed 6 along +x. Then, placed
// nearer to b1 with b0 still in sight (83 px), it keeps b0; with b0 out of sight (176 px),
// it takes b1.
TEST(BoardExtensions, ChasePredatorHandComputed) {
  Board b({{pid::predators, 1}, {pid::predator_mode, 2}, {pid::predator_vision, 150}, {pid::predator_steer, 0.25}},
          2);
  b.flock.set_boid(0, fix(367), fix(240), fix(3), fix(0));
  b.flock.set_boid(1, fix(264), fix(240), fix(6), fix(0));
  b.flock.set_predator(0, {fix(320), fix(240), fix(3), fix(0)});
  b.flock.step();
  EXPECT_TRUE(b.flock.aim(0).active);
  EXPECT_EQ(b.flock.aim(0).target, 0);
  EXPECT_EQ(b.flock.aim(0).x, fix(370));
  EXPECT_EQ(b.flock.predator(0).vx, fix(6));
  EXPECT_EQ(b.flock.predator(0).vy, fix(0));
  EXPECT_EQ(b.flock.predator(0).x, fix(326));
  b.flock.set_predator(0, {fix(290), fix(240), fix(3), fix(0)});
  b.flock.step();  // b0 at 373 (83 px), b1 at 276 (14 px)
  EXPECT_EQ(b.flock.aim(0).target, 0);
  EXPECT_EQ(b.flock.aim(0).x, fix(373));
  b.flock.set_predator(0, {fix(200), fix(240), fix(3), fix(0)});
  b.flock.step();  // b0 at 376 (176 px: out of sight), b1 at 282
  EXPECT_EQ(b.flock.aim(0).target, 1);
  EXPECT_EQ(b.flock.aim(0).x, fix(282));
}

// The board takes every extension's parameters, within its limits.
TEST(BoardExtensions, ParametersAreWritableWithinTheBoardsLimits) {
  fb::ParamStore store{fb::BoardLimits{}};
  double v = 0;
  using flockscope::protocol::is_accepted;
  using flockscope::protocol::Status;
  EXPECT_TRUE(is_accepted(store.check(pid::predator_mode, fb::to_wire(fb::Kind::Choice, 2), v)));
  EXPECT_TRUE(is_accepted(store.check(pid::perch_frames, fb::to_wire(fb::Kind::Int, 90), v)));
  EXPECT_TRUE(is_accepted(store.check(pid::food, fb::to_wire(fb::Kind::Int, 3), v)));
  EXPECT_TRUE(is_accepted(store.check(pid::food_range, fb::to_wire(fb::Kind::Real, 150), v)));
  EXPECT_EQ(store.check(pid::food_range, fb::to_wire(fb::Kind::Real, 200), v), Status::kOutOfRange);
  EXPECT_EQ(store.check(pid::perch_frames, fb::to_wire(fb::Kind::Int, 40000), v), Status::kOutOfRange);
  EXPECT_EQ(store.check(pid::food, fb::to_wire(fb::Kind::Int, 17), v), Status::kOutOfRange);
}

// Every extension on (cornell-final-project's values: a chase predator, the ledge, gravity,
// two food sources) from the same state: the board's step against core's float engine, boids,
// predators and food within the tolerance of the plain rules (test_board_flock.cpp): one
// step within 2e-3; after ten, nine boids in ten within 0.1 px (food_factor 0.003 is
// 197/65536 on the board: 0.2 % more pull, 6e-4 px/frame at 100 px, every frame), the same
// chase targets.
TEST(BoardExtensions, EveryExtensionMatchesTheFloatEngine) {
  flockscope::Params p;
  p.boids = 1500;
  p.seed = 11;
  p.predators = 2;
  p.predator_mode = int(flockscope::PredatorMode::Chase);
  p.predator_vision = 150;
  p.predator_steer = 0.03;
  p.perch_frames = 90;
  p.perch_y = 420, p.perch_x0 = 120, p.perch_x1 = 520, p.perch_range = 12;
  p.bottommargin = 40;
  p.gravity = 0.05;
  p.food = 2;
  p.food_range = 150, p.food_factor = 0.003, p.food_speed = 1.5;
  const auto grid = [](float v) { return std::round(v * 256.0f) / 256.0f; };
  flockscope::Flock spawn(p);
  flockscope::FlockSnapshot s = spawn.snapshot();
  for (auto* v : {&s.x, &s.y, &s.vx, &s.vy})
    for (float& f : *v) f = grid(f);
  flockscope::Flock core(p, s);
  auto preds = spawn.predators();
  for (auto& pr : preds) pr.x = grid(pr.x), pr.y = grid(pr.y), pr.vx = grid(pr.vx), pr.vy = grid(pr.vy);
  core.set_predators(preds);

  fb::HostFlockStorage storage(2048);
  fb::ParamStore store{fb::BoardLimits{}};
  for (std::size_t i = 0; i < fb::kParamCount; ++i) {
    const auto& info = fb::param_at(i);
    if (info.id == pid::width || info.id == pid::height || info.id == pid::rules) continue;
    double v = flockscope::get_param(p, *flockscope::find_param(info.id));
    if (info.id == pid::boids) v = 1500;
    double checked = 0;
    ASSERT_TRUE(flockscope::protocol::is_accepted(store.check(info.id, fb::to_wire(info.kind, v), checked)))
        << info.name;
    store.store(info.id, checked);
  }
  store.apply_pending();
  fb::BoardFlock board(storage.buffers);
  board.reset(store, 11, 0);
  EXPECT_FALSE(board.rules_fast());
  ASSERT_EQ(board.food_count(), 2u);
  ASSERT_TRUE(board.perching());
  board.set_size(1500);
  for (std::uint32_t i = 0; i < 1500; ++i)
    board.set_boid(i, fix(double(s.x[i])), fix(double(s.y[i])), fix(double(s.vx[i])), fix(double(s.vy[i])));
  for (std::uint32_t q = 0; q < preds.size(); ++q)
    board.set_predator(q, {fix(double(preds[q].x)), fix(double(preds[q].y)), fix(double(preds[q].vx)),
                           fix(double(preds[q].vy))});
  for (std::uint32_t q = 0; q < 2; ++q) {  // the same spawn draws, through float
    EXPECT_NEAR(board.food(q).x.to_double(), core.food()[q].x, 2e-5);
    EXPECT_NEAR(board.food(q).vy.to_double(), core.food()[q].vy, 2e-5);
  }
  // Largest deviation of a boid, and the share of boids within 0.01 px (px/frame).
  const auto deviation = [&](double& max_dev, double& share, double within = 0.01) {
    const flockscope::FlockSnapshot c = core.snapshot();
    max_dev = 0;
    std::uint32_t close = 0;
    for (std::uint32_t k = 0; k < board.size(); ++k) {
      const std::uint32_t id = board.id(k);
      double m = 0;
      for (double d : {board.x(k).to_double() - c.x[id], board.y(k).to_double() - c.y[id],
                       board.vx(k).to_double() - c.vx[id], board.vy(k).to_double() - c.vy[id]})
        m = std::max(m, std::fabs(d));
      max_dev = std::max(max_dev, m);
      close += m < within;
    }
    share = double(close) / board.size();
  };
  double max_dev = 0, share = 0;
  core.step();
  board.step();
  deviation(max_dev, share);
  std::printf("1 step, every extension: max boid deviation %.2e\n", max_dev);
  EXPECT_LT(max_dev, 2e-3);
  for (int step = 1; step < 10; ++step) {
    core.step();
    board.step();
  }
  deviation(max_dev, share, 0.1);
  std::printf("10 steps: %.1f %% of the boids within 0.1\n", 100 * share);
  EXPECT_GT(share, 0.9);
  std::size_t perched_core = 0;
  for (std::int32_t t : core.perch_timers()) perched_core += t > 0;
  EXPECT_NEAR(double(board.perched()), double(perched_core), 3.0);
  for (std::uint32_t q = 0; q < 2; ++q) {
    EXPECT_EQ(board.aim(q).active, core.predator_aims()[q].active);
    EXPECT_EQ(board.aim(q).target, core.predator_aims()[q].target);
    EXPECT_NEAR(board.predator(q).x.to_double(), core.predators()[q].x, 0.01);  // its aim: a boid, as close
    EXPECT_NEAR(board.predator(q).vy.to_double(), core.predators()[q].vy, 0.01);
    EXPECT_NEAR(board.food(q).x.to_double(), core.food()[q].x, 1e-3);
    EXPECT_NEAR(board.food(q).y.to_double(), core.food()[q].y, 1e-3);
  }
}

// The board's screen shows the ledge (two rows under perch_y, from perch_x0 to perch_x1
// inclusive, clipped at the screen's edge) and each food source as a 5x5 disc.
TEST(BoardExtensions, ScreenShowsTheLedgeAndTheFood) {
  Board b({{pid::perch_frames, 90}, {pid::perch_y, 420}, {pid::perch_x0, 120}, {pid::perch_x1, 700},
           {pid::food, 2}},
          0);
  b.flock.set_food(0, {fix(100), fix(50), fix(0), fix(0)});
  b.flock.set_food(1, {fix(638), fix(300), fix(0), fix(0)});
  std::vector<std::uint32_t> words(fb::kFbWords, 0);
  fb::Framebuffer screen(words.data());
  fb::draw_flock(screen, b.flock);
  std::size_t lit = 0;
  for (int y = 0; y < fb::kFbHeight; ++y)
    for (int x = 0; x < fb::kFbWidth; ++x) lit += screen.get(x, y);
  for (int x = 120; x < 640; ++x) {
    EXPECT_TRUE(screen.get(x, 422) && screen.get(x, 423)) << x;
    EXPECT_FALSE(screen.get(x, 421) || screen.get(x, 424)) << x;
  }
  EXPECT_FALSE(screen.get(119, 422));
  EXPECT_TRUE(screen.get(100, 50) && screen.get(98, 50) && screen.get(100, 48) && screen.get(101, 51));
  EXPECT_FALSE(screen.get(98, 48) || screen.get(102, 52) || screen.get(103, 50));
  // 2 x 520 ledge pixels, a whole disc (21) and one whose last column (x 640) is cut: 18.
  EXPECT_EQ(lit, 2u * 520u + 21u + 18u);
}
