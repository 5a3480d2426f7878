#!/usr/bin/env bash
# Fuzz the MLIR front end (ir/) and the lowering (lower/) with libFuzzer for SECONDS (default 60):
#   tests/fuzz/run.sh [SECONDS]
# Builds tests/fuzz/parse_fuzz.c, ir/*.c and lower/*.c with clang -fsanitize=fuzzer,address,undefined into
# build/fuzz/, seeds build/fuzz/corpus from tests/lit/**/*.mlir and examples/*.mlir, and runs.
# A crash leaves build/fuzz/crash-<sha1> (reproduce: build/fuzz/parse_fuzz build/fuzz/crash-...)
# and makes the script exit non-zero. The corpus grows across runs; delete it to start afresh.
# Environment: JOBS (parallel fuzzing processes, default 1), MAX_LEN (default 16384).
set -euo pipefail
cd "$(dirname "$0")/../.."

secs=${1:-60}
out=build/fuzz
jobs=${JOBS:-1}
mkdir -p "$out/corpus" "$out/seeds"
command -v clang >/dev/null || { echo "run.sh: needs clang (Debian: clang, libclang-rt-14-dev)" >&2; exit 2; }

flags="-std=c11 -D_GNU_SOURCE -I. -O1 -g -fno-omit-frame-pointer
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
# shellcheck disable=SC2086
clang $flags ir/*.c lower/*.c tests/fuzz/parse_fuzz.c -lm -o "$out/parse_fuzz"

shopt -s globstar nullglob
for f in tests/lit/**/*.mlir examples/*.mlir; do
  cp "$f" "$out/seeds/$(echo "$f" | tr / _)"
done

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
args=(-max_total_time="$secs" -max_len="${MAX_LEN:-16384}" -timeout=10 -rss_limit_mb=4096
      -artifact_prefix="$out/" -print_final_stats=1)
if [ "$jobs" -gt 1 ]; then
  args+=(-jobs="$jobs" -workers="$jobs")
fi
exec "$out/parse_fuzz" "${args[@]}" "$out/corpus" "$out/seeds"
