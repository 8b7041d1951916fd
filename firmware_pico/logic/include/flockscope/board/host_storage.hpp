// Host-side memory for a BoardFlock (the virtual board and the tests); the RP2040 uses
// static arrays instead (firmware_pico/main.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "flockscope/board/board_flock.hpp"

namespace flockscope::board {

struct HostFlockStorage {
  explicit HostFlockStorage(std::uint32_t capacity, std::uint32_t max_cells = 4096)
      : x(capacity), y(capacity), vx(capacity), vy(capacity), near(capacity), id(capacity),
        cell_start(max_cells + 1), bias(kMaxScouts),
        cell_sum(std::max<std::size_t>(max_cells + 1, (4 * std::size_t(capacity) + 15) / sizeof(CellSum))) {
    // The sort's scratch (sid, cell) inside cell_sum, as in the firmware (main.cpp).
    auto* scratch = reinterpret_cast<std::uint16_t*>(cell_sum.data());
    buffers = {x.data(),          y.data(),        vx.data(),      vy.data(),        near.data(),
               id.data(),         scratch,         scratch + capacity, cell_start.data(), bias.data(),
               capacity,          max_cells,       kMaxScouts,     cell_sum.data()};
  }
  std::vector<fix> x, y, vx, vy;
  std::vector<NearBoid> near;
  std::vector<std::uint16_t> id, cell_start;
  std::vector<fix> bias;
  std::vector<CellSum> cell_sum;
  FlockBuffers buffers{};
};

}  // namespace flockscope::board
