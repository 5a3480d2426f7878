// A synchronous gpu.launch_func without dependencies stays as it is in the lowering, as MLIR 22
// leaves it (docs/design.md, "Synchronous forms"): --diff counts it converted, and finds the two
// forms the same.
// RUN: %gpuinterp --diff %s 2>&1 | count 0
// RUN: %gpuinterp --lower %s | FileCheck %s
// CHECK: gpu.launch_func @k::@fill blocks in
// CHECK-NOT: async
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%o: memref<64xf32>) kernel {
      %t = gpu.thread_id x
      %i = arith.index_cast %t : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %o[%t] : memref<64xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<64xf32>
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>)
    %h = memref.alloc() : memref<64xf32>
    gpu.memcpy %h, %out : memref<64xf32>, memref<64xf32>
    %s = memref.subview %h[60] [4] [1] : memref<64xf32> to memref<4xf32, strided<[1], offset: 60>>
    %u = memref.cast %s : memref<4xf32, strided<[1], offset: 60>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %out : memref<64xf32>
    memref.dealloc %h : memref<64xf32>
    return
  }
}
