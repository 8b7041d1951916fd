// Host-side memory for a BoardFlock (the virtual board and the tests); the RP2040 uses
// static arrays instead (firmware_pico/main.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "flockscope/board/board_flock.hpp"

namespace flockscope::board {

struct HostFlockStorage {
  explicit HostFlockStorage(std::uint32_t capacity, std::uint32_t max_cells = 4096)
      : x(capacity), y(capacity), vx(capacity), vy(capacity), near(capacity), id(capacity),
        cell_start(max_cells + 1), bias(kMaxScouts), sid(capacity), cell(capacity), perch(capacity) {
    buffers = {x.data(),  y.data(),    vx.data(),         vy.data(),   near.data(), id.data(),
               sid.data(), cell.data(), cell_start.data(), bias.data(), capacity,    max_cells,
               kMaxScouts, perch.data()};
  }
  std::vector<fix> x, y, vx, vy;
  std::vector<NearBoid> near;
  std::vector<std::uint16_t> id, cell_start;
  std::vector<fix> bias;
  std::vector<std::uint16_t> sid, cell;  // the sort's scratch
  std::vector<std::int16_t> perch;
  FlockBuffers buffers{};
};

}  // namespace flockscope::board
