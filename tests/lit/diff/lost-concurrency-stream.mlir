// MLIR 22 puts every op whose tokens come from one gpu.wait async on that wait's stream, so two
// memsets the program leaves independent run one after the other: lost concurrency, a warning.
// RUN: %mlir_opt --gpu-to-llvm -mlir-print-debuginfo %s -o %t.ll.mlir
// RUN: %gpuinterp --diff %s --against %t.ll.mlir 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not %gpuinterp --diff %s --against %t.ll.mlir --diff-strict 2> /dev/null

// CHECK: lost-concurrency-stream.mlir:[[#@LINE+11]]:9: warning: lost concurrency: the program lets 'gpu.memset' at {{.*}}lost-concurrency-stream.mlir:[[#@LINE+7]]:9 and 'gpu.memset' here run concurrently, the lowering orders them: it put both on stream {{[0-9]+}}

func.func @main() {
  %f = arith.constant 2.0 : f32
  %h = memref.alloc() : memref<4xf32>
  %a = gpu.wait async
  %d, %t1 = gpu.alloc async [%a] () : memref<4xf32>
  %m1 = gpu.memset async [%t1] %d, %f : memref<4xf32>, f32
  %b = gpu.wait async [%m1]
  %c = gpu.memcpy async [%b] %h, %d : memref<4xf32>, memref<4xf32>
  %e, %t2 = gpu.alloc async [%a] () : memref<4xf32>
  %m2 = gpu.memset async [%t2] %e, %f : memref<4xf32>, f32
  gpu.wait [%c, %m2]
  memref.dealloc %h : memref<4xf32>
  return
}
