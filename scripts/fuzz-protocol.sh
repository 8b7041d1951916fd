#!/usr/bin/env bash
# Fuzzes the protocol decoder with libFuzzer for a bounded time.
#
#   scripts/fuzz-protocol.sh [SECONDS]     # default 60
#
# Builds tests/protocol/fuzz_decoder.cpp with clang -fsanitize=fuzzer,address,undefined
# into build-fuzz/ (override with FLOCKSCOPE_FUZZ_BUILD=dir; never inside the sources),
# then runs it over the committed seed corpus tests/protocol/fuzz_corpus/ (read only:
# new inputs go to build-fuzz/corpus/). Exits non-zero if the fuzzer finds a crash, a
# sanitizer report, a leak, a timeout or a broken decoder invariant; the input that
# did it is left in build-fuzz/artifacts/. To keep it as a regression test, copy it
# into tests/protocol/fuzz_corpus/ (the ProtocolFuzzCorpus gtest replays that folder).
# Needs clang and libclang-rt-dev (scripts/install-deps.sh fuzz).
set -euo pipefail

seconds="${1:-60}"
case "$seconds" in
  ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLOCKSCOPE_FUZZ_BUILD:-$root/build-fuzz}"
cxx="${FLOCKSCOPE_FUZZ_CXX:-}"
if [ -z "$cxx" ]; then
  for c in clang++ clang++-14 clang++-15 clang++-16; do
    if command -v "$c" >/dev/null 2>&1; then cxx="$c"; break; fi
  done
fi
if [ -z "$cxx" ]; then
  echo "fuzz-protocol: clang++ not found (scripts/install-deps.sh fuzz)" >&2
  exit 2
fi

sources=("$root"/protocol/src/*.cpp "$root/tests/protocol/fuzz_check.cpp" "$root/tests/protocol/fuzz_decoder.cpp")
binary="$build/fuzz_protocol_decoder"
mkdir -p "$build/corpus" "$build/artifacts"

# Rebuild when any source or header is newer than the binary.
stale=1
if [ -x "$binary" ]; then
  stale=0
  while IFS= read -r -d '' f; do
    if [ "$f" -nt "$binary" ]; then stale=1; break; fi
  done < <(find "$root/protocol/src" "$root/protocol/include" "$root/tests/protocol" -maxdepth 4 \
             \( -name '*.cpp' -o -name '*.hpp' \) -print0)
fi
if [ "$stale" -eq 1 ]; then
  echo "fuzz-protocol: building $binary with $cxx"
  "$cxx" -std=c++20 -O1 -g -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$root/protocol/include" "${sources[@]}" -o "$binary"
fi

echo "fuzz-protocol: running for ${seconds}s over tests/protocol/fuzz_corpus"
status=0
ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}" \
UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
  "$binary" "$build/corpus" "$root/tests/protocol/fuzz_corpus" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -artifact_prefix="$build/artifacts/" -print_final_stats=1 || status=$?

if [ "$status" -ne 0 ]; then
  echo "fuzz-protocol: FAILED (exit $status); reproducer(s) in $build/artifacts/:" >&2
  ls -1 "$build/artifacts/" >&2 || true
  exit "$status"
fi
echo "fuzz-protocol: no crash in ${seconds}s"
