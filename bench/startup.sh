#!/bin/sh
# bench/startup.sh [RUNS] - end-to-end start-up on small programs: `build/gpuinterp prog.mlir`
# against upstream's `mlir-opt <lowering> prog.mlir | mlir-runner ... --shared-libs=...,
# build/libmgpusim.so` on the same program, median wall time of RUNS runs (default 7) each, runs
# alternating. The comparison uses examples/copy.mlir, a copy-only program: upstream can only
# lower kernels for a real GPU (gpu-module-to-binary needs a GPU toolchain), so
# bench/startup-kernel.mlir, a small kernel program, is timed with gpuinterp alone.
# Target: gpuinterp at least 20x faster. Needs build/gpuinterp and build/libmgpusim.so (ninja).
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-7}
LLVM=${LLVM:-/usr/lib/llvm-22}
OPT="$LLVM/bin/mlir-opt"
RUNNER="$LLVM/bin/mlir-runner"
LIBS="$LLVM/lib/libmlir_runner_utils.so.22.1,$LLVM/lib/libmlir_c_runner_utils.so.22.1,build/libmgpusim.so"
LOWER="--convert-scf-to-cf --gpu-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm"
LOWER="$LOWER --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts"
COPY=examples/copy.mlir
KERNEL=bench/startup-kernel.mlir
for f in build/gpuinterp build/libmgpusim.so "$OPT" "$RUNNER"; do
  [ -e "$f" ] || { echo "bench/startup.sh: $f is missing (ninja builds ours)" >&2; exit 1; }
done

ours() { build/gpuinterp "$1" > /dev/null; }
upstream() { "$OPT" $LOWER "$1" | "$RUNNER" -e main -entry-point-result=void --shared-libs="$LIBS" > /dev/null; }

# wall milliseconds of one run of "$@"
ms() {
  t0=$(date +%s%N)
  "$@"
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000 ))
}

median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] / 1000 }'; }

# both print the same before anything is timed
a=$(build/gpuinterp "$COPY" | sed 's/base@ = 0x[0-9a-f]*//')
b=$("$OPT" $LOWER "$COPY" | "$RUNNER" -e main -entry-point-result=void --shared-libs="$LIBS" | sed 's/base@ = 0x[0-9a-f]*//')
[ "$a" = "$b" ] || { echo "bench/startup.sh: outputs differ on $COPY" >&2; exit 1; }
build/gpuinterp "$KERNEL" > /dev/null

o=; u=; k=
i=0
while [ $i -lt "$RUNS" ]; do
  o="$o $(ms ours "$COPY")"
  u="$u $(ms upstream "$COPY")"
  k="$k $(ms ours "$KERNEL")"
  i=$((i + 1))
done
mo=$(echo $o | tr ' ' '\n' | median)
mu=$(echo $u | tr ' ' '\n' | median)
mk=$(echo $k | tr ' ' '\n' | median)
echo "bench/startup.sh: median wall time of $RUNS runs"
echo "  $COPY   gpuinterp:            ${mo} ms"
echo "  $COPY   mlir-opt | mlir-runner: ${mu} ms   (mlir-opt $LOWER)"
echo "  $KERNEL   gpuinterp:      ${mk} ms   (upstream cannot lower kernels without a GPU)"
awk -v o="$mo" -v u="$mu" 'BEGIN { printf "  gpuinterp is %.1fx faster on %s (target: >= 20x)\n", u / o, "'"$COPY"'" }'
