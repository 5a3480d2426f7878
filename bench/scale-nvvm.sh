#!/bin/sh
# bench/scale-nvvm.sh [SCHED] - kernels in llvm + nvvm form (what upstream's convert-gpu-to-nvvm
# makes of a gpu.module) against the same kernels as gpu.func: bench/kernels' vector add, matmul
# and tree reduction at three sizes (small, about 10x and 100x the work), both forms in the same
# rounds, printing each form's median CPU time per launch and the ratio nvvm / gpu.func (target:
# at most 1.5x). The nvvm forms are made at bench time by mlir-opt 22 ($MLIR_OPT, default
# /usr/lib/llvm-22/bin/mlir-opt) with
#   mlir-opt --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' prog.mlir
# SCHED is the sim's scheduler (default serial). Builds build/bench/kernels first.
set -eu
cd "$(dirname "$0")/.."
ninja -C . build/bench/kernels >/dev/null
exec build/bench/kernels nvvm "${1:-serial}"
