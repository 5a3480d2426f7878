#!/bin/sh
# run-corpus.sh — run roundtrip.sh over the whole corpus outside lit and
# print one line per file: PASS, or FAIL with the failing steps and the
# first message. Handy for a to-do list; lit gives the full diffs.
#
# usage: tests/corpus-tools/run-corpus.sh [GPUINTERP [MLIR_OPT]] [-- FILE...]
#   defaults: build/gpuinterp, /usr/lib/llvm-22/bin/mlir-opt, every
#   tests/lit/roundtrip/*.mlir.  ROUNDTRIP_STRICT=1 is passed through.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
G=$root/build/gpuinterp
O=/usr/lib/llvm-22/bin/mlir-opt
if [ $# -gt 0 ] && [ "$1" != -- ]; then G=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" != -- ]; then O=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = -- ] && shift
[ $# -gt 0 ] || set -- "$root"/tests/lit/roundtrip/*.mlir
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for f in "$@"; do
    name=${f#$root/}
    if "$here/roundtrip.sh" "$G" "$O" "$f" "$tmp/t" >"$tmp/log" 2>&1; then
        echo "PASS $name"
        pass=$((pass + 1))
    else
        steps=$(sed -n 's/^roundtrip: FAIL \[\([a-z-]*\)\].*/\1/p' "$tmp/log" | sort -u | tr '\n' ' ')
        first=$(grep -m1 -A1 '^roundtrip: FAIL' "$tmp/log" | tail -n 1 | cut -c1-200)
        echo "FAIL $name: [$steps] $first"
        fail=$((fail + 1))
    fi
done
echo "run-corpus: $pass passed, $fail failed"
[ $fail -eq 0 ]
