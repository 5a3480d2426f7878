// Vector values in kernels: each thread holds a vector<4xf32> (four words per thread); element
// ops, broadcasts and reductions run through their host implementations thread by thread.
// Thread x computes 2x^2 + 2x.
// RUN: %gpuinterp %s | FileCheck %s
// CHECK: [0,  4,  12,  24,  40,  60,  84,  112]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @v(%o: memref<8xf32>) kernel {
      %tx = gpu.thread_id x
      %x = arith.index_cast %tx : index to i32
      %f = arith.sitofp %x : i32 to f32
      %one = arith.constant 1.0 : f32
      %v = vector.from_elements %f, %one, %f, %one : vector<4xf32>
      %w = vector.broadcast %f : f32 to vector<4xf32>
      %p = arith.mulf %v, %w : vector<4xf32>
      %r = vector.reduction <add>, %p : vector<4xf32> into f32
      memref.store %r, %o[%tx] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %o = gpu.alloc host_shared () : memref<8xf32>
    gpu.launch_func @k::@v blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%o : memref<8xf32>)
    %u = memref.cast %o : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %o : memref<8xf32>
    return
  }
}
