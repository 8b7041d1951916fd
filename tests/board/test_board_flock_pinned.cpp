// The board flock's exact results, pinned: a hash of the full state (every slot's id,
// Q16.16 position and velocity, the scouts' biases, the predators) after the steps of each
// of the pinned runs (firmware_pico/qemu_m33/flock_runs.hpp: 2,000 boids, parameter sets
// that cover the update's paths).
//
// The hashes were recorded from the code before the update phase was optimised (32-bit
// paths for products by weights, squares, quotients and the square root's low bits in
// fixed.hpp; the hardware divider inline; the cell walk and one job per cell in
// BoardFlock::update): that work promised bit-identical results, and any change to a
// result bit fails here. A deliberate change of the board's arithmetic (or of core's
// rules.hpp, whose templates the board runs) must re-record them and say why.
// Re-recorded once since, for the hash's form only: state_hash() became independent of the
// slots' order (so the sort may order a cell's boids as it likes); recorded on unchanged
// arithmetic, before the sort changed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string_view>

#include "flock_runs.hpp"
#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/host_storage.hpp"

namespace fb = flockscope::board;
namespace pinned = flockscope::board::pinned;

namespace {

// The run's final state's hash.
std::uint64_t run_hash(const pinned::Run& r) {
  fb::HostFlockStorage storage(pinned::kCapacity);
  fb::BoardFlock flock(storage.buffers);
  pinned::start(flock, r);
  for (int i = 0; i < r.steps; ++i) flock.step();
  const std::uint64_t h = flock.state_hash();
  std::printf("hash %016llx\n", static_cast<unsigned long long>(h));
  return h;
}

const pinned::Run& run_named(const char* name) {
  for (const pinned::Run& r : pinned::kRuns) {
    if (std::string_view(r.name) == name) return r;
  }
  ADD_FAILURE() << "no pinned run " << name;
  return pinned::kRuns[0];
}

}  // namespace

TEST(BoardFlockPinned, CornellPicoPredator) {
  EXPECT_EQ(run_hash(run_named("CornellPicoPredator")), 0x580b0b227d28d9ddull);
}

TEST(BoardFlockPinned, ScoutsWithDynamicBias) {
  EXPECT_EQ(run_hash(run_named("ScoutsWithDynamicBias")), 0xc86a9c986d1b462bull);
}

TEST(BoardFlockPinned, OtherRangesHalfStepNoPredators) {
  EXPECT_EQ(run_hash(run_named("OtherRangesHalfStepNoPredators")), 0x14ec48507c58babfull);
}

TEST(BoardFlockPinned, DriftingIntoTheEdgeCells) {
  EXPECT_EQ(run_hash(run_named("DriftingIntoTheEdgeCells")), 0x5a650b9c9ff6fd5dull);
}

TEST(BoardFlockPinned, GeneralScanRanges) {
  EXPECT_EQ(run_hash(run_named("GeneralScanRanges")), 0x4281324a883e50b1ull);
}

TEST(BoardFlockPinned, ReachThreeNoAlignment) {
  EXPECT_EQ(run_hash(run_named("ReachThreeNoAlignment")), 0xcc9f13c4a476462cull);
}

// The lab's extensions (recorded when the board took them): two chase predators, perching,
// gravity and food on the general rules; centroid predators and food.
TEST(BoardFlockPinned, LabExtensionsChase) {
  EXPECT_EQ(run_hash(run_named("LabExtensionsChase")), 0x462764794521a0ceull);
}

TEST(BoardFlockPinned, CentroidPredatorsAndFood) {
  EXPECT_EQ(run_hash(run_named("CentroidPredatorsAndFood")), 0xe36d9fc37e3e75a5ull);
}
