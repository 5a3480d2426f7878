#!/usr/bin/env bash
# Fuzz the PTX front end (ptx/) with libFuzzer for SECONDS (default 60):
#   tests/fuzz/ptx_run.sh [SECONDS]
# Builds tests/fuzz/ptx_fuzz.c and ptx/*.c with clang -fsanitize=fuzzer,address,undefined into
# build/fuzz/, seeds build/fuzz/ptx-corpus from tests/ptx/**/*.ptx, and runs with a PTX token
# dictionary. A crash leaves build/fuzz/ptx-crash-<sha1> (reproduce: build/fuzz/ptx_fuzz FILE) and
# makes the script exit non-zero. Environment: JOBS (parallel processes, default 1), MAX_LEN (default 16384).
set -euo pipefail
cd "$(dirname "$0")/../.."

secs=${1:-60}
out=build/fuzz
jobs=${JOBS:-1}
mkdir -p "$out/ptx-corpus" "$out/ptx-seeds"
command -v clang >/dev/null || { echo "ptx_run.sh: needs clang (Debian: clang, libclang-rt-14-dev)" >&2; exit 2; }

flags="-std=c11 -D_GNU_SOURCE -I. -O1 -g -fno-omit-frame-pointer
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
# shellcheck disable=SC2086
clang $flags ptx/*.c tests/fuzz/ptx_fuzz.c -o "$out/ptx_fuzz"

shopt -s globstar nullglob
for f in tests/ptx/**/*.ptx; do
  cp "$f" "$out/ptx-seeds/$(echo "$f" | tr / _)"
done

# tokens the mutator should splice in whole
dict="$out/ptx.dict"
{
  for w in .version .target .address_size .entry .func .visible .extern .weak .param .reg .local .shared \
           .global .const .align .ptr .b8 .b32 .b64 .u32 .s32 .f32 .f64 .pred .v2 .v4 .loc .file .section \
           .pragma .maxntid .reqntid .noreturn .callprototype ld st mov add setp bra call ret %r %rd %p \
           %tid.x %ntid.x 0f3F800000 0d3FF0000000000000 '<' '>' '[' ']' '{' '}' '|' '!' '@' 'generic('; do
    printf '"%s"\n' "${w//\"/\\\"}"
  done
} > "$dict"

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
args=(-max_total_time="$secs" -max_len="${MAX_LEN:-16384}" -timeout=10 -rss_limit_mb=4096
      -dict="$dict" -artifact_prefix="$out/ptx-" -print_final_stats=1)
if [ "$jobs" -gt 1 ]; then
  args+=(-jobs="$jobs" -workers="$jobs")
fi
exec "$out/ptx_fuzz" "${args[@]}" "$out/ptx-corpus" "$out/ptx-seeds"
