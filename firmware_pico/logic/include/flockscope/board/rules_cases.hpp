// A flock placed where the rules' fast path (flockscope_rules: rules_m0.S on the RP2040, its
// C++ version on the host) takes the branches that a spawned flock reaches rarely or never,
// for BoardFlock::check_rules() to compare with the general rules boid by boid. The host
// tests and the emulator's measurement (before its flock spawns) run it.
#pragma once
#include <cstdint>

#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/board_params.hpp"

namespace flockscope::board {

// Replaces the flock with the cases (ids from scouts1 + scouts2 to n - 1, the scouts at
// rest off screen to the right; the size n; the predators moved) for the active
// parameters: lone boids 60 px apart inside the margins with speeds exactly at
// minspeed and maxspeed and one raw step beyond, speeds whose square is one below a perfect
// square (fix's square root then takes its low byte at the cap, 255), negative components
// through the limit, speeds below 0.5 px/frame, at 0, near and beyond the 100 px/frame
// guard; boids exactly on each margin's edge and one raw step beyond it; and, off screen to
// the left, boids whose summed offset from the predators in range is exactly 0 in x, in y,
// or (with two predators or more) in both. Returns n. The caller respawns afterwards.
std::uint32_t place_rules_cases(BoardFlock& flock, const ParamStore& params);

}  // namespace flockscope::board
