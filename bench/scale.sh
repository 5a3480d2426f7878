#!/usr/bin/env bash
# bench/scale.sh [quick] - every cost that must grow no faster than the work, at three sizes or
# more, each against a peer measured in the same run:
#   1. race checking on async DAG programs of 1k, 10k and 100k ops (bench/scale-race.sh), against
#      the same programs with --no-race-check, under serial and threads;
#   2. kernel launches of growing size against native C, the fixed cost per launch, and the threads
#      scheduler against serial (bench/scale-launch.sh);
#   3. kernels in llvm + nvvm form against the same kernels as gpu.func (bench/scale-nvvm.sh), and
#      as PTX against gpu.func and C (bench/scale-ptx.sh);
#   4. parse throughput and memory against mlir-opt at 1, 12 and 48 MB (bench/parse.sh);
#   5. the differential check (--diff) on async DAG programs of 1k, 10k and 100k ops against a
#      plain run and against the runs it makes (bench/scale-diff.sh).
# Each part prints its own figures and the ratios against its targets. `quick` runs each part
# with the fewest rounds (figures are then single runs, not medians) and skips instruction counts.
# The parts' own headers say what each figure is.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=${1:-}
ninja -C . build/gpuinterp >/dev/null
echo "== 1. race checking on async DAGs (bench/scale-race.sh) =="
if [ "$quick" = quick ]; then INSNS=0 bench/scale-race.sh 1; else bench/scale-race.sh; fi
echo
echo "== 2. kernel launches (bench/scale-launch.sh) =="
bench/scale-launch.sh $quick
echo
echo "== 3. llvm + nvvm kernels against gpu.func (bench/scale-nvvm.sh) =="
bench/scale-nvvm.sh
echo
echo "== 3b. PTX kernels against gpu.func and C (bench/scale-ptx.sh) =="
bench/scale-ptx.sh
echo
echo "== 4. parsing against mlir-opt (bench/parse.sh) =="
if [ "$quick" = quick ]; then bench/parse.sh 1; else bench/parse.sh; fi
echo
echo "== 5. the differential check on async DAGs (bench/scale-diff.sh) =="
if [ "$quick" = quick ]; then bench/scale-diff.sh 1; else bench/scale-diff.sh; fi
