// A gpu.module of two gpu.func kernels, launched three times by gpuinterp on the cuda backend
// (launch-module.test): compiled once by mlir-opt to PTX, loaded once, each launch packed as
// upstream's gpu-to-llvm packs it.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%out: memref<4xi32>) kernel {
      %tx = gpu.thread_id x
      %v = arith.index_cast %tx : index to i32
      memref.store %v, %out[%tx] : memref<4xi32>
      gpu.return
    }
    gpu.func @add(%out: memref<4xi32>, %x: i32) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %out[%tx] : memref<4xi32>
      %w = arith.addi %v, %x : i32
      memref.store %w, %out[%tx] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %x = arith.constant 10 : i32
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.launch_func async [%t1] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>)
    %t3 = gpu.launch_func async [%t2] @k::@add blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>, %x : i32)
    %t4 = gpu.launch_func async [%t3] @k::@add blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>, %x : i32)
    %h = memref.alloc() : memref<4xi32>
    %t5 = gpu.memcpy async [%t4] %h, %d : memref<4xi32>, memref<4xi32>
    %t6 = gpu.dealloc async [%t5] %d : memref<4xi32>
    gpu.wait [%t6]
    %u = memref.cast %h : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<4xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
