#!/usr/bin/env bash
# Fuzzes flockscope's readers of untrusted bytes with libFuzzer for a bounded time:
#   decoder        the protocol decoder (tests/fuzz/fuzz_checks.hpp, as the others)
#   board_receive  our firmware's board reading what an app sends (tests/fuzz/fuzz_checks.hpp)
#   link_receive   the drop-in link (protocol/pico) reading what an app sends
#   preset         a preset file (--preset FILE, the window's Load)
#   state_csv      a state file (--init)
#   recording      a recording (--replay, replay)
#   sweep_rows     a sweep's runs file being resumed
#   explore_setup  an Explore setup (the window's Load setup, sweep --setup)
#
#   scripts/fuzz.sh [SECONDS] [TARGET ...]   # default 60 s, shared by every target
#
# Configures build-fuzz/ (override with FLOCKSCOPE_FUZZ_BUILD=dir; never inside the
# sources) with clang and FLOCKSCOPE_FUZZ=ON (-fsanitize=fuzzer,address,undefined), then runs
# each target over its committed corpus (read only: tests/fuzz/corpus/TARGET/; new inputs go
# to build-fuzz/corpus/TARGET/). Exits non-zero if a
# fuzzer finds a crash, a sanitizer report, a leak, a timeout or a broken invariant; the input
# that did it is left in build-fuzz/artifacts/TARGET/. To keep it as a regression test, copy it
# into the target's committed corpus as regress_NAME (the corpus tests replay those folders).
# Needs clang and libclang-rt-dev (scripts/install-deps.sh fuzz).
set -euo pipefail

seconds="${1:-60}"
case "$seconds" in
  ''|*[!0-9]*) echo "usage: $0 [SECONDS] [TARGET ...]" >&2; exit 2 ;;
esac
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(decoder board_receive link_receive preset state_csv recording sweep_rows explore_setup)

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLOCKSCOPE_FUZZ_BUILD:-$root/build-fuzz}"
corpus_of() {
  case "$1" in
    decoder|board_receive|link_receive|preset|state_csv|recording|sweep_rows|explore_setup) echo "$root/tests/fuzz/corpus/$1" ;;
    *) echo "fuzz: unknown target '$1' (decoder, board_receive, link_receive, preset, state_csv, recording, sweep_rows, explore_setup)" >&2; exit 2 ;;
  esac
}
for t in "${targets[@]}"; do corpus_of "$t" > /dev/null; done

cc="" cxx=""
for v in "" -14 -15 -16; do
  if command -v "clang++$v" > /dev/null 2>&1 && command -v "clang$v" > /dev/null 2>&1; then cc="clang$v" cxx="clang++$v"; break; fi
done
[ -n "$cxx" ] || { echo "fuzz: clang++ not found (scripts/install-deps.sh fuzz)" >&2; exit 2; }

generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ] || ! grep -q '^FLOCKSCOPE_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
  rm -rf "$build"
  CC="$cc" CXX="$cxx" cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DFLOCKSCOPE_FUZZ=ON > "$build.configure.log" 2>&1 || { cat "$build.configure.log" >&2; exit 2; }
fi
cmake --build "$build" --target $(printf 'fuzz_%s ' "${targets[@]}") > "$build/build.log" 2>&1 \
  || { tail -40 "$build/build.log" >&2; exit 2; }

share=$(( seconds / ${#targets[@]} ))
[ "$share" -ge 1 ] || share=1
status=0
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t" "$build/artifacts/$t"
  echo "fuzz: $t for ${share}s over $(corpus_of "$t")"
  ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}" \
  UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
    "$build/tests/fuzz/fuzz_$t" "$build/corpus/$t" "$(corpus_of "$t")" \
      -max_total_time="$share" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
      -artifact_prefix="$build/artifacts/$t/" -print_final_stats=1 2> "$build/$t.log" || status=$?
  grep -E "^stat::number_of_executed_units|^stat::average_exec_per_sec|^stat::peak_rss_mb|cov: " "$build/$t.log" | tail -4
  if [ "$status" -ne 0 ]; then
    tail -40 "$build/$t.log" >&2
    echo "fuzz: $t FAILED (exit $status); reproducer(s) in $build/artifacts/$t/:" >&2
    ls -1 "$build/artifacts/$t/" >&2 || true
    exit "$status"
  fi
done
echo "fuzz: no finding in ${seconds}s (${targets[*]})"
