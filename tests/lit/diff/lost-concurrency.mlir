// Two independent memsets: a lowering that makes the host wait for the first before it submits
// the second loses concurrency, a warning (exit 0) unless --diff-strict makes it an error.
// RUN: %mlir_opt --gpu-to-llvm -mlir-print-debuginfo %s -o %t.ll.mlir
// RUN: %gpuinterp --diff %s --against %t.ll.mlir 2>&1 | count 0
// RUN: sed '0,/^\( *\)llvm.call @mgpuMemset32(\([^,]*\), \([^,]*\), \([^,]*\), \([^)]*\)).*loc(\(#loc[0-9]*\))$/s//&\n\1llvm.call @mgpuStreamSynchronize(\5) : (!llvm.ptr) -> () loc(\6)/' %t.ll.mlir > %t.sync.mlir
// RUN: %gpuinterp --diff %s --against %t.sync.mlir 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not %gpuinterp --diff %s --against %t.sync.mlir --diff-strict 2>&1 | FileCheck --check-prefix=STRICT %s

// CHECK: lost-concurrency.mlir:[[#@LINE+11]]:9: warning: lost concurrency: the program lets 'gpu.memset' at {{.*}}lost-concurrency.mlir:[[#@LINE+10]]:9 and 'gpu.memset' here run concurrently, the lowering orders them: the host waits for the first in mgpuStreamSynchronize before it submits the second
// CHECK: note: 'gpu.memset' is here
// STRICT: lost-concurrency.mlir:[[#@LINE+9]]:9: error: lost concurrency:

func.func @main() {
  %f = arith.constant 2.0 : f32
  %a = gpu.wait async
  %d, %t1 = gpu.alloc async [%a] () : memref<4xf32>
  %b = gpu.wait async
  %e, %t2 = gpu.alloc async [%b] () : memref<4xf32>
  %m1 = gpu.memset async [%t1] %d, %f : memref<4xf32>, f32
  %m2 = gpu.memset async [%t2] %e, %f : memref<4xf32>, f32
  %x1 = gpu.dealloc async [%m1] %d : memref<4xf32>
  %x2 = gpu.dealloc async [%m2] %e : memref<4xf32>
  gpu.wait [%x1, %x2]
  return
}
