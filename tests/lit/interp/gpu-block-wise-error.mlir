// A kernel error in a launch of small blocks, which run several to a frame (gpu-block-wise.mlir),
// names the thread and block as a launch of one block per frame does: here thread 3 of block 13
// (of 20 blocks of 16 threads) stores past the end of its buffer.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// RUN: not %gpuinterp --sched=serial %s 2>&1 | FileCheck %s
// CHECK: gpu-block-wise-error.mlir:[[@LINE+15]]:9: error: 'memref.store' op out-of-bounds store: bytes [1280, 1284) of the memref: index 320 is not in [0, 320) in dimension 0 (thread (3, 0, 0) of block (13, 0, 0))
// CHECK-NOT: error:
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<320xf32>) kernel {
      %f = arith.constant 1.0 : f32
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %bad = arith.constant 211 : index
      %n = arith.constant 320 : index
      %oob = arith.cmpi eq, %i, %bad : index
      scf.if %oob {
        memref.store %f, %m[%n] : memref<320xf32>
      }
      memref.store %f, %m[%i] : memref<320xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c20 = arith.constant 20 : index
    %m = gpu.alloc () : memref<320xf32>
    gpu.launch_func @k::@fill blocks in (%c20, %c1, %c1) threads in (%c16, %c1, %c1) args(%m : memref<320xf32>)
    %t = gpu.wait async
    gpu.wait [%t]
    gpu.dealloc %m : memref<320xf32>
    return
  }
}
