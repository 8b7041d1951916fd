#!/usr/bin/env bash
# Every test in one command: installs the dependencies (Debian packages), then builds and
# runs the whole ctest suite twice (optimised, and with AddressSanitizer + UBSan), the link
# and window tests a third time with ThreadSanitizer, then fuzzes the protocol decoder for
# a bounded time. FUZZ_SECONDS (default 60) bounds the fuzzer.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh firmware fuzz mpi
jobs=$(nproc)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "== firmware (RP2040: the board's image, the one- and two-core emulator images and the board's image for the emulator (VGA), the emulator's boot ROM stand-in)"
firmware_pico/build.sh -j "$jobs"

echo "== release build and tests"
# Every option spelled out: ./run.sh configures the same build/ with tests off, and the
# cache would otherwise keep them off.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLOCKSCOPE_TESTS=ON -DFLOCKSCOPE_BENCH=ON -DFLOCKSCOPE_SANITIZE=OFF > /dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --no-tests=error --output-on-failure -j"$jobs" | tee -a "$log"

echo "== sanitizer build (ASan + UBSan) and tests"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOCKSCOPE_SANITIZE=ON -DFLOCKSCOPE_TESTS=ON -DFLOCKSCOPE_BENCH=OFF > /dev/null
cmake --build build-asan -j"$jobs"
# The 60 s mirror at 2,000 boids is the release pass's; here the same
# path runs 20 s, for memory errors rather than throughput.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 FLOCKSCOPE_MIRROR_SECONDS=20 \
  ctest --test-dir build-asan --no-tests=error --output-on-failure -j"$jobs" | tee -a "$log"

echo "== ThreadSanitizer build of the link and window tests"
# The link's worker thread and the window that takes its queue; the virtual board
# (flockscope) is built too, as those tests start it.
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOCKSCOPE_TSAN=ON -DFLOCKSCOPE_SANITIZE=OFF -DFLOCKSCOPE_TESTS=ON -DFLOCKSCOPE_BENCH=OFF > /dev/null
cmake --build build-tsan -j"$jobs" --target flockscope test_link test_link_board test_link_mirror test_gui
# Not here: the firmware in the emulator (link.emulator: no host threads of ours) and the
# 2,000-boid 30 fps throughput run, which measures speed that TSan's instrumentation takes
# away; both run in the release and ASan passes.
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 FLOCKSCOPE_MIRROR_SECONDS=10 \
  ctest --test-dir build-tsan --no-tests=error --output-on-failure -R '^(link|gui)[.]' \
    -E '^link[.]emulator$|TwoThousandBoidsAt30Fps' -j"$jobs" | tee -a "$log"

echo "== protocol decoder fuzzing (${FUZZ_SECONDS:-60} s)"
scripts/fuzz-protocol.sh "${FUZZ_SECONDS:-60}"

# One closing line over the three ctest runs (set -e stops at the first failure, so none failed).
total=$(grep -oE 'tests passed, 0 tests failed out of [0-9]+' "$log" | awk '{s += $NF} END {print s + 0}')
echo "all test stages passed"
echo "$total passed, 0 failed"
