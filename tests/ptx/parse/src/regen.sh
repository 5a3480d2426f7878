#!/usr/bin/env bash
# Remakes the PTX corpus of tests/ptx/parse/ from the sources here (README.md there).
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
MLIR_OPT=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
for f in vadd reduce warp atomics call half loop wmma; do
  "$NVCC" -ptx -arch=sm_90 "$f.cu" -o "../nvcc_sm90_$f.ptx"
done
"$NVCC" -ptx -arch=sm_90 -G vadd.cu -o ../nvcc_sm90_vadd_debug.ptx
"$NVCC" -ptx -arch=sm_90 -lineinfo loop.cu -o ../nvcc_sm90_loop_lineinfo.ptx
sed -i "s|\"$PWD/|\"|" ../nvcc_sm90_*.ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$MLIR_OPT" --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_50" mlir_kernels.mlir -o "$tmp/k50.mlir"
"$MLIR_OPT" --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_90 cubin-features=+ptx80" \
  mlir_kernels.mlir -o "$tmp/k90.mlir"
"$MLIR_OPT" --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_80 cubin-features=+ptx70" \
  mlir_calls.mlir -o "$tmp/c80.mlir"
./extract_ptx.py "$tmp/k50.mlir" > ../mlir_sm50_kernels.ptx
./extract_ptx.py "$tmp/k90.mlir" > ../mlir_sm90_kernels.ptx
./extract_ptx.py "$tmp/c80.mlir" > ../mlir_sm80_calls.ptx
