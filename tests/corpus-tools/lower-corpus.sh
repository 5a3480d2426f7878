#!/usr/bin/env bash
# lower-corpus.sh - our lowering over a corpus: every program that runs cleanly in its high-level
# form (exit 0, nothing on stderr, under --sched=serial) must lower (exit 0), parse in mlir-opt 22,
# and run lowered with the same output (addresses masked) and nothing on stderr: no misuse, no
# race, no leak. Programs that are not clean, or have no gpu host op, are skipped, as are those
# that carry a `lower-corpus: skip` comment saying why their forms differ.
#
#   tests/corpus-tools/lower-corpus.sh [FILE.mlir...]   (default: tests/lit/**/*.mlir, examples/)
#   GPUINTERP=build/asan/gpuinterp ...                  (default build/gpuinterp)
# Prints one line per failure and a summary; exits 1 on any failure.
set -u
cd "$(dirname "$0")/../.."
G=${GPUINTERP:-build/gpuinterp}
OPT=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
[ $# -gt 0 ] || set -- $(find tests/lit examples -name '*.mlir' -not -path '*/Output/*' | sort)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mask() { sed -E 's/0x[0-9a-f]+/ADDR/g' "$1"; }
n=0 skipped=0 failed=0
for f in "$@"; do
  grep -qE 'gpu\.(wait|memcpy|memset|alloc|dealloc|launch|launch_func|host_register)\b' "$f" || { skipped=$((skipped + 1)); continue; }
  grep -q 'llvm.call @mgpu' "$f" && { skipped=$((skipped + 1)); continue; }
  # a program that says why its lowering cannot run the same (a known difference between the forms)
  grep -q 'lower-corpus: skip' "$f" && { skipped=$((skipped + 1)); continue; }
  if ! timeout 60 "$G" --sched=serial "$f" > "$tmp/high.out" 2> "$tmp/high.err" || [ -s "$tmp/high.err" ]; then
    skipped=$((skipped + 1)); continue
  fi
  n=$((n + 1))
  if ! "$G" --lower "$f" -o "$tmp/low.mlir" 2> "$tmp/low.err"; then
    echo "FAIL $f: --lower: $(head -1 "$tmp/low.err")"; failed=$((failed + 1)); continue
  fi
  if ! "$OPT" "$tmp/low.mlir" > /dev/null 2> "$tmp/opt.err"; then
    echo "FAIL $f: mlir-opt rejects the lowered program: $(head -1 "$tmp/opt.err")"; failed=$((failed + 1)); continue
  fi
  for sched in serial random:3 threads; do
    timeout 60 "$G" --sched=$sched "$tmp/low.mlir" > "$tmp/low.out" 2> "$tmp/low.err"
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$tmp/low.err" ]; then
      echo "FAIL $f ($sched): lowered run exit $rc: $(head -1 "$tmp/low.err")"; failed=$((failed + 1)); break
    fi
    # device printf comes out when the kernel runs: under threads, concurrent blocks may interleave
    # differently, and under a random schedule a kernel may run before or after the host's prints
    # around its launch, so compare lines there
    if [ $sched = serial ]; then sort_=cat; else sort_=sort; fi
    if ! diff -q <(mask "$tmp/high.out" | $sort_) <(mask "$tmp/low.out" | $sort_) > /dev/null; then
      echo "FAIL $f ($sched): lowered output differs"; failed=$((failed + 1)); break
    fi
  done
done
echo "lowered $n clean programs ($skipped skipped): $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
