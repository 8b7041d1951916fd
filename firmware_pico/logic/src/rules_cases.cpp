// The rules' fast path's rare branches as a flock (rules_cases.hpp).
#include "flockscope/board/rules_cases.hpp"

namespace flockscope::board {
namespace {

// floor(sqrt(v)) for v below 2^48: fixed.hpp's digit-by-digit root, on a copy.
std::uint64_t isqrt(std::uint64_t v) { return digit_sqrt(v, std::uint64_t(1) << 46); }

// A velocity (vx, vy >= vy_from) whose squared speed as the rules compute it,
// square(vx) + square(vy), is one below a perfect square, (r + 1)^2 - 1: fix's square root
// of it has r0 = r and the remainder 2 r, so its low byte's first estimate is 256, which
// the cap makes 255. False if none is found within 64 squares.
bool capped_root_velocity(fix vx, fix vy_from, fix& vy) {
  const auto a = std::uint64_t(square(vx).raw);
  std::uint64_t r1 = isqrt(a + std::uint64_t(square(vy_from).raw)) + 1;
  for (int tries = 0; tries < 64; ++tries, ++r1) {
    const std::uint64_t b = r1 * r1 - 1 - a;  // what square(vy) must be
    auto y = std::int32_t(isqrt(b << 16));    // square(y) = floor(y^2 / 2^16) <= b
    while (std::uint64_t(square(fix::from_raw(y)).raw) < b) ++y;
    if (std::uint64_t(square(fix::from_raw(y)).raw) == b) {
      vy = fix::from_raw(y);
      return true;
    }
  }
  return false;
}

}  // namespace

std::uint32_t place_rules_cases(BoardFlock& flock, const ParamStore& params) {
  auto v = [&](std::uint16_t id) { return params.active(id); };
  const double width = v(pid::width), height = v(pid::height);
  const fix left(v(pid::leftmargin)), right(width - v(pid::rightmargin));
  const fix top(v(pid::topmargin)), bottom(height - v(pid::bottommargin));
  const fix minspeed(v(pid::minspeed)), maxspeed(v(pid::maxspeed));
  const fix step = fix::from_raw(1);
  // The scouts (ids below scouts1 + scouts2, which take the general rules) wait at rest at
  // one point off screen to the right, beyond every case's reach; the cases follow them.
  const auto scouts = std::uint32_t(v(pid::scouts1) + v(pid::scouts2));
  std::uint32_t n = 0;
  for (; n < scouts && n < flock.capacity(); ++n) flock.set_boid(n, right + fix(300), top, fix(0), fix(0));
  auto place = [&](fix x, fix y, fix vx, fix vy) {
    if (n < flock.capacity()) flock.set_boid(n++, x, y, vx, vy);
  };

  // Velocities through the speed test and the limit, one lone boid each.
  struct Velocity {
    fix vx, vy;
  };
  Velocity cases[20];
  std::uint32_t nv = 0;
  auto capped = [&](fix vx, fix vy_from, bool negate) {
    fix vy;
    if (!capped_root_velocity(vx, vy_from, vy)) return;
    cases[nv++] = negate ? Velocity{-vx, -vy} : Velocity{vx, vy};
  };
  capped(maxspeed + fix(1.25), fix(0), false);  // above the limit
  capped(maxspeed + fix(2.5), fix(0), true);    // the same with negative components
  if (minspeed > fix(1.5)) capped(minspeed - fix(1), fix(0), false);  // below it
  capped(fix(99), fix(0), true);                // near the guard (100 px/frame a component)
  cases[nv++] = {maxspeed, fix(0)};                                      // v2 = max2: no limit
  cases[nv++] = {fix::from_raw(maxspeed.raw + 1), fix(0)};               // one step above
  cases[nv++] = {fix(0), -minspeed};                                     // v2 = min2
  cases[nv++] = {fix(0), -fix::from_raw(minspeed.raw - 1)};              // one step below
  cases[nv++] = {-(maxspeed + fix(1.3)), fix(-2.1)};                     // both negative
  cases[nv++] = {fix(0.1), fix(-0.2)};      // below 0.5 px/frame: the caller limits it
  cases[nv++] = {fix(0), fix(0)};           // at rest
  cases[nv++] = {fix(90.5), fix(-90.5)};    // just below 128 px/frame
  cases[nv++] = {fix(99.9), fix(99.9)};     // beyond 128 px/frame: the caller
  cases[nv++] = {fix(150), fix(-150)};      // beyond the guard (100 px/frame a component)
  cases[nv++] = {fix(3.5), fix(2.25)};      // within the limits

  // Lone boids 60 px apart, 60 px inside the margins.
  std::uint32_t next = 0;
  for (fix y = top + fix(60); y <= bottom - fix(60) && next < nv; y = y + fix(60))
    for (fix x = left + fix(60); x <= right - fix(60) && next < nv; x = x + fix(60))
      place(x, y, cases[next].vx, cases[next].vy), ++next;

  // Each margin's edge exactly (no turn: the rules turn strictly beyond it) and one raw
  // step beyond, 30 and 150 px along it (60 px and more from the lattice above).
  const fix slow(3.5), along(-2.5);
  place(left, top + fix(30), slow, along);
  place(left - step, top + fix(150), slow, along);
  place(right, top + fix(30), slow, along);
  place(right + step, top + fix(150), slow, along);
  place(left + fix(90), top, along, slow);
  place(left + fix(210), top - step, along, slow);
  place(left + fix(90), bottom, along, slow);
  place(left + fix(210), bottom + step, along, slow);

  // The predators' turn: none in an axis where the in-range offsets sum to exactly 0. The
  // first predator 250 px left of the left margin (beyond every other case's reach), the
  // boids 0.6 of its range from it straight above and to its right; a second predator
  // (when there are two) 1.2 ranges below the first, with a boid half way; the others far
  // above.
  const std::uint32_t np = flock.predator_count();
  const double range = v(pid::predatorRange);
  if (np > 0 && range > 0) {
    const fix px = left - fix(250), py = fix(height / 2);
    const fix e(0.6 * range);
    flock.set_predator(0, {px, py, fix(0), fix(0)});
    place(px, py - e, slow, along);  // x offset 0
    place(px + e, py, slow, along);  // y offset 0
    if (np > 1) {
      flock.set_predator(1, {px, py + e + e, fix(0), fix(0)});
      place(px, py + e, slow, along);  // both offsets sum to 0
    }
    for (std::uint32_t i = 2; i < np; ++i) flock.set_predator(i, {px, py - fix(300), fix(0), fix(0)});
  }
  flock.set_size(n);
  return n;
}

}  // namespace flockscope::board
