// A gpu.func kernel (kernels.test): the interpreter runs it on the sim, and on cuda compiles
// its gpu.module to PTX with mlir-opt; the host prints what it wrote.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%out: memref<4xi32>) kernel {
      %tx = gpu.thread_id x
      %v = arith.index_cast %tx : index to i32
      memref.store %v, %out[%tx] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.launch_func async [%t1] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>)
    %h = memref.alloc() : memref<4xi32>
    %t3 = gpu.memcpy async [%t2] %h, %d : memref<4xi32>, memref<4xi32>
    %t4 = gpu.dealloc async [%t3] %d : memref<4xi32>
    gpu.wait [%t4]
    vector.print str "after the launch\n"
    %u = memref.cast %h : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<4xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
