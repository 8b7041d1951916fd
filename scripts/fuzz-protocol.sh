#!/usr/bin/env bash
# Fuzzes the protocol decoder with libFuzzer for a bounded time: scripts/fuzz.sh's decoder
# target alone (the other readers: scripts/fuzz.sh).
#
#   scripts/fuzz-protocol.sh [SECONDS]     # default 60
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/fuzz.sh" "${1:-60}" decoder
