// A gpu.module that mlir-opt's NVVM pipeline cannot lower (an all_reduce with a region of its
// own is left for a pass it does not run): launch-module.test.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @sum(%out: memref<4xi32>) kernel {
      %tx = gpu.thread_id x
      %v = arith.index_cast %tx : index to i32
      %s = gpu.all_reduce %v {
      ^bb0(%a: i32, %b: i32):
        %r = arith.addi %a, %b : i32
        gpu.yield %r : i32
      } : (i32) -> (i32)
      memref.store %s, %out[%tx] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4xi32>
    gpu.launch_func @k::@sum blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>)
    gpu.dealloc %d : memref<4xi32>
    return
  }
}
