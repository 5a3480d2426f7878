// A lowering whose host waits for every memset (an mgpuStreamSynchronize after each, written by
// bench/gen_order.py --synced into our own lowering): from each synchronization the ops after
// it are walked while the program orders them after the memset by dependencies alone. The
// walks share their spans (the later synchronization's ops are ordered after the earlier
// memsets of the chain too), and each memset of the chain is still named with the one memset
// the program leaves concurrent with all of them. A chain alone loses nothing.
// RUN: %gpuinterp --lower %s -o %t.low.mlir
// RUN: %python %root/bench/gen_order.py --synced %t.low.mlir %t.sync.mlir syncs 0
// RUN: %gpuinterp --diff %s --against %t.sync.mlir 2>&1 | FileCheck %s
// RUN: %python %root/bench/gen_order.py syncs 50 -o %t.chain.mlir
// RUN: %gpuinterp --lower %t.chain.mlir -o %t.chain.low.mlir
// RUN: %python %root/bench/gen_order.py --synced %t.chain.low.mlir %t.chain.sync.mlir syncs 0
// RUN: %gpuinterp --diff %t.chain.mlir --against %t.chain.sync.mlir 2>&1 | count 0

// CHECK: syncs.mlir:[[#@LINE+15]]:8: warning: lost concurrency: the program lets 'gpu.memset' at {{.*}}syncs.mlir:[[#@LINE+11]]:9 and 'gpu.memset' here run concurrently, the lowering orders them: the host waits for the first in mgpuStreamSynchronize before it submits the second
// CHECK: syncs.mlir:[[#@LINE+14]]:8: warning: lost concurrency: the program lets 'gpu.memset' at {{.*}}syncs.mlir:[[#@LINE+11]]:9 and 'gpu.memset' here
// CHECK: syncs.mlir:[[#@LINE+13]]:8: warning: lost concurrency: the program lets 'gpu.memset' at {{.*}}syncs.mlir:[[#@LINE+11]]:9 and 'gpu.memset' here
// CHECK: syncs.mlir:[[#@LINE+12]]:8: warning: lost concurrency: the program lets 'gpu.memset' at {{.*}}syncs.mlir:[[#@LINE+11]]:9 and 'gpu.memset' here
// CHECK: gpuinterp: 4 warnings

func.func @main() {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %d, %t0 = gpu.alloc async () : memref<16xf32>
  %e, %u0 = gpu.alloc async () : memref<16xf32>
  %m1 = gpu.memset async [%t0] %d, %f0 : memref<16xf32>, f32
  %m2 = gpu.memset async [%m1] %d, %f1 : memref<16xf32>, f32
  %m3 = gpu.memset async [%m2] %d, %f0 : memref<16xf32>, f32
  %m4 = gpu.memset async [%m3] %d, %f1 : memref<16xf32>, f32
  %n = gpu.memset async [%u0] %e, %f1 : memref<16xf32>, f32
  %x = gpu.dealloc async [%m4] %d : memref<16xf32>
  %y = gpu.dealloc async [%n] %e : memref<16xf32>
  gpu.wait [%x, %y]
  return
}
