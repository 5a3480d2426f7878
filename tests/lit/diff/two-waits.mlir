// One token consumed by two synchronous gpu.waits. MLIR 22 destroys the stream at the first and
// synchronizes the destroyed stream at the second (and leaves the synchronous dealloc
// unconverted); ours destroys it once, after the second. --diff names both of 22's faults.
// RUN: %mlir_opt --gpu-to-llvm -mlir-print-debuginfo %s -o %t.22.mlir
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --diff %s --against %t.22.mlir 2>&1 | FileCheck %s --check-prefix=MLIR22
// RUN: %gpuinterp --diff %s 2>&1 | count 0
// MLIR22-DAG: two-waits.mlir:[[@LINE+15]]:5: error: 'gpu.dealloc' op was left unconverted by the lowering
// MLIR22-DAG: two-waits.mlir:[[@LINE+13]]:5: error: the lowered program has a misuse the program does not have: use of a destroyed stream (created by 'llvm.call' @mgpuStreamCreate ([[@LINE+6]]:11), destroyed by 'llvm.call' @mgpuStreamDestroy ([[@LINE+10]]:5)) at mgpuStreamSynchronize
module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %v = arith.constant 3 : i32
    %h = memref.alloc() : memref<16xi32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<16xi32>
    %t2 = gpu.memset async [%t1] %d, %v : memref<16xi32>, i32
    %t3 = gpu.memcpy async [%t2] %h, %d : memref<16xi32>, memref<16xi32>
    gpu.wait [%t3]
    %x = memref.load %h[%c0] : memref<16xi32>
    vector.print %x : i32
    gpu.wait [%t3]
    gpu.dealloc %d : memref<16xi32>
    return
  }
}
