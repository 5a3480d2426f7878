// A program and mlir-opt's lowering of it agree: nothing on stdout, nothing on stderr, exit 0,
// whether the lowered file names the program by a relative or an absolute path.
// RUN: %mlir_opt --gpu-to-llvm -mlir-print-debuginfo %root/examples/copy.mlir -o %t.abs.mlir
// RUN: %gpuinterp --diff %root/examples/copy.mlir --against %t.abs.mlir > %t.out 2> %t.err
// RUN: count 0 < %t.out
// RUN: count 0 < %t.err
// RUN: cd %root && %mlir_opt --gpu-to-llvm -mlir-print-debuginfo examples/copy.mlir -o %t.rel.mlir
// RUN: FileCheck --check-prefix=REL %s < %t.rel.mlir
// REL: loc("examples/copy.mlir":
// RUN: %gpuinterp --diff %root/examples/copy.mlir --against=%t.rel.mlir --seeds 2 2>&1 | count 0
// RUN: cd %root && %gpuinterp --diff examples/copy.mlir --against=%t.abs.mlir --seeds=0 2>&1 | count 0

// --trace writes both witness runs' traces, named after FILE.
// RUN: rm -f %t.trace.*
// RUN: %gpuinterp --diff %root/examples/copy.mlir --against %t.abs.mlir --seeds 0 --trace=%t.trace.txt
// RUN: FileCheck --check-prefix=HIGH %s < %t.trace.high.txt
// RUN: FileCheck --check-prefix=LOW %s < %t.trace.lowered.txt
// HIGH: call gpu.memcpy at {{.*}}copy.mlir:20:11: 16 bytes to b3 from b1 after op 2 -> op 3
// HIGH: chain 1:
// HIGH-NEXT: start op 1 gpu.wait
// LOW: call llvm.call @mgpuMemcpy at {{.*}}copy.mlir:20:11
