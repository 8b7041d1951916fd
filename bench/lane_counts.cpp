// How much work the grid step's kernels do on a real flock: `lane_counts BOIDS WARMUP
// [COLUMNS]` spawns BOIDS boids (cornell-pico-predator, 1 boid per 400 px^2, as `flockscope
// bench`), runs WARMUP steps on 2 threads, sorts the result into cells as tall as the visual
// range (40 px) and COLUMNS to that height (2, the default, as the engine's; 1 for square
// cells) and prints, per boid: the candidates in its block (3x3 cells when square), the
// neighbours within the visual range, the lanes a loop over its block in 16-candidate
// chunks would run (one boid at a time, its candidates in the lanes), and the lanes the
// one-boid-a-lane kernels run (every lane of a group sees every candidate of the group's
// block: RowGroups, as the engine groups them, with 16 and with 8 lanes; with 24 and 32 in
// the last two columns). Two more counts
// bound what other orders and groupings could give the 16-lane kernel (docs/performance.md):
// the lanes if each cell's boids were in x order and each of a group's runs were cut, from
// both ends, to the candidates within the range of the group's own x span; and the fewest
// lanes any grouping of each row into groups of 1-16 consecutive boids can run (a dynamic
// program over the row's slots).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cornell_pass.hpp"
#include "flockscope/core/io.hpp"

using namespace flockscope;

namespace {

// Calls f(b, e, block) for every group of `lanes` boids, row by row, as the engine forms them.
template <class F>
void for_each_group(const UniformGrid& g, std::uint32_t lanes, F&& f) {
  for (int cy = 0; cy < g.ny(); ++cy) {
    grid_step::RowGroups groups(g, cy, lanes);
    std::uint32_t b, e;
    grid_step::BlockRuns block;
    while (groups.next(b, e, block)) f(b, e, block);
  }
}

// The lanes of the 16-lane groups if each cell's boids were sorted by x (a copy of sx is) and
// each run cut to [min x - range, max x + range] of the group's boids from both ends.
double x_sorted_cut_lanes(const UniformGrid& g, std::vector<float> sx, float range) {
  const std::size_t cells = std::size_t(g.nx()) * std::size_t(g.ny());
  for (std::size_t c = 0; c < cells; ++c) std::sort(sx.begin() + g.cell_start(c), sx.begin() + g.cell_start(c + 1));
  double lanes = 0;
  for_each_group(g, 16, [&](std::uint32_t b, std::uint32_t e, const grid_step::BlockRuns& block) {
    const auto [lo_it, hi_it] = std::minmax_element(sx.begin() + b, sx.begin() + e);
    const float lo = *lo_it - range, hi = *hi_it + range;
    for (int r = 0; r < 3; ++r) {
      std::uint32_t rb = block.run[2 * r], re = block.run[2 * r + 1];
      while (rb < re && sx[rb] < lo) ++rb;
      while (re > rb && sx[re - 1] > hi) --re;
      lanes += 16.0 * (re - rb);
    }
  });
  return lanes;
}

// The fewest lanes of 16-lane groups over each row: groups of 1-16 consecutive boids of the
// row, each running every candidate of the block of the cells it spans.
double best_grouping_lanes(const UniformGrid& g) {
  const std::size_t nx = std::size_t(g.nx());
  double lanes = 0;
  for (int cy = 0; cy < g.ny(); ++cy) {
    const std::size_t row = std::size_t(cy) * nx;
    const std::uint32_t first = g.cell_start(row), count = g.cell_start(row + nx) - first;
    std::vector<int> cell(count);
    for (std::size_t cx = 0; cx < nx; ++cx)
      for (std::uint32_t i = g.cell_start(row + cx); i < g.cell_start(row + cx + 1); ++i) cell[i - first] = int(cx);
    auto block = [&](int c0, int c1) {
      double candidates = 0;
      g.for_each_block_range(c0, c1 + 1, cy, [&](std::uint32_t rb, std::uint32_t re) { candidates += re - rb; });
      return candidates;
    };
    std::vector<double> best(count + 1, 0);  // best[p]: the fewest candidates for the row's first p boids
    for (std::uint32_t p = 1; p <= count; ++p) {
      best[p] = best[p - 1] + block(cell[p - 1], cell[p - 1]);
      for (std::uint32_t k = 2; k <= 16 && k <= p; ++k)
        best[p] = std::min(best[p], best[p - k] + block(cell[p - k], cell[p - 1]));
    }
    lanes += 16.0 * best[count];
  }
  return lanes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: lane_counts BOIDS WARMUP [COLUMNS]\n");
    return 2;
  }
  const long n = std::atol(argv[1]);
  const int warmup = std::atoi(argv[2]);
  const int columns = argc == 4 ? std::atoi(argv[3]) : 2;
  if (n < 1 || warmup < 0 || columns < 1 || columns > 4) {
    std::fprintf(stderr, "lane_counts: BOIDS must be >= 1, WARMUP >= 0 and COLUMNS 1-4\n");
    return 2;
  }
  Params p = load_preset(resolve_preset("cornell-pico-predator"));
  p.boids = n;
  p.width = p.height = std::sqrt(400.0 * double(n));
  Flock f(p);
  f.set_threads(2);
  for (int s = 0; s < warmup; ++s) f.step();
  const FlockSnapshot s = f.snapshot();
  const float range = float(p.visualRange), range2 = range * range;
  UniformGrid g;
  g.build(s.x.data(), s.y.data(), s.size(), range, columns);
  std::vector<float> sx(s.size()), sy(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) sx[i] = s.x[g.order()[i]], sy[i] = s.y[g.order()[i]];
  double candidates = 0, visible = 0, chunk_lanes = 0;
  for (int cy = 0; cy < g.ny(); ++cy)
    for (int cx = 0; cx < g.nx(); ++cx) {
      const std::size_t cell = std::size_t(cy) * std::size_t(g.nx()) + std::size_t(cx);
      for (std::uint32_t i = g.cell_start(cell); i < g.cell_start(cell + 1); ++i)
        g.for_each_neighbour_range(cx, cy, [&](std::uint32_t b, std::uint32_t e) {
          candidates += e - b;
          chunk_lanes += 16.0 * ((e - b + 15) / 16);
          for (std::uint32_t j = b; j < e; ++j) {
            const float dx = sx[i] - sx[j], dy = sy[i] - sy[j];
            visible += j != i && dx * dx + dy * dy < range2;
          }
        });
    }
  double group_lanes[4] = {0, 0, 0, 0};
  const std::uint32_t widths[4] = {16, 8, 24, 32};
  for (int w = 0; w < 4; ++w)
    for_each_group(g, widths[w], [&](std::uint32_t, std::uint32_t, const grid_step::BlockRuns& block) {
      for (int r = 0; r < 3; ++r) group_lanes[w] += double(widths[w]) * (block.run[2 * r + 1] - block.run[2 * r]);
    });
  const double m = double(s.size());
  std::printf("boids,warmup,candidates,visible,chunk_lanes_16,group_lanes_16,group_lanes_8,x_sorted_cut_lanes_16,"
              "best_grouping_lanes_16,columns,group_lanes_24,group_lanes_32\n");
  std::printf("%ld,%d,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%d,%.1f,%.1f\n", n, warmup, candidates / m, visible / m,
              chunk_lanes / m, group_lanes[0] / m, group_lanes[1] / m, x_sorted_cut_lanes(g, sx, range) / m,
              best_grouping_lanes(g) / m, g.columns(), group_lanes[2] / m, group_lanes[3] / m);
}
