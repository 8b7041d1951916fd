// The one table of flockscope's tunables. Every other place that needs a parameter (the
// Params struct, preset JSON keys, input validation, the app's sliders and tooltips, the
// protocol's ids, the firmware's fixed-point conversion) is generated from this list, so
// adding a parameter is one row.
//
// This header is plain preprocessor text on purpose: the RP2040 firmware and the C link
// library (protocol/pico) include it too. It is the bottom of the house: it includes nothing.
//
// Columns: X(id, name, kind, default, min, max, slider_min, slider_max, unit, apply, section, used_by, help)
//   id          stable wire id (protocol/PROTOCOL.md): never renumber, never reuse
//   kind        Real | Int | Bool | Choice (a named index: choice_names() in core's params.hpp)
//   min, max    hard validation range (inclusive); input outside it is rejected
//   slider_*    the range a UI slider offers (the lab's ranges where the seeds give them)
//   apply       Live (acts on the next step) | Reset (takes effect when the flock is reset)
//   section     the group a UI shows it in: World | Rules | Edges | Cornell | Report | Predators |
//               Scouts | Perching | Food
//   used_by     the rule sets whose step reads it: Cornell, Report, Blog joined by |, or All
// Defaults are the Pico lab's (seeds 000/004); presets in assets/presets/ set the others.
#pragma once

