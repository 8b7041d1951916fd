#!/usr/bin/env bash
# Every test in one command (what CI runs), or one tier or stage of it. Installs the
# dependencies (Debian packages) first.
#
#   ./test.sh              every stage below, in this order
#   ./test.sh quick        the quick tier in the release build (run before each commit)
#   ./test.sh STAGE ...    some stages: firmware release asan tsan fuzz
#
# The stages (CONTRIBUTING.md says what each covers):
#   firmware  the RP2040 images and the emulator's boot ROM (firmware_pico/build.sh), the
#             Pico 2's (RP2350) images and the Cortex-M33 flock program (build.sh --pico2)
#   release   optimised build; every tier: quick, slow, emulator (the firmware in rp2040js,
#             the Pico 2's UF2s and its flock step in QEMU), mpi
#   asan      AddressSanitizer + UBSan build; every tier but the emulator's (it runs our
#             firmware in node, no host memory of ours) and two determinism soaks (the
#             same arithmetic on more threads and kernels: the release stage runs them)
#   tsan      ThreadSanitizer build of the threaded parts (the link's worker, the window's
#             Explore workers, the sweeps' threads); their quick tier
#   fuzz      the protocol decoder, the board sides' receive paths and the readers of the
#             user's files (presets, state files, recordings, a resumed sweep's runs,
#             Explore setups) under libFuzzer, for FUZZ_SECONDS in all (default 60;
#             scripts/fuzz.sh)
# Each stage's time is printed at the end, with one "N passed, 0 failed" line over the
# ctest runs.
set -euo pipefail
cd "$(dirname "$0")"

all_stages=(firmware release asan tsan fuzz)
quick=0
stages=()
for arg in "$@"; do
  case "$arg" in
    quick) quick=1 ;;
    firmware|release|asan|tsan|fuzz) stages+=("$arg") ;;
    -h|--help) sed -n '2,/^# ctest runs/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test.sh: unknown stage '$arg' (quick, ${all_stages[*]})" >&2; exit 2 ;;
  esac
done
if [ "$quick" -eq 1 ] && [ ${#stages[@]} -gt 0 ]; then
  echo "test.sh: 'quick' runs alone (it is the release build's quick tier)" >&2; exit 2
fi
[ "$quick" -eq 1 ] || [ ${#stages[@]} -gt 0 ] || stages=("${all_stages[@]}")

has_stage() { local s; for s in "${stages[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }

jobs=$(nproc)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
times=()
stage_start=0
begin() { echo; echo "== $*"; stage_start=$SECONDS; }
end() { times+=("$(printf '%-9s %5d s' "$1" $((SECONDS - stage_start)))"); }

# Every test carries one tier label (tests/tiers.cmake); a test without one would run in
# no tier that a developer runs before a commit.
check_labels() {
  local unlabelled
  unlabelled=$(ctest --test-dir "$1" -N -LE '.+' | grep -cE '^ +Test +#' || true)
  if [ "$unlabelled" -ne 0 ]; then
    ctest --test-dir "$1" -N -LE '.+' >&2
    echo "test.sh: $unlabelled test(s) in $1 without a tier label (tests/tiers.cmake)" >&2
    exit 1
  fi
}

# build_and_test PRESET BUILD_DIR TEST_PRESET: configure and build the CMake preset, then run
# the test preset. The presets (CMakePresets.json) spell every option out: ./run.sh
# configures the same build/ with tests off, and the cache would otherwise keep them off.
build_and_test() {
  cmake --preset "$1" > /dev/null
  cmake --build --preset "$1" -j"$jobs"
  # The tsan preset builds only the threaded parts: the others' tests are not there to label.
  [ "$1" = tsan ] || check_labels "$2"
  ctest --preset "$3" -j"$jobs" | tee -a "$log"
}

begin "dependencies"
groups=()
has_stage firmware && groups+=(firmware)
has_stage fuzz && groups+=(fuzz)
if has_stage release || has_stage asan; then groups+=(mpi firmware python); fi
# The protocol's RP2040 cross-compile check and the Python module's tests are quick.
[ "$quick" -eq 1 ] && groups+=(firmware python)
scripts/install-deps.sh "${groups[@]}"
end deps

if [ "$quick" -eq 1 ]; then
  begin "release build, quick tier"
  build_and_test release build quick
  end quick
fi

if has_stage firmware; then
  begin "firmware (RP2040: the board's images, the emulator's images, the lab example, the emulator's boot ROM stand-in; RP2350: the board, the lab example, the flock step for QEMU's Cortex-M33)"
  firmware_pico/build.sh -j "$jobs"
  firmware_pico/build.sh --pico2 -j "$jobs"
  end firmware
fi

if has_stage release; then
  begin "release build, every tier (quick, slow, emulator, mpi)"
  build_and_test release build release
  end release
fi

if has_stage asan; then
  begin "sanitizer build (ASan + UBSan), every tier but the emulator's"
  # The 60 s mirror at 2,000 boids runs 20 s here (the preset sets FLOCKSCOPE_MIRROR_SECONDS),
  # for memory errors rather than throughput.
  build_and_test asan build-asan asan
  end asan
fi

if has_stage tsan; then
  begin "ThreadSanitizer build of the threaded parts, their quick tier"
  # The engine's OpenMP loops run on one thread here (libgomp's synchronisation is invisible
  # to TSan); the sweeps' threads, the link's worker and the window's Explore workers are ours.
  build_and_test tsan build-tsan tsan
  end tsan
fi

if has_stage fuzz; then
  begin "fuzzing the protocol decoder, the board sides and the file readers (${FUZZ_SECONDS:-60} s)"
  scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
  end fuzz
fi

echo
echo "== stage times"
printf '  %s\n' "${times[@]}"
# One closing line over the ctest runs (set -e stops at the first failure, so none failed).
total=$(grep -oE 'tests passed, 0 tests failed out of [0-9]+' "$log" | awk '{s += $NF} END {print s + 0}')
echo "all test stages passed"
echo "$total passed, 0 failed"
