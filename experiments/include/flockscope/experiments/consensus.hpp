// The consensus study of seed 000 (after Couzin et al. 2005) as a sweep: scout groups biased
// right and left, swept over group size, informed share, the scouts' split and static versus
// dynamic bias, many seeded trials per point. Each trial's decision and the naive boids'
// heading are measured by summarise_run (SweepKind::Consensus); this file builds the study's
// grid.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "flockscope/experiments/sweep.hpp"

namespace flockscope::experiments {

// The study's swept values as `flockscope consensus` takes them: each a list "v1,v2,..." or
// a range "first:last:step"; empty when not swept.
struct ConsensusGrid {
  std::string boids;
  std::string informed, right_share;  // shares (the informed/right_share grid keys)
  std::string scouts1, scouts2;       // or the groups' sizes
  std::string bias;                   // "static", "dynamic" or "static,dynamic"
  std::vector<std::string> other;     // any other key=values, as `flockscope sweep --grid`
};

// The study's axes: the scout keys first, the first that takes more than one value leading
// (the plots' x axis), then boids, bias and the others. Throws InputError (shares and sizes
// given together, a bias other than static/dynamic, a bad axis).
std::vector<GridAxis> consensus_axes(const ConsensusGrid& g);

// "FROM:TO" in steps: the window of runs.csv's naive_heading. Throws InputError.
void parse_heading_window(std::string_view text, SummaryOptions& o);

}  // namespace flockscope::experiments
