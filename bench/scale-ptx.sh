#!/bin/sh
# bench/scale-ptx.sh [SCHED] - kernels as PTX (what upstream's NVPTX back end makes of a gpu.module)
# against the same kernels as gpu.func and against C: bench/kernels' vector add, matmul and tree
# reduction at three sizes (small, about 10x and 100x the work), both forms and the C peer in the
# same rounds, printing each one's median CPU time per launch and the ratios ptx / gpu.func
# (target: at most 1.5x), ptx / C and gpu.func / C (target: at most 3x). The PTX is made at bench
# time by mlir-opt 22 ($MLIR_OPT, default /usr/lib/llvm-22/bin/mlir-opt) with
#   mlir-opt -gpu-lower-to-nvvm-pipeline="cubin-format=isa" prog.mlir
# whose gpu.binary then takes the gpu.module's place in the program as written (the host part
# stays the same in both forms); without mlir-opt it says SKIPPED and exits 0. SCHED is the sim's
# scheduler (default serial). Builds build/bench/kernels first.
set -eu
cd "$(dirname "$0")/.."
ninja -C . build/bench/kernels >/dev/null
exec build/bench/kernels ptx "${1:-serial}"
