// How much work the grid step's kernels do on a real flock: `lane_counts BOIDS WARMUP`
// spawns BOIDS boids (cornell-pico-predator, 1 boid per 400 px^2, as `flockscope bench`),
// runs WARMUP steps on 2 threads, sorts the result into cells of the visual range (40 px, as
// the engine's) and prints, per boid: the candidates in its 3x3 block, the neighbours within
// the visual range, the lanes a 16-candidate chunk loop over its block would run (the engine
// before 67f548c), and the lanes the one-boid-a-lane kernels run (every lane of a group sees
// every candidate of the group's block: RowGroups, as the engine groups them, with 16 and with
// 8 lanes).
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cornell_pass.hpp"
#include "flockscope/core/io.hpp"

using namespace flockscope;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: lane_counts BOIDS WARMUP\n");
    return 2;
  }
  const long n = std::atol(argv[1]);
  const int warmup = std::atoi(argv[2]);
  if (n < 1 || warmup < 0) {
    std::fprintf(stderr, "lane_counts: BOIDS must be >= 1 and WARMUP >= 0\n");
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
  g.build(s.x.data(), s.y.data(), s.size(), range);
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
  double group_lanes[2] = {0, 0};
  const std::uint32_t widths[2] = {16, 8};
  for (int w = 0; w < 2; ++w)
    for (int cy = 0; cy < g.ny(); ++cy) {
      grid_step::RowGroups groups(g, cy, widths[w]);
      std::uint32_t b, e;
      grid_step::BlockRuns block;
      while (groups.next(b, e, block))
        for (int r = 0; r < 3; ++r) group_lanes[w] += double(widths[w]) * (block.run[2 * r + 1] - block.run[2 * r]);
    }
  const double m = double(s.size());
  std::printf("boids,warmup,candidates,visible,chunk_lanes_16,group_lanes_16,group_lanes_8\n");
  std::printf("%ld,%d,%.1f,%.1f,%.1f,%.1f,%.1f\n", n, warmup, candidates / m, visible / m, chunk_lanes / m,
              group_lanes[0] / m, group_lanes[1] / m);
}
