#!/usr/bin/env bash
# Mutation-fuzz the whole tool (tests/fuzz/mutate.py) with the sanitized build:
#   tests/fuzz/mutate.sh COUNT      that many mutants (e.g. 500)
#   tests/fuzz/mutate.sh DURATION   for that long: 90s, 30m, 2h
# Builds build/asan/gpuinterp, copies it to build/fuzz/gpuinterp-asan (so that rebuilding during a
# long run does not disturb it), and keeps what it finds under build/fuzz/mutants/. Environment:
# SEED (default 1), TIMEOUT (seconds per run, default 10), SCHEDS (default serial,threads,random:SEED).
# Exit status 1 when something was kept (see build/fuzz/mutants/*/repro.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
arg=${1:-100}
case $arg in
  *s) limit=(--duration "${arg%s}") ;;
  *m) limit=(--duration "$(( ${arg%m} * 60 ))") ;;
  *h) limit=(--duration "$(( ${arg%h} * 3600 ))") ;;
  *[!0-9]*|'') echo "usage: tests/fuzz/mutate.sh COUNT|DURATION (90s, 30m, 2h)" >&2; exit 2 ;;
  *) limit=(--count "$arg") ;;
esac
ninja -C . build/asan/gpuinterp >/dev/null
mkdir -p build/fuzz
cp build/asan/gpuinterp build/fuzz/gpuinterp-asan
args=(--bin build/fuzz/gpuinterp-asan --seed "${SEED:-1}" --timeout "${TIMEOUT:-10}" --out build/fuzz/mutants)
[ -n "${SCHEDS:-}" ] && args+=(--scheds "$SCHEDS")
exec python3 tests/fuzz/mutate.py "${args[@]}" "${limit[@]}"