#define FLOCKSCOPE_PARAM_LIST(X)                                                                          \
  X(1, width, Real, 640, 16, 1e6, 16, 4096, "px", Reset, World, All, "World width (the VGA screen is 640)")            \
  X(2, height, Real, 480, 16, 1e6, 16, 4096, "px", Reset, World, All, "World height (the VGA screen is 480)")          \
  X(3, boids, Int, 1000, 0, 10000000, 0, 100000, "boids", Reset, World, All, "Number of boids spawned at reset")      \
  X(4, predators, Int, 0, 0, 16, 0, 16, "", Reset, World, All, "Number of predators (they fly like boids, turn at the margins and hunt as predator_mode says)") \
  X(5, seed, Int, 1, 0, 4294967295.0, 0, 4294967295.0, "", Reset, World, All, "Random seed of the initial state")    \
  X(6, rules, Choice, 0, 0, 2, 0, 2, "", Live, Rules, All, "Rule set: cornell (seeds 000/001/004), report (002), blog (003)") \
  X(7, visualRange, Real, 40, 0, 10000, 0, 200, "px", Live, Cornell, Cornell | Blog, "Boids closer than this (and outside protectedRange) are aligned with and steered toward") \
  X(8, protectedRange, Real, 8, 0, 10000, 0, 100, "px", Live, Cornell, Cornell | Blog, "Boids closer than this are steered away from (separation)") \
  X(9, centeringfactor, Real, 0.0005, 0, 10, 0.0002, 1, "1/frame", Live, Cornell, Cornell | Blog, "Cohesion: share of the offset to the neighbours' centre added to velocity each frame") \
  X(10, avoidfactor, Real, 0.05, 0, 100, 0.01, 1, "1/frame", Live, Cornell, Cornell | Blog, "Separation: share of the summed offsets from too-close boids added to velocity") \
  X(11, matchingfactor, Real, 0.05, 0, 100, 0.01, 1, "1/frame", Live, Cornell, Cornell | Blog, "Alignment: share of the difference to the neighbours' mean velocity added to velocity") \
  X(12, turnfactor, Real, 0.2, 0, 100, 0, 2, "px/frame^2", Live, Edges, All, "Velocity change per frame while inside a margin (report: v_correction, blog: wall_repulsion)") \
  X(13, leftmargin, Real, 100, 0, 1e6, 0, 320, "px", Live, Edges, All, "Distance from the left edge where boids start turning") \
  X(14, rightmargin, Real, 100, 0, 1e6, 0, 320, "px", Live, Edges, All, "Distance from the right edge where boids start turning") \
  X(15, topmargin, Real, 100, 0, 1e6, 0, 240, "px", Live, Edges, All, "Distance from the top edge where boids start turning") \
  X(16, bottommargin, Real, 100, 0, 1e6, 0, 240, "px", Live, Edges, All, "Distance from the bottom edge where boids start turning") \
  X(17, maxspeed, Real, 6, 0, 1000, 0, 20, "px/frame", Live, Cornell, Cornell | Blog, "Speed limit: faster boids are slowed to this")  \
  X(18, minspeed, Real, 3, 0, 1000, 0, 20, "px/frame", Live, Cornell, Cornell | Blog, "Speed floor: slower boids (and predators) are sped up to this (maxspeed wins if smaller)") \
  X(19, predatorRange, Real, 100, 0, 10000, 0, 200, "px", Live, Predators, Cornell, "Boids closer than this to a predator turn away from it") \
  X(20, predatorturnfactor, Real, 0.5, 0, 100, 0, 2, "px/frame^2", Live, Predators, Cornell, "Velocity change per frame away from a predator in range") \
  X(21, scouts1, Int, 0, 0, 10000000, 0, 1000, "boids", Reset, Scouts, Cornell, "Size of scout group 1 (biased to the right)") \
  X(22, scouts2, Int, 0, 0, 10000000, 0, 1000, "boids", Reset, Scouts, Cornell, "Size of scout group 2 (biased to the left)") \
  X(23, biasval, Real, 0.001, 0, 1, 0, 0.1, "", Live, Scouts, Cornell, "Bias weight of the scouts' preferred x-velocity (start value when dynamic)") \
  X(24, dynamicbias, Bool, 0, 0, 1, 0, 1, "", Live, Scouts, Cornell, "Scouts strengthen their bias while going their way and weaken it otherwise (ECE 5730)") \
  X(25, maxbias, Real, 0.01, 0, 1, 0, 0.1, "", Live, Scouts, Cornell, "Upper bound of a scout's dynamic bias")      \
  X(26, bias_increment, Real, 0.00004, 0, 1, 0, 0.001, "1/frame", Live, Scouts, Cornell, "Per-frame step of a scout's dynamic bias (also its lower bound)") \
  X(27, S_sep, Real, 4, 0, 1000, 0, 10, "", Live, Report, Report, "Report rules: separation strength")                  \
  X(28, S_align, Real, 0.04, 0, 100, 0, 1, "", Live, Report, Report, "Report rules: alignment strength (unit steering vector)") \
  X(29, S_coh, Real, 0.075, 0, 100, 0, 1, "", Live, Report, Report, "Report rules: cohesion strength (unit steering vector)") \
  X(30, D_sep, Real, 1, 0, 10000, 0, 20, "px", Live, Report, Report, "Report rules: separation distance")               \
  X(31, D_vis, Real, 0, 0, INFINITY, 0, 200, "px", Live, Report, Report, "Report rules: vision distance; 0 or inf means infinite (global averages)") \
  X(32, V_max, Real, 10, 0, 1000, 0, 50, "px/time", Live, Report, Report, "Report rules: maximum speed")                \
  X(33, dt, Real, 1, 1e-6, 100, 0.001, 1, "time/step", Live, Rules, All, "Time step: position += dt * velocity (Cornell rules use 1 frame)") \
  X(34, cohesion, Bool, 1, 0, 1, 0, 1, "", Live, Rules, All, "Apply the cohesion rule (off: see the other rules alone, as in seed 003)") \
  X(35, separation, Bool, 1, 0, 1, 0, 1, "", Live, Rules, All, "Apply the separation rule")                         \
  X(36, alignment, Bool, 1, 0, 1, 0, 1, "", Live, Rules, All, "Apply the alignment rule")                          \
  X(37, report_divisor, Choice, 0, 0, 1, 0, 1, "", Live, Report, Report, "Report rules: seen divides the neighbour sums by the boids seen; all by N-1, as seed 002's pseudocode prints them") \
  X(38, update, Choice, 0, 0, 1, 0, 1, "", Live, Rules, All, "synchronous: every boid reads the previous frame; in_place: boids move one by one in id order and see the ones moved before them (the seeds' loop)") \
  X(39, bias_target, Choice, 0, 0, 1, 0, 1, "", Live, Scouts, Cornell, "Scouts pull vx toward +-1 (unit, seed 000) or toward +-maxspeed")  \
  X(40, predator_mode, Choice, 0, 0, 2, 0, 2, "", Live, Predators, All, "How predators hunt: random (turn only at the margins, seed 001), centroid (steer toward the centre of the boids in predator_vision), chase (pick the nearest boid in predator_vision and follow it until it leaves that range)") \
  X(41, predator_vision, Real, 150, 0, 10000, 0, 400, "px", Live, Predators, All, "How far a centroid or chase predator sees boids") \
  X(42, predator_steer, Real, 0.02, 0, 10, 0, 0.2, "1/frame", Live, Predators, All, "Centroid or chase predator: share of the offset to its aim added to its velocity each frame") \
  X(43, perch_frames, Int, 0, 0, 100000, 0, 600, "frames", Live, Perching, Cornell, "Perching: frames a boid rests on the ledge, then as many frames before it may land again (0 = no perching)") \
  X(44, perch_y, Real, 420, -1e6, 1e6, 0, 480, "px", Live, Perching, Cornell, "Perching: height of the ledge (+y is down: near the bottom of the screen by default)") \
  X(45, perch_x0, Real, 170, -1e6, 1e6, 0, 640, "px", Live, Perching, Cornell, "Perching: left end of the ledge")      \
  X(46, perch_x1, Real, 470, -1e6, 1e6, 0, 640, "px", Live, Perching, Cornell, "Perching: right end of the ledge")     \
  X(47, perch_range, Real, 10, 0, 10000, 0, 50, "px", Live, Perching, Cornell, "Perching: a boid flying down lands when it comes this close above the ledge (or crosses it)") \
  X(48, food, Int, 0, 0, 16, 0, 16, "sources", Reset, Food, Cornell, "Number of moving food sources (0 = none); they wander and bounce off the walls") \
  X(49, food_range, Real, 150, 0, 10000, 0, 400, "px", Live, Food, Cornell, "Boids closer than this to a food source steer toward the nearest one") \
  X(50, food_factor, Real, 0.002, 0, 10, 0, 0.05, "1/frame", Live, Food, Cornell, "Share of the offset to the nearest food source in range added to velocity each frame") \
  X(51, food_speed, Real, 1, 0, 1000, 0, 6, "px/frame", Live, Food, Cornell, "Speed of the food sources") \
  X(52, gravity, Real, 0, -100, 100, -0.5, 0.5, "px/frame^2", Live, Rules, All, "Gravity: added to every boid's vy each frame before the speed limit (+y is down), so boids dive faster than they climb; 0 = off")
